import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type UnreadAnswer } from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError, call } from '../../../lib/api-client';
import { useAfterContent } from '../../../lib/first-content';
import { staffKeys } from './keys';

/** How long one long-poll waits on the server for a change. */
export const UNREAD_WAIT_S = 25;

/**
 * The agent's unread tickets and ticket counts per view, kept current without a reload: a long-poll
 * (`since` = the version held, `wait`) that the server answers when the counts change. A change also
 * refreshes the inbox lists (new tickets, new activity). Stops on sign-out (401) and while unmounted.
 */
export function useUnreadPolling(company: string): void {
  const queryClient = useQueryClient();
  const key = staffKeys.unread(company);
  const hasData = useUnreadQuery(company).data !== undefined;

  useEffect(() => {
    if (!hasData) return;
    const controller = new AbortController();
    let failures = 0;
    const loop = async () => {
      while (!controller.signal.aborted) {
        const held = queryClient.getQueryData<UnreadAnswer>(key);
        const started = Date.now();
        try {
          const next = await call(staffDeskRoutes.unread, {
            params: { company },
            query: { since: held?.version, wait: UNREAD_WAIT_S },
            signal: controller.signal,
          });
          failures = 0;
          if (next.version !== held?.version) {
            queryClient.setQueryData(key, next);
            void queryClient.invalidateQueries({ queryKey: staffKeys.inboxes(company) });
            // An open ticket shows the new message too (fetching it marks it read, as it is on screen).
            void queryClient.invalidateQueries({ queryKey: [...staffKeys.portal(company), 'ticket'] });
          } else if (Date.now() - started < 1000) {
            // A server that answers at once (no wait) is asked again a little later, not in a tight loop.
            await new Promise((r) => setTimeout(r, 5000));
          }
        } catch (e) {
          if (controller.signal.aborted || (e instanceof ApiRequestError && e.status === 401)) return;
          // Offline or a restart: try again, backing off up to half a minute.
          failures += 1;
          await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** failures)));
        }
      }
    };
    void loop();
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is derived from company
  }, [company, hasData, queryClient]);
}

/** The counts now (no wait). */
export const unreadQuery = (company: string) =>
  queryOptions({
    queryKey: staffKeys.unread(company),
    queryFn: ({ signal }) =>
      call(staffDeskRoutes.unread, { params: { company }, query: { wait: 0 }, signal }),
    staleTime: Infinity,
  });

/**
 * The counts as last heard (the shell's useUnreadPolling keeps them current). Asked for once the page's
 * main content is shown (lib/first-content): the inbox's first page brings the views' counts, and the
 * unread markers come a moment after its rows rather than delaying them by a request and a render.
 */
export const useUnreadQuery = (company: string) =>
  useQuery({ ...unreadQuery(company), enabled: useAfterContent() });
