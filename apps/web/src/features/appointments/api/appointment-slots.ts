import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { appointmentRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { appointmentKeys } from './keys';
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
      call(appointmentRoutes.slots, {
        params: { company, eventkey: eventKey },
        query: { from, to, duration },
        signal,
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
