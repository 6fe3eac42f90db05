import type { ReactNode } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function ListLoading({ rows = 5 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" aria-busy="true" role="status" aria-label={t('common.loading')}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={52} radius="sm" />
      ))}
    </Stack>
  );
}

export function ListError({ onRetry, message }: { onRetry: () => void; message?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{message ?? t('common.loadError')}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

export function ListEmpty({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" justify="center" py="xl" c="gray.7" role="status">
      <IconInbox size={20} aria-hidden />
      <Text>{text ?? t('common.noItemsFound')}</Text>
    </Group>
  );
}

/** What ListStates reads from a TanStack query. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * The three states every list shows before its rows: a skeleton while loading, an error with Retry,
 * and 'No items found' when there is nothing (after filtering) to show.
 */
export function ListStates({
  query,
  isEmpty,
  children,
  rows,
}: {
  query: ListQueryState;
  isEmpty: boolean;
  children: ReactNode;
  rows?: number;
}) {
  if (query.isPending) return <ListLoading rows={rows} />;
  if (query.isError) return <ListError onRetry={() => void query.refetch()} />;
  if (isEmpty) return <ListEmpty />;
  return <>{children}</>;
}
