import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentBookingRequest } from '@sportello/contracts';
import { appointmentRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { appointmentKeys } from './keys';

/** `POST /api/appointments/{company}/{eventkey}` (public). Success or failure, the slots are asked for again. */
export function useBookAppointment(company: string, eventKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AppointmentBookingRequest) =>
      call(appointmentRoutes.book, { params: { company, eventkey: eventKey }, body }),
    onSettled: () => client.invalidateQueries({ queryKey: appointmentKeys.slotsOf(company, eventKey) }),
  });
}
