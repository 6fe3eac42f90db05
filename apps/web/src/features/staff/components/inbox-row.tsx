import { memo } from 'react';
import { Anchor, Badge, Group, Text, VisuallyHidden } from '@mantine/core';
import type { InboxItem } from '@sportello/contracts';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { TypeBadge } from '../../../ui/type-badge';
import { useStaffT } from '../i18n';
import { staffTicketPath } from '../staff-paths';
import classes from './inbox.module.css';

/**
 * One ticket of the inbox: unread marker, number and title (the link that opens it), who and what,
 * and when it last moved. The company and the contact are links that narrow the inbox to them.
 */
export const InboxRow = memo(function InboxRow({
  item,
  company,
  search,
  filterLink,
}: {
  item: InboxItem;
  company: string;
  /** The inbox's URL search, so the ticket's Back link returns to this very list. */
  search: string;
  filterLink: (key: 'company' | 'contact', id: number) => string;
}) {
  const { t } = useStaffT();
  return (
    <li className={classes.row} data-testid="inbox-row" data-unread={item.unread || undefined}>
      <span className={classes.unreadDot} data-on={item.unread || undefined} aria-hidden />
      <div className={classes.rowMain}>
        <Group gap={6} wrap="nowrap" miw={0}>
          <Anchor
            component={Link}
            to={staffTicketPath(company, item.id)}
            state={{ inbox: search }}
            className={classes.rowLink}
            data-row-link
            fw={item.unread ? 700 : 500}
          >
            {item.unread && <VisuallyHidden>{t('inbox.unread')}: </VisuallyHidden>}
            <span className={classes.number} data-testid="row-number">
              {item.ticketNumber}
            </span>{' '}
            {item.title}
          </Anchor>
        </Group>
        <Group gap={6} className={classes.meta} wrap="wrap">
          <Anchor
            component={Link}
            to={filterLink('company', item.company.id)}
            size="xs"
            c="dimmed"
            underline="hover"
          >
            {item.company.name}
          </Anchor>
          {item.contact && (
            <Anchor
              component={Link}
              to={filterLink('contact', item.contact.id)}
              size="xs"
              c="dimmed"
              underline="hover"
            >
              {item.contact.referentName}
            </Anchor>
          )}
          <TypeBadge type={item.type} />
          <Badge variant="light" color={item.closed ? 'gray' : 'brand'} radius="sm" tt="none" size="sm">
            {item.step.name}
          </Badge>
          {item.waitingOnCustomer && !item.closed && (
            <Badge variant="outline" color="gray" radius="sm" tt="none" size="sm">
              {t('inbox.waitingBadge')}
            </Badge>
          )}
        </Group>
      </div>
      <div className={classes.rowSide}>
        <Text size="xs" c={item.assignee ? undefined : 'dimmed'} data-testid="row-assignee" truncate>
          {item.assignee?.displayName ?? t('inbox.unassigned')}
          {item.group ? ` · ${item.group.name}` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          <time dateTime={item.lastActivityAt}>{formatDateTime(item.lastActivityAt)}</time>
        </Text>
      </div>
    </li>
  );
});
