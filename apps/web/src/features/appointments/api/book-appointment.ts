import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentBooking, AppointmentBookingRequest } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { appointmentKeys, linkPath } from './keys';

/** `POST /api/appointments/{company}/{eventkey}` (public). Success or failure, the slots are asked for again. */
export function useBookAppointment(company: string, eventKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AppointmentBookingRequest) =>
      api<AppointmentBooking>(linkPath(company, eventKey), { method: 'POST', body, anonymous: true }),
    onSettled: () => client.invalidateQueries({ queryKey: appointmentKeys.slotsOf(company, eventKey) }),
  });
}
