import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/appointment-links`: the portal's booking links. */
export const appointmentLinksQuery = (company: string) =>
  queryOptions({
    queryKey: adminKeys.appointmentLinks(company),
    queryFn: ({ signal }) => call(catalogAdminRoutes.appointmentLinks, { params: { company }, signal }),
  });

export const useAppointmentLinks = (company: string) => useQuery(appointmentLinksQuery(company));

type LinkBody = BodyFor<typeof entityStaffRoutes.createAppointmentLink>;

/** `POST …/admin/appointment-links` (eventKey null: the server draws it) or `PATCH …/{eventkey}`. */
export function useSaveAppointmentLink(company: string, eventKey: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LinkBody) =>
      eventKey === null
        ? call(entityStaffRoutes.createAppointmentLink, { params: { company }, body })
        : call(entityStaffRoutes.updateAppointmentLink, { params: { company, eventkey: eventKey }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.appointmentLinks(company) }),
  });
}

/** `GET …/admin/bookings`: one link's bookings (none: every link's), upcoming or all. */
export const useBookings = (company: string, eventKey: string, all: boolean) =>
  useQuery({
    queryKey: adminKeys.bookings(company, eventKey, all),
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.bookings, {
        params: { company },
        query: { eventKey: eventKey || undefined, when: all ? 'all' : 'upcoming' },
        signal,
      }),
  });

/** `POST …/admin/bookings/{bookingid}/cancel` (the customer is e-mailed); every bookings list again. */
export function useCancelBooking(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (bookingId: number) =>
      call(catalogAdminRoutes.cancelBooking, { params: { company, bookingid: bookingId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.bookings(company) }),
  });
}
