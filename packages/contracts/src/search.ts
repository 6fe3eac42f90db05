// Schemas of the one search (issue 16 part 4): what a contact may find, grouped by kind.
import { z } from 'zod';
import { tenantParams } from './common';
import { defineRoute } from './route';

/** Fewer characters find too much to be useful (and a trigram index needs three). */
export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 100;
/** Results per group; `more` says when a group had more. */
export const SEARCH_GROUP_LIMIT = 8;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(SEARCH_MIN_LENGTH).max(SEARCH_MAX_LENGTH),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** The kinds of result, in the order the groups are answered. */
export const searchKinds = [
  'tickets',
  'wiki',
  'invoices',
  'estimates',
  'documents',
  'activityContracts',
  'serviceContracts',
] as const;
export const searchKindSchema = z.enum(searchKinds);
export type SearchKind = z.infer<typeof searchKindSchema>;

export const searchHitSchema = z.object({
  /** The back office's id of the item (a ticket's id opens `tickets/:id`). */
  id: z.number().int(),
  /** What the result is called: a ticket's title, an invoice's number, a document's name. */
  title: z.string(),
  /** A second line: the ticket's number and step, the wiki folder, an estimate's name. */
  detail: z.string().nullable(),
  /** The item's date (ISO), when it has one. */
  date: z.string().nullable(),
  /** A signed link to the file, for kinds that are a file (invoices, estimates, documents); else null. */
  url: z.string().nullable(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchGroupSchema = z.object({
  kind: searchKindSchema,
  items: z.array(searchHitSchema),
  /** The group had more results than it shows. */
  more: z.boolean(),
});
export type SearchGroup = z.infer<typeof searchGroupSchema>;

export const searchResultSchema = z.object({
  /** Only the groups the contact may see, in the order of `searchKinds`, empty ones left out. */
  groups: z.array(searchGroupSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

// --- Routes (see route.ts) ---

export const searchRoutes = {
  search: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/search',
    params: tenantParams,
    query: searchQuerySchema,
    responses: { 200: searchResultSchema },
    access: { guard: 'tenant' },
    tags: ['search'],
    summary:
      'One search over what the contact may see: tickets, wiki, invoices, estimates, documents, contracts',
    description:
      'Each group is searched only when the contact holds the permission of its own list route, and with that ' +
      "list's scope (a non-administrator finds only the tickets they created, documents are the contact's own). " +
      'Tickets match by number, id, words of the title, description or public conversation, or a fragment of ' +
      `the title; the other kinds by a fragment of their number or name. At most ${SEARCH_GROUP_LIMIT} per group.`,
  }),
};
