/** The macros' rows (issue 28 item 6, migration 0051), always scoped by portal and visible owner. */
import { sql } from 'drizzle-orm';
import { MACRO_LIST_MAX, type MacroActions, type MacroTexts } from '@sportello/contracts';
import { isoText, likeEscape, queryRows, type Queryable } from '../../platform/sql-json';

export interface MacroRow {
  id: number;
  name: string;
  ownerStaffUserId: number | null;
  texts: MacroTexts;
  actions: MacroActions;
  updatedAt: string;
}

type Raw = {
  id: number;
  name: string;
  owner_staff_user_id: number | null;
  texts: MacroTexts | string;
  actions: MacroActions | string;
  updated_at: string;
};

const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
const rowOf = (r: Raw): MacroRow => ({
  id: Number(r.id),
  name: r.name,
  ownerStaffUserId: r.owner_staff_user_id === null ? null : Number(r.owner_staff_user_id),
  texts: parsed(r.texts),
  actions: parsed(r.actions),
  updatedAt: r.updated_at,
});

const COLUMNS = sql.raw(
  `m.id, m.name, m.owner_staff_user_id, m.texts, m.actions, ${isoText('m.updated_at')} as updated_at`,
);

/** Those the caller sees: the portal's shared ones and their own (MACRO_LIST_MAX + 1 to tell of more). */
export async function listMacros(
  db: Queryable,
  s: { portalId: number; staffUserId: number; q?: string | undefined; scope: 'all' | 'shared' | 'mine' },
): Promise<MacroRow[]> {
  const owners =
    s.scope === 'shared'
      ? sql`m.owner_staff_user_id is null`
      : s.scope === 'mine'
        ? sql`m.owner_staff_user_id = ${s.staffUserId}::int`
        : sql`(m.owner_staff_user_id is null or m.owner_staff_user_id = ${s.staffUserId}::int)`;
  const named = s.q ? sql`and lower(m.name) like ${`%${likeEscape(s.q.toLowerCase())}%`}` : sql``;
  const rows = await queryRows<Raw>(
    db,
    sql`select ${COLUMNS} from staff_macros m
      where m.portal_id = ${s.portalId}::int and ${owners} ${named}
      order by lower(m.name), m.id limit ${MACRO_LIST_MAX + 1}`,
  );
  return rows.map(rowOf);
}

/** One macro the caller sees (shared, or their own), locked for a change when `forUpdate`. */
export async function findMacro(
  db: Queryable,
  portalId: number,
  staffUserId: number,
  id: number,
  forUpdate = false,
): Promise<MacroRow | undefined> {
  const rows = await queryRows<Raw>(
    db,
    sql`select ${COLUMNS} from staff_macros m
      where m.id = ${id}::int and m.portal_id = ${portalId}::int
        and (m.owner_staff_user_id is null or m.owner_staff_user_id = ${staffUserId}::int)
      ${forUpdate ? sql`for update` : sql``}`,
  );
  return rows[0] && rowOf(rows[0]);
}

export interface MacroWrite {
  name: string;
  ownerStaffUserId: number | null;
  texts: MacroTexts;
  actions: MacroActions;
}

export async function insertMacro(
  db: Queryable,
  portalId: number,
  m: MacroWrite,
  now: Date,
): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into staff_macros (portal_id, owner_staff_user_id, name, texts, actions, created_at, updated_at)
      values (${portalId}::int, ${m.ownerStaffUserId}::int, ${m.name}, ${JSON.stringify(m.texts)}::jsonb,
        ${JSON.stringify(m.actions)}::jsonb, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
      returning id`,
  );
  return Number(rows[0]!.id);
}

export async function updateMacro(db: Queryable, id: number, m: MacroWrite, now: Date): Promise<void> {
  await db.execute(
    sql`update staff_macros set name = ${m.name}, owner_staff_user_id = ${m.ownerStaffUserId}::int,
      texts = ${JSON.stringify(m.texts)}::jsonb, actions = ${JSON.stringify(m.actions)}::jsonb,
      updated_at = ${now.toISOString()}::timestamptz where id = ${id}::int`,
  );
}

export async function deleteMacro(db: Queryable, id: number): Promise<void> {
  await db.execute(sql`delete from staff_macros where id = ${id}::int`);
}

/** What a macro's placeholders and language need of a ticket; undefined when not the portal's. */
export async function macroTicketValues(
  db: Queryable,
  portalId: number,
  ticketExtId: number,
): Promise<
  | {
      ticketNumber: string;
      title: string;
      customerName: string;
      language: string | null;
      defaultLanguage: string;
    }
  | undefined
> {
  const rows = await queryRows<{
    ticket_number: string;
    ext_id: number;
    title: string;
    referent_name: string | null;
    language: string | null;
    default_language: string;
  }>(
    db,
    sql`select t.ticket_number, t.ext_id, t.title, c.referent_name, p.default_language,
        (select u.language from user_contacts uc join users u on u.id = uc.user_id
          where uc.contact_id = t.creator_contact_id and u.language is not null
          order by u.id limit 1) as language
      from tickets t join portals p on p.id = t.portal_id
      left join contacts c on c.id = t.creator_contact_id
      where t.portal_id = ${portalId}::int and t.ext_id = ${ticketExtId}::bigint`,
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    ticketNumber: r.ticket_number || String(r.ext_id),
    title: r.title,
    customerName: r.referent_name ?? '',
    language: r.language,
    defaultLanguage: r.default_language,
  };
}
