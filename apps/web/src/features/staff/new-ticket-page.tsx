import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { deskTicketCreateSchema, NEXT_ACTIVITY_MAX, type DeskTicketCreate } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorText } from '../../lib/error-text';
import { portalSettingsQuery } from '../../lib/tenant';
import { FileUpload, useFileUploads } from '../../ui/file-upload';
import { HtmlEditor, isBlankMessage } from '../../ui/html-editor';
import { usePageTitle } from '../../ui/page-title';
import { CompanyPicker } from './admin/company-picker';
import { useCreateDeskTicket } from './api/new-ticket';
import { staffUploadUrl } from './api/ticket-writes';
import { useDeskOptions } from './api/options';
import { ContactPicker } from './components/contact-picker';
import { useDesk } from './desk-context';
import { useStaffT } from './i18n';
import { staffPath, staffTicketPath } from './staff-paths';

const NONE = '';

interface Draft {
  companyId: number | null;
  contactId: number | null;
  typeId: string | null;
  title: string;
  description: string;
  /** null: the portal's default step (where new tickets start). */
  stepId: string | null;
  groupId: string;
  assigneeId: string;
  next: string;
}

type Problems = Partial<Record<'company' | 'contact' | 'type' | 'title', string>>;

/**
 * A new ticket from the desk, on behalf of a contact (a customer who phoned): company and contact,
 * type, title, description in the desk's editor (sanitised by the server as every description), step
 * (the portal's default unless chosen), group, assignee and next planned activity. Saved through the
 * desk's route of the entity service; the new ticket opens on the desk.
 */
export default function NewTicketPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const navigate = useNavigate();
  const location = useLocation();
  const options = useDeskOptions(company);
  const settings = useQuery(portalSettingsQuery(company));
  const create = useCreateDeskTicket(company);
  const uploads = useFileUploads(staffUploadUrl(company));
  const [draft, setDraft] = useState<Draft>({
    companyId: null,
    contactId: null,
    typeId: null,
    title: '',
    description: '',
    stepId: null,
    groupId: NONE,
    assigneeId: NONE,
    next: '',
  });
  const [problems, setProblems] = useState<Problems>({});
  usePageTitle(t('newTicket.title'));
  const o = options.data;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const inboxSearch = (location.state as { inbox?: unknown } | null)?.inbox;
  const inboxLink = staffPath(company) + (typeof inboxSearch === 'string' ? inboxSearch : '');
  const defaultStep = o?.steps.find((s) => s.isDefault) ?? o?.steps[0];
  const stepId = draft.stepId ?? (defaultStep ? String(defaultStep.id) : null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: Problems = {};
    if (draft.companyId === null) found.company = t('newTicket.required');
    if (draft.contactId === null) found.contact = t('newTicket.required');
    if (!draft.typeId) found.type = t('newTicket.required');
    if (!draft.title.trim()) found.title = t('newTicket.required');
    setProblems(found);
    if (Object.keys(found).length > 0 || !stepId) return;
    const body: DeskTicketCreate = {
      companyId: draft.companyId!,
      creatorContactId: draft.contactId!,
      taskTypeId: Number(draft.typeId),
      title: draft.title.trim(),
      description: isBlankMessage(draft.description) ? null : draft.description,
      statusStepId: Number(stepId),
      assignedGroupId: draft.groupId ? Number(draft.groupId) : null,
      assignedUserId: draft.assigneeId ? Number(draft.assigneeId) : null,
      nextPlannedActivityInfo: draft.next.trim() || null,
      attachmentIds: uploads.uploadedIds,
    };
    // The server's own rules, checked here first (the same schema).
    if (!deskTicketCreateSchema.safeParse(body).success) {
      setProblems({ title: t('newTicket.invalid') });
      return;
    }
    create.mutate(body, {
      onSuccess: (ticket) => void navigate(staffTicketPath(company, ticket.id), { state: { created: true } }),
    });
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to={inboxLink} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('ticket.back')}
        </Group>
      </Anchor>
      <Title order={1} size="h3">
        {t('newTicket.title')}
      </Title>
      <Paper
        withBorder
        p="md"
        component="form"
        onSubmit={onSubmit}
        noValidate
        aria-busy={create.isPending}
        data-testid="new-ticket-form"
      >
        <Stack gap="sm">
          {create.isError && (
            <Alert color="red" variant="light" role="alert">
              {t('newTicket.failed', { reason: errorText(create.error, t) })}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <CompanyPicker
              route={deskEntityRoutes.companies}
              value={draft.companyId}
              onChange={(id) => setDraft((d) => ({ ...d, companyId: id, contactId: null }))}
              required
              error={problems.company}
              fullWidth
            />
            <ContactPicker
              company={company}
              companyId={draft.companyId}
              value={draft.contactId}
              onChange={(c) => set('contactId', c?.contactId ?? null)}
              required
              error={problems.contact}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('inbox.type')}
              required
              data={(o?.types ?? []).map((ty) => ({ value: String(ty.id), label: ty.name }))}
              value={draft.typeId}
              onChange={(v) => set('typeId', v)}
              error={problems.type}
              comboboxProps={{ withinPortal: true }}
              data-testid="new-ticket-type"
            />
            <Select
              label={t('inbox.step')}
              data={(o?.steps ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
              value={stepId}
              allowDeselect={false}
              onChange={(v) => set('stepId', v)}
              comboboxProps={{ withinPortal: true }}
              data-testid="new-ticket-step"
            />
          </SimpleGrid>
          <TextInput
            label={t('newTicket.titleLabel')}
            required
            maxLength={500}
            value={draft.title}
            onChange={(e) => set('title', e.currentTarget.value)}
            error={problems.title}
          />
          <HtmlEditor
            label={t('newTicket.description')}
            value={draft.description}
            onChange={(v) => set('description', v)}
            plain={settings.data?.disableHtmlEditor}
            disabled={create.isPending}
          />
          <FileUpload uploads={uploads} label={t('composer.attachments')} disabled={create.isPending} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('inbox.group')}
              data={[
                { value: NONE, label: t('side.noGroup') },
                ...(o?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name })),
              ]}
              value={draft.groupId}
              allowDeselect={false}
              onChange={(v) => set('groupId', v ?? NONE)}
              comboboxProps={{ withinPortal: true }}
              data-testid="new-ticket-group"
            />
            <Select
              label={t('inbox.assignee')}
              data={[
                { value: NONE, label: t('inbox.unassigned') },
                ...(o?.agents ?? []).map((a) => ({ value: String(a.id), label: a.displayName })),
              ]}
              value={draft.assigneeId}
              allowDeselect={false}
              onChange={(v) => set('assigneeId', v ?? NONE)}
              comboboxProps={{ withinPortal: true }}
              data-testid="new-ticket-assignee"
            />
          </SimpleGrid>
          <Textarea
            label={t('side.nextActivity')}
            value={draft.next}
            onChange={(e) => set('next', e.currentTarget.value)}
            maxLength={NEXT_ACTIVITY_MAX}
            rows={2}
          />
          <Text size="sm" c="dimmed">
            {t('newTicket.confirmationHint')}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to={inboxLink}>
              {t('catalog.cancel')}
            </Button>
            <Button
              type="submit"
              loading={create.isPending}
              disabled={!o || uploads.isUploading}
              data-testid="new-ticket-submit"
            >
              {t('newTicket.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
