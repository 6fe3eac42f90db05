import { ActionIcon, Group, NumberInput, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ActivityContractEntity } from '@sportello/contracts';
import { portalDayOf } from '../../../../lib/zone-days';
import { useStaffT } from '../../i18n';

/** An activity as the editors hold it: the stored report stays on the server (the body names none). */
export type ActivityForm = Omit<ActivityContractEntity['activities'][number], 'reportFileId'>;

/** A new activity of a contract or package, on `day`, numbered after the last of `list`. */
export const newActivity = (list: { id: number }[], day: string, units: number | null, minutes: number) => ({
  id: Math.max(0, ...list.map((x) => x.id)) + 1,
  activityTypeName: '',
  start: day,
  durationMinutes: minutes,
  units,
  assignedUser: '',
  addressType: 0,
  activityLocation_Address: null,
});

/**
 * One activity of an hour or unit contract or of a service package: its type, day, units and/or
 * minutes (`amounts`: an hour contract counts minutes, a unit contract units, a package both), who did
 * it. `error(field)` is the form's error of that field, if any.
 */
export function ActivityRow({
  activity: a,
  amounts,
  onChange,
  onRemove,
  error,
  indent,
}: {
  activity: ActivityForm;
  amounts: 'minutes' | 'units' | 'both';
  onChange: (patch: Partial<ActivityForm>) => void;
  onRemove: () => void;
  error: (field: keyof ActivityForm) => string | undefined;
  indent?: boolean;
}) {
  const { t } = useStaffT();
  return (
    <Group gap="xs" align="end" wrap="wrap" pl={indent ? 'md' : undefined}>
      <TextInput
        label={t('catalog.contracts.activityType')}
        required
        maxLength={500}
        value={a.activityTypeName}
        onChange={(e) => onChange({ activityTypeName: e.currentTarget.value })}
        error={error('activityTypeName')}
        miw={180}
      />
      <TextInput
        type="date"
        label={t('catalog.contracts.date')}
        required
        value={portalDayOf(a.start)}
        onChange={(e) => onChange({ start: e.currentTarget.value })}
        error={error('start')}
      />
      {amounts !== 'minutes' && (
        <NumberInput
          label={t('catalog.contracts.units')}
          min={0}
          decimalScale={2}
          value={a.units ?? ''}
          onChange={(v) => onChange({ units: v === '' ? null : Number(v) })}
          error={error('units')}
          w={110}
        />
      )}
      {amounts !== 'units' && (
        <NumberInput
          label={t('catalog.contracts.durationMinutes')}
          min={0}
          value={a.durationMinutes}
          onChange={(v) => onChange({ durationMinutes: Number(v) || 0 })}
          error={error('durationMinutes')}
          w={110}
        />
      )}
      <TextInput
        label={t('catalog.contracts.assignedUser')}
        maxLength={500}
        value={a.assignedUser}
        onChange={(e) => onChange({ assignedUser: e.currentTarget.value })}
        miw={140}
      />
      <ActionIcon
        variant="subtle"
        color="red"
        mb={4}
        aria-label={t('catalog.contracts.removeActivity')}
        onClick={onRemove}
      >
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
