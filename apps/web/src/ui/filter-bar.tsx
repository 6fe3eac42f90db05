import type { ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import classes from './list.module.css';

/** The filters above a list, as a search landmark; they wrap into columns and stack on phones. */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.filters} role="search" aria-label={label}>
      {children}
    </div>
  );
}

/** A labelled free-text filter applied as the user types. */
export function SearchFilter({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      leftSection={<IconSearch size={16} aria-hidden />}
    />
  );
}

/** Case- and accent-insensitive "contains", for the free-text filters of the lists. */
export function matchesText(haystack: string | null | undefined, needle: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const n = fold(needle.trim());
  return n === '' || fold(haystack ?? '').includes(n);
}
