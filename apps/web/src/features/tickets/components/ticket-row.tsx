import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconFileText, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TicketListItem } from '@sportello/contracts';
import { formatDate, formatTime } from '../../../lib/format';
import { isClosedTicket } from '../ticket-filters';
import { TicketNumber } from './ticket-number';
import { TypeBadge } from './type-badge';
import classes from './tickets.module.css';

export interface TicketRowProps {
  ticket: TicketListItem;
  /** Link target of the row. */
  href: string;
  /** The contact may view activity reports: the report link shows. */
  canViewReports: boolean;
  /** All-tickets rows say who created the ticket. */
  showCreator?: boolean;
}

/** One ticket of a list: number, title, type, creation date and time, report, next activity, step. */
export function TicketRow({ ticket, href, canViewReports, showCreator }: TicketRowProps) {
  const { t } = useTranslation();
  const creator = ticket.creatorContactWebUser;
  return (
    <li className={classes.row} data-testid="ticket-row" data-ticket-id={ticket.id}>
      <Stack gap={6}>
        {/* On a phone the type badge moves under the title rather than squeezing it (or being cut). */}
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="nowrap" align="flex-start" style={{ flex: '1 1 220px', minWidth: 0 }}>
            <TicketNumber ticket={ticket} />
            <Anchor component={Link} to={href} className={classes.titleLink} underline="hover">
              {ticket.title}
            </Anchor>
          </Group>
          <TypeBadge type={ticket.taskType} />
        </Group>
        <Group gap="md" wrap="wrap" fz="sm">
          <Group gap={4} wrap="nowrap" c="dimmed">
            <IconCalendarEvent size={16} aria-hidden />
            <Text size="sm" span>
              {t('tickets.createdOn', {
                date: formatDate(ticket.createdOn),
                time: formatTime(ticket.createdOn),
              })}
            </Text>
          </Group>
          <Badge
            variant="light"
            color={isClosedTicket(ticket) ? 'gray' : 'brand'}
            radius="sm"
            tt="none"
            data-testid="ticket-step"
          >
            {ticket.taskStatus.step.name}
          </Badge>
          {showCreator && (
            <Group gap={4} wrap="nowrap" c="dimmed" data-testid="ticket-creator">
              <IconUser size={16} aria-hidden />
              <Text size="sm" span>
                {creator
                  ? t('tickets.createdBy', { name: creator.referentName || creator.companyName })
                  : t('tickets.createdByAgent')}
              </Text>
            </Group>
          )}
        </Group>
        {(ticket.nextPlannedActivityInfo || (canViewReports && ticket.activityReport)) && (
          <Group gap="md" wrap="wrap" justify="space-between">
            {ticket.nextPlannedActivityInfo ? (
              <Text size="sm">{t('tickets.nextActivity', { text: ticket.nextPlannedActivityInfo })}</Text>
            ) : (
              <span />
            )}
            {canViewReports && ticket.activityReport && (
              <Anchor
                href={ticket.activityReport.documentUrl}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                className={classes.above}
                aria-label={t('tickets.openReport', { name: ticket.activityReport.name })}
              >
                <Group gap={4} wrap="nowrap" component="span">
                  <IconFileText size={16} aria-hidden />
                  {t('tickets.activityReport')}
                </Group>
              </Anchor>
            )}
          </Group>
        )}
      </Stack>
    </li>
  );
}
