import { queryOptions } from '@tanstack/react-query';
import { staffInboxRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/** `GET /api/staff/portals/{company}/tickets/{ticketid}`: the whole conversation, notes included; marks it read. */
export const staffTicketQuery = (company: string, ticketId: number) =>
  queryOptions({
    queryKey: staffKeys.ticket(company, ticketId),
    queryFn: ({ signal }) =>
      call(staffInboxRoutes.detail, { params: { company, ticketid: ticketId }, signal }),
    retry: false,
  });
