import { Alert, Button, Group, Text } from '@mantine/core';
import type { EmailBounce } from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { useBounces, useClearBounce } from './email-api';

/**
 * "Address bouncing" on a contact (docs/email.md "Loops"): the last delivery report's date and reason,
 * and Clear once the address was corrected or its mailbox works again.
 */
export function BounceNotice({ address }: { address: string | null | undefined }) {
  const { company } = useDesk();
  const valid = address && /^[^@\s]+@[^@\s]+$/.test(address) ? address.trim() : null;
  const bounces = useBounces(company, valid);
  const bounce = bounces.data?.items[0];
  return bounce ? <BounceLine bounce={bounce} /> : null;
}

export function BounceLine({ bounce, compact }: { bounce: EmailBounce; compact?: boolean }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const clear = useClearBounce(company);
  const text = t('email.bounce.text', {
    when: formatDateTime(bounce.bouncedAt),
    reason: bounce.reason || '—',
  });
  const button = (
    <Button
      size="xs"
      variant="default"
      loading={clear.isPending}
      onClick={() => clear.mutate(bounce.address)}
    >
      {t('email.bounce.clear')}
    </Button>
  );
  if (compact) return button;
  return (
    <Alert color="orange" variant="light" title={t('email.bounce.title')} data-testid="bounce-notice">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{text}</Text>
        {button}
      </Group>
      {clear.isError && (
        <Text size="sm" c="red" role="alert">
          {errorText(clear.error, t)}
        </Text>
      )}
    </Alert>
  );
}

/** The mark in a list of contacts (a company's): its address bounces; the contact's page says when and why. */
export function BouncingMark() {
  const { t } = useStaffT();
  return (
    <Text size="xs" c="red.9" fw={700} data-testid="bouncing">
      {t('email.bounce.title')}
    </Text>
  );
}
