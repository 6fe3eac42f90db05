import { Checkbox, Group, NumberInput } from '@mantine/core';
import { TIME_MINUTES_MAX } from '@sportello/contracts/staff-time-limits';
import { useStaffT } from '../i18n';

/** Minutes spent and whether they are billable; empty minutes log nothing. */
export interface TimeSpentValue {
  minutes: number | '';
  billable: boolean;
}
export const NO_TIME: TimeSpentValue = { minutes: '', billable: true };

/** The request's `time` of a reply or note, or nothing when no minutes were given. */
export const timeOf = (v: TimeSpentValue) =>
  typeof v.minutes === 'number' && v.minutes > 0 ? { minutes: v.minutes, billable: v.billable } : undefined;

/**
 * Time spent (issue 28): a small field under the reply editor and in the time panel. Whole minutes, 1 to
 * a day (1440), as the server accepts them.
 */
export function TimeSpentField({
  value,
  onChange,
  disabled,
}: {
  value: TimeSpentValue;
  onChange: (v: TimeSpentValue) => void;
  disabled?: boolean;
}) {
  const { t } = useStaffT();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="time-spent">
      <NumberInput
        label={t('time.minutes')}
        value={value.minutes}
        onChange={(v) => onChange({ ...value, minutes: typeof v === 'number' ? v : '' })}
        min={1}
        max={TIME_MINUTES_MAX}
        step={5}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="strict"
        disabled={disabled}
        w={140}
        size="xs"
        data-testid="time-minutes"
      />
      <Checkbox
        label={t('time.billable')}
        checked={value.billable}
        onChange={(e) => onChange({ ...value, billable: e.currentTarget.checked })}
        disabled={disabled}
        size="xs"
        mb={6}
        data-testid="time-billable"
      />
    </Group>
  );
}
