import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { InboundEmail, InboundInviteAnswer } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { CompanyPicker } from '../company-picker';
import { useInviteInbound } from './email-api';

/** The name a sender's mail gives (its From display name), else the address before the @. */
const nameOf = (m: InboundEmail) => m.fromName.trim() || m.fromAddress.split('@')[0] || '';

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
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [name, setName] = useState(() => nameOf(message));
  const [userName, setUserName] = useState('');
  const invite = useInviteInbound(company);
  const submit = () => {
    if (companyId === null || name.trim() === '') return;
    const login = userName.trim();
    invite.mutate(
      {
        inboundId: message.id,
        body: { companyId, referentName: name.trim(), ...(login ? { userName: login } : {}) },
      },
      { onSuccess: onInvited },
    );
  };
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
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            {t('email.invite.text', {
              address: message.fromAddress,
              subject: message.subject || t('email.inbound.noSubject'),
            })}
          </Text>
          <CompanyPicker
            route={deskEntityRoutes.companies}
            value={companyId}
            onChange={setCompanyId}
            required
            fullWidth
          />
          <TextInput
            label={t('email.invite.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            maxLength={200}
          />
          <TextInput
            label={t('email.invite.userName')}
            description={t('email.invite.userNameHint')}
            value={userName}
            placeholder={message.fromAddress}
            onChange={(e) => setUserName(e.currentTarget.value)}
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
            <Button
              type="submit"
              loading={invite.isPending}
              disabled={companyId === null || name.trim() === ''}
            >
              {t('email.invite.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
