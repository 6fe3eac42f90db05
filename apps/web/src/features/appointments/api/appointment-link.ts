import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentLink } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { appointmentKeys, linkPath } from './keys';
import { retryUnlessClientError } from './retry';

/** `GET /api/appointments/{company}/{eventkey}` (public): title, agent, zone, durations, bookable days. */
export const appointmentLinkQuery = (company: string, eventKey: string) =>
  queryOptions({
    queryKey: appointmentKeys.link(company, eventKey),
    queryFn: ({ signal }) => api<AppointmentLink>(linkPath(company, eventKey), { signal, anonymous: true }),
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });

export const useAppointmentLink = (company: string, eventKey: string) =>
  useQuery(appointmentLinkQuery(company, eventKey));
