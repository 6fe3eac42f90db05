import { queryOptions, useQuery } from '@tanstack/react-query';
import { accessRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/**
 * `GET /api/staff/portals/{company}/admin/staff` (admins): the portal's staff with role, status and
 * groups, for Staff and roles and for a group's members in the ticket setup.
 */
export const adminStaffQuery = (company: string) =>
  queryOptions({
    queryKey: [...staffKeys.portal(company), 'admin-staff'] as const,
    queryFn: ({ signal }) => call(accessRoutes.members, { params: { company }, signal }),
  });

export const useAdminStaff = (company: string) => useQuery(adminStaffQuery(company));
