import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
// Not the request's schema: the page would bring zod and the tickets area's schemas to its first load.
import { TICKET_TITLE_MAX, ticketErrorCodes } from '@sportello/contracts/ticket-limits';
import { contentShown } from '../../lib/first-content';
import { ApiRequestError } from '../../lib/api-client';
import { useTenant } from '../../lib/tenant';
import { FileUpload, useFileUploads } from '../../ui/file-upload';
import { HtmlEditor } from '../../ui/html-editor';
import { ServerSearchSelect, type ServerSearchItem } from '../../ui/server-search-select';
import { useCreateTicket } from './api/create-ticket';
import { useTicketTypes } from './api/ticket-types';
import { ticketAttachmentUrl } from './api/upload';
import { useWikiElements, wikiSearchUrl } from './api/wiki-elements';
import { isBlankHtml } from './ticket-filters';
import { notifySuccess } from './notify';
import { usePageTitle } from '../../ui/page-title';
import { errorText } from '../../lib/error-text';
import { draftKey, useDraft } from '../../lib/drafts';
import { localName } from '../../lib/local-name';
import { useProgressiveCount } from '../../ui/progressive-count';

interface NewTicketDraft {
  typeId: string | null;
  title: string;
  description: string;
  wikiItem: ServerSearchItem | null;
}
const EMPTY_DRAFT: NewTicketDraft = { typeId: null, title: '', description: '', wikiItem: null };
const isEmptyDraft = (d: NewTicketDraft) =>
  d.typeId === null && d.title.trim() === '' && isBlankHtml(d.description) && d.wikiItem === null;

/** New ticket: type, subject and description are required; wiki item and attachments are optional. */
export default function NewTicketPage() {
  const { t } = useTranslation();
  usePageTitle(t('tickets.new.title'));
  const navigate = useNavigate();
  const { company, contactId, contact, basePath, user } = useTenant();
  const isPlain = contact.portalSettings.disableHtmlEditor;
  const types = useTicketTypes(company);
  // The picker shows only when the company has wiki elements (SPEC A2), and only to who may see the wiki.
  const wiki = useWikiElements(company, contactId, contact.viewContactWiki);
  const hasWiki = contact.viewContactWiki && (wiki.data?.length ?? 0) > 0;
  const uploads = useFileUploads(ticketAttachmentUrl(company, contactId));
  const create = useCreateTicket(company, contactId);

  // Kept in the browser until sent (issue 16): a reload or an expired session loses nothing.
  const draft = useDraft(draftKey({ userId: user.id, company, contactId }, 'new'), EMPTY_DRAFT, isEmptyDraft);
  const { typeId, title, description, wikiItem } = draft.value;
  const update = (patch: Partial<NewTicketDraft>) => draft.setValue({ ...draft.value, ...patch });
  const setTypeId = (v: string | null) => update({ typeId: v });
  const setTitle = (v: string) => update({ title: v });
  const setDescription = (v: string) => update({ description: v });
  const setWikiItem = (v: ServerSearchItem | null) => update({ wikiItem: v });
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  // The request schema's rules (newTicketRequestSchema: a type, a non-blank title of at most
  // TICKET_TITLE_MAX characters); the description's is about its HTML.
  const missing = {
    type: typeId === null,
    title: title.trim() === '' || title.length > TICKET_TITLE_MAX,
    description: isPlain ? description.trim() === '' : isBlankHtml(description),
  };
  const hasMissing = missing.type || missing.title || missing.description;
  const fieldError = (isMissing: boolean) =>
    isSubmitted && isMissing ? t('tickets.new.fieldRequired') : undefined;
  const listPath = `${basePath}/tickets`;
  // The form draws once whether the wiki's picker is in it or not (it came later, and the attachments and
  // buttons below it moved); on a first load its answer is long here when the page's code is
  // (app/early-data.ts). The form is the page's content: what waited for it (the header's menus, the
  // description's editor) may load.
  // And after the page's first paint, in a render of its own (a transition, time-sliced): its commit
  // was part of the shell's, the first load's longest task.
  const isAfterFirstPaint = useProgressiveCount(1, 0) > 0;
  const isFormReady = (!contact.viewContactWiki || !wiki.isPending) && isAfterFirstPaint;
  useEffect(() => {
    if (isFormReady) contentShown();
  }, [isFormReady]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    if (hasMissing) {
      setProblem(t('tickets.new.requiredFields'));
      return;
    }
    if (uploads.isUploading) {
      setProblem(t('tickets.new.waitUploads'));
      return;
    }
    setProblem(null);
    create.mutate(
      {
        title: title.trim(),
        taskTypeId: Number(typeId),
        description,
        wikiElementId: wikiItem?.id ?? null,
        attachments: uploads.uploadedIds,
      },
      {
        onSuccess: (ticket) => {
          uploads.clear();
          draft.clear();
          notifySuccess(t('tickets.new.sent'), t);
          // The list says which number the new ticket has, to quote on the phone or in an e-mail (issue 16).
          void navigate(listPath, { state: { createdNumber: ticket.ticketNumber } });
        },
        onError: (err) => {
          setProblem(
            err instanceof ApiRequestError && err.code === ticketErrorCodes.requiredFields
              ? t('tickets.new.requiredFields')
              : t('tickets.new.sendError', { reason: errorText(err, t) }),
          );
        },
      },
    );
  };

  const isSending = create.isPending;
  return (
    <Stack gap="md" maw={900}>
      <Title order={1}>{t('tickets.new.title')}</Title>
      {isFormReady && (
        <Paper withBorder p="md" component="form" onSubmit={onSubmit} noValidate aria-busy={isSending}>
          <Stack gap="md">
            {problem && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle aria-hidden />}
                role="alert"
                data-testid="form-alert"
              >
                {problem}
              </Alert>
            )}
            {draft.restored && (
              <Text size="sm" c="dimmed" data-testid="draft-restored">
                {t('drafts.restored')}
              </Text>
            )}
            {types.isError && (
              <Alert color="red" variant="light" role="alert">
                {t('tickets.new.typesError')}
              </Alert>
            )}
            <Select
              label={t('tickets.new.type')}
              placeholder={t('tickets.new.typePlaceholder')}
              data={(types.data ?? []).map((ty) => ({ value: String(ty.id), label: localName(ty) }))}
              value={typeId}
              onChange={setTypeId}
              required
              error={fieldError(missing.type)}
              disabled={isSending}
              allowDeselect={false}
              rightSection={types.isPending ? <Loader size={14} /> : undefined}
              // Its options are drawn when it opens: kept mounted (Mantine's default), the hidden list, its
              // scroll area and its placement (a forced layout) were part of the form's first task.
              comboboxProps={{ withinPortal: true, keepMounted: false }}
            />
            <TextInput
              label={t('tickets.new.subject')}
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              required
              maxLength={TICKET_TITLE_MAX}
              error={fieldError(missing.title)}
              disabled={isSending}
            />
            <HtmlEditor
              label={t('tickets.new.description')}
              value={description}
              onChange={setDescription}
              plain={isPlain}
              required
              error={fieldError(missing.description)}
              disabled={isSending}
              onDemand
            />
            {hasWiki && (
              <ServerSearchSelect
                label={t('tickets.new.wikiItem')}
                emptyText={t('tickets.new.wikiNone')}
                url={wikiSearchUrl(company, contactId)}
                value={wikiItem}
                onChange={setWikiItem}
              />
            )}
            <FileUpload uploads={uploads} label={t('tickets.new.attachments')} disabled={isSending} />
            <Group justify="flex-end" gap="sm">
              {isSending && (
                <Group gap="xs" role="status" data-testid="sending">
                  <Loader size="sm" />
                  <Text size="sm">{t('tickets.new.sending')}</Text>
                </Group>
              )}
              <Button
                variant="default"
                onClick={() => {
                  // Cancel means the user does not want it: the draft goes too.
                  draft.clear();
                  void navigate(listPath);
                }}
                disabled={isSending}
              >
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={isSending}>
                {t('common.send')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
