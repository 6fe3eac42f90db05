import { useMutation, useQuery } from '@tanstack/react-query';
import type { ApiKeyScope } from '@sportello/contracts';
import { accessRoutes, webhookStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';
import type { BodyFor, Callbacks } from './body';

export const apiKeysKey = (company: string) => [...staffKeys.portal(company), 'admin-keys'] as const;
export const webhooksKey = (company: string) => [...staffKeys.portal(company), 'admin-webhooks'] as const;

/** `GET …/admin/api-keys`: the portal's API keys (never their secrets). */
export const useApiKeys = (company: string) =>
  useQuery({
    queryKey: apiKeysKey(company),
    queryFn: ({ signal }) => call(accessRoutes.keys, { params: { company }, signal }),
  });

/** `POST …/admin/api-keys`: a key with its scopes; the answer holds its secret, shown once. */
export const useCreateApiKey = (
  company: string,
  on: Callbacks<typeof accessRoutes.createKey, { name: string; scopes: ApiKeyScope[] }>,
) =>
  useMutation({ ...on, mutationFn: (body) => call(accessRoutes.createKey, { params: { company }, body }) });

/** `POST …/admin/api-keys/{keyId}/rotate`: a new secret. */
export const useRotateApiKey = (company: string, on: Callbacks<typeof accessRoutes.rotateKey, number>) =>
  useMutation({
    ...on,
    mutationFn: (keyId) => call(accessRoutes.rotateKey, { params: { company, keyId }, body: {} }),
  });

/** `DELETE …/admin/api-keys/{keyId}`. */
export const useRevokeApiKey = (company: string, on: Callbacks<typeof accessRoutes.revokeKey, number>) =>
  useMutation({ ...on, mutationFn: (keyId) => call(accessRoutes.revokeKey, { params: { company, keyId } }) });

/** `GET …/admin/webhooks`: the portal's webhook endpoints. */
export const useWebhooks = (company: string) =>
  useQuery({
    queryKey: webhooksKey(company),
    queryFn: ({ signal }) => call(webhookStaffRoutes.list, { params: { company }, signal }),
  });

/** `POST …/admin/webhooks`: an endpoint; the answer holds its signing secret, shown once. */
export const useCreateWebhook = (company: string, on: Callbacks<typeof webhookStaffRoutes.create, string>) =>
  useMutation({
    ...on,
    mutationFn: (url) => call(webhookStaffRoutes.create, { params: { company }, body: { url } }),
  });

/** `GET …/admin/webhooks/{endpointId}/attempts`: the last 50 deliveries, asked again every 5 s. */
export const useWebhookAttempts = (company: string, endpointId: number) =>
  useQuery({
    queryKey: [...staffKeys.portal(company), 'admin-webhook-attempts', endpointId] as const,
    queryFn: ({ signal }) =>
      call(webhookStaffRoutes.attempts, { params: { company, endpointId }, query: { limit: 50 }, signal }),
    refetchInterval: 5000,
  });

/** `PATCH …/admin/webhooks/{endpointId}`: the changed fields. */
export const useUpdateWebhook = (
  company: string,
  endpointId: number,
  on: Callbacks<typeof webhookStaffRoutes.update, BodyFor<typeof webhookStaffRoutes.update>>,
) =>
  useMutation({
    ...on,
    mutationFn: (body) => call(webhookStaffRoutes.update, { params: { company, endpointId }, body }),
  });

/** `POST …/admin/webhooks/{endpointId}/rotate`: a new secret (the old one valid a while). */
export const useRotateWebhook = (
  company: string,
  endpointId: number,
  on: Callbacks<typeof webhookStaffRoutes.rotate, void>,
) =>
  useMutation({
    ...on,
    mutationFn: () => call(webhookStaffRoutes.rotate, { params: { company, endpointId }, body: {} }),
  });

/** `POST …/admin/webhooks/{endpointId}/replay`: the events after a cursor (none: all kept) again. */
export const useReplayWebhook = (
  company: string,
  endpointId: number,
  on: Callbacks<typeof webhookStaffRoutes.replay, string | undefined>,
) =>
  useMutation({
    ...on,
    mutationFn: (after) =>
      call(webhookStaffRoutes.replay, { params: { company, endpointId }, body: after ? { after } : {} }),
  });

/** `DELETE …/admin/webhooks/{endpointId}`. */
export const useRemoveWebhook = (
  company: string,
  endpointId: number,
  on: Callbacks<typeof webhookStaffRoutes.remove, void>,
) =>
  useMutation({
    ...on,
    mutationFn: () => call(webhookStaffRoutes.remove, { params: { company, endpointId } }),
  });
