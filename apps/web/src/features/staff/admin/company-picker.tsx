import { useState } from 'react';
import { Select } from '@mantine/core';
import { catalogAdminRoutes } from '@sportello/contracts/route-refs';
import { useCompanyPick, type CompanyPickRoute } from './api/company-pick';
import { useDesk } from '../desk-context';
import { useStaffT } from '../i18n';

/**
 * A company of the portal, searched by the start of its name (the admin sections that work per company,
 * and the desk's new ticket: `route` is then the desk's picker, which agents may call too).
 */
export function CompanyPicker({
  value,
  onChange,
  route = catalogAdminRoutes.companies,
  required,
  error,
  fullWidth,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  route?: CompanyPickRoute;
  required?: boolean;
  error?: string | null;
  /** In a grid cell beside another field (the desk's new ticket): the cell's width, not 420 px. */
  fullWidth?: boolean;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [search, setSearch] = useState('');
  /** What the user typed (the input also shows the chosen company's name, which is not a search). */
  const [typed, setTyped] = useState('');
  const found = useCompanyPick(company, route, typed);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const data = (found.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.companyName }));
  const selected =
    value === null
      ? null
      : (data.find((d) => d.value === String(value)) ??
        (chosen?.value === String(value) ? chosen : { value: String(value), label: `#${value}` }));
  if (selected && !data.some((d) => d.value === selected.value)) data.unshift(selected);
  return (
    <Select
      label={t('catalog.contracts.company')}
      placeholder={t('catalog.contracts.pickCompany')}
      searchable
      clearable
      required={required}
      error={error}
      maw={fullWidth ? undefined : 420}
      data={data}
      value={selected?.value ?? null}
      onChange={(v, option) => {
        setChosen(option ?? null);
        setTyped('');
        onChange(v ? Number(v) : null);
      }}
      searchValue={search}
      onSearchChange={(s) => {
        setSearch(s);
        if (s !== selected?.label) setTyped(s);
      }}
      filter={({ options }) => options}
      nothingFoundMessage="—"
    />
  );
}
