import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Divider,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import {
  contentKinds,
  documentCreateSchema,
  documentUpdateSchema,
  estimateCreateSchema,
  estimateUpdateSchema,
  invoiceCreateSchema,
  invoiceUpdateSchema,
  reportCreateSchema,
  reportUpdateSchema,
  type ContentContact,
  type ContentItem,
  type ContentKind,
} from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { useSearchParams } from 'react-router';
import { pathOf } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatDate, formatEuro, formatFileSize } from '../../../../lib/format';
import { todayInPortal } from '../../../../lib/zone-days';
import { FileUpload, useFileUploads, type UploadItem } from '../../../../ui/file-upload';
import { ListEmpty, ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { useContentItems, useRemoveContentItem, useSaveContentItem } from '../api/content';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { CompanyPicker, ContactPicker, useContacts } from './pickers';
import { PublicFilesPanel } from './public-files-panel';
import { TableScroll } from '../table-scroll';
import { ConfirmRemove } from '../confirm-remove';
import { atFormFields, requiredOrInvalid, validateWith } from '../components/contract-form';

/** The fields of one file to file, whatever its kind (each kind sends the ones it has). */
interface Draft {
  kind: ContentKind;
  title: string;
  /** Estimates: their number. */
  number: string;
  date: string;
  total: number | '';
  contactId: number | null;
  taskId: number | '';
}

const baseName = (name: string) => name.replace(/\.[^.]+$/, '');

/** The create or update body of a kind from the draft (the import format's field names). */
function bodyOf(d: Draft, companyId: number, file?: { uploadId: number }) {
  const total = d.total === '' ? 0 : d.total;
  switch (d.kind) {
    case 'invoice':
      return {
        companyId,
        documentNumber: d.title,
        total,
        invoiceDate: d.date,
        ...(file ? { document: file } : {}),
      };
    case 'estimate':
      return {
        companyId,
        estimateName: d.title,
        estimateNumber: d.number || d.title,
        total,
        estimateCreationDate: d.date,
        ...(file ? { document: file } : {}),
      };
    case 'document':
      return {
        companyId,
        contactId: d.contactId,
        documentName: d.title,
        createDate: d.date,
        ...(file ? { file } : {}),
      };
    case 'report':
      return {
        companyId,
        name: d.title,
        dateTime: d.date,
        taskId: d.taskId === '' ? null : d.taskId,
        ...(file ? { document: file } : {}),
      };
  }
}

/** Each kind's create and update schemas: the server's rules for that kind's body. */
const SCHEMAS = {
  invoice: { create: invoiceCreateSchema, update: invoiceUpdateSchema },
  estimate: { create: estimateCreateSchema, update: estimateUpdateSchema },
  document: { create: documentCreateSchema, update: documentUpdateSchema },
  report: { create: reportCreateSchema, update: reportUpdateSchema },
} as const;

/** Where a field of a kind's body is in the draft. */
const DRAFT_FIELD: Record<string, keyof Draft> = {
  documentNumber: 'title',
  estimateName: 'title',
  documentName: 'title',
  name: 'title',
  estimateNumber: 'number',
  invoiceDate: 'date',
  estimateCreationDate: 'date',
  createDate: 'date',
  dateTime: 'date',
  total: 'total',
  contactId: 'contactId',
  taskId: 'taskId',
};

/**
 * A draft's form: its body (`toBody`) is checked with its kind's schema, create or update, and a field
 * the schema refuses is said at the draft's field (a document without its contact in words of its own).
 */
function useDraftForm(initialValues: Draft, schema: 'create' | 'update', toBody: (d: Draft) => unknown) {
  const { t } = useStaffT();
  const say = requiredOrInvalid(t);
  const sayOf = (field: string, body: unknown) =>
    field === 'contactId' ? t('content.needContact') : say(field, body);
  const form = useForm<Draft>({
    initialValues,
    validate: (d) =>
      atFormFields(validateWith(SCHEMAS[d.kind][schema], toBody, sayOf)(d), (field) => DRAFT_FIELD[field]),
  });
  return form;
}

/**
 * Content (issue 14 item 2): pick a company, drop several files at once (each with its progress), give
 * each its kind and fields, and file it; the company's invoices, estimates, documents and activity
 * reports are listed with edit and remove. Below, the portal's public files (`PublicFilesPanel`).
 */
export default function DocumentsPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  usePageTitle(t('admin.sections.documents'));
  // The company and the kind listed are in the URL, so a view can be linked and reloaded.
  const [params, setParams] = useSearchParams();
  const companyParam = Number(params.get('company'));
  const companyId = Number.isSafeInteger(companyParam) && params.get('company') ? companyParam : null;
  const kindParam = params.get('kind') as ContentKind | null;
  const listKind: ContentKind = kindParam && contentKinds.includes(kindParam) ? kindParam : 'invoice';
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const setCompanyId = (id: number | null) => setParam('company', id === null ? null : String(id));
  const setListKind = (kind: ContentKind) => setParam('kind', kind);
  const contacts = useContacts(companyId);
  const uploads = useFileUploads(pathOf(staffDeskRoutes.upload, { company }));

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.documents')}
      </Title>
      <CompanyPicker
        value={companyId}
        onChange={(id) => {
          setCompanyId(id);
          uploads.clear();
        }}
      />
      {companyId === null ? (
        <Text c="dimmed">{t('content.pickCompanyFirst')}</Text>
      ) : (
        <>
          <FileUpload uploads={uploads} label={t('content.dropFiles')} />
          {uploads.items
            .filter((it) => it.status === 'done')
            .map((it) => (
              <NewItemForm
                key={it.key}
                item={it}
                companyId={companyId}
                contacts={contacts.data ?? []}
                onFiled={(kind) => {
                  uploads.remove(it.key);
                  setListKind(kind);
                }}
              />
            ))}
          <Title order={2} size="h3">
            {t('content.listTitle')}
          </Title>
          <SegmentedControl
            value={listKind}
            onChange={(v) => setListKind(v as ContentKind)}
            data={contentKinds.map((k) => ({ value: k, label: t(`content.kinds.${k}`) }))}
            aria-label={t('content.kind')}
            style={{ alignSelf: 'start', maxWidth: '100%', overflowX: 'auto' }}
          />
          <ItemList companyId={companyId} kind={listKind} contacts={contacts.data ?? []} />
        </>
      )}
      <Divider my="sm" />
      <PublicFilesPanel />
    </Stack>
  );
}

function DraftFields({
  draft,
  set,
  errors,
  contacts,
  withKind,
}: {
  draft: Draft;
  set: (change: Partial<Draft>) => void;
  errors: FormErrors;
  contacts: ContentContact[];
  withKind: boolean;
}) {
  const { t } = useStaffT();
  return (
    <Group align="end" gap="sm" wrap="wrap">
      {withKind && (
        <NativeSelect
          label={t('content.kind')}
          value={draft.kind}
          onChange={(e) => set({ kind: e.currentTarget.value as ContentKind })}
          data={contentKinds.map((k) => ({ value: k, label: t(`content.kinds.${k}`) }))}
        />
      )}
      <TextInput
        label={t(`content.titleOf.${draft.kind}`)}
        value={draft.title}
        onChange={(e) => set({ title: e.currentTarget.value })}
        error={errors.title}
        maxLength={500}
        required
      />
      {draft.kind === 'estimate' && (
        <TextInput
          label={t('content.estimateNumber')}
          value={draft.number}
          onChange={(e) => set({ number: e.currentTarget.value })}
          error={errors.number}
          maxLength={100}
        />
      )}
      <TextInput
        type="date"
        label={t('content.date')}
        value={draft.date}
        onChange={(e) => set({ date: e.currentTarget.value })}
        error={errors.date}
        required
      />
      {(draft.kind === 'invoice' || draft.kind === 'estimate') && (
        <NumberInput
          label={t('content.total')}
          value={draft.total}
          onChange={(v) => set({ total: typeof v === 'number' ? v : '' })}
          error={errors.total}
          decimalScale={2}
          w={140}
          required
        />
      )}
      {draft.kind === 'document' && (
        <ContactPicker
          label={t('content.contact')}
          contacts={contacts}
          value={draft.contactId}
          onChange={(contactId) => set({ contactId })}
          error={errors.contactId}
        />
      )}
      {draft.kind === 'report' && (
        <NumberInput
          label={t('content.ticket')}
          value={draft.taskId}
          onChange={(v) => set({ taskId: typeof v === 'number' ? v : '' })}
          error={errors.taskId}
          allowDecimal={false}
          min={1}
          w={140}
        />
      )}
    </Group>
  );
}

function NewItemForm({
  item,
  companyId,
  contacts,
  onFiled,
}: {
  item: UploadItem;
  companyId: number;
  contacts: ContentContact[];
  onFiled: (kind: ContentKind) => void;
}) {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const save = useSaveContentItem(company);
  const file = { uploadId: item.result!.id };
  const form = useDraftForm(
    {
      kind: 'invoice',
      title: baseName(item.name),
      number: '',
      date: todayInPortal(),
      total: '',
      contactId: null,
      taskId: '',
    },
    'create',
    (d) => bodyOf(d, companyId, file),
  );
  const draft = form.getValues();
  const submit = form.onSubmit((d) =>
    save.mutate({ kind: d.kind, body: bodyOf(d, companyId, file) }, { onSuccess: () => onFiled(d.kind) }),
  );
  return (
    <Card withBorder padding="sm" component="section" aria-label={item.name}>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {item.name}{' '}
          <Text span c="dimmed" size="xs">
            {formatFileSize(item.size, i18n.language)}
          </Text>
        </Text>
        <DraftFields
          draft={draft}
          set={(change) => {
            // Another kind checks other fields: what the last check said goes.
            if (change.kind) form.clearErrors();
            form.setValues(change);
          }}
          errors={form.errors}
          contacts={contacts}
          withKind
        />
        {save.isError && (
          <Alert color="red" role="alert" p="xs">
            {errorText(save.error, t)}
          </Alert>
        )}
        <Button onClick={() => submit()} loading={save.isPending} w="fit-content">
          {t('content.file')}
        </Button>
      </Stack>
    </Card>
  );
}

function ItemList({
  companyId,
  kind,
  contacts,
}: {
  companyId: number;
  kind: ContentKind;
  contacts: ContentContact[];
}) {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const [editing, setEditing] = useState<ContentItem | null>(null);
  const [removing, setRemoving] = useState<ContentItem | null>(null);
  const query = useContentItems(company, companyId, kind);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const contactName = (id: number | null) => contacts.find((c) => c.contactId === id)?.referentName ?? '';
  if (query.isPending) return <ListLoading />;
  if (query.isError)
    return <ListError onRetry={() => void query.refetch()} message={errorText(query.error, t)} />;
  return (
    <>
      {items.length === 0 ? (
        <ListEmpty text={t('content.empty')} />
      ) : (
        <TableScroll minWidth={560}>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t(`content.titleOf.${kind}`)}</Table.Th>
                <Table.Th>{t('content.date')}</Table.Th>
                <Table.Th>
                  {kind === 'document'
                    ? t('content.contact')
                    : kind === 'report'
                      ? t('content.ticket')
                      : t('content.total')}
                </Table.Th>
                <Table.Th>{t('content.fileName')}</Table.Th>
                {/* Positioned: the hidden text stays inside the table's scroll region on a phone. */}
                <Table.Th pos="relative">
                  <VisuallyHidden>{t('content.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((it) => (
                <Table.Tr key={it.id}>
                  <Table.Td>{it.title}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(it.date)}</Table.Td>
                  <Table.Td>
                    {kind === 'document'
                      ? contactName(it.contactId)
                      : kind === 'report'
                        ? (it.taskId ?? '')
                        : it.total === null
                          ? ''
                          : formatEuro(it.total, i18n.language)}
                  </Table.Td>
                  <Table.Td>{it.file.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconPencil size={14} aria-hidden />}
                        onClick={() => setEditing(it)}
                        aria-label={t('content.editOf', { name: it.title })}
                      >
                        {t('content.edit')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        onClick={() => setRemoving(it)}
                        aria-label={t('content.removeOf', { name: it.title })}
                      >
                        {t('content.remove')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      {query.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('content.more')}
        </Button>
      )}
      {editing && (
        <EditModal
          item={editing}
          companyId={companyId}
          contacts={contacts}
          onClose={() => setEditing(null)}
        />
      )}
      {removing && <RemoveModal item={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}

function EditModal({
  item,
  companyId,
  contacts,
  onClose,
}: {
  item: ContentItem;
  companyId: number;
  contacts: ContentContact[];
  onClose: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const save = useSaveContentItem(company);
  const bodyOfEdit = (d: Draft) => {
    const body: Record<string, unknown> = bodyOf(d, companyId);
    // An estimate's number is not in the list: kept unless typed.
    if (item.kind === 'estimate' && !d.number) delete body.estimateNumber;
    return body;
  };
  const form = useDraftForm(
    {
      kind: item.kind,
      title: item.title,
      number: '',
      // The day in the portal's zone (the list's date is that day's midnight there).
      date: formatDate(item.date).split('/').reverse().join('-'),
      total: item.total ?? '',
      contactId: item.contactId,
      taskId: item.taskId ?? '',
    },
    'update',
    bodyOfEdit,
  );
  const submit = form.onSubmit((d) =>
    save.mutate({ kind: item.kind, body: bodyOfEdit(d), id: item.id }, { onSuccess: onClose }),
  );
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('close') }}
      title={t('content.editOf', { name: item.title })}
    >
      <Stack gap="sm">
        <DraftFields
          draft={form.getValues()}
          set={(change) => form.setValues(change)}
          errors={form.errors}
          contacts={contacts}
          withKind={false}
        />
        {save.isError && (
          <Alert color="red" role="alert" p="xs">
            {errorText(save.error, t)}
          </Alert>
        )}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {t('content.cancel')}
          </Button>
          <Button onClick={() => submit()} loading={save.isPending}>
            {t('content.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RemoveModal({ item, onClose }: { item: ContentItem; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const removeItem = useRemoveContentItem(company);
  return (
    <ConfirmRemove
      title={t('content.removeOf', { name: item.title })}
      text={t('content.removeConfirm', { name: item.title })}
      action={t('content.remove')}
      cancel={t('content.cancel')}
      onClose={onClose}
      remove={() => removeItem(item.kind, item.id)}
    />
  );
}
