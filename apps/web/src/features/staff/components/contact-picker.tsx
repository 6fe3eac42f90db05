import { useState } from 'react';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DeskContact } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from '../api/keys';
import { useStaffT } from '../i18n';

const labelOf = (c: DeskContact) => (c.email ? `${c.referentName} (${c.email})` : c.referentName);

/**
 * A contact of one company, searched by name, e-mail or id (the people list's search, through the
 * desk's contact picker that agents may call): who a ticket opened on the desk is for.
 */
export function ContactPicker({
  company,
  companyId,
  value,
  onChange,
  required,
  error,
}: {
  company: string;
  companyId: number | null;
  value: number | null;
  onChange: (contact: DeskContact | null) => void;
  required?: boolean;
  error?: string | null;
}) {
  const { t } = useStaffT();
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [chosen, setChosen] = useState<DeskContact | null>(null);
  const found = useQuery({
    queryKey: [...staffKeys.portal(company), 'contact-picker', companyId, typed] as const,
    queryFn: ({ signal }) =>
      call(deskEntityRoutes.companyContacts, {
        params: { company, id: companyId! },
        query: { limit: 50, ...(typed ? { q: typed } : {}) },
        signal,
      }),
    enabled: companyId !== null,
    placeholderData: (previous) => previous,
  });
  const items = companyId === null ? [] : (found.data?.items ?? []);
  const data = items.map((c) => ({ value: String(c.contactId), label: labelOf(c) }));
  const selected = value === null ? null : chosen?.contactId === value ? chosen : null;
  if (selected && !data.some((d) => d.value === String(selected.contactId)))
    data.unshift({ value: String(selected.contactId), label: labelOf(selected) });
  return (
    <Select
      label={t('newTicket.contact')}
      description={t('newTicket.contactHint')}
      // Under the field, so it lines up with the Company picker beside it.
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      placeholder={companyId === null ? t('newTicket.pickCompanyFirst') : t('newTicket.pickContact')}
      disabled={companyId === null}
      searchable
      clearable
      required={required}
      error={error}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(v) => {
        const contact = items.find((c) => String(c.contactId) === v) ?? null;
        setChosen(contact);
        setTyped('');
        onChange(contact);
      }}
      searchValue={search}
      onSearchChange={(s) => {
        setSearch(s);
        if (s !== (selected ? labelOf(selected) : '')) setTyped(s);
      }}
      filter={({ options }) => options}
      nothingFoundMessage={t('newTicket.noContacts')}
      data-testid="contact-picker"
    />
  );
}
