import { useId, useState } from 'react';
import {
  Box,
  CloseButton,
  Combobox,
  Input,
  Loader,
  ScrollArea,
  Text,
  VisuallyHidden,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client';
import classes from './widgets.module.css';

/** A server-search result (SPEC A3). */
export interface ServerSearchItem {
  id: number;
  folderName: string;
  name: string;
}

/** SPEC A9: search debounce. */
export const SERVER_SEARCH_DEBOUNCE_MS = 200;

/** `url` with the search term appended as `filter` (SPEC A7). */
export function searchUrl(url: string, term: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}filter=${encodeURIComponent(term)}`;
}

export const itemText = (item: ServerSearchItem) => `${item.folderName} - ${item.name}`;

export interface ServerSearchSelectProps {
  label: string;
  /** GET url answering ServerSearchItem[]; `?filter=term` is appended. */
  url: string;
  value: ServerSearchItem | null;
  onChange: (value: ServerSearchItem | null) => void;
  hideLabel?: boolean;
  /** The text with nothing chosen, where the widget is not a filter (a form's field): 'no filter' else. */
  emptyText?: string;
}

/**
 * SPEC A2 "Server-search dropdown": asks the server on mount and 200 ms after typing, through the
 * api client (bearer token), and lists 'folderName - name' in a 200 px scrollable list.
 */
export function ServerSearchSelect({
  label,
  url,
  value,
  onChange,
  hideLabel,
  emptyText,
}: ServerSearchSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), SERVER_SEARCH_DEBOUNCE_MS);
  const id = useId();
  const labelId = `${id}-label`;
  const valueId = `${id}-value`;
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
    onDropdownOpen: () => combobox.focusSearchInput(),
  });
  const results = useQuery({
    queryKey: ['server-search', url, term],
    queryFn: ({ signal }) => api<ServerSearchItem[]>(searchUrl(url, term), { signal }),
    placeholderData: keepPreviousData,
  });
  const items = results.data ?? [];

  return (
    <Box>
      {hideLabel ? (
        <VisuallyHidden id={labelId}>{label}</VisuallyHidden>
      ) : (
        <Input.Label id={labelId} htmlFor={id} display="block">
          {label}
        </Input.Label>
      )}
      {/* The dropdown (search, scroll area, options) is drawn when it opens, not kept hidden in the page. */}
      <Combobox
        store={combobox}
        keepMounted={false}
        position="bottom-start"
        width="target"
        shadow="md"
        onOptionSubmit={(raw) => {
          onChange(items.find((i) => String(i.id) === raw) ?? null);
          combobox.closeDropdown();
          combobox.focusTarget();
        }}
      >
        {/* The clear button sits inside the field's border (drawn over it: a button holds no button). */}
        <div className={classes.field} data-clearable={value ? true : undefined}>
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
              <span id={valueId} className={`${classes.triggerText} ${value ? '' : classes.placeholder}`}>
                {value ? itemText(value) : (emptyText ?? t('widgets.select.noFilter'))}
              </span>
              <IconChevronDown size={16} aria-hidden />
            </button>
          </Combobox.Target>
          {value && (
            <CloseButton
              size="sm"
              className={classes.fieldClear}
              aria-label={t('widgets.serverSearch.clearSelection', { label })}
              onClick={() => onChange(null)}
            />
          )}
        </div>
        <Combobox.Dropdown miw={260}>
          <Combobox.Search
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            placeholder={t('widgets.serverSearch.placeholder')}
            aria-label={t('widgets.serverSearch.placeholder')}
            rightSectionPointerEvents="all"
            rightSection={
              results.isFetching ? (
                <Loader size={14} />
              ) : search ? (
                <CloseButton
                  size="sm"
                  aria-label={t('widgets.serverSearch.clearSearch')}
                  onClick={() => {
                    setSearch('');
                    combobox.focusSearchInput();
                  }}
                />
              ) : null
            }
          />
          <Combobox.Options aria-label={label}>
            <ScrollArea h={200} type="auto">
              {results.isError ? (
                <Text c="red.8" size="sm" p="xs" role="alert">
                  {t('common.loadError')}
                </Text>
              ) : items.length === 0 ? (
                <Combobox.Empty>
                  {results.isPending ? t('common.loading') : t('widgets.serverSearch.noItemFound')}
                </Combobox.Empty>
              ) : (
                items.map((item) => (
                  <Combobox.Option
                    value={String(item.id)}
                    key={item.id}
                    active={value?.id === item.id}
                    aria-selected={value?.id === item.id}
                  >
                    {itemText(item)}
                  </Combobox.Option>
                ))
              )}
            </ScrollArea>
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
    </Box>
  );
}
