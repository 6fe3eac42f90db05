import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentSlots } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { appointmentKeys, linkPath } from './keys';
import { retryUnlessClientError } from './retry';

/** `GET …/{eventkey}/slots?from&to&duration` (public): free slots per day in the portal's zone. */
export const appointmentSlotsQuery = (
  company: string,
  eventKey: string,
  from: string,
  to: string,
  duration: number,
) =>
  queryOptions({
    queryKey: appointmentKeys.slots(company, eventKey, from, to, duration),
    queryFn: ({ signal }) =>
      api<AppointmentSlots>(`${linkPath(company, eventKey)}/slots`, {
        signal,
        anonymous: true,
        query: { from, to, duration },
      }),
    // Others book too: a slot list older than a minute is asked for again.
    staleTime: 60_000,
    retry: retryUnlessClientError,
  });

export const useAppointmentSlots = (
  company: string,
  eventKey: string,
  range: { from: string; to: string } | null,
  duration: number,
) =>
  useQuery({
    ...appointmentSlotsQuery(company, eventKey, range?.from ?? '', range?.to ?? '', duration),
    enabled: range !== null && duration > 0,
    placeholderData: keepPreviousData,
  });
