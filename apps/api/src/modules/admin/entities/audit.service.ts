/**
 * The audit log for a portal's admins: filtered keyset pages, and the same filter as a CSV download
 * streamed page by page (a log of millions of rows never sits in memory). CSV cells that a spreadsheet
 * would run as a formula (= + - @, and tab or carriage return first) get a leading quote (OWASP).
 */
import { Readable } from 'node:stream';
import { badRequest } from '../../../platform/errors';
import { csvCell } from '../../../platform/csv';
import type { AuditEntry, AuditPage, AuditQuery } from '@sportello/contracts';
import type { Queryable } from '../../../platform/sql-json';
import { auditPage, type AuditFilter, type AuditListRow } from './entities.queries';

/** Rows per statement of the CSV export. */
const EXPORT_PAGE = 500;

type Filter = Omit<AuditQuery, 'cursor' | 'limit'>;

function filterOf(portalId: number, q: Filter): AuditFilter {
  if (q.from && q.to && new Date(q.from) >= new Date(q.to))
    throw badRequest('`from` must be before `to`', 'invalid_date');
  return {
    portalId,
    actorType: q.actorType,
    staffUserId: q.staffUserId as number | undefined,
    apiKeyId: q.apiKeyId as number | undefined,
    entity: q.entity,
    entityId: q.entityId,
    action: q.action,
    from: q.from,
    to: q.to,
  };
}

const parseJson = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

function entryOf(r: AuditListRow): AuditEntry {
  return {
    id: Number(r.id),
    occurredAt: (r.occurred_at instanceof Date
      ? r.occurred_at
      : new Date(String(r.occurred_at))
    ).toISOString(),
    actor: {
      type: r.actor_type,
      id: r.actor_type === 'api_key' ? r.api_key_id : r.staff_user_id,
      name: r.actor_name,
    },
    entity: r.entity,
    entityId: r.entity_id,
    action: r.action,
    before: parseJson(r.before),
    after: parseJson(r.after),
  };
}

export async function listAudit(
  db: Queryable,
  portalId: number,
  q: Filter & { cursor?: string; limit: number },
): Promise<AuditPage> {
  const f = filterOf(portalId, q);
  if (q.cursor !== undefined) f.before = Number(q.cursor);
  const rows = await auditPage(db, f, q.limit + 1);
  const items = rows.slice(0, q.limit).map(entryOf);
  return {
    items,
    nextCursor: rows.length > q.limit ? String(items[items.length - 1]!.id) : null,
  };
}

export { csvCell };

const CSV_HEADER = [
  'id',
  'occurredAt',
  'actorType',
  'actorId',
  'actorName',
  'entity',
  'entityId',
  'action',
  'before',
  'after',
];

function csvLine(e: AuditEntry): string {
  return (
    [
      e.id,
      e.occurredAt,
      e.actor.type,
      e.actor.id,
      e.actor.name,
      e.entity,
      e.entityId,
      e.action,
      e.before === null ? '' : JSON.stringify(e.before),
      e.after === null ? '' : JSON.stringify(e.after),
    ]
      .map(csvCell)
      .join(',') + '\r\n'
  );
}

/** The filtered log as CSV, read EXPORT_PAGE rows at a time as the client takes them. */
export function exportAudit(db: Queryable, portalId: number, q: Filter): Readable {
  const f = filterOf(portalId, q);
  let header = true;
  let done = false;
  return new Readable({
    async read() {
      try {
        if (header) {
          header = false;
          // A BOM so spreadsheets read the file as UTF-8.
          this.push('\ufeff' + CSV_HEADER.join(',') + '\r\n');
          return;
        }
        if (done) {
          this.push(null);
          return;
        }
        const rows = await auditPage(db, f, EXPORT_PAGE);
        if (rows.length < EXPORT_PAGE) done = true;
        if (rows.length === 0) {
          this.push(null);
          return;
        }
        f.before = Number(rows[rows.length - 1]!.id);
        this.push(rows.map((r) => csvLine(entryOf(r))).join(''));
      } catch (e) {
        this.destroy(e as Error);
      }
    },
  });
}
