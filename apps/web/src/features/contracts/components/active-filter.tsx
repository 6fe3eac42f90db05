import { useTranslation } from 'react-i18next';
import { SelectFilter } from '../../../ui/select-filter';
import type { ActiveFilter } from '../contract-rules';

/** 'Only active' (default) or 'All'. */
export function ActiveFilterSelect({
  value,
  onChange,
}: {
  value: ActiveFilter;
  onChange: (v: ActiveFilter) => void;
}) {
  const { t } = useTranslation();
  return (
    <SelectFilter<ActiveFilter>
      label={t('contracts.show')}
      options={[
        { value: 'active', text: t('contracts.onlyActive') },
        { value: 'all', text: t('contracts.all') },
      ]}
      value={value}
      onChange={(v) => onChange(v ?? 'active')}
    />
  );
}
