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
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import {
  APPOINTMENT_DURATION_STEP,
  appointmentLinkCreateSchema,
  type AppointmentLinkEntity,
  type Booking,
} from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { useDeskOptions } from '../../api/options';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import {
  useAppointmentLinks,
  useBookings,
  useCancelBooking,
  useSaveAppointmentLink,
} from '../api/appointments';
import { AdminListEditor } from '../components/admin-list-editor';
import { saveWhenValid, validateWith } from '../components/contract-form';

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

function LinksPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const options = useDeskOptions(company);
  const agentName = (id: number) => options.data?.agents.find((a) => a.id === id)?.displayName ?? `#${id}`;
  return (
    <AdminListEditor
      newLabel={t('catalog.appointments.newLink')}
      query={useAppointmentLinks(company)}
      rows={(data) => data.items}
      rowKey={(l) => l.eventKey}
      minWidth={560}
      empty={t('catalog.appointments.noLinks')}
      columns={[
        {
          header: t('catalog.appointments.title'),
          cell: (l, act) => (
            <Stack gap={0}>
              <Anchor component="button" type="button" onClick={act.edit} ta="left">
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
          ),
        },
        { header: t('catalog.appointments.agent'), cell: (l) => agentName(l.agentId) },
        {
          header: t('catalog.appointments.duration'),
          cell: (l) => t('catalog.appointments.minutes', { count: l.defaultDurationMinutes }),
        },
        { header: t('catalog.appointments.daysAhead'), cell: (l) => l.daysAhead },
      ]}
      editor={(link, done) => <LinkEditor link={link} onDone={done} />}
    />
  );
}

function LinkEditor({ link, onDone }: { link: AppointmentLinkEntity | null; onDone: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const options = useDeskOptions(company);
  const agents = options.data?.agents ?? [];
  const form = useForm<LinkForm>({
    initialValues: link
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
    validate: validateWith(
      appointmentLinkCreateSchema,
      (v) => v,
      () => t('auth.requiredField'),
      /^title$/,
    ),
  });
  const values = form.getValues();
  const setDay = (day: Day, hours: [string, string][]) => form.setFieldValue(`weeklyHours.${day}`, hours);
  const agentId = values.agentId || agents[0]?.id || 0;
  const save = useSaveAppointmentLink(company, link?.eventKey ?? null);
  const durationOk = (n: number) => Number.isInteger(n) && n > 0 && n % APPOINTMENT_DURATION_STEP === 0;
  const stepError = t('catalog.appointments.step', { step: APPOINTMENT_DURATION_STEP });

  return (
    <EditorCard
      title={link ? link.title : t('catalog.appointments.newLink')}
      onSave={saveWhenValid(form, (v) => save.mutate({ ...v, agentId }, { onSuccess: onDone }))}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
      saveDisabled={!durationOk(values.defaultDurationMinutes)}
    >
      <TextInput label={t('catalog.appointments.title')} required {...form.getInputProps('title')} />
      <NativeSelect
        label={t('catalog.appointments.agent')}
        value={String(agentId)}
        onChange={(e) => form.setFieldValue('agentId', Number(e.currentTarget.value))}
        data={agents.map((a) => ({ value: String(a.id), label: a.displayName }))}
      />
      <Group grow align="start" wrap="wrap">
        <NumberInput
          label={t('catalog.appointments.duration')}
          min={APPOINTMENT_DURATION_STEP}
          step={APPOINTMENT_DURATION_STEP}
          value={values.defaultDurationMinutes}
          onChange={(v) => form.setFieldValue('defaultDurationMinutes', Number(v))}
          error={durationOk(values.defaultDurationMinutes) ? undefined : stepError}
          miw={140}
        />
        <NumberInput
          label={t('catalog.appointments.slot')}
          min={APPOINTMENT_DURATION_STEP}
          step={APPOINTMENT_DURATION_STEP}
          value={values.slotMinutes}
          onChange={(v) => form.setFieldValue('slotMinutes', Number(v))}
          miw={140}
        />
        <NumberInput
          label={t('catalog.appointments.daysAhead')}
          min={1}
          max={366}
          value={values.daysAhead}
          onChange={(v) => form.setFieldValue('daysAhead', Number(v))}
          miw={140}
        />
      </Group>
      <Text fw={600} size="sm">
        {t('catalog.appointments.weeklyHours')}
      </Text>
      <Stack gap={6}>
        {DAYS.map((day) => (
          <DayHours key={day} day={day} hours={values.weeklyHours[day]} onChange={(h) => setDay(day, h)} />
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
  const [eventKey, setEventKey] = useState('');
  const [all, setAll] = useState(false);
  const [confirm, setConfirm] = useState<Booking | null>(null);
  const links = useAppointmentLinks(company);
  const cancel = useCancelBooking(company);
  return (
    <AdminListEditor
      before={
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
      }
      query={useBookings(company, eventKey, all)}
      rows={(data) => data.items}
      rowKey={(b) => b.id}
      minWidth={640}
      highlightOnHover={false}
      empty={t('catalog.appointments.noBookings')}
      columns={[
        {
          header: t('catalog.appointments.when'),
          td: { style: { whiteSpace: 'nowrap' } },
          cell: (b) => formatDateTime(b.start),
        },
        { header: t('catalog.appointments.link'), cell: (b) => b.title },
        {
          header: t('catalog.appointments.customer'),
          cell: (b) => (
            <>
              <Text size="sm">
                {b.firstName} {b.lastName}
                {b.companyName ? ` · ${b.companyName}` : ''}
              </Text>
              <Text size="xs">{[b.email, b.phone].filter(Boolean).join(' · ')}</Text>
            </>
          ),
        },
        {
          header: t('catalog.appointments.status'),
          cell: (b) => (
            // Teal, not green: Mantine's darkest green reaches 4.3:1 on white, under AA.
            <Badge variant="outline" color={b.status === 'booked' ? 'teal.9' : 'gray.7'}>
              {t(`catalog.appointments.statuses.${b.status}`)}
            </Badge>
          ),
        },
        {
          cell: (b) =>
            b.status === 'booked' && (
              <Button size="xs" variant="default" color="red" onClick={() => setConfirm(b)}>
                {t('catalog.appointments.cancelBooking')}
              </Button>
            ),
        },
      ]}
      footer={
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
                <Button
                  color="red"
                  loading={cancel.isPending}
                  onClick={() => cancel.mutate(confirm.id, { onSuccess: () => setConfirm(null) })}
                >
                  {t('catalog.appointments.cancelBooking')}
                </Button>
              </Group>
            </Stack>
          )}
        </Modal>
      }
    />
  );
}
