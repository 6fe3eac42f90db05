import { Alert, Button, Group, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/error-text';
import { useReopenTicket } from '../api/following';
import { notifySuccess } from '../notify';

/**
 * By the reply box of a closed ticket: a reply reopens it (said before sending), or the button reopens
 * it without writing (issue 16). The button only for who may manage tickets (the server's rule).
 */
export function ReopenNotice({
  company,
  contactId,
  ticketId,
  canReopen,
}: {
  company: string;
  contactId: number;
  ticketId: number;
  canReopen: boolean;
}) {
  const { t } = useTranslation();
  const reopen = useReopenTicket(company, contactId);
  return (
    <Alert color="gray" variant="light" icon={<IconLock aria-hidden />} data-testid="reopen-notice">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{t('tickets.detail.replyReopens')}</Text>
        {canReopen && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconLockOpen size={14} aria-hidden />}
            loading={reopen.isPending}
            onClick={() =>
              reopen.mutate(ticketId, { onSuccess: () => notifySuccess(t('following.reopened'), t) })
            }
          >
            {t('following.reopen')}
          </Button>
        )}
      </Group>
      {reopen.isError && (
        <Text size="sm" c="red.8" mt="xs" role="alert">
          {t('following.reopenError', { reason: errorText(reopen.error, t) })}
        </Text>
      )}
    </Alert>
  );
}
