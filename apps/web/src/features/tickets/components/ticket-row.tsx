import { memo } from 'react';
import { Anchor, Badge, Text, VisuallyHidden } from '@mantine/core';
import { IconCalendarEvent, IconFileText, IconUser } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { TicketListItem } from '@sportello/contracts';
import { formatDate, formatTime, ticketNumberText } from '../../../lib/format';
import { isClosedTicket } from '../ticket-filters';
import { typeBadgeColours } from '../../../ui/type-colour';
import classes from './tickets.module.css';
import { localName } from '../../../lib/local-name';

export interface TicketRowProps {
  ticket: TicketListItem;
  /** Link target of the row. */
  href: string;
  /** The contact may view activity reports: the report link shows. */
  canViewReports: boolean;
  /** All-tickets rows say who created the ticket. */
  showCreator?: boolean;
  /** The list's translate function (one subscription per list, not one per row). */
  t: TFunction;
  /** The list the row belongs to, handed to the ticket page for its way back. */
  from?: TicketListName;
  /** A public message the user has not read (issue 16). */
  isUnread?: boolean;
}

/** Which list a ticket was opened from (router state of its page): its back link returns there. */
export type TicketListName = 'tickets' | 'alltickets';

/*
 * A list shows up to hundreds of rows, so a row is plain elements wearing Mantine's own classes (Badge,
 * Text, Anchor: the same look, and the same `mantine-*-root` hooks for a portal's custom CSS) instead of
 * fifteen Mantine components: those resolve props, theme and styles per element, and 200 rows of them
 * took seconds of main thread on a slow phone. The variables Mantine's resolvers would set inline are
 * in tickets.module.css. The detail page keeps the components (TicketNumber, TypeBadge): one of each.
 */
const TEXT = `mantine-focus-auto ${Text.classes.root} mantine-Text-root`;
const ANCHOR = `${TEXT} ${Anchor.classes.root} mantine-Anchor-root`;
const BADGE = `${Badge.classes.root} mantine-Badge-root ${classes.badge}`;
const BADGE_LABEL = `${Badge.classes.label} mantine-Badge-label`;
const HIDDEN = `${VisuallyHidden.classes.root} mantine-VisuallyHidden-root`;

const typeColours = new Map<string, ReturnType<typeof typeBadgeColours>>();
/** Types repeat down a list: each colour is parsed once. */
function coloursOf(colour: string | null | undefined) {
  const key = colour ?? '';
  if (!typeColours.has(key)) typeColours.set(key, typeBadgeColours(colour));
  return typeColours.get(key)!;
}

/** One ticket of a list: number, title, type, creation date and time, report, next activity, step. */
export const TicketRow = memo(function TicketRow({
  ticket,
  href,
  canViewReports,
  showCreator,
  t,
  from,
  isUnread = false,
}: TicketRowProps) {
  const creator = ticket.creatorContactWebUser;
  const isWaiting = ticket.waitingOnCustomer;
  const type = coloursOf(ticket.taskType.color);
  const report = canViewReports ? ticket.activityReport : null;
  const number = ticketNumberText(ticket);
  return (
    <li
      className={classes.row}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      data-waiting={isWaiting || undefined}
      data-unread={isUnread || undefined}
    >
      <div className={classes.rowBody}>
        {/* On a phone the type badge moves under the title rather than squeezing it (or being cut). */}
        <div className={classes.rowHead}>
          <div className={classes.rowTitle}>
            {number && (
              <div
                className={`${BADGE} ${classes.numberBadge}`}
                data-variant="outline"
                data-testid="ticket-number"
              >
                <span className={BADGE_LABEL}>
                  <span className={HIDDEN}>{`${t('tickets.number')} `}</span>
                  {number}
                </span>
              </div>
            )}
            {isUnread && (
              <span className={classes.unreadDot} data-testid="ticket-unread">
                <span className={HIDDEN}>{t('following.unread')}</span>
              </span>
            )}
            <Link
              to={href}
              state={from ? { from } : undefined}
              className={`${ANCHOR} ${classes.titleLink}`}
              data-underline="hover"
              data-unread={isUnread || undefined}
            >
              {ticket.title}
            </Link>
          </div>
          <div
            className={`${BADGE} ${classes.typeBadge}`}
            data-variant={type ? 'filled' : 'default'}
            style={type ? { backgroundColor: type.background, color: type.text } : undefined}
            data-testid="ticket-type"
          >
            <span className={BADGE_LABEL}>{localName(ticket.taskType)}</span>
          </div>
        </div>
        <div className={classes.rowMeta}>
          {isWaiting && (
            <div
              className={`${BADGE} ${classes.waitingBadge}`}
              data-variant="filled"
              data-testid="ticket-waiting"
            >
              <span className={BADGE_LABEL}>{t('following.waiting')}</span>
            </div>
          )}
          <div className={classes.dimmed}>
            <IconCalendarEvent size={16} aria-hidden />
            <span className={`${TEXT} ${classes.sm}`}>
              {t('tickets.createdOn', {
                date: formatDate(ticket.createdOn),
                time: formatTime(ticket.createdOn),
              })}
            </span>
          </div>
          {/* One badge says whose turn it is: a ticket that waits for the customer shows that, not also its
              step (often named "In attesa cliente" too); the ticket's page shows the step. */}
          {!isWaiting && (
            <div
              className={`${BADGE} ${classes.stepBadge}`}
              data-variant="light"
              data-closed={isClosedTicket(ticket) || undefined}
              data-testid="ticket-step"
            >
              <span className={BADGE_LABEL}>{localName(ticket.taskStatus.step)}</span>
            </div>
          )}
          {showCreator && (
            <div className={classes.dimmed} data-testid="ticket-creator">
              <IconUser size={16} aria-hidden />
              <span className={`${TEXT} ${classes.sm}`}>
                {creator
                  ? t('tickets.createdBy', { name: creator.referentName || creator.companyName })
                  : t('tickets.createdByAgent')}
              </span>
            </div>
          )}
        </div>
        {(ticket.nextPlannedActivityInfo || report) && (
          <div className={classes.rowFoot}>
            {ticket.nextPlannedActivityInfo ? (
              <p className={`${TEXT} ${classes.sm}`}>
                {t('tickets.nextActivity', { text: ticket.nextPlannedActivityInfo })}
              </p>
            ) : (
              <span />
            )}
            {report && (
              <a
                href={report.documentUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={`${ANCHOR} ${classes.sm} ${classes.above}`}
                data-underline="hover"
                aria-label={t('tickets.openReport', { name: report.name })}
              >
                <span className={classes.inline}>
                  <IconFileText size={16} aria-hidden />
                  {t('tickets.activityReport')}
                </span>
              </a>
            )}
          </div>
        )}
      </div>
    </li>
  );
});
