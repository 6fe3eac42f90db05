import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import type { InboundEmail } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { errorText } from '../../../../lib/error-text';
import { ContactPicker } from '../../components/contact-picker';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { CompanyPicker } from '../company-picker';
import { useAttachInbound } from './email-api';

/**
 * "Attach to contact" (docs/email.md "Unknown senders"): a waiting message given to a contact of the
 * portal becomes their new ticket, or, with a ticket number, their comment on that ticket.
 */
export function AttachDialog({ message, onClose }: { message: InboundEmail; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [contactId, setContactId] = useState<number | null>(null);
  const [ticketId, setTicketId] = useState<number | string>(message.ticketId ?? '');
  const attach = useAttachInbound(company);
  const submit = () => {
    if (contactId === null) return;
    const ticket = typeof ticketId === 'number' ? ticketId : undefined;
    attach.mutate(
      { inboundId: message.id, contactId, ...(ticket === undefined ? {} : { ticketId: ticket }) },
      { onSuccess: onClose },
    );
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('email.attach.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <Stack gap="sm">
        <Text size="sm">
          {t('email.attach.text', { subject: message.subject || t('email.inbound.noSubject') })}
        </Text>
        <CompanyPicker
          route={deskEntityRoutes.companies}
          value={companyId}
          onChange={(id) => {
            setCompanyId(id);
            setContactId(null);
          }}
          required
          fullWidth
        />
        <ContactPicker
          company={company}
          companyId={companyId}
          value={contactId}
          onChange={(c) => setContactId(c?.contactId ?? null)}
          required
        />
        <NumberInput
          label={t('email.attach.ticket')}
          description={t('email.attach.ticketHint')}
          value={ticketId}
          onChange={setTicketId}
          min={0}
          allowDecimal={false}
          allowNegative={false}
        />
        {attach.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorText(attach.error, t)}
          </Alert>
        )}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {t('email.cancel')}
          </Button>
          <Button onClick={submit} loading={attach.isPending} disabled={contactId === null}>
            {t('email.attach.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
