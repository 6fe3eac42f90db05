import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { agents } from '../../db/schema';
import { intArrayParam, queryRows, tsParam } from '../../platform/sql-json';

export interface TicketForAnswer {
  id: number;
  extId: number;
  title: string;
  ticketNumber: string;
  creatorContactId: number | null;
  creatorContactExtId: number | null;
  portalName: string;
  portalKey: string;
  baseColor: string | null;
  defaultLanguage: string;
}

/** The ticket of a portal by its back-office id, locked for the change. */
export async function findPortalTicketForUpdate(
  tx: Tx,
  portalId: number,
  ticketExtId: number,
): Promise<TicketForAnswer | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select t.id, t.ext_id, t.title, t.ticket_number, t.creator_contact_id, c.ext_id as creator_ext_id,
        p.name as portal_name, p.key as portal_key, p.base_color, p.default_language
      from tickets t join portals p on p.id = t.portal_id
      left join contacts c on c.id = t.creator_contact_id
      where t.portal_id = ${portalId}::int and t.ext_id = ${ticketExtId}::bigint
      for update of t`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(r.id),
    extId: Number(r.ext_id),
    title: String(r.title),
    ticketNumber: String(r.ticket_number),
    creatorContactId: num(r.creator_contact_id),
    creatorContactExtId: num(r.creator_ext_id),
    portalName: String(r.portal_name),
    portalKey: String(r.portal_key),
    baseColor: (r.base_color as string | null) ?? null,
    defaultLanguage: String(r.default_language),
  };
}

/** The agent of a portal by its back-office id; created with `name` when missing and a name is given. */
export async function findOrCreateAgent(
  tx: Tx,
  portalId: number,
  extId: number,
  name: string | undefined,
): Promise<{ id: number; displayName: string } | undefined> {
  const rows = await queryRows<{ id: number; display_name: string }>(
    tx,
    sql`select id, display_name from agents where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  if (rows[0]) return { id: Number(rows[0].id), displayName: rows[0].display_name };
  if (name === undefined) return undefined;
  const [row] = await tx
    .insert(agents)
    .values({ portalId, extId, displayName: name })
    .onConflictDoNothing()
    .returning({ id: agents.id, displayName: agents.displayName });
  if (row) return row;
  // A concurrent request created it first.
  return findOrCreateAgent(tx, portalId, extId, undefined);
}

export async function commentExtIdTaken(tx: Tx, portalId: number, extId: number): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`select 1 as one from ticket_comments where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  return rows.length > 0;
}

/** Marks files this key uploaded and never attached as attached; answers those it took. */
export async function claimKeyUploads(
  tx: Tx,
  p: { portalId: number; apiKeyId: number; fileIds: number[]; now: Date },
): Promise<{ id: number; name: string; contentType: string; size: number }[]> {
  if (p.fileIds.length === 0) return [];
  const rows = await queryRows<{ id: number; name: string; content_type: string; size: number }>(
    tx,
    sql`update files set attached_at = ${tsParam(p.now)}
      where id = any(${intArrayParam(p.fileIds)}) and portal_id = ${p.portalId}::int
        and uploaded_by_api_key_id = ${p.apiKeyId}::int and attached_at is null
      returning id, name, content_type, size`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    contentType: r.content_type,
    size: Number(r.size),
  }));
}

/** A file of the portal, for the integration download. */
export async function findPortalFile(
  db: Tx | Parameters<typeof queryRows>[0],
  portalId: number,
  fileId: number,
): Promise<{ id: number; sha256: string; name: string; contentType: string; size: number } | undefined> {
  const rows = await queryRows<{
    id: number;
    sha256: string;
    name: string;
    content_type: string;
    size: number;
  }>(
    db,
    sql`select id, sha256, name, content_type, size from files
      where id = ${fileId}::int and portal_id = ${portalId}::int`,
  );
  const r = rows[0];
  return (
    r && {
      id: Number(r.id),
      sha256: r.sha256,
      name: r.name,
      contentType: r.content_type,
      size: Number(r.size),
    }
  );
}
