/** Helpers of the import tests and measurements: table dumps and generated documents. */
import type { ImportDocumentInput } from '@sportello/contracts';
import type { Database } from '../../db/client';

/** Columns that record when a row was created: they may differ between two identical imports. */
const CREATION_COLUMNS = new Set(['created_at']);

/**
 * Every row of every table (sorted, creation timestamps left out), to compare two database states.
 * `except` leaves tables out, e.g. the list counters, which any rewrite of a row moves on purpose.
 */
export async function dumpTables(
  database: Database,
  opts: { except?: string[] } = {},
): Promise<Record<string, string[]>> {
  return database.withConnection(async (sql) => {
    const tables = (
      await sql.query<{ table_name: string }>(
        `select table_name from information_schema.tables
         where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'
         order by table_name`,
      )
    ).rows.map((r) => r.table_name);
    const out: Record<string, string[]> = {};
    for (const t of tables) {
      if (opts.except?.includes(t)) continue;
      const rows = (await sql.query<Record<string, unknown>>(`select * from "${t}"`)).rows;
      out[t] = rows
        .map((r) =>
          JSON.stringify(
            Object.fromEntries(
              Object.entries(r)
                .filter(([k]) => !CREATION_COLUMNS.has(k))
                .sort(([a], [b]) => a.localeCompare(b)),
            ),
          ),
        )
        .sort();
    }
    return out;
  });
}

export async function countRows(database: Database, table: string): Promise<number> {
  const r = await database.withConnection((sql) =>
    sql.query<{ n: number | string }>(`select count(*)::int as n from "${table}"`),
  );
  return Number(r.rows[0]?.n ?? 0);
}

const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

/**
 * A portal with `tickets` tickets (three comments each, one attachment every fifth comment), spread over
 * 10 companies, with the lists around them: the shape of a large back office, for timing the import.
 */
export function generatedDocument(tickets: number, key = 'big'): ImportDocumentInput {
  const companies = Array.from({ length: 10 }, (_, c) => ({
    id: c + 1,
    companyName: `Azienda ${c + 1} Srl`,
    contacts: Array.from({ length: 5 }, (_, k) => ({
      contactId: (c + 1) * 100 + k,
      referentName: `Referente ${c + 1}.${k}`,
      email: `ref${c + 1}.${k}@example.com`,
      permissions: { manageTickets: true, administrator: k === 0 },
    })),
    wikiFolders: [
      {
        id: c + 1,
        name: 'Asset',
        elements: Array.from({ length: 5 }, (_, e) => ({
          id: (c + 1) * 100 + e,
          name: `Asset ${c + 1}.${e}`,
          properties: [{ id: 1, typologyName: 'Seriale', dataType: 'text' as const, value: `SN-${c}-${e}` }],
        })),
      },
    ],
    tickets: [] as NonNullable<
      NonNullable<ImportDocumentInput['portals']>[number]['companies']
    >[number]['tickets'],
    invoices: Array.from({ length: 10 }, (_, i) => ({
      id: (c + 1) * 1000 + i,
      documentNumber: `FT-${c}-${i}`,
      total: 100 + i,
      invoiceDate: `2026-0${(i % 9) + 1}-15`,
      document: { name: `ft-${c}-${i}.pdf`, contentType: 'application/pdf', base64: TINY_PDF },
    })),
  }));
  let comment = 1;
  for (let t = 0; t < tickets; t++) {
    const company = companies[t % companies.length];
    if (!company?.tickets) continue;
    const contactId = company.contacts[t % 5]?.contactId ?? null;
    company.tickets.push({
      id: 10_000 + t,
      title: `Ticket ${t}`,
      description: `<p>Descrizione del ticket <b>${t}</b> con un po' di testo.</p>`,
      ticketNumber: `2026/${t}`,
      internalAnnualProgressive: t,
      createdOn: new Date(Date.UTC(2026, 0, 1) + t * 3600_000).toISOString(),
      taskTypeId: (t % 2) + 1,
      statusStepId: (t % 3) + 1,
      creatorContactId: contactId,
      assignedGroupId: 1,
      assignedUserId: 1,
      wikiElementId: company.id * 100 + (t % 5),
      comments: Array.from({ length: 3 }, (_, k) => {
        const id = comment++;
        return {
          id,
          message: `<p>Commento ${k} del ticket ${t}</p>`,
          creationDate: new Date(Date.UTC(2026, 0, 1) + t * 3600_000 + (k + 1) * 60_000).toISOString(),
          ...(k % 2 === 0 ? { senderAgentId: 1 } : { senderContactId: contactId }),
          attachments:
            id % 5 === 0
              ? [{ id, name: `allegato-${id}.pdf`, file: { name: `allegato-${id}.pdf`, base64: TINY_PDF } }]
              : [],
        };
      }),
    });
  }
  return {
    formatVersion: 1,
    portals: [
      {
        webPortalKey: key,
        webPortalName: 'Portale grande',
        ticketTypes: [
          { id: 1, name: 'Guasto', color: '#e03131' },
          { id: 2, name: 'Richiesta', color: '#1971c2' },
        ],
        statusSteps: [
          { id: 1, name: 'Nuovo', taskStatus: 0, isDefault: true },
          { id: 2, name: 'In lavorazione', taskStatus: 1 },
          { id: 3, name: 'Chiuso', taskStatus: 2, isClosing: true },
        ],
        groups: [{ id: 1, name: 'Helpdesk' }],
        agents: [{ id: 1, displayName: 'Agente', firstName: 'Anna', lastName: 'Agente' }],
        companies,
      },
    ],
    users: [],
  };
}
