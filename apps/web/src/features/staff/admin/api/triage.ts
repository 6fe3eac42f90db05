import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { staffTriageRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/triage`: who hears of a ticket with no assignee and no group (issue 28 item 2). */
export const triageQuery = (company: string) =>
  queryOptions({
    queryKey: adminKeys.triage(company),
    queryFn: ({ signal }) => call(staffTriageRoutes.get, { params: { company }, signal }),
  });

export const useTriage = (company: string) => useQuery(triageQuery(company));

/** `PUT …/admin/triage`: a group of the portal, or null for the admins; the answer is what was kept. */
export function useSaveTriage(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyFor<typeof staffTriageRoutes.put>) =>
      call(staffTriageRoutes.put, { params: { company }, body }),
    onSuccess: (answer) => qc.setQueryData(triageQuery(company).queryKey, answer),
  });
}
