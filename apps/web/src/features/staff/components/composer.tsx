import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconLock, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { StaffTicketDetail } from '@sportello/contracts';
import { errorText } from '../../../lib/error-text';
import { portalSettingsQuery } from '../../../lib/tenant';
import { FileUpload, useFileUploads } from '../../../ui/file-upload';
import { HtmlEditor, isBlankMessage } from '../../../ui/html-editor';
import { staffUploadUrl, useStaffComment } from '../api/ticket-writes';
import { useStaffT } from '../i18n';
import classes from '../../../ui/conversation.module.css';

export type ComposeMode = 'reply' | 'note';

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
  const uploads = useFileUploads(staffUploadUrl(company));
  const send = useStaffComment(company, ticket.id);
  const settings = useQuery(portalSettingsQuery(company));
  const boxRef = useRef<HTMLDivElement>(null);
  const isNote = mode === 'note';
  const isWriting = !isBlankMessage(message) || uploads.items.length > 0;

  useEffect(() => onWritingChange(isWriting), [isWriting, onWritingChange]);
  useEffect(() => (focusRequest ? focusEditorIn(boxRef.current) : undefined), [focusRequest]);

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
    send.mutate(
      { message, internal: isNote, attachments: uploads.uploadedIds },
      {
        onSuccess: () => {
          setMessage('');
          uploads.clear();
          setNotice(t(isNote ? 'composer.noteAdded' : 'composer.replySent'));
        },
        onError: (err) => setProblem(t('composer.sendError', { reason: errorText(err, t) })),
      },
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
