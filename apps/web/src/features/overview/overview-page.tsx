import { useEffect, type ReactNode } from 'react';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconCalendarEvent,
  IconClockHour4,
  IconFileInvoice,
  IconSignature,
  IconTicket,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Overview, OverviewTicket } from '@sportello/contracts';
import { formatDate, formatDateTime, formatEuro, formatTime, ticketNumberText } from '../../lib/format';
import { contentShown } from '../../lib/first-content';
import { useTenant } from '../../lib/tenant';
import { useTimeSliced } from '../../lib/time-sliced';
import { ListStates } from '../../ui/list-states';
import { usePageTitle } from '../../ui/page-title';
import { useOverview } from './api/overview';
import classes from './overview.module.css';
import { localName } from '../../lib/local-name';

type T = (key: string, opts?: Record<string, unknown>) => string;

/** One card of the overview: a title with its count, its rows, a link to the full list. */
function Card({
  id,
  icon: IconOf,
  title,
  total,
  more,
  empty,
  tone,
  children,
}: {
  id: string;
  icon: Icon;
  title: string;
  total: number;
  more?: { to: string; label: string } | undefined;
  empty: string;
  tone?: 'attention';
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={`overview-${id}`}
      data-testid={`overview-${id}`}
      className={classes.card}
      data-tone={tone}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <IconOf size={20} aria-hidden />
            <Title order={2} size="h4" id={`overview-${id}`}>
              {title}
            </Title>
          </Group>
          <Badge
            variant={tone ? 'filled' : 'light'}
            color={tone ? '#a63b05' : undefined}
            className={classes.count}
            data-testid="overview-count"
          >
            {total}
          </Badge>
        </Group>
        {total === 0 ? (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        ) : (
          <ul className={classes.rows}>{children}</ul>
        )}
        {more && total > 0 && (
          <Anchor component={Link} to={more.to} size="sm">
            {more.label}
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}

function TicketRows({ items, basePath, t }: { items: OverviewTicket[]; basePath: string; t: T }) {
  return items.map((x) => (
    <li key={x.id}>
      <Anchor component={Link} to={`${basePath}/tickets/${x.id}`} fw={600} className={classes.title}>
        {[ticketNumberText(x), x.title].filter(Boolean).join(' · ')}
      </Anchor>
      <Text size="xs" c="dimmed">
        {t('overview.ticketMeta', {
          step: localName({ name: x.stepName, names: x.stepNames }),
          date: formatDate(x.lastActivityAt),
          time: formatTime(x.lastActivityAt),
        })}
      </Text>
    </li>
  ));
}

const hours = (minutes: number, t: T) => {
  const sign = minutes < 0 ? '-' : '';
  const m = Math.abs(minutes);
  return t('overview.hoursLeft', {
    value: `${sign}${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`,
  });
};

function Sections({ data }: { data: Overview }) {
  const { t, i18n } = useTranslation();
  const { basePath, company, contact } = useTenant();
  // The company's list for an administrator, else the contact's own, named for what it holds (a limited
  // contact's "All tickets" led to their own).
  const ticketsLink = contact.administrator
    ? { to: `${basePath}/alltickets?sort=activity`, label: t('overview.allTickets') }
    : contact.manageTickets
      ? { to: `${basePath}/tickets?sort=activity`, label: t('overview.myTickets') }
      : undefined;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {data.waitingTickets && (
        <Card
          id="waiting"
          icon={IconAlertCircle}
          title={t('overview.waiting')}
          total={data.waitingTickets.total}
          empty={t('overview.waitingNone')}
          tone={data.waitingTickets.total > 0 ? 'attention' : undefined}
        >
          <TicketRows items={data.waitingTickets.items} basePath={basePath} t={t} />
        </Card>
      )}
      {data.openTickets && (
        <Card
          id="open"
          icon={IconTicket}
          title={t('overview.open')}
          total={data.openTickets.total}
          empty={t('overview.openNone')}
          more={ticketsLink}
        >
          <TicketRows items={data.openTickets.items} basePath={basePath} t={t} />
        </Card>
      )}
      <Card
        id="signatures"
        icon={IconSignature}
        title={t('overview.signatures')}
        total={data.signatures.total}
        empty={t('overview.signaturesNone')}
      >
        {data.signatures.items.map((s) => (
          <li key={s.documentKey}>
            <Anchor
              component={Link}
              to={`/${encodeURIComponent(company)}/documents/${encodeURIComponent(s.documentKey)}`}
              fw={600}
              className={classes.title}
            >
              {s.documentName}
            </Anchor>
            {s.expiresAt && (
              <Text size="xs" c="dimmed">
                {t('overview.signBefore', { date: formatDate(s.expiresAt) })}
              </Text>
            )}
          </li>
        ))}
      </Card>
      {data.hourBanks && (
        <Card
          id="hours"
          icon={IconClockHour4}
          title={t('overview.hourBanks')}
          total={data.hourBanks.total}
          empty={t('overview.hourBanksNone')}
          more={{ to: `${basePath}/activitycontracts`, label: t('overview.allContracts') }}
        >
          {data.hourBanks.items.map((h) => (
            <li key={h.id}>
              <Text size="sm" fw={600} className={classes.title}>
                {h.name}
              </Text>
              <Text size="sm" c={h.residualMinutes < 0 ? 'red.8' : undefined}>
                {hours(h.residualMinutes, t)} {t('overview.hoursOf', { total: h.hoursAmount })}
              </Text>
            </li>
          ))}
        </Card>
      )}
      <Card
        id="appointments"
        icon={IconCalendarEvent}
        title={t('overview.appointments')}
        total={data.appointments.total}
        empty={t('overview.appointmentsNone')}
      >
        {data.appointments.items.map((a) => (
          <li key={a.startsAt + a.title}>
            <Text size="sm" fw={600}>
              {formatDateTime(a.startsAt)}
            </Text>
            <Text size="sm" className={classes.title}>
              {t('overview.appointmentWith', { title: a.title, agent: a.agentName })}
            </Text>
          </li>
        ))}
      </Card>
      {data.invoices && (
        <Card
          id="invoices"
          icon={IconFileInvoice}
          title={t('overview.invoices')}
          total={data.invoices.total}
          empty={t('overview.invoicesNone')}
          more={{ to: `${basePath}/invoices`, label: t('overview.allInvoices') }}
        >
          {data.invoices.items.map((i) => (
            <li key={i.id} className={classes.invoice}>
              <Text size="sm" fw={600}>
                {i.documentNumber}
              </Text>
              <Text size="sm">{formatEuro(i.total, i18n.language)}</Text>
              <Text size="xs" c="dimmed">
                {formatDate(i.invoiceDate)}
              </Text>
            </li>
          ))}
        </Card>
      )}
    </SimpleGrid>
  );
}

/** The overview (issue 16): what needs the contact, by permission, from one request. */
export default function OverviewPage() {
  const { t } = useTranslation();
  usePageTitle(t('overview.title'));
  const { company, contactId } = useTenant();
  const query = useTimeSliced(useOverview(company, contactId));
  // The cards (or the error) are the page's main content: what waited for them may load.
  const isSettled = !query.isPending;
  useEffect(() => {
    if (isSettled) contentShown();
  }, [isSettled]);
  return (
    <Stack gap="md">
      <Title order={1}>{t('overview.title')}</Title>
      <ListStates query={query} isEmpty={false}>
        {query.data && <Sections data={query.data} />}
      </ListStates>
    </Stack>
  );
}
