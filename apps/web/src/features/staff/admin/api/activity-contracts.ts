import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/activity-contracts?companyId=`: a company's hour and unit contracts with their activities. */
export const useActivityContracts = (company: string, companyId: number) =>
  useQuery({
    queryKey: adminKeys.activityContracts(company, companyId),
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.activityContracts, { params: { company }, query: { companyId }, signal }),
  });

type ContractBody = Omit<BodyFor<typeof entityStaffRoutes.createActivityContract>, 'companyId'>;

/** `POST …/admin/activity-contracts` (contractId null) or `PATCH …/{contractid}`; the list again. */
export function useSaveActivityContract(company: string, companyId: number, contractId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ContractBody) =>
      contractId === null
        ? call(entityStaffRoutes.createActivityContract, {
            params: { company },
            body: { ...body, companyId },
          })
        : call(entityStaffRoutes.updateActivityContract, {
            params: { company, contractid: contractId },
            body,
          }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.activityContracts(company, companyId) }),
  });
}
