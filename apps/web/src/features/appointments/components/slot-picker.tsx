import { useMemo, useState } from 'react';
import { Alert, Box, Button, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import '@mantine/dates/styles.layer.css';
import { useTranslation } from 'react-i18next';
import type { AppointmentLink, AppointmentSlot } from '@sportello/contracts';
import { dayjs } from '../../../lib/dates';
import { formatDate, formatTime } from '../../../lib/format';
import { zoneOffsetLabel } from '../../../lib/zone-days';
import { ListError } from '../../../ui/list-states';
import { useAppointmentSlots } from '../api/appointment-slots';

const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const endOfMonth = (month: string) => dayjs(month).endOf('month').format('YYYY-MM-DD');

/** The days of the shown month that can hold a slot: the month clamped to the link's window. */
export function monthRange(month: string, link: Pick<AppointmentLink, 'firstDay' | 'lastDay'>) {
  const from = month < link.firstDay ? link.firstDay : month;
  const last = endOfMonth(month);
  const to = last > link.lastDay ? link.lastDay : last;
  return from <= to ? { from, to } : null;
}

/**
 * Slot labels as HH:mm in the portal's zone. On the night clocks go back an hour, one wall-clock time
 * names two slots: those get their UTC offset, so the two buttons never read the same.
 */
export function slotLabels(slots: AppointmentSlot[], timeZone: string): string[] {
  const plain = slots.map((s) => formatTime(s.start));
  return plain.map((label, i) =>
    plain.indexOf(label) !== plain.lastIndexOf(label)
      ? `${label} (UTC${zoneOffsetLabel(slots[i]!.start, timeZone)})`
      : label,
  );
}

export interface SlotPickerProps {
  company: string;
  eventKey: string;
  link: AppointmentLink;
  duration: number;
  day: string | null;
  slot: AppointmentSlot | null;
  onDayChange: (day: string | null) => void;
  onSlotChange: (slot: AppointmentSlot | null) => void;
}

/** A month calendar where only days with free slots can be chosen, then that day's slots as buttons. */
export function SlotPicker({
  company,
  eventKey,
  link,
  duration,
  day,
  slot,
  onDayChange,
  onSlotChange,
}: SlotPickerProps) {
  const { t, i18n } = useTranslation();
  const [month, setMonth] = useState(() => monthOf(day ?? link.firstDay));
  const range = monthRange(month, link);
  const slots = useAppointmentSlots(company, eventKey, range, duration);
  const byDay = useMemo(() => new Map((slots.data?.days ?? []).map((d) => [d.date, d.slots])), [slots.data]);
  // The answer shown may still be the previous month's (placeholder) while this one loads.
  const isCurrent = !slots.isPlaceholderData && slots.isSuccess;
  const daySlots = day ? (byDay.get(day) ?? []) : [];
  const labels = slotLabels(daySlots, link.timeZone);

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <Stack gap="xs">
        <Title order={2} size="h4" id="booking-day-title">
          {t('appointments.chooseDay')}
        </Title>
        <Text size="sm" c="dimmed" id="booking-day-hint">
          {t('appointments.calendarHint')}
        </Text>
        <Box aria-labelledby="booking-day-title" aria-describedby="booking-day-hint" role="group">
          <DatePicker
            locale={i18n.language.slice(0, 2)}
            firstDayOfWeek={1}
            maxLevel="month"
            date={month}
            onDateChange={(d) => setMonth(monthOf(d))}
            minDate={link.firstDay}
            maxDate={link.lastDay}
            value={day}
            onChange={(d) => {
              onDayChange(d);
              onSlotChange(null);
            }}
            excludeDate={(d) => !isCurrent || !byDay.has(d)}
            getDayAriaLabel={(d) => dayjs(d).locale(i18n.language.slice(0, 2)).format('dddd D MMMM YYYY')}
            ariaLabels={{
              previousMonth: t('appointments.calendar.previousMonth'),
              nextMonth: t('appointments.calendar.nextMonth'),
              monthLevelControl: t('appointments.calendar.monthLevel'),
            }}
            size="md"
          />
        </Box>
        {slots.isFetching && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('appointments.loadingSlots')}</Text>
          </Group>
        )}
        {slots.isError && <ListError onRetry={() => void slots.refetch()} />}
        {isCurrent && byDay.size === 0 && (
          <Text size="sm" role="status">
            {t('appointments.noSlotsMonth')}
          </Text>
        )}
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4" id="booking-times-title">
          {t('appointments.timesIn', { zone: link.timeZone })}
        </Title>
        {!day || daySlots.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('appointments.chooseDayFirst')}
          </Text>
        ) : (
          <>
            <Text size="sm" id="booking-times-day">
              {t('appointments.timesOf', { date: formatDate(daySlots[0]!.start) })}
            </Text>
            <Group gap="xs" role="group" aria-labelledby="booking-times-title booking-times-day">
              {daySlots.map((s, i) => {
                const isSelected = slot?.start === s.start;
                return (
                  <Button
                    key={s.start}
                    variant={isSelected ? 'filled' : 'default'}
                    aria-pressed={isSelected}
                    onClick={() => onSlotChange(isSelected ? null : s)}
                    miw={88}
                  >
                    {labels[i]}
                  </Button>
                );
              })}
            </Group>
          </>
        )}
      </Stack>
    </SimpleGrid>
  );
}

export function SlotNotice({ text }: { text: string }) {
  return (
    <Alert color="orange" variant="light" role="alert">
      {text}
    </Alert>
  );
}
