import { useQuery } from '@tanstack/react-query';
import { staffContextRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/** `GET …/tickets/{id}/context`: the customer beside the ticket (issue 28 item 10). */
export const useTicketContext = (company: string, ticketId: number) =>
  useQuery({
    queryKey: [...staffKeys.ticket(company, ticketId), 'context'] as const,
    queryFn: ({ signal }) =>
      call(staffContextRoutes.context, { params: { company, ticketid: ticketId }, signal }),
    staleTime: 60_000,
  });
