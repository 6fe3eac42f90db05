/** The portal's own row and its portal-wide lists: ticket types, status steps, groups, agents, tags. */
import { eq, sql } from 'drizzle-orm';
import type { ImportPortal } from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import {
  agents,
  assigneeGroups,
  documents,
  portals,
  statusSteps,
  tags,
  ticketAttachments,
  ticketComments,
  tickets,
  ticketTypes,
} from '../../../db/schema';
import type { CleanHtml } from '../import.html';
import { upsertByExtId, type PortalItem, type PortalScope } from './support';

export const DEFAULT_TIME_ZONE = 'Europe/Rome';
/** The back office's way of saying "no base colour". */
export const BASE_COLOR_UNSET = /^hsl\(\s*123\s*,\s*0%\s*,\s*0%\s*\)$/i;

/** Custom CSS is injected as a stylesheet: closing the <style> element is the one way out of it. */
export const customCssOf = (css: string) => css.replace(/<\/style/gi, '');

const SETTING_KEYS = [
  'name',
  'baseColor',
  'customCss',
  'footerCustomHtml',
  'disableHtmlEditor',
  'enableServiceContracts',
  'overviewLanding',
  'privacyHtml',
  'timeZone',
  'defaultLanguage',
] as const;

/**
 * The portal's settings row, created or updated by its key; `updated_at` moves only when a setting
 * really changed (nothing is written, nor locked, otherwise). Answers the portal's id.
 */
export async function writePortalSettings(
  tx: Tx,
  p: ImportPortal,
  clean: CleanHtml,
  now: Date,
): Promise<number> {
  const settings = {
    name: p.webPortalName,
    baseColor: p.baseColor && !BASE_COLOR_UNSET.test(p.baseColor) ? p.baseColor : null,
    customCss: customCssOf(p.customCss ?? ''),
    footerCustomHtml: clean(p.footerCustomHtml),
    disableHtmlEditor: p.disableHtmlEditor ?? false,
    enableServiceContracts: p.enableServiceContracts ?? false,
    overviewLanding: p.overviewLanding ?? false,
    privacyHtml: clean(p.privacyHtml),
    timeZone: p.timeZone ?? DEFAULT_TIME_ZONE,
    defaultLanguage: p.defaultLanguage ?? 'it-IT',
  } satisfies Record<(typeof SETTING_KEYS)[number], unknown>;
  const [existing] = await tx.select({ id: portals.id }).from(portals).where(eq(portals.key, p.webPortalKey));
  if (existing) {
    const differs = sql.join(
      SETTING_KEYS.map((k) => sql`${portals[k]} is distinct from ${sql.param(settings[k], portals[k])}`),
      sql` or `,
    );
    await tx
      .update(portals)
      .set({ ...settings, updatedAt: now })
      .where(sql`${portals.id} = ${existing.id} and (${differs})`);
    return existing.id;
  }
  const [created] = await tx
    .insert(portals)
    .values({ key: p.webPortalKey, ...settings, createdAt: now, updatedAt: now })
    .returning({ id: portals.id });
  if (!created) throw new Error('portal insert returned nothing');
  return created.id;
}

/** The logo points to a `files` row, so it is set once the portal's files are written. */
export async function writePortalLogo(s: PortalScope, logo: ImportPortal['logo']): Promise<void> {
  const logoId = s.optionalFileId(logo);
  await s.tx
    .update(portals)
    .set({ logoFileId: logoId, updatedAt: s.now })
    .where(sql`${portals.id} = ${s.portalId} and ${portals.logoFileId} is distinct from ${logoId}::int`);
}

type Names = Partial<Record<'it-IT' | 'en-EN' | 'es-ES', string>>;

/**
 * A type's or step's name as imported (one text, or one per language) as the two columns: the one name
 * (Italian, else English, else Spanish) and the per-language ones (null for one text).
 */
function namesOf(n: string | Names): { name: string; names: Names | null } {
  if (typeof n === 'string') return { name: n, names: null };
  return { name: n['it-IT'] ?? n['en-EN'] ?? n['es-ES'] ?? '', names: n };
}

export async function writeTicketTypes(s: PortalScope, rows: PortalItem<'ticketTypes'>[]): Promise<void> {
  await upsertByExtId(
    s,
    ticketTypes,
    ['name', 'names', 'color'],
    rows.map((t) => ({ portalId: s.portalId, extId: t.id, ...namesOf(t.name), color: t.color ?? null })),
    s.ids.ticketTypes,
  );
}

export async function writeStatusSteps(s: PortalScope, rows: PortalItem<'statusSteps'>[]): Promise<void> {
  await upsertByExtId(
    s,
    statusSteps,
    ['name', 'names', 'taskStatus', 'isDefault', 'isClosing'],
    rows.map((st) => ({
      portalId: s.portalId,
      extId: st.id,
      ...namesOf(st.name),
      taskStatus: st.taskStatus,
      isDefault: st.isDefault ?? false,
      isClosing: st.isClosing ?? false,
    })),
    s.ids.statusSteps,
  );
}

export async function writeGroups(s: PortalScope, rows: PortalItem<'groups'>[]): Promise<void> {
  await upsertByExtId(
    s,
    assigneeGroups,
    ['name'],
    rows.map((g) => ({ portalId: s.portalId, extId: g.id, name: g.name })),
    s.ids.groups,
  );
}

export async function writeAgents(s: PortalScope, rows: PortalItem<'agents'>[]): Promise<void> {
  await upsertByExtId(
    s,
    agents,
    ['displayName', 'firstName', 'lastName', 'email', 'profileFileId'],
    rows.map((a) => ({
      portalId: s.portalId,
      extId: a.id,
      displayName: a.displayName,
      firstName: a.firstName ?? '',
      lastName: a.lastName ?? '',
      email: a.email ?? null,
      profileFileId: s.optionalFileId(a.profileImage),
    })),
    s.ids.agents,
  );
}

export async function writeTags(s: PortalScope, rows: PortalItem<'tags'>[]): Promise<void> {
  await upsertByExtId(
    s,
    tags,
    ['name', 'tagGroupName'],
    rows.map((t) => ({
      portalId: s.portalId,
      extId: t.id,
      name: t.name,
      tagGroupName: t.tagGroupName ?? '',
    })),
    s.ids.tags,
  );
}

/**
 * Rows the portal creates itself (tickets, comments, attachments, documents) continue after the back
 * office's numbers; the row is written only when a counter has to move.
 */
export async function advancePortalSequences(s: PortalScope): Promise<void> {
  await s.tx.execute(sql`
    with top as (
      select
        (select coalesce(max(ext_id), 0) from ${tickets} where portal_id = ${s.portalId}) as ticket,
        (select coalesce(max(ext_id), 0) from ${ticketComments} where portal_id = ${s.portalId}) as comment,
        (select coalesce(max(ext_id), 0) from ${ticketAttachments} where portal_id = ${s.portalId}) as attachment,
        (select coalesce(max(ext_id), 0) from ${documents} where portal_id = ${s.portalId}) as document
    )
    update ${portals} set
      ticket_seq = greatest(ticket_seq, top.ticket),
      comment_seq = greatest(comment_seq, top.comment),
      attachment_seq = greatest(attachment_seq, top.attachment),
      document_seq = greatest(document_seq, top.document)
    from top
    where id = ${s.portalId}
      and (ticket_seq < top.ticket or comment_seq < top.comment
           or attachment_seq < top.attachment or document_seq < top.document)`);
}
