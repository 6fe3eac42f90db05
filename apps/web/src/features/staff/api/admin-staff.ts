import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AccessInvite, StaffRole } from '@sportello/contracts';
import { accessRoutes, staffDeskRoutes } from '@sportello/contracts/route-refs';
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

/** `POST …/admin/staff/invite`: a new member (or one of another portal) invited by e-mail. */
export const useInviteStaff = (company: string) =>
  useMutation({
    mutationFn: (body: AccessInvite) => call(accessRoutes.invite, { params: { company }, body }),
  });

/** `PUT …/admin/staff/{staffid}/role`. */
export const useSetStaffRole = (company: string, staffId: number) =>
  useMutation({
    mutationFn: (role: StaffRole) =>
      call(accessRoutes.setRole, { params: { company, staffid: staffId }, body: { role } }),
  });

/** `PUT …/staff/{staffid}/groups`: the member's groups. */
export const useSetStaffGroups = (company: string, staffId: number) =>
  useMutation({
    mutationFn: (groupIds: number[]) =>
      call(staffDeskRoutes.setGroups, { params: { company, staffid: staffId }, body: { groupIds } }),
  });

/** `POST …/admin/staff/{staffid}/resend`: the invitation again. */
export const useResendInvite = (company: string, staffId: number) =>
  useMutation({ mutationFn: () => call(accessRoutes.resend, { params: { company, staffid: staffId } }) });

/** `GET …/admin/staff/{staffid}/made`: the API keys and webhook endpoints the member made. */
export const useStaffMade = (company: string, staffId: number) =>
  useQuery({
    queryKey: [...staffKeys.portal(company), 'admin-staff-made', staffId] as const,
    queryFn: ({ signal }) => call(accessRoutes.made, { params: { company, staffid: staffId }, signal }),
  });

/** Removal (`DELETE`) or demotion to agent of a member, revoking what they made or not. */
export const useLoseAccess = (company: string, staffId: number, kind: 'remove' | 'demote') =>
  useMutation({
    mutationFn: (revokeMade: boolean) => {
      const params = { company, staffid: staffId };
      return kind === 'remove'
        ? call(accessRoutes.remove, { params, body: { revokeMade } })
        : call(accessRoutes.setRole, { params, body: { role: 'agent', revokeMade } });
    },
  });
