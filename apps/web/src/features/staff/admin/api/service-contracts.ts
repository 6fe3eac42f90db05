import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/service-contracts?companyId=`: a company's service contracts with their packages. */
export const useServiceContracts = (company: string, companyId: number) =>
  useQuery({
    queryKey: adminKeys.serviceContracts(company, companyId),
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.serviceContracts, { params: { company }, query: { companyId }, signal }),
  });

type ServiceBody = Omit<BodyFor<typeof entityStaffRoutes.createServiceContract>, 'companyId'>;

/** `POST …/admin/service-contracts` (contractId null) or `PATCH …/{servicecontractid}`; the list again. */
export function useSaveServiceContract(company: string, companyId: number, contractId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceBody) =>
      contractId === null
        ? call(entityStaffRoutes.createServiceContract, { params: { company }, body: { ...body, companyId } })
        : call(entityStaffRoutes.updateServiceContract, {
            params: { company, servicecontractid: contractId },
            body,
          }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.serviceContracts(company, companyId) }),
  });
}

/** `DELETE …/admin/service-contracts/{servicecontractid}`, then the list again. */
export function useRemoveServiceContract(company: string, companyId: number) {
  const client = useQueryClient();
  return async (contractId: number) => {
    await call(entityStaffRoutes.deleteServiceContract, {
      params: { company, servicecontractid: contractId },
    });
    await client.invalidateQueries({ queryKey: adminKeys.serviceContracts(company, companyId) });
  };
}
