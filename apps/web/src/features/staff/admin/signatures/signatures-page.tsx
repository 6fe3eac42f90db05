import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Timeline,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import {
  signatureMethods,
  signatureRequestCreateSchema,
  signatureStatuses,
  type SignatureRequestEntity,
  type SignatureStatus,
} from '@sportello/contracts';
import { signatureStaffRoutes, staffDeskRoutes } from '@sportello/contracts/route-refs';
import { useSearchParams } from 'react-router';
import { downloadFrom, pathOf } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatDate, formatDateTime } from '../../../../lib/format';
import { FileUpload, useFileUploads } from '../../../../ui/file-upload';
import { ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import {
  useCancelSignatureRequest,
  useCreateSignatureRequest,
  useSignatureRequest,
  useSignatureRequests,
} from '../api/signatures';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { CompanyPicker, ContactPicker, useContacts } from '../documents/pickers';
import { requiredOrInvalid, validateWith } from '../components/contract-form';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';

/** Filled in dark shades: white text on them keeps a 4.5:1 contrast (light green did not, nor green-9: 4.3:1). */
const STATUS_COLOR: Record<SignatureStatus, string> = {
  pending: 'blue.8',
  opened: 'grape.8',
  signed: 'teal.9',
  expired: 'gray.7',
  cancelled: 'red.8',
};

export function StatusBadge({ status }: { status: SignatureStatus }) {
  const { t } = useStaffT();
  return (
    <Badge
      color={STATUS_COLOR[status]}
      variant="filled"
      data-testid="signature-status"
      // The whole word, never cut to an ellipsis in a narrow column.
      style={{ flexShrink: 0, overflow: 'visible' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {t(`signatures.statuses.${status}`)}
    </Badge>
  );
}

const fileTitle = (fileName: string) => fileName.replace(/\.pdf$/i, '');

/**
 * Signature requests (issue 14 item 3): send a PDF to a contact to sign (SMS code or acceptance, an
 * expiry), follow each request by status, see its timeline, download the signed PDF, cancel.
 */
export default function SignaturesPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  usePageTitle(t('admin.sections.signatures'));
  const [params, setParams] = useSearchParams();
  const status = (signatureStatuses as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as SignatureStatus)
    : undefined;
  const openKey = params.get('request');
  const [creating, setCreating] = useState(false);
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const query = useSignatureRequests(company, status);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={1} size="h2">
          {t('admin.sections.signatures')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('signatures.new')}
        </Button>
      </Group>
      {creating && (
        <NewRequest
          onDone={(key) => {
            setCreating(false);
            if (key) setParam('request', key);
          }}
        />
      )}
      <NativeSelect
        label={t('signatures.status')}
        value={status ?? ''}
        onChange={(e) => setParam('status', e.currentTarget.value || null)}
        data={[
          { value: '', label: t('signatures.anyStatus') },
          ...signatureStatuses.map((s) => ({ value: s, label: t(`signatures.statuses.${s}`) })),
        ]}
        w={{ base: '100%', sm: 220 }}
      />
      <QueryStates query={query} isEmpty={() => items.length === 0} empty={t('signatures.empty')}>
        {() => (
          <TableScroll minWidth={560}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('signatures.document')}</Table.Th>
                  {/* The status before the contact: on a phone it stays in view. */}
                  <Table.Th>{t('signatures.status')}</Table.Th>
                  <Table.Th>{t('signatures.contact')}</Table.Th>
                  <Table.Th>{t('signatures.sentAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((r) => (
                  <Table.Tr key={r.documentKey}>
                    <Table.Td>
                      <UnstyledButton td="underline" onClick={() => setParam('request', r.documentKey)}>
                        {r.documentName}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <StatusBadge status={r.status} />
                    </Table.Td>
                    <Table.Td>{r.contactName}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      {query.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('signatures.more')}
        </Button>
      )}
      {openKey && <RequestDetail documentKey={openKey} onClose={() => setParam('request', null)} />}
    </Stack>
  );
}

interface RequestForm {
  companyId: number | null;
  contactId: number | null;
  documentName: string;
  method: (typeof signatureMethods)[number];
  /** The last day (the request expires at its end); empty: never. */
  expires: string;
}

function NewRequest({ onDone }: { onDone: (documentKey: string | null) => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const create = useCreateSignatureRequest(company);
  const uploads = useFileUploads(pathOf(staffDeskRoutes.upload, { company }));
  const uploaded = uploads.items.find((it) => it.status === 'done');
  /** The request's body; without a contact or an uploaded PDF the schema refuses it (nothing is sent). */
  const bodyOf = (v: RequestForm) => ({
    contactId: v.contactId,
    // Left empty, the file's name is taken.
    documentName: v.documentName.trim() || (uploaded ? fileTitle(uploaded.name) : ''),
    file: uploaded?.result ? { uploadId: uploaded.result.id } : undefined,
    method: v.method,
    // The end of the chosen day in the browser's zone.
    expiresAt: v.expires ? new Date(`${v.expires}T23:59:59`).toISOString() : null,
  });
  const form = useForm<RequestForm>({
    initialValues: { companyId: null, contactId: null, documentName: '', method: 'acceptance', expires: '' },
    validate: validateWith(
      signatureRequestCreateSchema,
      bodyOf,
      requiredOrInvalid(t),
      /^(contactId|documentName|file|expiresAt)$/,
    ),
  });
  const values = form.getValues();
  const contacts = useContacts(values.companyId);
  const contact = contacts.data?.find((c) => c.contactId === values.contactId);
  const submit = form.onSubmit((v) => {
    const { contactId, file, ...body } = bodyOf(v);
    create.mutate(
      { ...body, contactId: contactId!, file: file! },
      { onSuccess: (r) => onDone(r.documentKey) },
    );
  });
  // One sentence for what is missing (the contact, the PDF, a name), as the fields mark it.
  const error = Object.keys(form.errors).length
    ? t('signatures.fillFields')
    : create.isError
      ? errorText(create.error, t)
      : null;
  return (
    <Card withBorder padding="md" component="section" aria-label={t('signatures.new')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('signatures.new')}
          </Title>
          <Group align="end" gap="sm" wrap="wrap">
            <CompanyPicker
              value={values.companyId}
              onChange={(id) => form.setValues({ companyId: id, contactId: null })}
            />
            <ContactPicker
              label={t('signatures.contact')}
              contacts={contacts.data ?? []}
              value={values.contactId}
              onChange={(id) => {
                form.setFieldValue('contactId', id);
                const c = contacts.data?.find((x) => x.contactId === id);
                if (c && !c.hasPhone) form.setFieldValue('method', 'acceptance');
              }}
              error={form.errors.contactId}
            />
          </Group>
          <FileUpload uploads={uploads} label={t('signatures.dropPdf')} />
          <TextInput
            label={t('signatures.documentName')}
            maxLength={200}
            {...form.getInputProps('documentName')}
            // Left empty, the file's name is taken.
            placeholder={uploaded ? fileTitle(uploaded.name) : undefined}
          />
          <Radio.Group label={t('signatures.method')} {...form.getInputProps('method')}>
            <Stack gap={6} mt={4}>
              <Radio value="acceptance" label={t('signatures.methods.acceptance')} />
              <Radio
                value="sms_code"
                label={t('signatures.methods.sms_code')}
                disabled={!!contact && !contact.hasPhone}
                description={contact && !contact.hasPhone ? t('signatures.noPhone') : undefined}
              />
            </Stack>
          </Radio.Group>
          <TextInput
            type="date"
            label={t('signatures.expires')}
            description={t('signatures.expiresHint')}
            {...form.getInputProps('expires')}
            error={form.errors.expiresAt}
            w={{ base: '100%', sm: 220 }}
          />
          {error && (
            <Alert color="red" role="alert" p="xs">
              {error}
            </Alert>
          )}
          <Group gap="sm">
            <Button type="submit" loading={create.isPending} disabled={uploads.isUploading}>
              {t('signatures.send')}
            </Button>
            <Button variant="default" onClick={() => onDone(null)}>
              {t('signatures.cancelForm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function RequestDetail({ documentKey, onClose }: { documentKey: string; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const detail = useSignatureRequest(company, documentKey);
  const cancelRequest = useCancelSignatureRequest(company, documentKey);
  const r = detail.data;
  const download = (req: SignatureRequestEntity) => {
    setError(null);
    downloadFrom(
      signatureStaffRoutes.signedPdf,
      { params: { company, documentkey: req.documentKey } },
      req.signedFile?.name ?? `${req.documentName}.pdf`,
      'application/pdf',
    ).catch((e: unknown) => setError(errorText(e, t)));
  };
  const cancel = async () => {
    setError(null);
    try {
      await cancelRequest.mutateAsync(undefined, { onSuccess: () => setConfirming(false) });
    } catch (e) {
      setError(errorText(e, t));
    }
  };
  const open = r && (r.status === 'pending' || r.status === 'opened');
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('close') }}
      title={r?.documentName ?? t('signatures.detail')}
      size="lg"
    >
      {detail.isPending ? (
        <ListLoading />
      ) : detail.isError ? (
        <ListError onRetry={() => void detail.refetch()} message={errorText(detail.error, t)} />
      ) : (
        r && (
          <Stack gap="sm">
            <Group gap="sm">
              <StatusBadge status={r.status} />
              <Text size="sm">
                {r.contactName} · {t(`signatures.methods.${r.method}`)}
              </Text>
            </Group>
            {r.expiresAt && (
              <Text size="sm" c="dimmed">
                {t('signatures.expiresOn', { date: formatDate(r.expiresAt) })}
              </Text>
            )}
            <Timeline active={r.timeline.length - 1} bulletSize={14} lineWidth={2}>
              {r.timeline.map((e, i) => (
                <Timeline.Item key={i} title={t(`signatures.events.${e.event}`, { defaultValue: e.event })}>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(e.at)}
                    {e.detail ? ` · ${e.detail}` : ''}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
            {error && (
              <Alert color="red" role="alert" p="xs">
                {error}
              </Alert>
            )}
            <Group gap="sm">
              {r.signedFile && (
                <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={() => download(r)}>
                  {t('signatures.download')}
                </Button>
              )}
              {open &&
                (confirming ? (
                  <>
                    <Text size="sm">{t('signatures.cancelConfirm')}</Text>
                    <Button color="red" onClick={() => void cancel()}>
                      {t('signatures.cancelYes')}
                    </Button>
                    <Button variant="default" onClick={() => setConfirming(false)}>
                      {t('signatures.cancelNo')}
                    </Button>
                  </>
                ) : (
                  <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                    {t('signatures.cancelRequest')}
                  </Button>
                ))}
            </Group>
          </Stack>
        )
      )}
    </Modal>
  );
}
