import '@mantine/dates/styles.layer.css';
import { useId, useState, type KeyboardEvent } from 'react';
import {
  Box,
  Button,
  Group,
  Input,
  Popover,
  Stack,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DATE_PRESETS,
  EMPTY_RANGE,
  formatPickerDate,
  formatTypedDate,
  fromCalendarValue,
  matchingPreset,
  normalizeRange,
  parseTypedDate,
  presetRange,
  toCalendarValue,
  type DateRange,
} from './date-range';
import classes from './widgets.module.css';

export type { DateRange } from './date-range';

export interface DateRangePickerProps {
  value: DateRange;
  onChange: (value: DateRange) => void;
  /** Text above the button; also its accessible name. Defaults to the widget's own 'Period'. */
  label?: string;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean;
  /** Opens the panel on first render. */
  autoOpen?: boolean;
}

/** SPEC A2 "Date range picker": presets, a two-month range calendar, typed dates, clear. */
export function DateRangePicker({ value, onChange, label, hideLabel, autoOpen }: DateRangePickerProps) {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(Boolean(autoOpen));
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  const id = useId();
  const labelId = `${id}-label`;
  const valueId = `${id}-value`;
  const text = label ?? t('widgets.dateRange.label');
  const isEmpty = !value.start && !value.end;
  const active = matchingPreset(value);

  // The popover hears Escape only while the focus is inside it; a focus that fell to <body> (after a
  // click on a re-rendered element) would leave it open, so Escape closes it from anywhere.
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape' && opened) setOpened(false);
  });

  const emit = (next: DateRange, close: boolean) => {
    onChange(next);
    if (close) setOpened(false);
  };

  return (
    <Box>
      {hideLabel ? (
        <VisuallyHidden id={labelId}>{text}</VisuallyHidden>
      ) : (
        <Input.Label id={labelId} htmlFor={id} display="block">
          {text}
        </Input.Label>
      )}
      <Popover
        id={id}
        opened={opened}
        onChange={setOpened}
        position="bottom-start"
        width={isPhone ? 'calc(100vw - 1.5rem)' : 692}
        shadow="md"
        trapFocus
        returnFocus
        closeOnEscape
        closeOnClickOutside
      >
        <Popover.Target>
          <UnstyledButton
            id={id}
            className={classes.trigger}
            aria-labelledby={`${labelId} ${valueId}`}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => setOpened((o) => !o)}
          >
            <IconCalendar size={16} aria-hidden />
            <span id={valueId} className={classes.triggerText}>
              {isEmpty
                ? t('widgets.dateRange.noDateFilter')
                : `${formatPickerDate(value.start)} – ${formatPickerDate(value.end)}`}
            </span>
          </UnstyledButton>
        </Popover.Target>
        <Popover.Dropdown p="sm" aria-label={text} role="dialog">
          <Box className={isPhone ? undefined : classes.rangePanel}>
            <div
              className={isPhone ? classes.presetGrid : classes.presetColumn}
              role="group"
              aria-label={t('widgets.dateRange.presets')}
            >
              {DATE_PRESETS.map((p) => (
                <PresetButton
                  key={p}
                  isActive={active === p}
                  onClick={() => emit(presetRange(p), true)}
                  label={t(`widgets.dateRange.preset.${p}`)}
                />
              ))}
              <PresetButton
                isActive={active === 'none'}
                onClick={() => emit(EMPTY_RANGE, true)}
                label={t('widgets.dateRange.noDateFilter')}
              />
            </div>
            <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
              <TypedDates value={value} onChange={(v) => emit(v, false)} />
              <Calendars
                value={value}
                columns={isPhone ? 1 : 2}
                locale={i18n.language.slice(0, 2)}
                onChange={(v) => emit(v, true)}
              />
              <Group justify="flex-end">
                <Button variant="default" size="xs" onClick={() => emit(EMPTY_RANGE, true)}>
                  {t('widgets.dateRange.clear')}
                </Button>
              </Group>
            </Stack>
          </Box>
        </Popover.Dropdown>
      </Popover>
    </Box>
  );
}

function PresetButton({
  isActive,
  onClick,
  label,
}: {
  isActive: boolean;
  onClick: () => void;
  label: string;
}) {
  return (
    <Button
      variant={isActive ? 'filled' : 'subtle'}
      size="xs"
      justify="flex-start"
      aria-pressed={isActive}
      onClick={onClick}
      fullWidth
    >
      {label}
    </Button>
  );
}

/** The two typed boxes: DD/MM/YYYY, applied on blur or Enter; an invalid text clears that end. */
function TypedDates({ value, onChange }: { value: DateRange; onChange: (v: DateRange) => void }) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(formatTypedDate(value.start));
  const [to, setTo] = useState(formatTypedDate(value.end));
  // When the value changes (preset, calendar, normalisation), the boxes show it; typing stays local.
  const shown = `${value.start?.getTime()}-${value.end?.getTime()}`;
  const [lastShown, setLastShown] = useState(shown);
  if (shown !== lastShown) {
    setLastShown(shown);
    setFrom(formatTypedDate(value.start));
    setTo(formatTypedDate(value.end));
  }
  const apply = () => {
    const next = normalizeRange(parseTypedDate(from), parseTypedDate(to));
    if (next.start?.getTime() !== value.start?.getTime() || next.end?.getTime() !== value.end?.getTime())
      onChange(next);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      apply();
    }
  };
  return (
    <Group grow gap="xs" wrap="nowrap">
      <TextInput
        size="xs"
        label={t('widgets.dateRange.from')}
        placeholder={t('widgets.dateRange.typedPlaceholder')}
        value={from}
        onChange={(e) => setFrom(e.currentTarget.value)}
        onBlur={apply}
        onKeyDown={onKeyDown}
        inputMode="numeric"
      />
      <TextInput
        size="xs"
        label={t('widgets.dateRange.to')}
        placeholder={t('widgets.dateRange.typedPlaceholder')}
        value={to}
        onChange={(e) => setTo(e.currentTarget.value)}
        onBlur={apply}
        onKeyDown={onKeyDown}
        inputMode="numeric"
      />
    </Group>
  );
}

/**
 * A two-month range calendar; when only one end is set, a single-date calendar whose pick completes
 * the range around the date already chosen.
 */
function Calendars({
  value,
  columns,
  locale,
  onChange,
}: {
  value: DateRange;
  columns: number;
  locale: string;
  onChange: (v: DateRange) => void;
}) {
  const { t } = useTranslation();
  // The first click of a range lives here until the second one completes it.
  const [draft, setDraft] = useState<[string | null, string | null] | null>(null);
  const labels = {
    nextMonth: t('widgets.dateRange.nextMonth'),
    previousMonth: t('widgets.dateRange.previousMonth'),
    nextYear: t('widgets.dateRange.nextYear'),
    previousYear: t('widgets.dateRange.previousYear'),
    nextDecade: t('widgets.dateRange.nextDecade'),
    previousDecade: t('widgets.dateRange.previousDecade'),
    monthLevelControl: t('widgets.dateRange.chooseMonth'),
    yearLevelControl: t('widgets.dateRange.chooseYear'),
  };
  const single = value.start ?? value.end;
  const isPartial = Boolean(value.start) !== Boolean(value.end);

  if (isPartial && single) {
    return (
      <DatePicker
        type="default"
        locale={locale}
        firstDayOfWeek={1}
        ariaLabels={labels}
        classNames={{ day: classes.calendarDay }}
        hideOutsideDates
        defaultDate={toCalendarValue(single) ?? undefined}
        value={toCalendarValue(single)}
        onChange={(d) => {
          const picked = fromCalendarValue(d);
          if (!picked) return;
          onChange(value.start ? normalizeRange(value.start, picked) : normalizeRange(picked, value.end));
        }}
      />
    );
  }

  const current: [string | null, string | null] = draft ?? [
    toCalendarValue(value.start),
    toCalendarValue(value.end),
  ];
  return (
    <DatePicker
      type="range"
      allowSingleDateInRange
      numberOfColumns={columns}
      locale={locale}
      firstDayOfWeek={1}
      ariaLabels={labels}
      classNames={{ day: classes.calendarDay }}
      hideOutsideDates
      defaultDate={current[0] ?? undefined}
      value={current}
      onChange={([a, b]) => {
        if (a && b) {
          setDraft(null);
          onChange(normalizeRange(fromCalendarValue(a), fromCalendarValue(b)));
        } else setDraft([a, b]);
      }}
    />
  );
}
