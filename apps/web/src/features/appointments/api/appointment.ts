import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appointmentRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { appointmentKeys } from './keys';
import { retryUnlessClientError } from './retry';

/** `GET /api/appointments/{company}/cancellation/{cancelkey}` (public): the appointment and its state. */
export const appointmentQuery = (company: string, cancelKey: string) =>
  queryOptions({
    queryKey: appointmentKeys.appointment(company, cancelKey),
    queryFn: ({ signal }) =>
      call(appointmentRoutes.appointment, { params: { company, cancelkey: cancelKey }, signal }),
    staleTime: 0,
    retry: retryUnlessClientError,
  });

export const useAppointment = (company: string, cancelKey: string) =>
  useQuery(appointmentQuery(company, cancelKey));

/** `POST` the same path: cancels (again harmlessly); the answer replaces the cached appointment. */
export function useCancelAppointment(company: string, cancelKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(appointmentRoutes.cancel, { params: { company, cancelkey: cancelKey } }),
    onSuccess: (summary) => client.setQueryData(appointmentKeys.appointment(company, cancelKey), summary),
  });
}
