/**
 * What every writer of the import shares: the scope of one portal being written (transaction, files,
 * sanitiser, time zone, ext id → internal id maps), batching, and the set-based writes that touch a row
 * only when one of its values differs (`writeByExtId`, `updateChanged`), so a re-import of unchanged
 * data writes and locks nothing and the list counters of untouched companies (migration 0001) stay
 * where they are.
 */
import { and, eq, getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ImportCompany, ImportPortal } from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import {
  activityContracts,
  agents,
  assigneeGroups,
  companies,
  contacts,
  serviceContracts,
  statusSteps,
  tags,
  ticketComments,
  tickets,
  ticketTypes,
  wikiElements,
  wikiFolders,
} from '../../../db/schema';
import { AppError } from '../../../platform/errors';
import { zonedDate } from '@sportello/contracts/time-zone';
import { chunk, type ImportFiles } from '../import.files';
import type { CleanHtml, HtmlValue } from '../import.html';

/** Rows per multi-row statement: well under PostgreSQL's 65,535 parameters for our widest table. */
export const BATCH = 1000;
/** Ids per `in (...)` list of a select or delete. */
const ID_BATCH = 5000;

/** One element of a list of the portal or of a company in the import document. */
export type PortalItem<K extends keyof ImportPortal> =
  NonNullable<ImportPortal[K]> extends (infer T)[] ? T : never;
export type CompanyItem<K extends keyof ImportCompany> =
  NonNullable<ImportCompany[K]> extends (infer T)[] ? T : never;
/** A row of a company's list with the company's internal id. */
export interface Owned<T> {
  companyId: number;
  item: T;
}

/** A day means midnight in the portal's zone; a date-time without an offset is the portal's local time. */
export function importDateToDate(value: string, timeZone: string): Date {
  const s = value.replace(' ', 'T');
  if (/T.*(Z|[+-]\d{2}:?\d{2})$/.test(s)) return new Date(s);
  return zonedDate(s, timeZone);
}

export async function selectIn<T>(ids: number[], run: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunk(ids, ID_BATCH)) out.push(...(await run(part)));
  return out;
}

export async function deleteIds(ids: number[], run: (part: number[]) => Promise<unknown>): Promise<void> {
  for (const part of chunk(ids, ID_BATCH)) await run(part);
}

export const pairKey = (a: number, b: number) => `${a}:${b}`;

const concurrentChange = (what: string) =>
  new AppError(409, 'import_conflict', `${what} changed while importing; run the import again`);

/**
 * ext id → internal id of one kind of row in one portal. Writers add the ids their upserts return;
 * ids of rows not written (unchanged, or written by an earlier import) are looked up on `ensure`.
 */
export class ExtIds {
  private readonly map = new Map<number, number>();
  constructor(
    private readonly what: string,
    private readonly load: (extIds: number[]) => Promise<{ id: number; extId: number }[]>,
  ) {}

  add(rows: { id: number; extId: number }[]): this {
    for (const r of rows) this.map.set(r.extId, r.id);
    return this;
  }

  async ensure(extIds: Iterable<number | null | undefined>): Promise<void> {
    const missing = [...new Set([...extIds].filter((x): x is number => x != null && !this.map.has(x)))];
    for (const part of chunk(missing, ID_BATCH)) this.add(await this.load(part));
  }

  get(extId: number | null | undefined): number | null {
    if (extId == null) return null;
    const id = this.map.get(extId);
    if (id === undefined) throw concurrentChange(`${this.what} ${extId}`);
    return id;
  }

  must(extId: number): number {
    return this.get(extId) as number;
  }
}

export type ExtKeyed = PgTable & { id: PgColumn; portalId: PgColumn; extId: PgColumn };

/** The id maps of one portal, one per kind of row that other rows point to. */
export class PortalIds {
  readonly ticketTypes: ExtIds;
  readonly statusSteps: ExtIds;
  readonly groups: ExtIds;
  readonly agents: ExtIds;
  readonly tags: ExtIds;
  readonly companies: ExtIds;
  readonly contacts: ExtIds;
  readonly wikiFolders: ExtIds;
  readonly wikiElements: ExtIds;
  readonly tickets: ExtIds;
  readonly comments: ExtIds;
  readonly activityContracts: ExtIds;
  readonly serviceContracts: ExtIds;

  constructor(tx: Tx, portalId: number) {
    const of = (what: string, table: ExtKeyed) =>
      new ExtIds(
        what,
        (ext) =>
          tx
            .select({ id: table.id, extId: table.extId })
            .from(table)
            .where(and(eq(table.portalId, portalId), inArray(table.extId, ext))) as Promise<
            { id: number; extId: number }[]
          >,
      );
    this.ticketTypes = of('ticket type', ticketTypes);
    this.statusSteps = of('status step', statusSteps);
    this.groups = of('group', assigneeGroups);
    this.agents = of('agent', agents);
    this.tags = of('tag', tags);
    this.companies = of('company', companies);
    this.contacts = of('contact', contacts);
    this.wikiFolders = of('wiki folder', wikiFolders);
    this.wikiElements = of('wiki element', wikiElements);
    this.tickets = of('ticket', tickets);
    this.comments = of('comment', ticketComments);
    this.activityContracts = of('activity contract', activityContracts);
    this.serviceContracts = of('service contract', serviceContracts);
  }
}

/** Everything a writer needs to write rows of one portal. */
export class PortalScope {
  readonly ids: PortalIds;
  constructor(
    readonly tx: Tx,
    readonly portalId: number,
    readonly timeZone: string,
    readonly files: ImportFiles,
    readonly clean: CleanHtml,
    readonly now: Date,
    /** The import's ticket and comment HTML with the digests of their sources (import.html.ts). */
    private readonly importHtml?: (html: string | null | undefined) => HtmlValue,
  ) {
    this.ids = new PortalIds(tx, portalId);
  }

  /**
   * A ticket description or comment message to store: prepared by the import (with its source, or null
   * HTML to keep the stored one), or sanitised by `clean` with no source (the entities API).
   */
  html(html: string | null | undefined): HtmlValue {
    return this.importHtml ? this.importHtml(html) : { html: this.clean(html), source: null };
  }

  at(s: string): Date {
    return importDateToDate(s, this.timeZone);
  }

  atOrNull(s: string | null | undefined): Date | null {
    return s ? this.at(s) : null;
  }

  fileId(ref: Parameters<ImportFiles['idOf']>[1]): number {
    return this.files.idOf(this.portalId, ref);
  }

  optionalFileId(ref: Parameters<ImportFiles['optionalIdOf']>[1]): number | null {
    return this.files.optionalIdOf(this.portalId, ref);
  }
}

/**
 * Upserts rows keyed by (portal, ext id), writing only those that differ (`writeByExtId`, a batch a
 * statement), and records every row's id in `ids`.
 */
export async function upsertByExtId<R extends { extId: number }>(
  s: PortalScope,
  table: ExtKeyed,
  keys: readonly (keyof R & string)[],
  rows: R[],
  ids: ExtIds | undefined,
): Promise<void> {
  for (const part of chunk(rows, JSON_BATCH)) await writeByExtId(s, table, keys, null, part, ids);
}

interface SyncPlan<R> {
  update: (R & { id: number })[];
  insert: R[];
  remove: number[];
  /** key → id of the existing rows kept (updated or left as they are). */
  kept: Map<string, number>;
}

/** Matches existing child rows to the document's by key: update in place, insert, or delete. */
export function planSync<R>(
  existing: { id: number; key: string }[],
  desired: { key: string; row: R }[],
): SyncPlan<R> {
  const byKey = new Map<string, number>();
  const remove: number[] = [];
  for (const e of existing) {
    if (byKey.has(e.key)) remove.push(e.id);
    else byKey.set(e.key, e.id);
  }
  const kept = new Map<string, number>();
  const used = new Set<number>();
  const update: (R & { id: number })[] = [];
  const insert: R[] = [];
  for (const d of desired) {
    const id = byKey.get(d.key);
    if (id !== undefined && !used.has(id)) {
      used.add(id);
      kept.set(d.key, id);
      update.push({ ...d.row, id });
    } else insert.push(d.row);
  }
  for (const id of byKey.values()) if (!used.has(id)) remove.push(id);
  return { update, insert, remove, kept };
}

/**
 * Replaces the children of some parents (wiki properties, attachments, activities, packages...) by the
 * document's list: matched by (parent, ext id); kept ones are upserted by id (written only when they
 * differ), new ones inserted, the ones no longer listed deleted. Answers the id of every desired child
 * by its key, `pairKey(parent, ext id)`.
 */
export async function syncChildren<R>(opts: {
  existing: { id: number; parent: number | null; ext: number }[];
  desired: { key: string; row: R }[];
  update: (part: (R & { id: number })[]) => Promise<unknown>;
  insert: (part: R[]) => Promise<{ id: number; parent: number | null; ext: number }[]>;
  remove: (ids: number[]) => Promise<unknown>;
}): Promise<Map<string, number>> {
  const plan = planSync(
    opts.existing.map((e) => ({ id: e.id, key: pairKey(e.parent ?? 0, e.ext) })),
    opts.desired,
  );
  const ids = plan.kept;
  for (const part of chunk(plan.update, BATCH)) await opts.update(part);
  for (const part of chunk(plan.insert, BATCH))
    for (const r of await opts.insert(part)) ids.set(pairKey(r.parent ?? 0, r.ext), r.id);
  await deleteIds(plan.remove, opts.remove);
  return ids;
}

/** Rows per statement of `writeByExtId` and `updateChanged` (one JSON parameter each). */
export const JSON_BATCH = 5000;
/** Characters of HTML per statement: a batch of long fragments is cut earlier (PostgreSQL takes 1 GB). */
const JSON_BATCH_CHARS = 32_000_000;

/**
 * Batches of at most JSON_BATCH rows whose HTML (`html` of each row, in characters) stays under
 * JSON_BATCH_CHARS, so a batch of the longest fragments a document may hold still fits one parameter.
 */
export function htmlBatches<T>(rows: T[], html: (row: T) => string | null | undefined): T[][] {
  const out: T[][] = [];
  let part: T[] = [];
  let chars = 0;
  for (const row of rows) {
    const n = html(row)?.length ?? 0;
    if (part.length > 0 && (part.length >= JSON_BATCH || chars + n > JSON_BATCH_CHARS)) {
      out.push(part);
      part = [];
      chars = 0;
    }
    part.push(row);
    chars += n;
  }
  if (part.length > 0) out.push(part);
  return out;
}

/** The property names, column names and SQL types of some columns of a table. */
function columnsOf(table: PgTable, keys: readonly string[]): { key: string; name: string; type: string }[] {
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  return keys.map((key) => {
    const col = cols[key];
    if (!col) throw new Error(`no column ${key}`);
    return { key, name: col.name, type: col.getSQLType() };
  });
}

const q = (name: string) => `"${name}"`;
/** `json_to_recordset($json) as d("key" type, ...)`: a batch of row objects as one parameter. */
const recordset = (json: string, cols: { key: string; type: string }[]) =>
  sql`json_to_recordset(${json}::json) as d(${sql.raw(cols.map((c) => `${q(c.key)} ${c.type}`).join(', '))})`;

/** An HTML column written with the digest of its source (see import.html.ts `HtmlValue`). */
export interface HtmlColumns<R> {
  html: keyof R & string;
  source: keyof R & string;
}

/**
 * Writes one batch of rows keyed by (portal, ext id), set-based and only what differs: one statement
 * reads the existing rows' ids and updates those with a differing value (a row left alone is neither
 * written nor locked, fires no row trigger and moves no list counter), a second inserts the new ones;
 * every row's id goes into `ids`. Rows travel as one JSON parameter each way, so a million rows cost a
 * few hundred statements and no per-value SQL. Unlike an upsert (`insert … on conflict do update`),
 * unchanged rows take no row lock (which would block the portal's own writers until the import commits)
 * and draw no value from the identity sequence.
 *
 * `html`: an HTML column whose null value means "keep the stored one", allowed only while the stored
 * source is the row's (the database raises 40001 otherwise, answered as import_conflict), with its
 * source column (a null source leaves the stored one; a trigger forgets it when the HTML changes).
 */
export async function writeByExtId<R extends { extId: number }>(
  s: PortalScope,
  table: ExtKeyed,
  keys: readonly (keyof R & string)[],
  html: HtmlColumns<R> | null,
  rows: R[],
  ids: ExtIds | undefined,
): Promise<void> {
  const kept = await writeByKey(s, table, 'extId', keys, html, rows);
  ids?.add(kept.map((r) => ({ id: r.id, extId: Number(r.key) })));
}

/**
 * `writeByExtId` for rows keyed by another unique column of the portal (`key`: a document or event key
 * of the public links). Answers the id of every row by its key.
 */
export async function writeByKey<R extends Record<K, number | string>, K extends keyof R & string>(
  s: PortalScope,
  table: PgTable & { id: PgColumn; portalId: PgColumn },
  key: K,
  keys: readonly (keyof R & string)[],
  html: HtmlColumns<R> | null,
  rows: R[],
): Promise<{ id: number; key: number | string }[]> {
  if (rows.length === 0) return [];
  const name = q(getTableName(table));
  const [k] = columnsOf(table, [key]);
  const plain = columnsOf(table, keys);
  const htmlCols = html ? columnsOf(table, [html.html, html.source]) : [];
  const [h, src] = htmlCols;
  const all = [k!, ...plain, ...htmlCols];
  const match = `t.portal_id = ${s.portalId} and t.${q(k!.name)} = d.${q(k!.key)}`;
  const sets = plain.map((c) => `${q(c.name)} = d.${q(c.key)}`);
  const differs = [
    `(${plain.map((c) => `t.${q(c.name)}`).join(', ')}) is distinct from (${plain.map((c) => `d.${q(c.key)}`).join(', ')})`,
  ];
  if (h && src) {
    sets.push(
      `${q(h.name)} = coalesce(d.${q(h.key)}, import_kept_html(t.${q(h.name)}, t.${q(src.name)}, d.${q(src.key)}))`,
      `${q(src.name)} = coalesce(d.${q(src.key)}, t.${q(src.name)})`,
    );
    differs.push(
      `(d.${q(h.key)} is not null and t.${q(h.name)} is distinct from d.${q(h.key)})`,
      `(d.${q(src.key)} is not null and t.${q(src.name)} is distinct from d.${q(src.key)})`,
      `(d.${q(h.key)} is null and d.${q(src.key)} is null)`,
    );
  }
  const existing = (await s.tx.execute(sql`
    with d as materialized (select * from ${recordset(JSON.stringify(rows), all)}),
    cur as materialized (select t.id, t.${sql.raw(q(k!.name))} as key from d join ${sql.raw(name)} t on ${sql.raw(match)}),
    upd as (
      update ${sql.raw(name)} t set ${sql.raw(sets.join(', '))}
      from d where ${sql.raw(match)} and (${sql.raw(differs.join(' or '))})
      returning t.id
    )
    select id, key from cur`)) as unknown as { rows: { id: number; key: number | string }[] };
  const keyOf = (v: number | string) => (typeof rows[0]![key] === 'number' ? Number(v) : String(v));
  const out = existing.rows.map((r) => ({ id: Number(r.id), key: keyOf(r.key) }));
  const found = new Set(out.map((r) => r.key));
  const fresh = rows.filter((r) => !found.has(r[key]));
  if (fresh.length === 0) return out;
  // A row kept unsanitised was found stored before the transaction, and is gone now.
  if (h && fresh.some((r) => r[h.key as keyof R] == null)) throw concurrentChange(getTableName(table));
  const inserted = (await s.tx.execute(sql`
    insert into ${sql.raw(name)} (portal_id, ${sql.raw(all.map((c) => q(c.name)).join(', '))})
    select ${s.portalId}::int, ${sql.raw(all.map((c) => `d.${q(c.key)}`).join(', '))} from ${recordset(JSON.stringify(fresh), all)}
    on conflict (portal_id, ${sql.raw(q(k!.name))}) do nothing
    returning id, ${sql.raw(q(k!.name))} as key`)) as unknown as {
    rows: { id: number; key: number | string }[];
  };
  // A row another writer inserted meanwhile: the import runs again rather than guess.
  if (inserted.rows.length !== fresh.length) throw concurrentChange(getTableName(table));
  return [...out, ...inserted.rows.map((r) => ({ id: Number(r.id), key: keyOf(r.key) }))];
}

/**
 * Updates rows by id, each only when one of `keys` differs (`update … from json_to_recordset`): the
 * kept children of `syncChildren`, without locking or rewriting the unchanged ones.
 */
export async function updateChanged<R extends { id: number }>(
  tx: Tx,
  table: PgTable,
  keys: readonly (keyof R & string)[],
  rows: R[],
): Promise<void> {
  const plain = columnsOf(table, keys);
  const all = [...columnsOf(table, ['id']), ...plain];
  const name = q(getTableName(table));
  for (const part of chunk(rows, JSON_BATCH))
    await tx.execute(sql`
      update ${sql.raw(name)} t set ${sql.raw(plain.map((c) => `${q(c.name)} = d.${q(c.key)}`).join(', '))}
      from ${recordset(JSON.stringify(part), all)}
      where t.id = d."id"
        and (${sql.raw(plain.map((c) => `t.${q(c.name)}`).join(', '))}) is distinct from (${sql.raw(plain.map((c) => `d.${q(c.key)}`).join(', '))})`);
}
