import { useEffect, useRef, useState } from 'react';
import type { Presence, PresenceState } from '@sportello/contracts';
import { PRESENCE_HEARTBEAT_S } from '@sportello/contracts/staff-ticket-limits';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/**
 * Tells the others that this agent has the ticket open or is writing (a heartbeat every
 * PRESENCE_HEARTBEAT_S, which the server lets lapse after PRESENCE_TTL_S), and answers who else is
 * there. Leaving the page says so at once. `initial`: the others the ticket's detail named.
 */
export function usePresence(
  company: string,
  ticketId: number,
  state: PresenceState,
  initial: Presence[] | undefined,
): Presence[] {
  const ticketKey = `${company}/${ticketId}`;
  // The others as last answered, for the ticket they were answered for.
  const [heard, setHeard] = useState<{ key: string; others: Presence[] } | null>(null);
  const stateRef = useRef(state);
  const beat = useRef<() => void>(() => {});

  useEffect(() => {
    let live = true;
    const send = (s: PresenceState | 'left') =>
      call(staffDeskRoutes.presence, { params: { company, ticketid: ticketId }, body: { state: s } });
    beat.current = () => {
      send(stateRef.current).then(
        // The same others as before (most beats: nobody else, or the same people) keep the state, so the
        // page is not drawn again every heartbeat (its panels, composer and conversation).
        (a) =>
          live &&
          setHeard((h) =>
            h?.key === ticketKey && sameOthers(h.others, a.others) ? h : { key: ticketKey, others: a.others },
          ),
        () => {
          // A missed heartbeat only makes this agent look absent for a moment.
        },
      );
    };
    beat.current();
    const timer = setInterval(() => beat.current(), PRESENCE_HEARTBEAT_S * 1000);
    return () => {
      live = false;
      clearInterval(timer);
      void send('left').catch(() => {});
    };
  }, [company, ticketId, ticketKey]);

  // Starting or stopping to write is told at once, not at the next beat.
  useEffect(() => {
    stateRef.current = state;
    beat.current();
  }, [state]);

  return (heard?.key === ticketKey ? heard.others : initial) ?? [];
}

/** What the page shows of the others: who, and whether they are writing (not until when they hold). */
const sameOthers = (a: Presence[], b: Presence[]) =>
  a.length === b.length &&
  a.every(
    (p, i) =>
      p.staffUserId === b[i]!.staffUserId && p.displayName === b[i]!.displayName && p.state === b[i]!.state,
  );
