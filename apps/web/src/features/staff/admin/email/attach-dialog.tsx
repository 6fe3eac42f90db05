import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { inboundAttachBodySchema, type InboundEmail } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { errorText } from '../../../../lib/error-text';
import { ContactPicker } from '../../components/contact-picker';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { CompanyPicker } from '../company-picker';
import { useAttachInbound } from './email-api';
import { validateWith } from '../components/contract-form';

/** The company only narrows the contact picker; the route takes the contact and the ticket. */
type AttachForm = { companyId: number | null; contactId: number | null; ticketId: number | string };
const attachBody = (v: AttachForm) => ({
  contactId: v.contactId,
  ...(typeof v.ticketId === 'number' ? { ticketId: v.ticketId } : {}),
});

/**
 * "Attach to contact" (docs/email.md "Unknown senders"): a waiting message given to a contact of the
 * portal becomes their new ticket, or, with a ticket number, their comment on that ticket.
 */
export function AttachDialog({ message, onClose }: { message: InboundEmail; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  // A contact is needed, a ticket number is a back-office id: the route's rules, checked before sending.
  const form = useForm<AttachForm>({
    initialValues: { companyId: null, contactId: null, ticketId: message.ticketId ?? '' },
    validate: validateWith(inboundAttachBodySchema, attachBody, (field) =>
      field === 'contactId' ? t('auth.requiredField') : t('newTicket.invalid'),
    ),
  });
  const attach = useAttachInbound(company);
  const submit = form.onSubmit((v) => {
    const { contactId, ...ticket } = attachBody(v);
    attach.mutate({ inboundId: message.id, contactId: contactId!, ...ticket }, { onSuccess: onClose });
  });
  const { companyId, contactId } = form.getValues();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('email.attach.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {t('email.attach.text', { subject: message.subject || t('email.inbound.noSubject') })}
          </Text>
          <CompanyPicker
            route={deskEntityRoutes.companies}
            value={companyId}
            onChange={(id) => form.setValues({ companyId: id, contactId: null })}
            required
            fullWidth
          />
          <ContactPicker
            company={company}
            companyId={companyId}
            value={contactId}
            onChange={(c) => form.setFieldValue('contactId', c?.contactId ?? null)}
            error={form.errors.contactId as string | undefined}
            required
          />
          <NumberInput
            label={t('email.attach.ticket')}
            description={t('email.attach.ticketHint')}
            {...form.getInputProps('ticketId')}
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
            <Button type="submit" loading={attach.isPending}>
              {t('email.attach.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
