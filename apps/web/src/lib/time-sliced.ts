import { useDeferredValue, useMemo } from 'react';

/**
 * A query's answer drawn in a render that yields to the browser every few ms. TanStack Query hands its
 * updates to React through `useSyncExternalStore`, whose renders are synchronous: a page's first answer
 * rendered its whole list, conversation or cards in one long task (hundreds of ms on a slow phone), which
 * is what a phone's Total Blocking Time counted. With this, the update's own render keeps the state on
 * screen (the page's skeleton), and React renders the new one as a deferred (transition) render, time
 * sliced, and commits it whole: nothing half-drawn shows. Only the state's own fields decide when it
 * changed (status, data, error), so a refetch that changes nothing does not render twice.
 */
export function useTimeSliced<Q extends { status: string; data: unknown; error: unknown }>(query: Q): Q {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new result object with the same state is the same state
  const state = useMemo(() => query, [query.status, query.data, query.error]);
  return useDeferredValue(state);
}

/**
 * `useTimeSliced` for the query's first answer only: later ones (a refetch after a step of the page's
 * own, as a document's state after its code was sent) render at once, with the rest of that step's
 * state, as before. For the pages whose first answer is their content and whose later answers follow
 * what the user did (signing, booking).
 */
export function useFirstAnswerTimeSliced<Q extends { status: string; data: unknown; error: unknown }>(
  query: Q,
): Q {
  const sliced = useTimeSliced(query);
  return sliced.status === 'pending' ? sliced : query;
}
