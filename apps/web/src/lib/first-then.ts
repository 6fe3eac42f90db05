import type { QueryFunction, QueryKey } from '@tanstack/react-query';

/**
 * A query function whose first call answers with a request already under way (app/early-data.ts); the
 * query runs its own fetcher from the second call on (a retry, a refetch).
 */
export function firstThen<T, K extends QueryKey>(
  promise: Promise<T>,
  queryFn: QueryFunction<T, K>,
): QueryFunction<T, K> {
  let first: Promise<T> | null = promise;
  return (ctx) => {
    if (!first) return queryFn(ctx);
    const p = first;
    first = null;
    return p;
  };
}
