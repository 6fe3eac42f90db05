import type { SearchHit, SearchKind } from '@sportello/contracts';

/** Where a result leads: a page of the portal (`to`), or the item's file (`href`, a signed link). */
export type SearchTarget = { to: string } | { href: string };

/** The list page of each kind, under `/{company}/{contactid}`. */
const pageOf: Record<SearchKind, string> = {
  tickets: 'tickets',
  wiki: 'wiki',
  invoices: 'invoices',
  estimates: 'estimates',
  documents: 'documents',
  activityContracts: 'activitycontracts',
  serviceContracts: 'servicecontracts',
};

export function targetOf(basePath: string, kind: SearchKind, hit: SearchHit): SearchTarget {
  if (hit.url) return { href: hit.url };
  if (kind === 'tickets') return { to: `${basePath}/tickets/${hit.id}` };
  if (kind === 'wiki') return { to: `${basePath}/wiki?element=${hit.id}` };
  return { to: `${basePath}/${pageOf[kind]}` };
}

/** One flat order of the rows of every group: arrow keys walk it from the text box down and back. */
export function nextIndex(from: number, key: 'ArrowDown' | 'ArrowUp', count: number): number {
  if (count === 0) return -1;
  const next = key === 'ArrowDown' ? from + 1 : from - 1;
  return next < -1 ? -1 : Math.min(next, count - 1);
}
