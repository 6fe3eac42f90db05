import { queryOptions, useQuery } from '@tanstack/react-query';
import { documentRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { documentKeys } from './keys';

/** `GET /api/{company}/{contactid}/documents`: the contact's own documents, newest first. */
export const fetchContactDocuments = (company: string, contactId: number, signal?: AbortSignal) =>
  call(documentRoutes.list, { params: { company, contactid: contactId }, signal });

export const contactDocumentsQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: documentKeys.contact(company, contactId),
    queryFn: ({ signal }) => fetchContactDocuments(company, contactId, signal),
  });

export const useContactDocuments = (company: string, contactId: number) =>
  useQuery(contactDocumentsQuery(company, contactId));
