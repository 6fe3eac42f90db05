import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A dropdown option (SPEC A3): the value may be a number or a string id; `group` heads it in multi-choice lists. */
export interface FilterOption<V extends string | number = string | number> {
  value: V;
  text: string;
  group?: string;
}

export interface SelectFilterProps<V extends string | number> {
  label: string;
  options: FilterOption<V>[];
  value: V | null;
  onChange: (value: V | null) => void;
  /** Offers a clear button that sets the value back to null. */
  nullable?: boolean;
  hideLabel?: boolean;
}

/** SPEC A2 "Single-choice dropdown": a 'no filter' text when empty, an optional clear button. */
export function SelectFilter<V extends string | number>({
  label,
  options,
  value,
  onChange,
  nullable,
  hideLabel,
}: SelectFilterProps<V>) {
  const { t } = useTranslation();
  const data = options.map((o) => ({ value: String(o.value), label: o.text }));
  return (
    <Select
      label={hideLabel ? undefined : label}
      aria-label={hideLabel ? label : undefined}
      data={data}
      value={value === null ? null : String(value)}
      placeholder={t('widgets.select.noFilter')}
      clearable={nullable}
      // Mantine hides its clear button from keyboard and screen readers; this one must be reachable.
      clearButtonProps={{ 'aria-label': t('widgets.select.clear'), 'aria-hidden': false, tabIndex: 0 }}
      allowDeselect={false}
      checkIconPosition="right"
      // Options are rendered when the list opens: Mantine's combobox otherwise renders and positions the
      // hidden list with the page, a forced layout in the middle of every list page's first render.
      comboboxProps={{ withinPortal: true, keepMounted: false }}
      onChange={(v) =>
        onChange(v === null ? null : (options.find((o) => String(o.value) === v)?.value ?? null))
      }
    />
  );
}
