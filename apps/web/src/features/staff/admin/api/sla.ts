import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SlaPolicyInput } from '@sportello/contracts';
import { staffSlaRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/** `GET …/admin/sla`: the portal's service-level policy (issue 28 item 13). */
export const slaPolicyQuery = (company: string) =>
  queryOptions({
    queryKey: [...staffKeys.portal(company), 'sla-policy'] as const,
    queryFn: ({ signal }) => call(staffSlaRoutes.get, { params: { company }, signal }),
  });

export const useSlaPolicy = (company: string) => useQuery(slaPolicyQuery(company));

/** `PUT …/admin/sla`: the whole policy; the answer is what the server kept. */
export function useSaveSlaPolicy(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SlaPolicyInput) => call(staffSlaRoutes.put, { params: { company }, body }),
    onSuccess: (answer) => qc.setQueryData(slaPolicyQuery(company).queryKey, answer),
  });
}
