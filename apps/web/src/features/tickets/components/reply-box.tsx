import { useState } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { draftKey, useDraft } from '../../../lib/drafts';
import { errorText } from '../../../lib/error-text';
import { useTenant } from '../../../lib/tenant';
import { FileUpload, useFileUploads } from '../../../ui/file-upload';
import { HtmlEditor, isBlankMessage } from '../../../ui/html-editor';
import { commentAttachmentUrl, useCreateComment } from '../api/create-comment';
import { notifySuccess } from '../notify';

export interface ReplyBoxProps {
  company: string;
  contactId: number;
  ticketId: number;
  isPlain: boolean;
  /** A reply reopens a closed ticket (the server does it): the page says so, the notice says it happened. */
  isClosed?: boolean;
}

/**
 * The reply editor with attachments; a reply needs some text or a file. The text is kept as a draft in
 * the browser until it is sent (issue 16), then cleared.
 */
export function ReplyBox({ company, contactId, ticketId, isPlain, isClosed = false }: ReplyBoxProps) {
  const { t } = useTranslation();
  const { user } = useTenant();
  const draft = useDraft<string>(
    draftKey({ userId: user.id, company, contactId }, ticketId),
    '',
    isBlankMessage,
  );
  const message = draft.value;
  const setMessage = draft.setValue;
  const [problem, setProblem] = useState<string | null>(null);
  const uploads = useFileUploads(commentAttachmentUrl(company, contactId));
  const send = useCreateComment(company, contactId);
  const isSending = send.isPending;

  const onSend = () => {
    if (uploads.isUploading) {
      setProblem(t('tickets.new.waitUploads'));
      return;
    }
    if (isBlankMessage(message) && uploads.uploadedIds.length === 0) {
      setProblem(t('tickets.detail.replyEmpty'));
      return;
    }
    setProblem(null);
    send.mutate(
      {
        taskId: ticketId,
        message,
        commentType: 0,
        ticketEmailReply_Recipient: null,
        ticketEmailReply_CCList: null,
        attachments: uploads.uploadedIds,
      },
      {
        onSuccess: () => {
          draft.clear();
          uploads.clear();
          notifySuccess(t(isClosed ? 'tickets.detail.reopened' : 'tickets.detail.replySent'), t);
        },
        onError: (err) => setProblem(t('tickets.detail.replyError', { reason: errorText(err, t) })),
      },
    );
  };

  return (
    <Paper withBorder p="md" component="section" aria-label={t('tickets.detail.reply')} aria-busy={isSending}>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        {draft.restored && (
          <Text size="sm" c="dimmed" data-testid="draft-restored">
            {t('drafts.restored')}
          </Text>
        )}
        {/* Built when the user reaches it: on a first load, tiptap's code and build came after the
            conversation, inside a phone's blocking time (docs/architecture.md, "A phone's first screen"). */}
        <HtmlEditor
          onDemand
          label={t('tickets.detail.reply')}
          value={message}
          onChange={setMessage}
          plain={isPlain}
          disabled={isSending}
        />
        <FileUpload uploads={uploads} label={t('tickets.detail.replyAttachments')} disabled={isSending} />
        <Group justify="flex-end" gap="sm">
          {isSending && (
            <Group gap="xs" role="status">
              <Loader size="sm" />
              <Text size="sm">{t('tickets.detail.sendingReply')}</Text>
            </Group>
          )}
          <Button onClick={onSend} loading={isSending}>
            {t('common.send')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
