import { Badge, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useStaffT } from '../i18n';

/**
 * On a message that came by e-mail whose sender the receiving server could not verify (SPF or DKIM
 * failed, docs/email.md "Trust"): the mark in words, its meaning in the tooltip, and for a screen
 * reader or a touch screen in the badge itself (a tooltip alone reaches neither). Agents only: the
 * customer's API never carries the mark.
 */
export function SenderUnverifiedBadge() {
  const { t } = useStaffT();
  const hint = t('ticket.senderUnverifiedHint');
  return (
    <Tooltip label={hint} multiline w={300} withinPortal events={{ hover: true, focus: true, touch: true }}>
      <Badge
        color="orange"
        variant="light"
        tt="none"
        radius="sm"
        leftSection={<IconAlertTriangle size={12} aria-hidden />}
        tabIndex={0}
        data-testid="sender-unverified"
        style={{ alignSelf: 'flex-start', cursor: 'help' }}
      >
        {t('ticket.senderUnverified')}
        <VisuallyHidden>: {hint}</VisuallyHidden>
      </Badge>
    </Tooltip>
  );
}
