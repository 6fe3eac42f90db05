import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCloseTicket } from '../api/close-ticket';
import { notifySuccess } from '../notify';
import { errorText } from '../../../lib/error-text';

/** The confirmation of 'Close the ticket' (close-ticket-button.tsx); afterwards the detail refetches. */
export function CloseTicketDialog({
  company,
  contactId,
  ticketId,
  opened,
  onClose,
}: {
  company: string;
  contactId: number;
  ticketId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const closeTicket = useCloseTicket(company, contactId);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('tickets.detail.closeTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Text size="sm">{t('tickets.detail.closeText')}</Text>
      {closeTicket.isError && (
        <Text size="sm" c="red.8" mt="sm" role="alert">
          {t('tickets.detail.closeError', { reason: errorText(closeTicket.error, t) })}
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} disabled={closeTicket.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          color="red.9"
          loading={closeTicket.isPending}
          onClick={() =>
            closeTicket.mutate(ticketId, {
              onSuccess: () => {
                onClose();
                notifySuccess(t('tickets.detail.closed'), t);
              },
            })
          }
        >
          {t('tickets.detail.closeConfirm')}
        </Button>
      </Group>
    </Modal>
  );
}
