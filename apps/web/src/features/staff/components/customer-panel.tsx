import type { ReactNode } from 'react';
import { Anchor, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconMail, IconPhone } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDate, formatDateTime, formatEuro } from '../../../lib/format';
import { useTicketContext } from '../api/context';
import { useDesk } from '../desk-context';
import { useStaffT } from '../i18n';
import { staffPath, staffTicketPath } from '../staff-paths';

/** Minutes as hours and minutes: 990 → "16 h 30 min". */
const hoursOf = (minutes: number) => {
  const sign = minutes < 0 ? '−' : '';
  const m = Math.abs(minutes);
  return `${sign}${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
};

/**
 * The customer beside the ticket (issue 28 item 10): the requester's e-mail and phone, their company,
 * their other open tickets, and what only Sportello knows of the company — contracts running with the
 * hour bank's balance, the unpaid invoices (admins), documents waiting for a signature, upcoming
 * appointments. Each links to the desk's screen for it: the tickets for every member, the
 * administration's screens for its admins (agents see the facts without a link they could not open).
 */
export function CustomerPanel({ company, ticketId }: { company: string; ticketId: number }) {
  const { t, i18n } = useStaffT();
  const isAdmin = useDesk().portal.role === 'admin';
  const query = useTicketContext(company, ticketId);
  const admin = (rest: string) => staffPath(company, `admin/${rest}`);
  const lang = i18n.language;

  if (query.isPending)
    return (
      <Paper withBorder p="md" aria-busy="true">
        <Skeleton height={16} width="60%" mb="sm" />
        <Skeleton height={60} />
      </Paper>
    );
  if (query.isError)
    return (
      <Paper withBorder p="md">
        <Text size="sm" c="dimmed">
          {t('customer.error')}
        </Text>
      </Paper>
    );
  const c = query.data;
  const to = (path: string | null, text: ReactNode) =>
    path ? (
      <Anchor component={Link} to={path} size="sm">
        {text}
      </Anchor>
    ) : (
      <Text size="sm" span>
        {text}
      </Text>
    );
  const more = (total: number, shown: number, path: string | null) =>
    total > shown ? to(path, t('customer.more', { count: total - shown })) : null;

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="customer-title"
      data-testid="customer-panel"
    >
      <Stack gap="sm">
        <Title order={2} size="h5" id="customer-title">
          {t('customer.title')}
        </Title>
        {c.contact ? (
          <Stack gap={2}>
            {to(isAdmin ? admin(`companies/${c.company.id}/contacts/${c.contact.id}`) : null, c.contact.name)}
            {c.contact.email && (
              <Group gap={4} wrap="nowrap">
                <IconMail size={14} aria-hidden />
                <Anchor href={`mailto:${c.contact.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {c.contact.email}
                </Anchor>
              </Group>
            )}
            {c.contact.phone && (
              <Group gap={4} wrap="nowrap">
                <IconPhone size={14} aria-hidden />
                <Anchor href={`tel:${c.contact.phone.replace(/\s+/g, '')}`} size="sm">
                  {c.contact.phone}
                </Anchor>
              </Group>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('customer.noContact')}
          </Text>
        )}
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            {t('customer.company')}
          </Text>
          {to(isAdmin ? admin(`companies/${c.company.id}`) : null, c.company.name)}
        </Group>

        <Section title={t('customer.openTickets')} total={c.openTickets.total} testId="customer-tickets">
          {c.openTickets.items.map((i) => (
            <Stack key={i.id} gap={0}>
              {to(staffTicketPath(company, i.id), `${i.ticketNumber || `#${i.id}`} · ${i.title}`)}
              <Text size="xs" c="dimmed">
                {i.stepName} · {formatDateTime(i.lastActivityAt)}
              </Text>
            </Stack>
          ))}
          {more(c.openTickets.total, c.openTickets.items.length, null)}
        </Section>

        <Section title={t('customer.contracts')} total={c.contracts.total} testId="customer-contracts">
          {c.contracts.items.map((k) => (
            <Stack key={k.id} gap={0}>
              {to(isAdmin ? `${admin('contracts')}?company=${c.company.id}` : null, k.name)}
              {k.residualMinutes !== null && (
                <Text
                  size="xs"
                  c={k.residualMinutes <= 0 ? 'red.9' : 'dimmed'}
                  fw={k.residualMinutes <= 0 ? 700 : undefined}
                >
                  {t('customer.hoursLeft', { left: hoursOf(k.residualMinutes), of: k.hoursAmount ?? 0 })}
                </Text>
              )}
              {k.end && (
                <Text size="xs" c="dimmed">
                  {t('customer.until', { date: formatDate(k.end) })}
                </Text>
              )}
            </Stack>
          ))}
          {more(
            c.contracts.total,
            c.contracts.items.length,
            isAdmin ? `${admin('contracts')}?company=${c.company.id}` : null,
          )}
        </Section>

        {c.invoices && (
          <Section title={t('customer.invoices')} total={c.invoices.total} testId="customer-invoices">
            {c.invoices.items.map((i) => (
              <Stack key={i.id} gap={0}>
                <Group gap={6} justify="space-between" wrap="nowrap">
                  {to(`${admin('documents')}?company=${c.company.id}`, i.documentNumber)}
                  <Text size="xs" c="dimmed">
                    {formatEuro(i.total, lang)}
                  </Text>
                </Group>
                <Text size="xs" c={i.overdue ? 'red.9' : 'dimmed'} fw={i.overdue ? 700 : undefined}>
                  {t(i.overdue ? 'customer.overdue' : 'customer.dueBy', { date: formatDate(i.dueDate) })}
                </Text>
              </Stack>
            ))}
            {more(c.invoices.total, c.invoices.items.length, `${admin('documents')}?company=${c.company.id}`)}
          </Section>
        )}

        <Section title={t('customer.signatures')} total={c.signatures.total} testId="customer-signatures">
          {c.signatures.items.map((s) => (
            <Stack key={s.documentKey} gap={0}>
              {to(
                isAdmin ? `${admin('signatures')}?request=${encodeURIComponent(s.documentKey)}` : null,
                s.documentName,
              )}
              <Text size="xs" c="dimmed">
                {s.contactName}
                {s.expiresAt ? ` · ${t('customer.until', { date: formatDate(s.expiresAt) })}` : ''}
              </Text>
            </Stack>
          ))}
          {more(c.signatures.total, c.signatures.items.length, isAdmin ? admin('signatures') : null)}
        </Section>

        <Section
          title={t('customer.appointments')}
          total={c.appointments.total}
          testId="customer-appointments"
        >
          {c.appointments.items.map((a) => (
            <Stack key={a.id} gap={0}>
              {to(isAdmin ? admin('appointments') : null, a.title)}
              <Text size="xs" c="dimmed">
                {formatDateTime(a.startsAt)} · {a.agentName}
              </Text>
            </Stack>
          ))}
          {more(c.appointments.total, c.appointments.items.length, isAdmin ? admin('appointments') : null)}
        </Section>
      </Stack>
    </Paper>
  );
}

function Section({
  title,
  total,
  testId,
  children,
}: {
  title: string;
  total: number;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useStaffT();
  return (
    <Stack gap={4} data-testid={testId}>
      <Group gap={6}>
        <Text size="sm" fw={700}>
          {title}
        </Text>
        <Badge size="sm" variant="light" color="gray">
          {total}
        </Badge>
      </Group>
      {total === 0 ? (
        <Text size="xs" c="dimmed">
          {t('customer.none')}
        </Text>
      ) : (
        children
      )}
    </Stack>
  );
}
