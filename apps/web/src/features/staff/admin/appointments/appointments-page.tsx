import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { APPOINTMENT_DURATION_STEP, type AppointmentLinkEntity, type Booking } from '@sportello/contracts';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { useDeskOptions } from '../../api/options';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Day = (typeof DAYS)[number];
type Hours = Record<Day, [string, string][]>;

/** What the form edits: a link without its key (drawn by the server on a create). */
type LinkForm = Omit<AppointmentLinkEntity, 'eventKey'>;

const emptyHours = (): Hours => Object.fromEntries(DAYS.map((d) => [d, []])) as unknown as Hours;

/**
 * Appointments (issue 14 item 4): the portal's booking links (agent, weekly hours, durations in
 * 5-minute steps, days ahead) and their bookings, which an admin can cancel (the customer is e-mailed).
 */
export default function AppointmentsAdminPage() {
  const { t } = useStaffT();
  usePageTitle(t('admin.sections.appointments'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.appointments')}
      </Title>
      <Tabs defaultValue="links" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="links">{t('catalog.appointments.links')}</Tabs.Tab>
          <Tabs.Tab value="bookings">{t('catalog.appointments.bookings')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="links" pt="md">
          <LinksPanel />
        </Tabs.Panel>
        <Tabs.Panel value="bookings" pt="md">
          <BookingsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

const linksKey = (company: string) => [...staffKeys.portal(company), 'admin', 'appointment-links'] as const;

function LinksPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const options = useDeskOptions(company);
  const [editing, setEditing] = useState<AppointmentLinkEntity | 'new' | null>(null);
  const links = useQuery({
    queryKey: linksKey(company),
    queryFn: ({ signal }) => call(catalogAdminRoutes.appointmentLinks, { params: { company }, signal }),
  });
  const agentName = (id: number) => options.data?.agents.find((a) => a.id === id)?.displayName ?? `#${id}`;

  if (editing)
    return <LinkEditor link={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />;
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('catalog.appointments.newLink')}
        </Button>
      </Group>
      <QueryStates
        query={links}
        isEmpty={(data) => data.items.length === 0}
        empty={t('catalog.appointments.noLinks')}
      >
        {(data) => (
          <TableScroll minWidth={560}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('catalog.appointments.title')}</Table.Th>
                  <Table.Th>{t('catalog.appointments.agent')}</Table.Th>
                  <Table.Th>{t('catalog.appointments.duration')}</Table.Th>
                  <Table.Th>{t('catalog.appointments.daysAhead')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((l) => (
                  <Table.Tr key={l.eventKey}>
                    <Table.Td>
                      <Stack gap={0}>
                        <Anchor component="button" type="button" onClick={() => setEditing(l)} ta="left">
                          {l.title}
                        </Anchor>
                        <Anchor
                          href={`/appointments/${encodeURIComponent(company)}/${l.eventKey}`}
                          target="_blank"
                          size="xs"
                        >
                          {t('catalog.appointments.publicPage')}
                        </Anchor>
                      </Stack>
                    </Table.Td>
                    <Table.Td>{agentName(l.agentId)}</Table.Td>
                    <Table.Td>
                      {t('catalog.appointments.minutes', { count: l.defaultDurationMinutes })}
                    </Table.Td>
                    <Table.Td>{l.daysAhead}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
    </Stack>
  );
}

function LinkEditor({ link, onDone }: { link: AppointmentLinkEntity | null; onDone: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const options = useDeskOptions(company);
  const client = useQueryClient();
  const agents = options.data?.agents ?? [];
  const [form, setForm] = useState<LinkForm>(() =>
    link
      ? {
          title: link.title,
          agentId: link.agentId,
          defaultDurationMinutes: link.defaultDurationMinutes,
          slotMinutes: link.slotMinutes,
          daysAhead: link.daysAhead,
          weeklyHours: link.weeklyHours,
        }
      : {
          title: '',
          agentId: agents[0]?.id ?? 0,
          defaultDurationMinutes: 30,
          slotMinutes: 30,
          daysAhead: 30,
          weeklyHours: emptyHours(),
        },
  );
  const set = <K extends keyof LinkForm>(key: K, value: LinkForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const setDay = (day: Day, hours: [string, string][]) =>
    setForm((f) => ({ ...f, weeklyHours: { ...f.weeklyHours, [day]: hours } }));
  const agentId = form.agentId || agents[0]?.id || 0;
  const save = useMutation({
    mutationFn: () =>
      link
        ? call(entityStaffRoutes.updateAppointmentLink, {
            params: { company, eventkey: link.eventKey },
            body: { ...form, agentId },
          })
        : call(entityStaffRoutes.createAppointmentLink, { params: { company }, body: { ...form, agentId } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: linksKey(company) });
      onDone();
    },
  });
  const durationOk = (n: number) => Number.isInteger(n) && n > 0 && n % APPOINTMENT_DURATION_STEP === 0;
  const stepError = t('catalog.appointments.step', { step: APPOINTMENT_DURATION_STEP });

  return (
    <EditorCard
      title={link ? link.title : t('catalog.appointments.newLink')}
      onSave={() => save.mutate()}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
      saveDisabled={!durationOk(form.defaultDurationMinutes)}
    >
      <TextInput
        label={t('catalog.appointments.title')}
        required
        value={form.title}
        onChange={(e) => set('title', e.currentTarget.value)}
      />
      <NativeSelect
        label={t('catalog.appointments.agent')}
        value={String(agentId)}
        onChange={(e) => set('agentId', Number(e.currentTarget.value))}
        data={agents.map((a) => ({ value: String(a.id), label: a.displayName }))}
      />
      <Group grow align="start" wrap="wrap">
        <NumberInput
          label={t('catalog.appointments.duration')}
          min={APPOINTMENT_DURATION_STEP}
          step={APPOINTMENT_DURATION_STEP}
          value={form.defaultDurationMinutes}
          onChange={(v) => set('defaultDurationMinutes', Number(v))}
          error={durationOk(form.defaultDurationMinutes) ? undefined : stepError}
          miw={140}
        />
        <NumberInput
          label={t('catalog.appointments.slot')}
          min={APPOINTMENT_DURATION_STEP}
          step={APPOINTMENT_DURATION_STEP}
          value={form.slotMinutes}
          onChange={(v) => set('slotMinutes', Number(v))}
          miw={140}
        />
        <NumberInput
          label={t('catalog.appointments.daysAhead')}
          min={1}
          max={366}
          value={form.daysAhead}
          onChange={(v) => set('daysAhead', Number(v))}
          miw={140}
        />
      </Group>
      <Text fw={600} size="sm">
        {t('catalog.appointments.weeklyHours')}
      </Text>
      <Stack gap={6}>
        {DAYS.map((day) => (
          <DayHours key={day} day={day} hours={form.weeklyHours[day]} onChange={(h) => setDay(day, h)} />
        ))}
      </Stack>
    </EditorCard>
  );
}

/** One weekday's opening hours: a list of from–to intervals (none: closed). */
function DayHours({
  day,
  hours,
  onChange,
}: {
  day: Day;
  hours: [string, string][];
  onChange: (h: [string, string][]) => void;
}) {
  const { t } = useStaffT();
  const dayName = t(`catalog.days.${day}`);
  const put = (i: number, at: 0 | 1, v: string) =>
    onChange(hours.map((h, j) => (j === i ? ((at === 0 ? [v, h[1]] : [h[0], v]) as [string, string]) : h)));
  return (
    <Group gap="xs" align="center" wrap="wrap">
      <Text size="sm" w={96}>
        {dayName}
      </Text>
      {hours.length === 0 && <Text size="sm">{t('catalog.appointments.closed')}</Text>}
      {hours.map(([from, to], i) => (
        <Group key={i} gap={4} wrap="nowrap">
          <TextInput
            type="time"
            step={300}
            aria-label={t('catalog.appointments.from', { day: dayName })}
            value={from}
            onChange={(e) => put(i, 0, e.currentTarget.value)}
            w={110}
          />
          <Text size="sm">–</Text>
          <TextInput
            type="time"
            step={300}
            aria-label={t('catalog.appointments.to', { day: dayName })}
            value={to}
            onChange={(e) => put(i, 1, e.currentTarget.value)}
            w={110}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('catalog.appointments.removeHours', { day: dayName })}
            onClick={() => onChange(hours.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() => onChange([...hours, ['09:00', '13:00']])}
        aria-label={t('catalog.appointments.addHours', { day: dayName })}
      >
        {t('catalog.appointments.add')}
      </Button>
    </Group>
  );
}

function BookingsPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const client = useQueryClient();
  const [eventKey, setEventKey] = useState('');
  const [all, setAll] = useState(false);
  const [confirm, setConfirm] = useState<Booking | null>(null);
  const links = useQuery({
    queryKey: linksKey(company),
    queryFn: ({ signal }) => call(catalogAdminRoutes.appointmentLinks, { params: { company }, signal }),
  });
  const key = [...staffKeys.portal(company), 'admin', 'bookings', eventKey, all] as const;
  const bookings = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.bookings, {
        params: { company },
        query: { eventKey: eventKey || undefined, when: all ? 'all' : 'upcoming' },
        signal,
      }),
  });
  const cancel = useMutation({
    mutationFn: (b: Booking) =>
      call(catalogAdminRoutes.cancelBooking, { params: { company, bookingid: b.id } }),
    onSuccess: async () => {
      setConfirm(null);
      await client.invalidateQueries({ queryKey: [...staffKeys.portal(company), 'admin', 'bookings'] });
    },
  });
  return (
    <Stack gap="sm">
      <Group gap="md" align="end" wrap="wrap">
        <NativeSelect
          label={t('catalog.appointments.link')}
          value={eventKey}
          onChange={(e) => setEventKey(e.currentTarget.value)}
          data={[
            { value: '', label: t('catalog.appointments.allLinks') },
            ...(links.data?.items ?? []).map((l) => ({ value: l.eventKey, label: l.title })),
          ]}
        />
        <Switch
          label={t('catalog.appointments.includePast')}
          checked={all}
          onChange={(e) => setAll(e.currentTarget.checked)}
        />
      </Group>
      <QueryStates
        query={bookings}
        isEmpty={(data) => data.items.length === 0}
        empty={t('catalog.appointments.noBookings')}
      >
        {(data) => (
          <TableScroll minWidth={640}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('catalog.appointments.when')}</Table.Th>
                  <Table.Th>{t('catalog.appointments.link')}</Table.Th>
                  <Table.Th>{t('catalog.appointments.customer')}</Table.Th>
                  <Table.Th>{t('catalog.appointments.status')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(b.start)}</Table.Td>
                    <Table.Td>{b.title}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {b.firstName} {b.lastName}
                        {b.companyName ? ` · ${b.companyName}` : ''}
                      </Text>
                      <Text size="xs">{[b.email, b.phone].filter(Boolean).join(' · ')}</Text>
                    </Table.Td>
                    <Table.Td>
                      {/* Teal, not green: Mantine's darkest green reaches 4.3:1 on white, under AA. */}
                      <Badge variant="outline" color={b.status === 'booked' ? 'teal.9' : 'gray.7'}>
                        {t(`catalog.appointments.statuses.${b.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {b.status === 'booked' && (
                        <Button size="xs" variant="default" color="red" onClick={() => setConfirm(b)}>
                          {t('catalog.appointments.cancelBooking')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('catalog.appointments.confirmTitle')}
      >
        {confirm && (
          <Stack gap="sm">
            <Text size="sm">
              {t('catalog.appointments.confirmText', {
                name: `${confirm.firstName} ${confirm.lastName}`,
                when: formatDateTime(confirm.start),
              })}
            </Text>
            {cancel.isError && (
              <Alert color="red" variant="light" role="alert">
                {errorText(cancel.error, t)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirm(null)}>
                {t('catalog.appointments.keep')}
              </Button>
              <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate(confirm)}>
                {t('catalog.appointments.cancelBooking')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
