import { lazy, Suspense } from 'react';
import { Badge, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { loadRestStyles } from '../../../styles/load-rest-styles';
import { useStaffT } from '../i18n';

/**
 * The hover label comes lazily, as the conversation's mail mark's (ui/conversation-message.tsx): Mantine's
 * Tooltip brings the Popover family and floating-ui, which nothing else of the ticket's first screen
 * needs; the badge, which says it all in words, shows without it until it comes.
 */
const Tooltip = lazy(() => Promise.all([import('../../../ui/tooltip'), loadRestStyles()]).then(([m]) => m));

/**
 * On a message that came by e-mail whose sender the receiving server could not verify (SPF or DKIM
 * failed, docs/email.md "Trust"): the mark in words, its meaning in the tooltip, and for a screen
 * reader or a touch screen in the badge itself (a tooltip alone reaches neither). Agents only: the
 * customer's API never carries the mark.
 */
export function SenderUnverifiedBadge() {
  const { t } = useStaffT();
  const hint = t('ticket.senderUnverifiedHint');
  const badge = (
    <Badge
      color="orange"
      variant="light"
      tt="none"
      radius="sm"
      // Mantine writes a light badge's words in shade 6 (under 3:1 on its tint): the text colour instead,
      // with the orange in the tint and the icon.
      vars={() => ({ root: { '--badge-color': 'var(--mantine-color-text)' } })}
      leftSection={<IconAlertTriangle size={12} aria-hidden color="var(--mantine-color-orange-filled)" />}
      tabIndex={0}
      data-testid="sender-unverified"
      style={{ alignSelf: 'flex-start', cursor: 'help' }}
    >
      {t('ticket.senderUnverified')}
      <VisuallyHidden>: {hint}</VisuallyHidden>
    </Badge>
  );
  return (
    <Suspense fallback={badge}>
      <Tooltip label={hint} multiline w={300} withinPortal events={{ hover: true, focus: true, touch: true }}>
        {badge}
      </Tooltip>
    </Suspense>
  );
}
