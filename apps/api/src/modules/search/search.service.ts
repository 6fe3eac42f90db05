/**
 * The one search (issue 16 part 4). A kind is searched only when the contact passes the flag rule of
 * that kind's own list route (the route contracts are the one source of who may see what), and with
 * that list's row scope (modules/tickets/core/visibility.ts).
 */
import {
  billingRoutes,
  contractRoutes,
  documentRoutes,
  SEARCH_GROUP_LIMIT,
  searchKinds,
  ticketRoutes,
  wikiRoutes,
  type RouteContract,
  type SearchKind,
  type SearchQuery,
  type SearchResult,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { flagAllows, type TenantContext } from '../../platform/tenancy';
import { ticketScope } from '../tickets/core';
import { searchAll } from './search.queries';

/**
 * The route whose access decides each kind. Tickets: the detail, where a result leads (any ticket of
 * the company for an administrator, else the contact's own, as the detail and its scope say).
 */
const routeOfKind: Record<SearchKind, RouteContract> = {
  tickets: ticketRoutes.detail,
  wiki: wikiRoutes.list,
  invoices: billingRoutes.invoices,
  estimates: billingRoutes.estimates,
  documents: documentRoutes.list,
  activityContracts: contractRoutes.activity,
  serviceContracts: contractRoutes.service,
};

const flagOf = (r: RouteContract) => ('flag' in r.access ? r.access.flag : undefined);

/** The kinds a contact may search. */
export function visibleKinds(t: TenantContext): Set<SearchKind> {
  return new Set(searchKinds.filter((k) => flagAllows(t.flags, flagOf(routeOfKind[k]))));
}

/** Kinds whose results are a file: their link is a signed URL bound to the caller. */
const fileKinds: ReadonlySet<SearchKind> = new Set(['invoices', 'estimates', 'documents']);

export async function search(ctx: AppContext, t: TenantContext, q: SearchQuery): Promise<SearchResult> {
  // PostgreSQL text cannot hold NUL (the request guards refuse it first; this keeps the query safe anyway).
  const text = q.q.replaceAll('\u0000', '').trim();
  const found = await searchAll(
    ctx.database.db,
    t,
    { q: text, kinds: visibleKinds(t), ticketScope: ticketScope(t), limit: SEARCH_GROUP_LIMIT },
    searchKinds,
  );
  const now = ctx.clock.now();
  const groups: SearchResult['groups'] = [];
  for (const kind of searchKinds) {
    const hits = found[kind];
    if (!hits || hits.length === 0) continue;
    groups.push({
      kind,
      more: hits.length > SEARCH_GROUP_LIMIT,
      items: hits.slice(0, SEARCH_GROUP_LIMIT).map((h) => ({
        id: h.id,
        title: h.title,
        detail: h.detail,
        date: h.date,
        url:
          fileKinds.has(kind) && h.fileId !== null
            ? ctx.signer.sign(h.fileId, h.fileName ?? 'file', now, { bind: t })
            : null,
      })),
    });
  }
  return { groups };
}
