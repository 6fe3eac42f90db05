import { useState, type ReactNode } from 'react';
import { NativeSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type ContentContact } from '@sportello/contracts';
import { useContentCompanies, useContentCompany, useContentContacts } from '../api/content';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';

/** The company picker of the content sections: asks the server by name or id as one types. */
export function CompanyPicker({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 200);
  const companies = useContentCompanies(company, term);
  // The chosen company (e.g. from the URL) by its id, when the first results do not hold it.
  const chosen = useContentCompany(
    company,
    value,
    value !== null && !!companies.data && !companies.data.some((c) => c.id === value),
  );
  const found = [...(companies.data ?? []), ...(chosen.data ?? []).filter((c) => c.id === value)];
  const data = [...new Map(found.map((c) => [c.id, c])).values()].map((c) => ({
    value: String(c.id),
    label: `${c.companyName} (${c.id})`,
  }));
  return (
    <Select
      label={t('content.company')}
      placeholder={t('content.companySearch')}
      searchable
      clearable
      data={data}
      // The server filters; the list shows what it answered.
      filter={({ options }) => options}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v === null ? null : Number(v))}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={t('content.noCompany')}
      w={{ base: '100%', sm: 320 }}
    />
  );
}

/** The contacts of a company (the first 500 by name). */
export function useContacts(companyId: number | null) {
  const { company } = useDesk();
  return useContentContacts(company, companyId);
}

export function ContactPicker({
  contacts,
  value,
  onChange,
  label,
  error,
}: {
  contacts: ContentContact[];
  value: number | null;
  onChange: (id: number | null) => void;
  label: string;
  /** The form's error of the field, if any. */
  error?: ReactNode;
}) {
  const { t } = useStaffT();
  return (
    <NativeSelect
      label={label}
      value={value === null ? '' : String(value)}
      onChange={(e) => onChange(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
      error={error}
      data={[
        { value: '', label: t('content.pickContact') },
        ...contacts.map((c) => ({
          value: String(c.contactId),
          label: c.email ? `${c.referentName} <${c.email}>` : c.referentName,
        })),
      ]}
    />
  );
}
