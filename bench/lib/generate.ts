/**
 * Scale data, written with set-based SQL straight into the tables of apps/api/src/db/schema.ts:
 * 100 portals (ticket types, status steps, agents, one shared PDF), 5,000 companies with 2 contacts each,
 * one web user per contact, then tickets in steps (`growTo`), each with 2 comments and proportional
 * activity reports (1 per 10 tickets), invoices (1/10), documents (1/20), activity contracts (1/100) and
 * service contracts (1/200). Ticket n belongs to company (n mod 5000)+1, except tickets 1..200 which all
 * belong to the known contact (ext id 1, portal p001, user `bench`): that contact owns exactly 200
 * tickets whatever the total, so the growth steps measure the same list.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/api/src/db/client';
import type { FileStore } from '../../apps/api/src/platform/files';
import { hashPassword } from '../../apps/api/src/platform/passwords';

export const PORTALS = 100;
export const COMPANIES = 5000;
export const KNOWN_TICKETS = 200;
export const BENCH_USER = 'bench';
export const BENCH_PASSWORD = 'Bench-Password-2026';
export const BENCH_PORTAL = 'p001';
export const BENCH_CONTACT_EXT = 1;
/** Tickets per statement: bounds the memory and WAL of one insert (PGlite keeps it all in one process). */
const CHUNK = 50_000;
const NOW = "'2026-11-20T10:00:00Z'::timestamptz";

async function run(database: Database, text: string): Promise<void> {
  await database.db.execute(sql.raw(text));
  // PGlite answers through microtasks only: without a macrotask turn the server would not answer the
  // runner's progress polls (or anything else) until the whole load is over.
  await new Promise((r) => setImmediate(r));
}

async function scalar(database: Database, text: string): Promise<number> {
  const r = (await database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };
  return Number(Object.values(r.rows[0] ?? {})[0] ?? 0);
}

export const ticketCount = (database: Database) => scalar(database, 'select count(*) from tickets');

/** A tiny valid PDF, stored once through the FileStore and shared by every report, invoice and document. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Portals, companies, contacts, users and the shared file: once, on an empty database. */
export async function createBase(database: Database, fileStore: FileStore): Promise<void> {
  if ((await scalar(database, 'select count(*) from portals')) > 0) return;
  const hash = (await hashPassword(BENCH_PASSWORD)).replaceAll("'", "''");
  const blob = await fileStore.putBuffer(PDF);
  const statements = [
    `insert into portals (key, name, time_zone, default_language)
       select 'p' || lpad(p::text, 3, '0'), 'Portal ' || p, 'Europe/Rome', 'it-IT' from generate_series(1, ${PORTALS}) p`,
    `insert into ticket_types (portal_id, ext_id, name, color)
       select p.id, k, (array['Fault','Request','Question','Complaint','Change'])[k],
         (array['#e03131','#1971c2','#2f9e44','#f08c00','#7048e8'])[k]
       from portals p cross join generate_series(1, 5) k`,
    `insert into status_steps (portal_id, ext_id, name, task_status, is_default, is_closing)
       select p.id, s.k, s.name, s.ts, s.d, s.c from portals p cross join (values
         (1, 'New', 0, true, false), (2, 'In progress', 1, false, false),
         (3, 'Waiting for customer', 1, false, false), (4, 'Closed', 2, false, true)) s(k, name, ts, d, c)`,
    `insert into agents (portal_id, ext_id, display_name, first_name, last_name, email)
       select p.id, k, 'Agent ' || k, 'Agent', 'No. ' || k, 'agent' || k || '@example.com'
       from portals p cross join generate_series(1, 2) k`,
    `insert into blobs (sha256, size) values ('${blob.sha256}', ${blob.size})`,
    `insert into files (portal_id, sha256, name, content_type, size)
       select p.id, '${blob.sha256}', 'document.pdf', 'application/pdf', ${blob.size} from portals p`,
    `insert into companies (portal_id, ext_id, company_name)
       select p.id, c, 'Company ' || c || ' S.r.l.'
       from generate_series(1, ${COMPANIES}) c
       join portals p on p.key = 'p' || lpad((((c - 1) / ${COMPANIES / PORTALS}) + 1)::text, 3, '0')`,
    `insert into contacts (portal_id, company_id, ext_id, referent_name, email, manage_tickets,
         view_contact_activity_reports, view_contact_invoices, view_contact_documents, upload_contact_documents,
         view_contact_contracts, view_estimates)
       select co.portal_id, co.id, (co.ext_id - 1) * 2 + k, 'Contact ' || ((co.ext_id - 1) * 2 + k),
         'contact' || ((co.ext_id - 1) * 2 + k) || '@example.com', true, true, true, true, true, true, true
       from companies co cross join generate_series(1, 2) k`,
    `insert into users (user_name, email, password_hash, password_changed_at)
       select case when ct.ext_id = ${BENCH_CONTACT_EXT} then '${BENCH_USER}' else 'user' || ct.ext_id end,
         ct.email, '${hash}', ${NOW}
       from contacts ct order by ct.ext_id`,
    `insert into user_contacts (user_id, contact_id)
       select u.id, ct.id from contacts ct
       join users u on lower(u.user_name) = case when ct.ext_id = ${BENCH_CONTACT_EXT} then '${BENCH_USER}'
         else 'user' || ct.ext_id end`,
  ];
  for (const s of statements) await run(database, s);
}

/** Tickets with ext ids from..to (inclusive), their comments and the proportional business rows. */
async function addTickets(database: Database, from: number, to: number): Promise<void> {
  const range = `between ${from} and ${to}`;
  await run(
    database,
    `insert into tickets (portal_id, company_id, ext_id, title, description, ticket_number,
       internal_annual_progressive, created_on, type_id, status_step_id, creator_contact_id, next_planned_activity_info)
     select co.portal_id, co.id, g.i, 'Ticket ' || g.i || ': the printer on the second floor does not answer',
       '<p>Since this morning the printer of ticket ' || g.i || ' shows an error. <strong>Please call back.</strong></p>',
       'T-' || g.i, g.i % 1000 + 1,
       ${NOW} - (g.i % 1096) * interval '1 day' - (g.i % 1440) * interval '1 minute',
       tt.id, ss.id, ct.id,
       case when g.i % 3 = 0 then 'Visit planned for next Monday' end
     from (
       select i,
         case when i <= ${KNOWN_TICKETS} then 1 else (i % ${COMPANIES}) + 1 end as c,
         case when i <= ${KNOWN_TICKETS} then 1 when i % ${COMPANIES} = 0 then 2 else (i / ${COMPANIES}) % 2 + 1 end as k
       from generate_series(${from}, ${to}) i
     ) g
     join companies co on co.ext_id = g.c
     join contacts ct on ct.ext_id = (g.c - 1) * 2 + g.k
     join ticket_types tt on tt.portal_id = co.portal_id and tt.ext_id = g.i % 5 + 1
     join status_steps ss on ss.portal_id = co.portal_id and ss.ext_id = g.i % 4 + 1`,
  );
  await run(
    database,
    `insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, sender_contact_id, sender_agent_id)
     select t.portal_id, t.id, t.ext_id * 2 + k - 1,
       case when k = 1 then '<p>Any news on this? It is blocking the office.</p>'
         else '<p>We are on it: a technician will call you today.</p>' end,
       t.created_on + k * interval '1 hour',
       case when k = 1 then t.creator_contact_id end, case when k = 2 then ag.id end
     from tickets t cross join generate_series(1, 2) k
     join agents ag on ag.portal_id = t.portal_id and ag.ext_id = 1
     where t.ext_id ${range}`,
  );
  const perTicket = (table: string, cols: string, values: string, every: number, at: number) =>
    run(
      database,
      `insert into ${table} (${cols}) select ${values}
       from tickets t join files f on f.portal_id = t.portal_id
       where t.ext_id ${range} and t.ext_id % ${every} = ${at}`,
    );
  await perTicket(
    'activity_reports',
    'portal_id, company_id, ext_id, name, date_time, ticket_id, file_id',
    `t.portal_id, t.company_id, t.ext_id, 'Intervention report ' || t.ext_id, t.created_on + interval '2 hours', t.id, f.id`,
    10,
    0,
  );
  await perTicket(
    'invoices',
    'portal_id, company_id, ext_id, document_number, total, invoice_date, file_id',
    `t.portal_id, t.company_id, t.ext_id, 'INV-' || t.ext_id, (t.ext_id % 5000) + 99.5, t.created_on, f.id`,
    10,
    5,
  );
  await perTicket(
    'documents',
    'portal_id, company_id, contact_id, ext_id, document_name, create_date, file_id',
    `t.portal_id, t.company_id, t.creator_contact_id, t.ext_id, 'Document ' || t.ext_id, t.created_on, f.id`,
    20,
    7,
  );
  await perTicket(
    'activity_contracts',
    'portal_id, company_id, ext_id, name, start, "end", contract_type, hours_amount',
    `t.portal_id, t.company_id, t.ext_id, 'Maintenance contract ' || t.ext_id, t.created_on, t.created_on + interval '1 year', 1, 40`,
    100,
    3,
  );
  await perTicket(
    'service_contracts',
    'portal_id, company_id, ext_id, name, status, active_from, active_to',
    `t.portal_id, t.company_id, t.ext_id, 'Service ' || t.ext_id, 1, t.created_on, t.created_on + interval '1 year'`,
    200,
    11,
  );
}

export interface GrowResult {
  tickets: number;
  ms: number;
}

/** Adds tickets until the database holds `target` (never removes), then refreshes sequences, vacuums and checkpoints. */
export async function growTo(
  database: Database,
  fileStore: FileStore,
  target: number,
  onProgress: (done: number) => void = () => {},
): Promise<GrowResult> {
  const started = performance.now();
  await createBase(database, fileStore);
  let have = await ticketCount(database);
  while (have < target) {
    const to = Math.min(target, have + CHUNK);
    await addTickets(database, have + 1, to);
    have = to;
    onProgress(have);
  }
  // Rows created through the API continue after the imported ext ids.
  await run(
    database,
    `update portals p set
       ticket_seq = coalesce((select max(ext_id) from tickets t where t.portal_id = p.id), 0),
       comment_seq = coalesce((select max(ext_id) from ticket_comments c where c.portal_id = p.id), 0),
       document_seq = coalesce((select max(ext_id) from documents d where d.portal_id = p.id), 0)`,
  );
  // Settle before anything is measured: a bulk load leaves autovacuum and the checkpointer work to do
  // (the hint bits of every new row, the visibility map, dirty buffers), which would otherwise run
  // during the first load runs and slow them (bench/RESULTS.md, "Figures moved out of the code").
  await run(database, 'vacuum analyze');
  await run(database, 'checkpoint');
  return { tickets: have, ms: Math.round(performance.now() - started) };
}

/** Row counts of the main tables (the RESULTS table of what was loaded). */
export async function rowCounts(database: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of [
    'portals',
    'companies',
    'contacts',
    'users',
    'tickets',
    'ticket_comments',
    'activity_reports',
    'invoices',
    'documents',
    'activity_contracts',
    'service_contracts',
    'files',
  ])
    out[t] = await scalar(database, `select count(*) from ${t}`);
  return out;
}
