import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { serviceContractCreateSchema, type ServiceContractEntity } from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { pathOf } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { portalDayOf, todayInPortal } from '../../../../lib/zone-days';
import { FileUpload, useFileUploads } from '../../../../ui/file-upload';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import {
  useRemoveServiceContract,
  useSaveServiceContract,
  useServiceContracts,
} from '../api/service-contracts';
import { useAdminSettings } from '../api/settings';
import { useTags } from '../api/tags';
import { useAdminWiki } from '../api/wiki';
import { ActivityRow, newActivity, type ActivityForm } from '../components/activity-row';
import { AdminListEditor } from '../components/admin-list-editor';
import { requiredOrInvalid, saveWhenValid, validateWith } from '../components/contract-form';

const baseName = (name: string) => name.replace(/\.[^.]+$/, '');

type Package = ServiceContractEntity['packages'][number];
type PackageForm = Omit<Package, 'activities'> & { activities: ActivityForm[] };
type ServiceForm = Omit<ServiceContractEntity, 'id' | 'companyId' | 'documents' | 'packages'> & {
  /** The stored documents, each kept with its file (by id) or dropped; new ones come from uploads. */
  documents: { id: number; documentName: string }[];
  packages: PackageForm[];
  /** The names typed for the uploaded documents, by upload (not typed: the file's name). */
  added: Record<string, string>;
};

const nextId = (list: { id: number }[]) => Math.max(0, ...list.map((x) => x.id)) + 1;

/**
 * A company's service contracts with their packages (issue 14 item 2): list, create, edit, delete
 * through the entity routes (`…/admin/service-contracts`); tags of the portal and wiki elements of the
 * company are picked by name; documents are dropped as files (each uploads with its progress and is
 * sent by `{uploadId}`), renamed or removed.
 */
export function ServiceContractsPanel({ companyId }: { companyId: number }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const removeContract = useRemoveServiceContract(company, companyId);
  // The customers' menu shows service contracts only while the portal's switch is on (the same query
  // as Branding and settings, so a change there shows here at once).
  const settings = useAdminSettings(company);
  return (
    <AdminListEditor
      title={t('catalog.service.title')}
      newLabel={t('catalog.service.new')}
      before={
        settings.data &&
        !settings.data.enableServiceContracts && (
          <Alert color="yellow" variant="light" p="xs">
            {t('catalog.service.switchOff')}
          </Alert>
        )
      }
      query={useServiceContracts(company, companyId)}
      rows={(data) => data.items}
      rowKey={(c) => c.id}
      minWidth={620}
      empty={t('catalog.service.empty')}
      columns={[
        { header: t('catalog.contracts.name'), cell: (c) => c.name },
        {
          header: t('catalog.service.status'),
          cell: (c) => (
            <Badge variant="outline" color={c.status === 1 ? 'teal.9' : 'gray.7'} size="sm" miw="max-content">
              {t(`catalog.service.statuses.${c.status}`)}
            </Badge>
          ),
        },
        { header: t('catalog.service.activeFrom'), cell: (c) => formatDate(c.activeFrom) },
        { header: t('catalog.service.activeTo'), cell: (c) => (c.activeTo ? formatDate(c.activeTo) : '—') },
        {
          header: t('catalog.service.packages'),
          cell: (c) => c.packages.map((p) => p.name).join(', ') || '—',
        },
        {
          // Positioned: the hidden text stays inside the table's scroll region on a phone.
          header: <VisuallyHidden>{t('content.actions')}</VisuallyHidden>,
          th: { pos: 'relative' },
          cell: (c, act) => (
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                onClick={act.edit}
                aria-label={t('content.editOf', { name: c.name })}
              >
                {t('catalog.contracts.edit')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={act.remove}
                aria-label={t('catalog.service.deleteOf', { name: c.name })}
              >
                {t('catalog.contracts.delete')}
              </Button>
            </Group>
          ),
        },
      ]}
      editor={(contract, done) => (
        <ServiceContractEditor companyId={companyId} contract={contract} onDone={done} />
      )}
      removal={{
        title: (c) => t('catalog.service.deleteOf', { name: c.name }),
        text: (c) => t('catalog.service.removeConfirm', { name: c.name }),
        action: t('catalog.contracts.delete'),
        cancel: t('catalog.cancel'),
        remove: (c) => removeContract(c.id),
      }}
    />
  );
}

function ServiceContractEditor({
  companyId,
  contract,
  onDone,
}: {
  companyId: number;
  contract: ServiceContractEntity | null;
  onDone: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  // The portal's tags (the customers' own tags call) and the company's wiki elements, to pick by name.
  const tags = useTags(company);
  const wiki = useAdminWiki(company, companyId);
  // New documents: files dropped here, each named before saving (by default after its file).
  const uploads = useFileUploads(pathOf(staffDeskRoutes.upload, { company }));
  const uploaded = uploads.items.filter((it) => it.status === 'done' && it.result);
  /** The body: the stored documents kept, then the uploads (a blank name: the file's). */
  const bodyOf = ({ added, ...v }: ServiceForm) => {
    const first = nextId(v.documents);
    const news = uploaded.map((it, i) => ({
      id: first + i,
      documentName: (added[it.key] ?? baseName(it.name)).trim() || it.name,
      file: { uploadId: it.result!.id },
    }));
    return { ...v, activeTo: v.activeTo || null, documents: [...v.documents, ...news] };
  };
  const form = useForm<ServiceForm>({
    initialValues: contract
      ? {
          name: contract.name,
          status: contract.status,
          activeFrom: portalDayOf(contract.activeFrom),
          activeTo: portalDayOf(contract.activeTo) || null,
          tagIds: contract.tagIds,
          wikiElementIds: contract.wikiElementIds,
          documents: contract.documents.map(({ id, documentName }) => ({ id, documentName })),
          packages: contract.packages.map((p) => ({
            ...p,
            activities: p.activities.map(({ reportFileId: _r, ...a }) => ({
              ...a,
              start: portalDayOf(a.start),
            })),
          })),
          added: {},
        }
      : {
          name: '',
          status: 1,
          activeFrom: todayInPortal(),
          activeTo: null,
          tagIds: [],
          wikiElementIds: [],
          documents: [],
          packages: [],
          added: {},
        },
    // The create body's rules (names, days; each package's and activity's), as the server's.
    validate: validateWith(
      serviceContractCreateSchema,
      (v) => ({ ...bodyOf(v), companyId }),
      requiredOrInvalid(t),
      /^(name|activeFrom|activeTo|documents\.\d+\.documentName|packages\.\d+\.(name|activities\.\d+\.(activityTypeName|start|durationMinutes|units)))$/,
    ),
  });
  const values = form.getValues();
  const save = useSaveServiceContract(company, companyId, contract?.id ?? null);
  return (
    <EditorCard
      title={contract ? contract.name : t('catalog.service.new')}
      onSave={saveWhenValid(form, (v) => save.mutate(bodyOf(v), { onSuccess: onDone }))}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
      saveDisabled={uploads.isUploading}
    >
      <TextInput
        label={t('catalog.contracts.name')}
        required
        maxLength={500}
        {...form.getInputProps('name')}
      />
      <Group grow align="start" wrap="wrap">
        <NativeSelect
          label={t('catalog.service.status')}
          value={String(values.status)}
          onChange={(e) => form.setFieldValue('status', e.currentTarget.value === '4' ? 4 : 1)}
          data={[
            { value: '1', label: t('catalog.service.statuses.1') },
            { value: '4', label: t('catalog.service.statuses.4') },
          ]}
          miw={130}
        />
        <TextInput
          type="date"
          label={t('catalog.service.activeFrom')}
          required
          {...form.getInputProps('activeFrom')}
          miw={150}
        />
        <TextInput
          type="date"
          label={t('catalog.service.activeTo')}
          value={values.activeTo ?? ''}
          onChange={(e) => form.setFieldValue('activeTo', e.currentTarget.value || null)}
          error={form.errors.activeTo}
          miw={150}
        />
      </Group>
      <Group grow align="start" wrap="wrap">
        <MultiSelect
          label={t('catalog.service.tags')}
          data={(tags.data ?? []).map((tag) => ({
            value: String(tag.id),
            label: tag.tagGroupName ? `${tag.tagGroupName}: ${tag.name}` : tag.name,
          }))}
          value={(values.tagIds ?? []).map(String)}
          onChange={(v) => form.setFieldValue('tagIds', v.map(Number))}
          searchable
          miw={200}
        />
        <MultiSelect
          label={t('catalog.service.wikiElements')}
          data={(wiki.data?.elements ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
          value={(values.wikiElementIds ?? []).map(String)}
          onChange={(v) => form.setFieldValue('wikiElementIds', v.map(Number))}
          searchable
          miw={200}
        />
      </Group>
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {t('catalog.service.documents')}
        </Text>
        {values.documents.map((d, i) => (
          <Group key={d.id} gap="xs" align="end" wrap="nowrap">
            <TextInput
              label={t('catalog.service.documentName')}
              required
              maxLength={500}
              {...form.getInputProps(`documents.${i}.documentName`)}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mb={4}
              aria-label={t('catalog.service.removeDocument', { name: d.documentName })}
              onClick={() => form.removeListItem('documents', i)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <FileUpload uploads={uploads} label={t('catalog.service.dropDocuments')} />
        {uploaded.map((it) => (
          <TextInput
            key={it.key}
            label={t('catalog.service.newDocumentName', { name: it.name })}
            required
            maxLength={500}
            value={values.added[it.key] ?? baseName(it.name)}
            onChange={(e) =>
              form.setFieldValue('added', { ...values.added, [it.key]: e.currentTarget.value })
            }
          />
        ))}
      </Stack>
      <Text fw={600} size="sm">
        {t('catalog.service.packages')}
      </Text>
      {values.packages.map((p, i) => (
        <PackageFields
          key={p.id}
          value={p}
          onChange={(patch) => form.setFieldValue(`packages.${i}`, { ...p, ...patch })}
          onRemove={() => form.removeListItem('packages', i)}
          error={(field) => form.errors[`packages.${i}.${field}`] as string | undefined}
          defaultDay={values.activeFrom}
        />
      ))}
      <Button
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() =>
          form.insertListItem('packages', {
            id: nextId(values.packages),
            name: '',
            unitsText: '',
            residualText: '',
            activities: [],
          })
        }
      >
        {t('catalog.service.addPackage')}
      </Button>
    </EditorCard>
  );
}

/** One package: its name, what it holds and what is left (as the customer reads them), its activities. */
function PackageFields({
  value: p,
  onChange,
  onRemove,
  error,
  defaultDay,
}: {
  value: PackageForm;
  onChange: (patch: Partial<PackageForm>) => void;
  onRemove: () => void;
  /** The form's error at a path inside the package (`name`, `activities.0.start`). */
  error: (path: string) => string | undefined;
  defaultDay: string;
}) {
  const { t } = useStaffT();
  return (
    <Card withBorder padding="sm" role="group" aria-label={p.name || t('catalog.service.package')}>
      <Stack gap="xs">
        <Group gap="xs" align="end" wrap="wrap">
          <TextInput
            label={t('catalog.service.packageName')}
            required
            maxLength={500}
            value={p.name}
            onChange={(e) => onChange({ name: e.currentTarget.value })}
            error={error('name')}
            miw={180}
            style={{ flex: 2 }}
          />
          <TextInput
            label={t('catalog.service.unitsText')}
            maxLength={500}
            value={p.unitsText}
            onChange={(e) => onChange({ unitsText: e.currentTarget.value })}
            miw={140}
            style={{ flex: 1 }}
          />
          <TextInput
            label={t('catalog.service.residualText')}
            maxLength={500}
            value={p.residualText}
            onChange={(e) => onChange({ residualText: e.currentTarget.value })}
            miw={140}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mb={4}
            aria-label={t('catalog.service.removePackage', { name: p.name })}
            onClick={onRemove}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
        {p.activities.map((a, i) => (
          <ActivityRow
            key={a.id}
            activity={a}
            amounts="both"
            indent
            onChange={(patch) =>
              onChange({ activities: p.activities.map((x, j) => (j === i ? { ...x, ...patch } : x)) })
            }
            onRemove={() => onChange({ activities: p.activities.filter((_, j) => j !== i) })}
            error={(field) => error(`activities.${i}.${field}`)}
          />
        ))}
        <Button
          variant="subtle"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() =>
            onChange({ activities: [...p.activities, newActivity(p.activities, defaultDay, 1, 0)] })
          }
        >
          {t('catalog.contracts.addActivity')}
        </Button>
      </Stack>
    </Card>
  );
}
