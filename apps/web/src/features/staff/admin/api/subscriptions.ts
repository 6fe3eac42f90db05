import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/subscriptions?companyId=`: a company's subscriptions (recurring advances). */
export const useSubscriptions = (company: string, companyId: number) =>
  useQuery({
    queryKey: adminKeys.subscriptions(company, companyId),
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.subscriptions, { params: { company }, query: { companyId }, signal }),
  });

type SubscriptionBody = Omit<BodyFor<typeof entityStaffRoutes.createSubscription>, 'companyId'>;

/** `POST …/admin/subscriptions` (subscriptionId null) or `PATCH …/{subscriptionid}`; the list again. */
export function useSaveSubscription(company: string, companyId: number, subscriptionId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SubscriptionBody) =>
      subscriptionId === null
        ? call(entityStaffRoutes.createSubscription, { params: { company }, body: { ...body, companyId } })
        : call(entityStaffRoutes.updateSubscription, {
            params: { company, subscriptionid: subscriptionId },
            body,
          }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.subscriptions(company, companyId) }),
  });
}
