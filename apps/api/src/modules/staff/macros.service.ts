/**
 * Canned replies (issue 28 item 6; docs/staff.md, "Macros"). A member keeps personal macros; the portal's admins
 * keep shared ones every member sees. A macro's text is picked in the requester's language and its
 * placeholders filled here, on the server; the reply it brings and its ticket changes are written in
 * one transaction by the conversation's one writer and the ticket's own change.
 */
import {
  MACRO_LIST_MAX,
  macroErrorCodes,
  macroLanguages,
  renderMacroText,
  staffErrorCodes,
  ticketErrorCodes,
  type Macro,
  type MacroActions,
  type MacroLanguage,
  type MacroList,
  type MacroTexts,
  type RenderedMacro,
  type StaffComment,
  type macroInputSchema,
  type macroReplyRequestSchema,
} from '@sportello/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { escapeHtml } from '../../platform/account-mail';
import { forbidden, notFound } from '../../platform/errors';
import { kickOutbox } from '../../platform/outbox';
import { lockTicket, writeCommentIn } from '../tickets/core';
import { changeTicket, staffCommentAnswer } from './desk.service';
import {
  deleteMacro,
  findMacro,
  insertMacro,
  listMacros,
  macroTicketValues,
  updateMacro,
  type MacroRow,
} from './macros.queries';
import type { StaffPortalAccess } from './staff.access';
import { logTimeIn } from './time.service';

type MacroInput = z.output<typeof macroInputSchema>;
type ReplyInput = z.output<typeof macroReplyRequestSchema>;

const macroNotFound = () =>
  notFound('No such macro of yours or of this portal', macroErrorCodes.macroNotFound);
const ticketNotFound = () => notFound('No such ticket in this portal', ticketErrorCodes.ticketNotFound);
const adminOnly = () =>
  forbidden("The portal's shared macros are written by its admins", staffErrorCodes.adminRequired);

const answerOf = (a: StaffPortalAccess, m: MacroRow): Macro => ({
  id: m.id,
  name: m.name,
  shared: m.ownerStaffUserId === null,
  editable:
    m.ownerStaffUserId === a.staffUserId || (m.ownerStaffUserId === null && a.portal.role === 'admin'),
  texts: m.texts,
  actions: m.actions,
  updatedAt: m.updatedAt,
});

/** Blank texts are not kept: a language without text falls back like a missing one. */
const keptTexts = (texts: MacroTexts): MacroTexts =>
  Object.fromEntries(
    Object.entries(texts).filter(([, v]) => v !== undefined && v.trim() !== ''),
  ) as MacroTexts;

export async function macros(
  ctx: AppContext,
  a: StaffPortalAccess,
  q: { q?: string | undefined; scope: 'all' | 'shared' | 'mine' },
): Promise<MacroList> {
  const rows = await listMacros(ctx.database.db, {
    portalId: a.portal.portalId,
    staffUserId: a.staffUserId,
    q: q.q,
    scope: q.scope,
  });
  return {
    items: rows.slice(0, MACRO_LIST_MAX).map((m) => answerOf(a, m)),
    more: rows.length > MACRO_LIST_MAX,
  };
}

export async function createMacro(ctx: AppContext, a: StaffPortalAccess, body: MacroInput): Promise<Macro> {
  if (body.shared && a.portal.role !== 'admin') throw adminOnly();
  const db = ctx.database.db;
  const id = await insertMacro(
    db,
    a.portal.portalId,
    {
      name: body.name,
      ownerStaffUserId: body.shared ? null : a.staffUserId,
      texts: keptTexts(body.texts),
      actions: body.actions,
    },
    ctx.clock.now(),
  );
  return answerOf(a, (await findMacro(db, a.portal.portalId, a.staffUserId, id))!);
}

export async function changeMacro(
  ctx: AppContext,
  a: StaffPortalAccess,
  id: number,
  body: MacroInput,
): Promise<Macro> {
  return ctx.database.db.transaction(async (tx) => {
    const m = await findMacro(tx, a.portal.portalId, a.staffUserId, id, true);
    if (!m) throw macroNotFound();
    // A shared macro, or making one shared, is the admins'.
    if ((m.ownerStaffUserId === null || body.shared) && a.portal.role !== 'admin') throw adminOnly();
    await updateMacro(
      tx,
      id,
      {
        name: body.name,
        ownerStaffUserId: body.shared ? null : a.staffUserId,
        texts: keptTexts(body.texts),
        actions: body.actions,
      },
      ctx.clock.now(),
    );
    return answerOf(a, (await findMacro(tx, a.portal.portalId, a.staffUserId, id))!);
  });
}

export async function removeMacro(ctx: AppContext, a: StaffPortalAccess, id: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const m = await findMacro(tx, a.portal.portalId, a.staffUserId, id, true);
    if (!m) throw macroNotFound();
    if (m.ownerStaffUserId === null && a.portal.role !== 'admin') throw adminOnly();
    await deleteMacro(tx, id);
  });
}

/** it / it-IT / en_GB … as one of the macros' languages; null when none of them. */
function macroLanguageOf(language: string | null): MacroLanguage | null {
  const two = language?.slice(0, 2).toLowerCase();
  return macroLanguages.find((l) => l.slice(0, 2).toLowerCase() === two) ?? null;
}

/**
 * The language a macro is sent in: the requester's when the macro has a text in it, else the portal's
 * default, else the first it has (Italian, English, Spanish).
 */
export function pickMacroLanguage(
  texts: MacroTexts,
  requester: string | null,
  portalDefault: string,
): MacroLanguage {
  const has = (l: MacroLanguage | null): l is MacroLanguage => l !== null && (texts[l] ?? '').trim() !== '';
  const wanted = macroLanguageOf(requester);
  if (has(wanted)) return wanted;
  const fallback = macroLanguageOf(portalDefault);
  if (has(fallback)) return fallback;
  return macroLanguages.find((l) => has(l)) ?? 'it-IT';
}

export async function renderMacro(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  id: number,
): Promise<RenderedMacro> {
  const db = ctx.database.db;
  const [m, ticket] = await Promise.all([
    findMacro(db, a.portal.portalId, a.staffUserId, id),
    macroTicketValues(db, a.portal.portalId, ticketExtId),
  ]);
  if (!ticket) throw ticketNotFound();
  if (!m) throw macroNotFound();
  const language = pickMacroLanguage(m.texts, ticket.language, ticket.defaultLanguage);
  const name = ticket.customerName.trim();
  const text = renderMacroText(
    m.texts[language] ?? '',
    {
      'customer.first_name': name.split(/\s+/)[0] ?? '',
      'customer.name': name,
      'ticket.number': ticket.ticketNumber,
      'ticket.title': ticket.title,
      'agent.name': a.displayName,
    },
    escapeHtml,
  );
  return { id: m.id, name: m.name, language, text, actions: m.actions };
}

const hasActions = (x: MacroActions) => Object.values(x).some((v) => v !== undefined);

/**
 * The reply (or note) and then the macro's ticket changes, in one transaction: the comment by
 * `writeCommentIn`, each change as `PATCH …/tickets/{id}` makes it (timeline rows, `ticket.closed` /
 * `ticket.reopened`). A refused change rolls the comment back with it. The changes come after the
 * comment, so a step the macro sets wins over the reply's "waiting for the customer".
 */
export async function replyWithActions(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  body: ReplyInput,
): Promise<StaffComment> {
  const written = await ctx.database.db.transaction(async (tx) => {
    const comment = await writeCommentIn(tx, ctx, {
      portalId: a.portal.portalId,
      ticketExtId,
      channel: 'desk',
      author: { kind: 'staff', staffUserId: a.staffUserId, displayName: a.displayName },
      message: body.message,
      internal: body.internal,
      attachments: body.attachments.map((fileId) => ({ fileId })),
    });
    if (body.time) await logTimeIn(tx, ctx, a, comment.ticketId, { ...body.time, commentId: comment.id });
    if (hasActions(body.actions)) {
      const ticket = await lockTicket(tx, a.portal.portalId, ticketExtId, null);
      if (!ticket) throw ticketNotFound();
      await changeTicket(tx, ctx, a, ticket, body.actions, false);
    }
    return comment;
  });
  if (!body.internal) kickOutbox();
  return staffCommentAnswer(ctx, written.id);
}
