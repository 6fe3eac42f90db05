import { queryOptions, useQuery } from '@tanstack/react-query';
import { appointmentRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { appointmentKeys } from './keys';
import { retryUnlessClientError } from './retry';

/** `GET /api/appointments/{company}/{eventkey}` (public): title, agent, zone, durations, bookable days. */
export const fetchAppointmentLink = (company: string, eventKey: string, signal?: AbortSignal) =>
  call(appointmentRoutes.link, { params: { company, eventkey: eventKey }, signal });

export const appointmentLinkQuery = (company: string, eventKey: string) =>
  queryOptions({
    queryKey: appointmentKeys.link(company, eventKey),
    queryFn: ({ signal }) => fetchAppointmentLink(company, eventKey, signal),
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });

export const useAppointmentLink = (company: string, eventKey: string) =>
  useQuery(appointmentLinkQuery(company, eventKey));
