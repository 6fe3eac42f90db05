import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignatureStatus } from '@sportello/contracts';
import { signatureStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';
import type { BodyFor } from './body';

const signatureKeys = (company: string) => [...staffKeys.portal(company), 'signatures'] as const;

/** `GET …/signature-requests?status=`: the portal's signature requests, 50 a page. */
export const useSignatureRequests = (company: string, status: SignatureStatus | undefined) =>
  useInfiniteQuery({
    queryKey: [...signatureKeys(company), 'list', status ?? null] as const,
    queryFn: ({ pageParam, signal }) =>
      call(signatureStaffRoutes.signatureRequests, {
        params: { company },
        query: { status, cursor: pageParam ?? undefined, limit: 50 },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** `GET …/signature-requests/{documentkey}`: one request with its history. */
export const useSignatureRequest = (company: string, documentKey: string) =>
  useQuery({
    queryKey: [...signatureKeys(company), 'detail', documentKey] as const,
    queryFn: ({ signal }) =>
      call(signatureStaffRoutes.signatureRequest, { params: { company, documentkey: documentKey }, signal }),
  });

/** `POST …/signature-requests`: a PDF sent to a contact to sign; the lists again. */
export function useCreateSignatureRequest(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyFor<typeof signatureStaffRoutes.createSignatureRequest>) =>
      call(signatureStaffRoutes.createSignatureRequest, { params: { company }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: signatureKeys(company) }),
  });
}

/** `POST …/signature-requests/{documentkey}/cancel`; the lists and the detail again. */
export function useCancelSignatureRequest(company: string, documentKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      call(signatureStaffRoutes.cancelSignatureRequest, { params: { company, documentkey: documentKey } }),
    onSuccess: () => client.invalidateQueries({ queryKey: signatureKeys(company) }),
  });
}
