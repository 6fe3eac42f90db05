import { Badge, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketListItem } from '@sportello/contracts';
import { ticketNumberText } from '../../../lib/format';

/** The number badge, shown only when the ticket has a yearly progressive number (above 0). */
export function TicketNumber({
  ticket,
}: {
  ticket: Pick<TicketListItem, 'ticketNumber' | 'internalAnnualProgressive'>;
}) {
  const { t } = useTranslation();
  const number = ticketNumberText(ticket);
  if (!number) return null;
  return (
    <Badge
      variant="outline"
      color="gray.8"
      radius="sm"
      tt="none"
      style={{ flexShrink: 0 }}
      data-testid="ticket-number"
    >
      <VisuallyHidden>{`${t('tickets.number')} `}</VisuallyHidden>
      {number}
    </Badge>
  );
}
