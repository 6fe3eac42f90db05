import { useId, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Combobox,
  Group,
  Input,
  ScrollArea,
  VisuallyHidden,
  useCombobox,
} from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { FilterOption } from './select-filter';
import classes from './widgets.module.css';

export interface MultiSelectFilterProps<V extends string | number> {
  label: string;
  options: FilterOption<V>[];
  value: V[];
  onChange: (value: V[]) => void;
  /** Words of the count summary, e.g. {one: 'user', other: 'users'} → '3 users'. */
  countWords?: { one: string; other: string };
  /** A custom summary instead of the count, given the selected options. */
  summary?: (selected: FilterOption<V>[]) => string;
  /** Offers a clear-all button. */
  nullable?: boolean;
  hideLabel?: boolean;
  /** The text with nothing chosen, where the widget is not a filter (a form's field): 'no filter' else. */
  emptyText?: string;
}

/** Text of the closed dropdown: 'no filter', a custom label, or a count such as '3 users'. */
export function multiSelectSummary<V extends string | number>(
  selected: FilterOption<V>[],
  words: { one: string; other: string },
  noFilter: string,
  summary?: (selected: FilterOption<V>[]) => string,
): string {
  if (selected.length === 0) return noFilter;
  if (summary) return summary(selected);
  return `${selected.length} ${selected.length === 1 ? words.one : words.other}`;
}

/**
 * SPEC A2 "Multi-choice dropdown": search box, optional headings, a count summary, clear-all when
 * nullable, at most 300 px high with scrolling; a click (or Enter) toggles a value.
 */
export function MultiSelectFilter<V extends string | number>({
  label,
  options,
  value,
  onChange,
  countWords,
  summary,
  nullable,
  hideLabel,
  emptyText,
}: MultiSelectFilterProps<V>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const id = useId();
  const labelId = `${id}-label`;
  const valueId = `${id}-value`;
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch('');
    },
    onDropdownOpen: () => combobox.focusSearchInput(),
  });

  // A click on an option can leave the focus on <body> (the list re-renders under it), where the
  // dropdown's own Escape handling no longer hears the key: close on Escape from anywhere while open.
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape' && combobox.dropdownOpened) combobox.closeDropdown();
  });

  const selected = options.filter((o) => value.includes(o.value));
  const words = countWords ?? { one: t('widgets.multi.itemOne'), other: t('widgets.multi.itemOther') };
  const text = multiSelectSummary(selected, words, emptyText ?? t('widgets.select.noFilter'), summary);

  const groups = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const shown = options.filter((o) => !needle || o.text.toLowerCase().includes(needle));
    const byGroup = new Map<string, FilterOption<V>[]>();
    for (const o of shown) {
      const key = o.group ?? '';
      byGroup.set(key, [...(byGroup.get(key) ?? []), o]);
    }
    return [...byGroup.entries()];
  }, [options, search]);

  const toggle = (raw: string) => {
    const option = options.find((o) => String(o.value) === raw);
    if (!option) return;
    // Keep the keyboard in the list after a pointer toggle, so typing and Escape still reach it.
    combobox.focusSearchInput();
    onChange(
      value.includes(option.value) ? value.filter((v) => v !== option.value) : [...value, option.value],
    );
  };

  const renderOption = (o: FilterOption<V>) => {
    const isChecked = value.includes(o.value);
    return (
      <Combobox.Option
        value={String(o.value)}
        key={String(o.value)}
        active={isChecked}
        aria-selected={isChecked}
      >
        <Group gap="sm" wrap="nowrap">
          <Checkbox.Indicator checked={isChecked} size="xs" aria-hidden />
          <span>{o.text}</span>
        </Group>
      </Combobox.Option>
    );
  };

  return (
    <Box>
      {hideLabel ? (
        <VisuallyHidden id={labelId}>{label}</VisuallyHidden>
      ) : (
        <Input.Label id={labelId} htmlFor={id} display="block">
          {label}
        </Input.Label>
      )}
      <Combobox store={combobox} onOptionSubmit={toggle} position="bottom-start" width="target" shadow="md">
        <Combobox.Target withAriaAttributes={false}>
          <button
            type="button"
            id={id}
            className={classes.trigger}
            aria-labelledby={`${labelId} ${valueId}`}
            aria-haspopup="listbox"
            aria-expanded={combobox.dropdownOpened}
            onClick={() => combobox.toggleDropdown()}
          >
            <span
              id={valueId}
              className={`${classes.triggerText} ${selected.length ? '' : classes.placeholder}`}
            >
              {text}
            </span>
            <IconChevronDown size={16} aria-hidden />
          </button>
        </Combobox.Target>
        <Combobox.Dropdown miw={240}>
          <Combobox.Search
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            placeholder={t('widgets.multi.search')}
            aria-label={`${t('widgets.multi.search')}: ${label}`}
          />
          <Combobox.Options aria-multiselectable aria-label={label}>
            <ScrollArea.Autosize mah={300} type="auto">
              {groups.length === 0 ? (
                <Combobox.Empty>{t('widgets.multi.noOptions')}</Combobox.Empty>
              ) : (
                groups.map(([group, items]) =>
                  group ? (
                    <Combobox.Group label={group} key={group}>
                      {items.map(renderOption)}
                    </Combobox.Group>
                  ) : (
                    items.map(renderOption)
                  ),
                )
              )}
            </ScrollArea.Autosize>
          </Combobox.Options>
          {nullable && value.length > 0 && (
            <Combobox.Footer>
              <Button variant="subtle" size="xs" onClick={() => onChange([])}>
                {t('widgets.multi.clearAll')}
              </Button>
            </Combobox.Footer>
          )}
        </Combobox.Dropdown>
      </Combobox>
    </Box>
  );
}
