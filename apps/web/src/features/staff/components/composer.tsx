import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconBolt, IconLock, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { MacroActions, StaffTicketDetail } from '@sportello/contracts';
import { errorText } from '../../../lib/error-text';
import { portalSettingsQuery } from '../../../lib/tenant';
import { FileUpload, useFileUploads } from '../../../ui/file-upload';
import { HtmlEditor, isBlankMessage } from '../../../ui/html-editor';
import { useMacroReply } from '../api/macros';
import { useDeskOptions } from '../api/options';
import { staffUploadUrl, useStaffComment } from '../api/ticket-writes';
import { useDeskKeys } from '../desk-keys';
import { MacroActionsBar, MacroPicker, MacroShortcutHint, useMacroShortcut } from './macro-picker';
import { useStaffT } from '../i18n';
import { NO_TIME, TimeSpentField, timeOf } from './time-spent-field';
import classes from '../../../ui/conversation.module.css';

export type ComposeMode = 'reply' | 'note';

/** HTML as plain text, paragraphs and line breaks kept as new lines. */
function plainTextOf(html: string): string {
  const doc = new DOMParser().parseFromString(
    html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*/gi, '</p>\n'),
    'text/html',
  );
  return (doc.body.textContent ?? '').replace(/\n+$/, '');
}

/** Focuses the editor of `box` once it is there (the rich editor's code arrives a moment after the page). */
function focusEditorIn(box: HTMLElement | null): () => void {
  if (!box) return () => {};
  const find = () => box.querySelector<HTMLElement>('[contenteditable="true"], textarea');
  const focus = (el: HTMLElement) => {
    el.focus();
    el.scrollIntoView({ block: 'center' });
  };
  const now = find();
  if (now) {
    focus(now);
    return () => {};
  }
  const observer = new MutationObserver(() => {
    const el = find();
    if (!el) return;
    observer.disconnect();
    focus(el);
  });
  observer.observe(box, { childList: true, subtree: true, attributes: true });
  const timer = setTimeout(() => observer.disconnect(), 10_000);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}

/**
 * The reply to the customer or the internal note, with the customer side's editor and attachments.
 * A note looks like the notes of the conversation and says that the customer does not see it; the
 * button says which of the two is sent. Cleared after sending.
 */
export function Composer({
  company,
  ticket,
  mode,
  onModeChange,
  focusRequest,
  onWritingChange,
}: {
  company: string;
  ticket: StaffTicketDetail;
  mode: ComposeMode;
  onModeChange: (mode: ComposeMode) => void;
  /** Changes when a shortcut asks for the editor (r, n). */
  focusRequest: number;
  /** Whether there is something written: the others see "is replying". */
  onWritingChange: (isWriting: boolean) => void;
}) {
  const { t } = useStaffT();
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [spent, setSpent] = useState(NO_TIME);
  const uploads = useFileUploads(staffUploadUrl(company));
  const plainSend = useStaffComment(company, ticket.id);
  const macroSend = useMacroReply(company, ticket.id);
  // A chosen macro's ticket changes, sent with the reply (the agent may drop any of them).
  const [actions, setActions] = useState<MacroActions>({});
  const hasActions = Object.values(actions).some((v) => v !== undefined);
  const send = hasActions ? macroSend : plainSend;
  const [picking, setPicking] = useState(false);
  const options = useDeskOptions(company);
  useMacroShortcut(() => setPicking(true));
  useDeskKeys({ m: () => setPicking(true) });
  const settings = useQuery(portalSettingsQuery(company));
  const boxRef = useRef<HTMLDivElement>(null);
  const isNote = mode === 'note';
  const isWriting = !isBlankMessage(message) || uploads.items.length > 0;

  useEffect(() => onWritingChange(isWriting), [isWriting, onWritingChange]);
  const [focusAgain, setFocusAgain] = useState(0);
  useEffect(
    () => (focusRequest || focusAgain ? focusEditorIn(boxRef.current) : undefined),
    [focusRequest, focusAgain],
  );

  const onSend = () => {
    setNotice(null);
    if (uploads.isUploading) {
      setProblem(t('composer.waitUploads'));
      return;
    }
    if (isBlankMessage(message) && uploads.uploadedIds.length === 0) {
      setProblem(t('composer.empty'));
      return;
    }
    setProblem(null);
    const body = { message, internal: isNote, attachments: uploads.uploadedIds, time: timeOf(spent) };
    // Cleared on the request's own promise, not the call's callbacks: TanStack Query skips those when
    // the composer is not subscribed at that moment (hidden while part of it loads), and the sent text
    // — a note — would stay in the editor to go out again with the next reply.
    const sent = hasActions ? macroSend.mutateAsync({ ...body, actions }) : plainSend.mutateAsync(body);
    sent.then(
      () => {
        setMessage('');
        setActions({});
        uploads.clear();
        setSpent(NO_TIME);
        setNotice(t(isNote ? 'composer.noteAdded' : 'composer.replySent'));
      },
      (err: unknown) => setProblem(t('composer.sendError', { reason: errorText(err, t) })),
    );
  };

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-label={t('composer.title')}
      aria-busy={send.isPending}
      className={isNote ? classes.internal : undefined}
      data-testid="composer"
      data-mode={mode}
      ref={boxRef}
    >
      <Stack gap="sm">
        <SegmentedControl
          value={mode}
          onChange={(v) => onModeChange(v === 'note' ? 'note' : 'reply')}
          data={[
            { value: 'reply', label: t('composer.reply') },
            { value: 'note', label: t('composer.note') },
          ]}
          aria-label={t('composer.kind')}
          fullWidth
        />
        {isNote ? (
          <Group gap={6} className={classes.internalLabel}>
            <IconLock size={14} aria-hidden />
            <Text size="sm" fw={700}>
              {t('ticket.internalLabel')}
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('composer.replyHint')}
          </Text>
        )}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <HtmlEditor
          label={isNote ? t('composer.noteLabel') : t('composer.replyLabel')}
          value={message}
          onChange={setMessage}
          plain={settings.data?.disableHtmlEditor}
          disabled={send.isPending}
        />
        <FileUpload uploads={uploads} label={t('composer.attachments')} disabled={send.isPending} />
        <TimeSpentField value={spent} onChange={setSpent} disabled={send.isPending} />
        <Group justify="space-between" gap="xs">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconBolt size={14} aria-hidden />}
            onClick={() => setPicking(true)}
            data-testid="macro-open"
          >
            {t('macros.open')}
          </Button>
          <MacroShortcutHint />
        </Group>
        <MacroActionsBar
          actions={actions}
          options={options.data}
          onRemove={(key) => setActions(({ [key]: _, ...rest }) => rest)}
        />
        <MacroPicker
          company={company}
          ticketId={ticket.id}
          opened={picking}
          onClose={() => setPicking(false)}
          onPick={(m) => {
            // The portal's plain editor takes text: the macro's HTML as its words and lines.
            const text = settings.data?.disableHtmlEditor ? plainTextOf(m.text) : m.text;
            setMessage((now) => (isBlankMessage(now) ? text : now + text));
            setActions(m.actions);
            setProblem(null);
            setFocusAgain((n) => n + 1);
          }}
        />
        <Group justify="space-between" gap="sm">
          <Text size="sm" role="status" aria-live="polite" data-testid="composer-notice">
            {notice}
          </Text>
          <Button
            onClick={onSend}
            loading={send.isPending}
            color={isNote ? 'yellow' : undefined}
            c={isNote ? 'dark' : undefined}
            leftSection={isNote ? <IconLock size={16} aria-hidden /> : <IconSend size={16} aria-hidden />}
            data-testid="composer-send"
          >
            {isNote ? t('composer.sendNote') : t('composer.sendReply')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
