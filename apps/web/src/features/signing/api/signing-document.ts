import { queryOptions, useQuery } from '@tanstack/react-query';
import { signingRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError, call } from '../../../lib/api-client';

/** `GET /api/signing/{company}/{documentkey}` (public): the document, its signer and its state. */
export const fetchSigningDocument = (company: string, documentKey: string, signal?: AbortSignal) =>
  call(signingRoutes.document, { params: { company, documentkey: documentKey }, signal });

export const signingDocumentQuery = (company: string, documentKey: string) =>
  queryOptions({
    // The key is a capability and compared exactly: it stays as typed, the portal key does not matter.
    queryKey: ['signing', company.toLowerCase(), documentKey] as const,
    queryFn: ({ signal }) => fetchSigningDocument(company, documentKey, signal),
    staleTime: 0,
    // A 404 (unknown or expired link) will not change by asking again.
    retry: (failures, error) => !(error instanceof ApiRequestError && error.status < 500) && failures < 1,
  });

export const useSigningDocument = (company: string, documentKey: string) =>
  useQuery(signingDocumentQuery(company, documentKey));
