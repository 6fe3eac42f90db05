import { sql } from 'drizzle-orm';
import { importDocumentSchema, type ImportDocument, type ImportProblem } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { ImportFiles } from './import.files';
import { prepareDocumentHtml } from './import.html';
import { loadKnownPortals, writePortal } from './import.queries';
import { prepareUsers, writeUsers } from './writers/users';
import {
  referencedPortalKeys,
  referencedTicketIds,
  referenceProblems,
  shapeProblems,
} from './import.validate';

export type ImportCounts = Record<string, number>;

export interface ImportOptions {
  /** Directory that `path` file references are relative to; only the command line sets it. */
  baseDir?: string;
  /**
   * Told the milliseconds of each step as it ends, and awaited (`bench/import.ts`; the tests change
   * rows between the HTML check and the transaction).
   */
  onStep?: (step: ImportStep, ms: number) => void | Promise<void>;
}

export type ImportStep = 'validate' | 'files' | 'users' | 'html' | 'write';

/** Imports run one at a time, whatever process received them (a constant shared by every process). */
const IMPORT_LOCK = 7_270_002;
/** An answer with a million problems helps nobody; the count in the message stays exact. */
const MAX_LISTED_PROBLEMS = 1000;

export function importInvalid(problems: ImportProblem[]): AppError {
  const n = problems.length;
  return new AppError(
    400,
    'import_invalid',
    `The import document has ${n} problem${n === 1 ? '' : 's'}`,
    problems.slice(0, MAX_LISTED_PROBLEMS),
  );
}

/**
 * Imports one document of fixture-format.md in one transaction. Throws AppError 400 `import_invalid`
 * with `details` = [{path, message}] listing every problem; nothing is changed then.
 */
export async function importDocument(
  ctx: AppContext,
  doc: unknown,
  opts: ImportOptions = {},
): Promise<ImportCounts> {
  let stepStart = performance.now();
  const step = async (name: ImportStep) => {
    await opts.onStep?.(name, performance.now() - stepStart);
    stepStart = performance.now();
  };
  // 1. Validate everything (shape, then references against the document merged over the database).
  const parsed = importDocumentSchema.safeParse(doc);
  const problems = parsed.success ? [] : shapeProblems(parsed.error);
  const known = await loadKnownPortals(ctx.database.db, referencedPortalKeys(doc), referencedTicketIds(doc));
  problems.push(...referenceProblems(doc, known, { baseDir: opts.baseDir }));
  if (!parsed.success || problems.length > 0) throw importInvalid(problems);
  const data = parsed.data;
  await step('validate');

  // 2. The slow parts, outside the transaction (which on PGlite holds the only connection): read and
  // hash files, hash passwords, sanitise HTML (what changed), store bytes.
  const files = new ImportFiles();
  await files.load(data, opts.baseDir);
  await files.store(ctx.fileStore);
  await step('files');
  const users = await prepareUsers(ctx.database.db, data.users ?? []);
  await step('users');
  const html = await prepareDocumentHtml(ctx.database.db, data);
  await step('html');
  const now = ctx.clock.now();

  // 3. One transaction; on failure the bytes this import added are removed again.
  try {
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`select pg_advisory_xact_lock(${IMPORT_LOCK})`));
      for (const p of data.portals ?? []) await writePortal(tx, p, files, html, now);
      await writeUsers(tx, users, now, ctx.config.publicUrl);
    });
    await step('write');
  } catch (e) {
    await files.discard(ctx.fileStore);
    if (sqlStateOf(e) === '40001')
      throw new AppError(409, 'import_conflict', 'The data changed while importing; run the import again');
    throw e;
  }
  return countsOf(data);
}

/** The SQLSTATE of a database error, however deep the driver or ORM wrapped it. */
function sqlStateOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** How many entities of each kind the document carried. */
export function countsOf(doc: ImportDocument): ImportCounts {
  const c: ImportCounts = {
    portals: 0,
    users: doc.users?.length ?? 0,
    ticketTypes: 0,
    statusSteps: 0,
    groups: 0,
    agents: 0,
    tags: 0,
    publicFiles: 0,
    companies: 0,
    contacts: 0,
    wikiFolders: 0,
    wikiElements: 0,
    wikiProperties: 0,
    tickets: 0,
    comments: 0,
    attachments: 0,
    activityReports: 0,
    activityContracts: 0,
    serviceContracts: 0,
    servicePackages: 0,
    contractActivities: 0,
    invoices: 0,
    estimates: 0,
    recurringAdvances: 0,
    documents: 0,
    signatureRequests: 0,
    appointmentLinks: 0,
    taskLinks: 0,
  };
  const add = (k: string, n: number | undefined) => {
    c[k] = (c[k] ?? 0) + (n ?? 0);
  };
  for (const p of doc.portals ?? []) {
    add('portals', 1);
    add('ticketTypes', p.ticketTypes?.length);
    add('statusSteps', p.statusSteps?.length);
    add('groups', p.groups?.length);
    add('agents', p.agents?.length);
    add('tags', p.tags?.length);
    add('publicFiles', p.publicFiles?.length);
    add('signatureRequests', p.signatureRequests?.length);
    add('appointmentLinks', p.appointmentLinks?.length);
    add('taskLinks', p.taskLinks?.length);
    for (const co of p.companies ?? []) {
      add('companies', 1);
      add('contacts', co.contacts?.length);
      for (const f of co.wikiFolders ?? []) {
        add('wikiFolders', 1);
        for (const e of f.elements ?? []) {
          add('wikiElements', 1);
          add('wikiProperties', e.properties?.length);
        }
      }
      for (const t of co.tickets ?? []) {
        add('tickets', 1);
        for (const cm of t.comments ?? []) {
          add('comments', 1);
          add('attachments', cm.attachments?.length);
        }
      }
      add('activityReports', co.activityReports?.length);
      for (const a of co.activityContracts ?? []) {
        add('activityContracts', 1);
        add('contractActivities', a.activities?.length);
      }
      for (const s of co.serviceContracts ?? []) {
        add('serviceContracts', 1);
        for (const pk of s.packages ?? []) {
          add('servicePackages', 1);
          add('contractActivities', pk.activities?.length);
        }
      }
      add('invoices', co.invoices?.length);
      add('estimates', co.estimates?.length);
      add('recurringAdvances', co.recurringAdvances?.length);
      add('documents', co.documents?.length);
    }
  }
  return c;
}
