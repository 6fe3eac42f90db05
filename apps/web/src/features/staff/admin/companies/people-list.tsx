import { Button, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useStaffT } from '../../i18n';

/** A column of counts, set to the right. */
export const right = { th: { ta: 'right' }, td: { ta: 'right' } } as const;

/** The search above the companies and a company's contacts (the lists ask again as it is typed). */
export function PeopleSearch({
  value,
  onChange,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
}) {
  const { t } = useStaffT();
  return (
    <TextInput
      label={t('people.search')}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maw={420}
      type="search"
    />
  );
}

/** "Show more" under a list read page by page, while there is a next page. */
export function ShowMore({ query }: { query: UseInfiniteQueryResult }) {
  const { t } = useStaffT();
  return query.hasNextPage ? (
    <Button
      variant="default"
      onClick={() => void query.fetchNextPage()}
      loading={query.isFetchingNextPage}
      style={{ alignSelf: 'center' }}
    >
      {t('people.more')}
    </Button>
  ) : null;
}
