import { memo } from 'react';
import { Badge } from '@mantine/core';
import type { InboxItem } from '@sportello/contracts';
import type { TicketPriority } from '@sportello/contracts/staff-views';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { TypeBadge } from '../../../ui/type-badge';
import { staffTicketPath } from '../staff-paths';
import { badgeVars } from './badge-vars';
import { PriorityBadge } from './priority-badge';
import { SlaBadge } from './sla-badge';
import classes from './inbox.module.css';

// Made once: a row's badges are drawn for every row of the list.
const BRAND = badgeVars('brand');
const GRAY = badgeVars('gray');

/** The row's fixed words, translated once per list (inbox-page.tsx) rather than in every row. */
export interface InboxRowLabels {
  unread: string;
  waiting: string;
  unassigned: string;
  /** "Rating": said before the row's "2/5". */
  rating: string;
  /** Each priority's words. */
  priority: Record<TicketPriority, string>;
  /** "Due": said before the due date; "Overdue": instead, once it has passed (open tickets). */
  due: string;
  overdue: string;
  /** "Tags": said before the row's tags. */
  tags: string;
  /** "Select": the row's checkbox, said with the ticket's number. */
  select: string;
}

/**
 * One ticket of the inbox: unread marker, number and title (the link that opens it), who and what,
 * and when it last moved. The company and the contact are links that narrow the inbox to them.
 *
 * Drawn with plain elements and the list's own classes (inbox.module.css) rather than Mantine's Group,
 * Anchor, Text and VisuallyHidden, which look the same here: the first screen of rows is most of the
 * inbox's first render, and each of those components cost a slow phone's main thread its style props,
 * class names and inline CSS variables, ten times a row.
 */
export const InboxRow = memo(function InboxRow({
  item,
  company,
  search,
  filterLink,
  labels,
  selected,
  onSelect,
}: {
  item: InboxItem;
  company: string;
  /** The inbox's URL search, so the ticket's Back link returns to this very list. */
  search: string;
  filterLink: (key: 'company' | 'contact', id: number) => string;
  labels: InboxRowLabels;
  selected: boolean;
  /** A click on the row's checkbox; `range`: with shift, from the last one clicked. */
  onSelect: (id: number, range: boolean) => void;
}) {
  // Whether the due date has passed: as drawn, not live (the list is drawn again as it changes).
  const overdue = item.dueAt !== null && !item.closed && Date.parse(item.dueAt) < Date.now();
  return (
    <li
      className={classes.row}
      data-testid="inbox-row"
      data-unread={item.unread || undefined}
      data-selected={selected || undefined}
    >
      <input
        type="checkbox"
        className={classes.select}
        checked={selected}
        aria-label={`${labels.select} ${item.ticketNumber}`}
        data-testid="row-select"
        onClick={(e) => {
          e.preventDefault();
          onSelect(item.id, e.shiftKey);
        }}
        onChange={() => undefined}
      />
      <span className={classes.unreadDot} data-on={item.unread || undefined} aria-hidden />
      <div className={classes.rowMain}>
        <div className={classes.titleLine}>
          <Link
            to={staffTicketPath(company, item.id)}
            state={{ inbox: search }}
            className={classes.rowLink}
            data-row-link
            data-unread={item.unread || undefined}
          >
            {item.unread && <span className={classes.visuallyHidden}>{labels.unread}: </span>}
            <span className={classes.number} data-testid="row-number">
              {item.ticketNumber}
            </span>{' '}
            {item.title}
          </Link>
        </div>
        <div className={classes.meta}>
          <Link to={filterLink('company', item.company.id)} className={classes.metaLink}>
            {item.company.name}
          </Link>
          {item.contact && (
            <Link to={filterLink('contact', item.contact.id)} className={classes.metaLink}>
              {item.contact.referentName}
            </Link>
          )}
          <PriorityBadge priority={item.priority} label={labels.priority[item.priority]} />
          <SlaBadge sla={item.sla} />
          <TypeBadge type={item.type} />
          <Badge
            variant="light"
            color={item.closed ? 'gray' : 'brand'}
            vars={item.closed ? GRAY : BRAND}
            radius="sm"
            tt="none"
            size="sm"
          >
            {item.step.name}
          </Badge>
          {item.rating !== null && (
            <Badge
              variant="outline"
              color="gray"
              vars={GRAY}
              radius="sm"
              tt="none"
              size="sm"
              data-testid="row-rating"
            >
              <span aria-hidden>★ </span>
              <span className={classes.visuallyHidden}>{labels.rating} </span>
              {item.rating}/5
            </Badge>
          )}
          {item.tags.length > 0 && (
            <span className={classes.tags} data-testid="row-tags">
              <span className={classes.visuallyHidden}>{labels.tags}: </span>
              {item.tags.map((g) => (
                <span key={g.id} className={classes.tag}>
                  #{g.name}
                </span>
              ))}
            </span>
          )}
          {item.waitingOnCustomer && !item.closed && (
            <Badge variant="outline" color="gray" vars={GRAY} radius="sm" tt="none" size="sm">
              {labels.waiting}
            </Badge>
          )}
        </div>
      </div>
      <div className={classes.rowSide}>
        <p
          className={classes.sideText}
          data-dimmed={item.assignee ? undefined : true}
          data-testid="row-assignee"
          data-truncate
        >
          {item.assignee?.displayName ?? labels.unassigned}
          {item.group ? ` · ${item.group.name}` : ''}
        </p>
        <p className={classes.sideText} data-dimmed>
          <time dateTime={item.lastActivityAt}>{formatDateTime(item.lastActivityAt)}</time>
        </p>
        {item.dueAt !== null && (
          <p className={classes.sideText} data-overdue={overdue || undefined} data-testid="row-due">
            {overdue ? '⚠ ' : ''}
            {overdue ? labels.overdue : labels.due}{' '}
            <time dateTime={item.dueAt}>{formatDateTime(item.dueAt)}</time>
          </p>
        )}
      </div>
    </li>
  );
});
