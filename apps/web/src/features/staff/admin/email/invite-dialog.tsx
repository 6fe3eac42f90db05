import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  inboundInviteBodySchema,
  type InboundEmail,
  type InboundInviteAnswer,
  type InboundInviteBody,
} from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { CompanyPicker } from '../company-picker';
import { useInviteInbound } from './email-api';
import { validateWith } from '../components/contract-form';

/** The name a sender's mail gives (its From display name), else the address before the @. */
const nameOf = (m: InboundEmail) => m.fromName.trim() || m.fromAddress.split('@')[0] || '';

type InviteForm = { companyId: number | null; referentName: string; userName: string };
const inviteBody = (v: InviteForm) => ({
  companyId: v.companyId,
  referentName: v.referentName.trim(),
  ...(v.userName.trim() ? { userName: v.userName.trim() } : {}),
});

/**
 * "Invite as contact" (docs/email.md "Unknown senders"): the sender of a waiting message becomes a
 * contact of the chosen company, gets the portal's invitation, and the message becomes their new ticket.
 */
export function InviteDialog({
  message,
  onClose,
  onInvited,
}: {
  message: InboundEmail;
  onClose: () => void;
  onInvited: (answer: InboundInviteAnswer) => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  // A company and a name are needed, a user name has no spaces: the route's rules, checked before sending.
  const form = useForm<InviteForm>({
    initialValues: { companyId: null, referentName: nameOf(message), userName: '' },
    validate: validateWith(inboundInviteBodySchema, inviteBody, (field) =>
      field === 'userName' ? t('people.userNameSpaces') : t('auth.requiredField'),
    ),
  });
  const invite = useInviteInbound(company);
  const submit = form.onSubmit((v) =>
    invite.mutate(
      { inboundId: message.id, body: inviteBody(v) as InboundInviteBody },
      { onSuccess: onInvited },
    ),
  );
  const error = invite.error;
  const known =
    error instanceof ApiRequestError && error.code === 'contact_exists'
      ? t('email.invite.exists')
      : error instanceof ApiRequestError && error.code === 'entity_exists'
        ? t('email.invite.userTaken')
        : null;
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('email.invite.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {t('email.invite.text', {
              address: message.fromAddress,
              subject: message.subject || t('email.inbound.noSubject'),
            })}
          </Text>
          <CompanyPicker
            route={deskEntityRoutes.companies}
            value={form.getValues().companyId}
            onChange={(id) => form.setFieldValue('companyId', id)}
            error={form.errors.companyId as string | undefined}
            required
            fullWidth
          />
          <TextInput
            label={t('email.invite.name')}
            {...form.getInputProps('referentName')}
            required
            maxLength={200}
          />
          <TextInput
            label={t('email.invite.userName')}
            description={t('email.invite.userNameHint')}
            {...form.getInputProps('userName')}
            placeholder={message.fromAddress}
            maxLength={200}
          />
          {invite.isError && (
            <Alert color="red" variant="light" role="alert">
              {known ?? errorText(error, t)}
            </Alert>
          )}
          <Group justify="end">
            <Button variant="default" onClick={onClose}>
              {t('email.cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending}>
              {t('email.invite.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
