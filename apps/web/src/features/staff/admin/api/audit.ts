import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditQuery } from '@sportello/contracts';
import { auditRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

export type AuditFilters = Pick<AuditQuery, 'entity' | 'action' | 'actorType' | 'entityId' | 'from' | 'to'>;

/** `GET …/admin/audit`: the audit log under the filters, newest first, 50 a page. */
export const useAuditLog = (company: string, filters: AuditFilters) =>
  useInfiniteQuery({
    queryKey: [...staffKeys.portal(company), 'audit', filters] as const,
    queryFn: ({ pageParam, signal }) =>
      call(auditRoutes.list, {
        params: { company },
        query: { ...filters, cursor: pageParam ?? undefined, limit: 50 },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
