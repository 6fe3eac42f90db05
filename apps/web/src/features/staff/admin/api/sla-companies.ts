import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { staffSlaCompanyRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/sla/companies`: the companies with service-level targets of their own (issue 28). */
export const slaCompaniesQuery = (company: string) =>
  queryOptions({
    queryKey: [...adminKeys.all(company), 'sla-companies'] as const,
    queryFn: ({ signal }) => call(staffSlaCompanyRoutes.list, { params: { company }, signal }),
  });

export const useSlaCompanies = (company: string) => useQuery(slaCompaniesQuery(company));

/** `PUT …/admin/sla/companies/:id`: a company's own targets, replaced; the list is read again. */
export function useSaveSlaCompany(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: BodyFor<typeof staffSlaCompanyRoutes.put> }) =>
      call(staffSlaCompanyRoutes.put, { params: { company, id }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: slaCompaniesQuery(company).queryKey }),
  });
}

/** `DELETE …/admin/sla/companies/:id`: the portal's targets apply to the company again. */
export function useRemoveSlaCompany(company: string) {
  const qc = useQueryClient();
  return async (id: number) => {
    await call(staffSlaCompanyRoutes.remove, { params: { company, id } });
    await qc.invalidateQueries({ queryKey: slaCompaniesQuery(company).queryKey });
  };
}
