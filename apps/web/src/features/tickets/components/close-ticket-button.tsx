import { Button, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCloseTicket } from '../api/close-ticket';
import { notifySuccess } from '../notify';
import { errorText } from '../../../lib/error-text';

/** 'Close the ticket' with a confirmation; afterwards the detail refetches and shows the closing step. */
export function CloseTicketButton({
  company,
  contactId,
  ticketId,
}: {
  company: string;
  contactId: number;
  ticketId: number;
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const closeTicket = useCloseTicket(company, contactId);
  return (
    <>
      <Button
        variant="outline"
        color="red.8"
        leftSection={<IconCircleCheck size={16} aria-hidden />}
        onClick={open}
      >
        {t('tickets.detail.close')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
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
          <Button variant="default" onClick={close} disabled={closeTicket.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red.9"
            loading={closeTicket.isPending}
            onClick={() =>
              closeTicket.mutate(ticketId, {
                onSuccess: () => {
                  close();
                  notifySuccess(t('tickets.detail.closed'), t);
                },
              })
            }
          >
            {t('tickets.detail.closeConfirm')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
