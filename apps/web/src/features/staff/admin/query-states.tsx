import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorText } from '../../../lib/error-text';
import { ListEmpty, ListError, ListLoading } from '../../../ui/list-states';
import { useStaffT } from '../i18n';

/**
 * What an administration list or panel shows before its content: a skeleton while loading, the error
 * in the desk's words with Retry, the `empty` text when `isEmpty` says there is nothing; otherwise its
 * content, drawn from the answer.
 */
export function QueryStates<T>({
  query,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useStaffT();
  if (query.isPending) return <ListLoading />;
  if (query.isError)
    return <ListError onRetry={() => void query.refetch()} message={errorText(query.error, t)} />;
  if (isEmpty?.(query.data)) return <ListEmpty text={empty} />;
  return <>{children(query.data)}</>;
}
