// Canned replies (macros) of the staff desk (issue 28 item 6) and the customer beside a ticket (item
// 10). See docs/staff.md ("Macros") for the placeholder syntax.
import { z } from 'zod';
import { errorSchema, extIdParam, extIdSchema, isoDateTime, rowIdParam, rowIdSchema } from './common';
import { portalLanguageSchema } from './portals';
import { timeSpentSchema } from './staff-merge';
import { defineRoute } from './route';
import { macroErrorCodes } from './staff-errors';
import {
  TICKET_TAGS_MAX,
  staffCommentSchema,
  staffPortalParamsSchema,
  staffTicketParamsSchema,
  ticketPrioritySchema,
  ticketTagNameSchema,
} from './staff';
import { MAX_ATTACHMENTS, TICKET_BODY_LIMIT, TICKET_DESCRIPTION_MAX } from './tickets';

export { macroErrorCodes } from './staff-errors';

/**
 * The placeholders a macro's text may hold, written `{{name}}` (spaces inside the braces allowed:
 * `{{ customer.first_name }}`). Anything else between double braces is refused when the macro is
 * saved, so a typo never reaches a customer. Rendered on the server, each value escaped as text.
 */
export const MACRO_PLACEHOLDERS = [
  /** The first word of the requester's name (the contact who opened the ticket). */
  'customer.first_name',
  /** The requester's whole name. */
  'customer.name',
  /** The ticket's number as the customer sees it (e.g. `2026/0118`). */
  'ticket.number',
  'ticket.title',
  /** The replying agent's display name. */
  'agent.name',
] as const;
export type MacroPlaceholder = (typeof MACRO_PLACEHOLDERS)[number];

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The names between double braces in a text, as written (known or not), each once. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** The placeholders of a text that are not MACRO_PLACEHOLDERS. */
export function unknownPlaceholdersIn(text: string): string[] {
  const known = new Set<string>(MACRO_PLACEHOLDERS);
  return placeholdersIn(text).filter((p) => !known.has(p));
}

/**
 * The text with each placeholder replaced by its value passed through `escape` (HTML escaping for the
 * editor's HTML). An unknown placeholder is left as written (saving refused it already).
 */
export function renderMacroText(
  text: string,
  values: Record<MacroPlaceholder, string>,
  escape: (s: string) => string,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? escape(values[name as MacroPlaceholder]) : whole,
  );
}

/** The languages a macro has a text in (the portal's languages). */
export const macroLanguages = portalLanguageSchema.options;
export type MacroLanguage = (typeof macroLanguages)[number];

export const MACRO_NAME_MAX = 120;
/** A macro's text is at most a reply's length. */
export const MACRO_TEXT_MAX = TICKET_DESCRIPTION_MAX;
/** The picker's list: the portal's shared macros and the caller's own, at most this many. */
export const MACRO_LIST_MAX = 200;

/** A text with only known placeholders. */
const macroTextSchema = z
  .string()
  .max(MACRO_TEXT_MAX)
  .refine((s) => unknownPlaceholdersIn(s).length === 0, {
    message: `Unknown placeholder: use ${MACRO_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`,
    params: { code: macroErrorCodes.unknownPlaceholder },
  });

/** One text per language; at least one that is not blank. */
export const macroTextsSchema = z
  .object({
    'it-IT': macroTextSchema.optional(),
    'en-EN': macroTextSchema.optional(),
    'es-ES': macroTextSchema.optional(),
  })
  .strict()
  .refine((t) => Object.values(t).some((s) => s !== undefined && s.trim() !== ''), {
    message: 'A macro needs a text in at least one language',
  });
export type MacroTexts = z.infer<typeof macroTextsSchema>;

/**
 * The ticket changes a macro applies with the reply (absent: unchanged), by the back office's ids as
 * the ticket's own change (`PATCH …/tickets/{id}`); null unassigns. `tags` replaces the ticket's tags.
 */
export const macroActionsSchema = z
  .object({
    stepId: extIdSchema.optional(),
    assigneeId: extIdSchema.nullable().optional(),
    groupId: extIdSchema.nullable().optional(),
    priority: ticketPrioritySchema.optional(),
    tags: z.array(ticketTagNameSchema).max(TICKET_TAGS_MAX).optional(),
  })
  .strict();
export type MacroActions = z.infer<typeof macroActionsSchema>;

/** `POST …/macros`, `PUT …/macros/{id}`: `shared` macros are the portal's, written by its admins. */
export const macroInputSchema = z
  .object({
    name: z.string().trim().min(1).max(MACRO_NAME_MAX),
    shared: z.boolean(),
    texts: macroTextsSchema,
    actions: macroActionsSchema.default({}),
  })
  .strict();
export type MacroInput = z.input<typeof macroInputSchema>;

export const macroSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The portal's (every member sees it, admins change it); false: the caller's own. */
  shared: z.boolean(),
  /** Whether the caller may change or delete it. */
  editable: z.boolean(),
  texts: z.object({
    'it-IT': z.string().optional(),
    'en-EN': z.string().optional(),
    'es-ES': z.string().optional(),
  }),
  actions: macroActionsSchema,
  updatedAt: isoDateTime,
});
export type Macro = z.infer<typeof macroSchema>;

export const macroListQuerySchema = z.object({
  /** Part of the name, any case. */
  q: z.string().trim().max(100).optional(),
  /** Only the portal's shared ones (the administration's screen) or only the caller's own. */
  scope: z.enum(['all', 'shared', 'mine']).default('all'),
});

export const macroListSchema = z.object({
  items: z.array(macroSchema),
  /** More matched than MACRO_LIST_MAX: narrow the search. */
  more: z.boolean(),
});
export type MacroList = z.infer<typeof macroListSchema>;

export const macroParamsSchema = z.object({ company: z.string().min(1).max(40), macroid: rowIdParam });
export const macroTicketParamsSchema = z.object({
  company: z.string().min(1).max(40),
  ticketid: extIdParam,
  macroid: rowIdParam,
});

/** `GET …/tickets/{ticketid}/macros/{macroid}`: the macro's text for this ticket, placeholders filled. */
export const renderedMacroSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The language picked: the requester's when the macro has it, else the portal's, else the first. */
  language: portalLanguageSchema,
  /** HTML, as the editor holds it. */
  text: z.string(),
  actions: macroActionsSchema,
});
export type RenderedMacro = z.infer<typeof renderedMacroSchema>;

/**
 * `POST …/tickets/{ticketid}/reply-with-actions`: a reply or note and the ticket changes a macro
 * brought (as the agent left them), in one transaction: a refused change writes no comment.
 */
export const macroReplyRequestSchema = z
  .object({
    message: z.string().max(TICKET_DESCRIPTION_MAX),
    internal: z.boolean(),
    attachments: z.array(rowIdSchema).max(MAX_ATTACHMENTS).default([]),
    actions: macroActionsSchema,
    /** Time spent on it, logged in the same transaction (issue 28 item 11). */
    time: timeSpentSchema.optional(),
  })
  .strict();
export type MacroReplyRequest = z.input<typeof macroReplyRequestSchema>;

const macrosPath = '/api/staff/portals/:company/macros';

export const staffMacroRoutes = {
  list: defineRoute({
    method: 'GET',
    path: macrosPath,
    params: staffPortalParamsSchema,
    query: macroListQuerySchema,
    responses: { 200: macroListSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "The portal's shared macros and the caller's own, by name (at most MACRO_LIST_MAX)",
  }),
  create: defineRoute({
    method: 'POST',
    path: macrosPath,
    params: staffPortalParamsSchema,
    body: macroInputSchema,
    responses: { 201: macroSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'A personal macro, or (admins) a shared one',
    description: '400 unknown_placeholder; 403 admin_required (a shared macro by an agent).',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${macrosPath}/:macroid`,
    params: macroParamsSchema,
    body: macroInputSchema,
    responses: { 200: macroSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "Change a macro: one's own, or (admins) a shared one",
    description: '400 unknown_placeholder; 403 admin_required; 404 macro_not_found (not yours to see).',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${macrosPath}/:macroid`,
    params: macroParamsSchema,
    responses: { 204: null, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "Delete a macro: one's own, or (admins) a shared one",
  }),
  render: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/tickets/:ticketid/macros/:macroid',
    params: macroTicketParamsSchema,
    responses: { 200: renderedMacroSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "A macro's text for a ticket in the requester's language, placeholders filled",
  }),
  reply: defineRoute({
    method: 'POST',
    bodyLimit: TICKET_BODY_LIMIT,
    path: '/api/staff/portals/:company/tickets/:ticketid/reply-with-actions',
    params: staffTicketParamsSchema,
    body: macroReplyRequestSchema,
    responses: { 201: staffCommentSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "A reply or note and a macro's ticket changes, in one transaction",
    description:
      'The comment as `POST …/comments`, then each change as `PATCH …/tickets/{id}` (its timeline ' +
      'entry and event); a refused change (400 unknown_reference) writes nothing.',
  }),
};
