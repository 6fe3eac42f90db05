/**
 * Content by upload reference and signature requests as an entity (issue 14 items 2 and 3): staff
 * admins and keys attach their own uploads; a signature request is sent by e-mail and SMS, followed
 * (pending, opened, signed, expired, cancelled), cancelled and downloaded signed; every change writes
 * its audit row and event; bad input is a 4xx that leaves no row, no attached upload and no file.
 */
import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp } from '../../../test/harness';
import { multipartFile } from '../../../test/personas';
import { bearer, tokenFor } from '../../../test/seed';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';

let t: TestApp;
let write = '';
let readOnly = '';
let betaKey = '';
let admin: Record<string, string>;
let admin2: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  ({ t, write, readOnly, betaKey, admin, admin2, agent } = await entityWorld({
    readOnly: true,
    admin2: true,
  }));
});
afterAll(async () => {
  await t?.close();
});
const { call, rows, count } = entityHelpers(() => t);

const pdfBytes = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);
const pdf64 = (text: string) => pdfBytes(text).toString('base64');
/** A real one-page PDF: signing stamps it and adds the audit page. */
async function realPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  return Buffer.from(await doc.save());
}

/** Everything a refused request must leave as it was. */
const snapshot = async () => ({
  requests: await count('signature_requests'),
  files: await count('files'),
  blobs: await count('blobs'),
  invoices: await count('invoices'),
  attached: await count('files', 'attached_at is not null'),
  audit: await count('audit_log'),
  events: await count('events'),
  outbox: await count('outbox'),
});

async function upload(who: Record<string, string> | string, name: string, bytes: Buffer | string) {
  const m = multipartFile(name, bytes, 'application/pdf');
  const url = typeof who === 'string' ? `${V1}/files` : '/api/staff/portals/acme/uploads';
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...(typeof who === 'string' ? bearer(who) : who), ...m.headers },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

describe('files by upload reference', () => {
  it('creates an invoice from a staff upload; the contact sees it; the upload is used once', async () => {
    const id = await upload(admin, 'ft-300.pdf', pdfBytes('trecento'));
    const res = await call('POST', `${ADMIN}/invoices`, admin, {
      companyId: 10,
      documentNumber: 'FT-2026/300',
      total: 300,
      invoiceDate: '2026-11-02',
      document: { uploadId: id },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().file).toMatchObject({ id, name: 'ft-300.pdf' });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/invoices',
      headers: bearer(await tokenFor(t, 'mario.rossi')),
    });
    expect(list.body).toContain('FT-2026/300');

    const before = await snapshot();
    const again = await call('POST', `${ADMIN}/invoices`, admin, {
      companyId: 10,
      documentNumber: 'FT-2026/301',
      total: 1,
      invoiceDate: '2026-11-02',
      document: { uploadId: id },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe('upload_not_found');
    expect(await snapshot()).toEqual(before);
  });

  it("refuses another staff user's or a key's upload, and leaves it unattached", async () => {
    const mine = await upload(admin2, 'altro.pdf', pdfBytes('altro'));
    const viaKey = await upload(write, 'chiave.pdf', pdfBytes('chiave'));
    const before = await snapshot();
    for (const uploadId of [mine, viaKey]) {
      const res = await call('POST', `${ADMIN}/documents`, admin, {
        companyId: 10,
        contactId: 101,
        documentName: 'Non mio',
        createDate: '2026-11-02',
        file: { uploadId },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('upload_not_found');
    }
    // Nor may a key use a staff upload, nor another portal's key its own upload in acme.
    const byKey = await call('POST', `${V1}/reports`, write, {
      companyId: 10,
      name: 'Rapporto',
      dateTime: '2026-11-02',
      document: { uploadId: mine },
    });
    expect(byKey.statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
    // The key attaches its own upload.
    const ok = await call('POST', `${V1}/reports`, write, {
      companyId: 10,
      name: 'Rapporto',
      dateTime: '2026-11-02',
      document: { uploadId: viaKey },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().file).toMatchObject({ id: viaKey, name: 'chiave.pdf' });
  });

  it('refuses a body with both or neither shape (400) and keeps the file on an update without one', async () => {
    const bad = await call('POST', `${ADMIN}/invoices`, admin, {
      companyId: 10,
      documentNumber: 'X',
      total: 1,
      invoiceDate: '2026-11-02',
      document: { uploadId: 1, base64: pdf64('x'), name: 'x.pdf' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the content lists', () => {
  it('finds companies, lists contacts and pages a company’s invoices by keyset', async () => {
    const companies = await call('GET', `${ADMIN}/content/companies?q=10`, admin);
    expect(companies.statusCode).toBe(200);
    expect(companies.json()).toContainEqual(expect.objectContaining({ id: 10 }));
    const contacts = await call('GET', `${ADMIN}/content/companies/10/contacts`, admin);
    expect(contacts.json()).toContainEqual(
      expect.objectContaining({ contactId: 101, hasPhone: true, email: 'mario@acme.example' }),
    );
    const first = await call('GET', `${ADMIN}/content/companies/10/items?kind=invoice&limit=1`, admin);
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
    const second = await call(
      'GET',
      `${ADMIN}/content/companies/10/items?kind=invoice&limit=1&cursor=${page.nextCursor}`,
      admin,
    );
    expect(second.json().items[0].id).toBeLessThan(page.items[0].id);
    expect((await call('GET', `${ADMIN}/content/companies/999/items?kind=invoice`, admin)).statusCode).toBe(
      404,
    );
  });

  it.each(['invoice', 'estimate', 'document', 'report'])('lists a company’s %s items', async (kind) => {
    const res = await call('GET', `${ADMIN}/content/companies/10/items?kind=${kind}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.length).toBeGreaterThan(0);
    if (kind === 'report')
      expect(res.json().items).toContainEqual(expect.objectContaining({ id: 1, taskId: 5001 }));
  });
});

describe('signature requests', () => {
  it('sends the link by e-mail and SMS; the page opens it; signed, the PDF downloads', async () => {
    const id = await upload(admin, 'contratto.pdf', await realPdf());
    const res = await call('POST', `${ADMIN}/signature-requests`, admin, {
      contactId: 101,
      documentName: 'Contratto 2027',
      file: { uploadId: id },
      method: 'acceptance',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      contactId: 101,
      companyId: 10,
      status: 'pending',
      method: 'acceptance',
      file: { id, name: 'contratto.pdf' },
      signedFile: null,
    });
    expect(r.link).toContain(`/acme/documents/${r.documentKey}`);
    // The SMS with the link to the contact's phone; the e-mail to the contact's user.
    const sms = await rows<{ payload: unknown }>(
      sql`select payload from outbox where channel = 'sms' order by id desc limit 1`,
    );
    const smsPayload = JSON.stringify(sms[0]!.payload);
    expect(smsPayload).toContain('+393331234567');
    expect(smsPayload).toContain(r.documentKey);
    expect(await count('notifications', `kind = 'signatureRequest' and ref_key = '${r.documentKey}'`)).toBe(
      1,
    );
    const audit = await rows<{ action: string }>(
      sql`select action from audit_log where entity = 'signature_request' and entity_id = ${r.documentKey}`,
    );
    expect(audit.map((a) => a.action)).toEqual(['created']);
    const ev = await rows<{ data: unknown }>(sql`select data from events where type = 'signature.requested'`);
    expect(JSON.stringify(ev.at(-1)!.data)).toContain(r.documentKey);

    // The signer opens the page: "opened", once.
    const page = await t.app.inject({ method: 'GET', url: `/api/signing/acme/${r.documentKey}` });
    expect(page.statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: `/api/signing/acme/${r.documentKey}` });
    const opened = await call('GET', `${ADMIN}/signature-requests/${r.documentKey}`, admin);
    expect(opened.json().status).toBe('opened');
    expect(opened.json().timeline.map((e: { event: string }) => e.event)).toEqual([
      'created',
      'sent_email',
      'sent_sms',
      'opened',
    ]);
    expect(
      (await call('GET', `${ADMIN}/signature-requests/${r.documentKey}/signed.pdf`, admin)).json().code,
    ).toBe('not_signed');

    const signed = await t.app.inject({
      method: 'POST',
      url: `/api/signing/acme/${r.documentKey}/sign`,
      payload: { fullName: 'Mario Rossi', accept: true },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const list = await call('GET', `${ADMIN}/signature-requests?status=signed`, admin);
    expect(list.json().items.map((i: { documentKey: string }) => i.documentKey)).toContain(r.documentKey);
    const pending = await call('GET', `${ADMIN}/signature-requests?status=pending`, admin);
    expect(pending.json().items.map((i: { documentKey: string }) => i.documentKey)).not.toContain(
      r.documentKey,
    );
    const file = await call('GET', `${ADMIN}/signature-requests/${r.documentKey}/signed.pdf`, admin);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The key reads it too; another portal's key does not see it.
    expect(
      (await call('GET', `${V1}/signature-requests/${r.documentKey}/signed.pdf`, readOnly)).statusCode,
    ).toBe(200);
    expect((await call('GET', `${V1}/signature-requests/${r.documentKey}`, betaKey)).statusCode).toBe(404);
    expect(
      (await call('GET', `${V1}/signature-requests`, betaKey))
        .json()
        .items.map((i: { documentKey: string }) => i.documentKey),
    ).not.toContain(r.documentKey);
    // A signed request cannot be cancelled.
    const cancel = await call('POST', `${ADMIN}/signature-requests/${r.documentKey}/cancel`, admin);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().code).toBe('signature_closed');
  });

  it('signs a file that starts like a PDF but has no pages: the audit page alone, not a 500', async () => {
    const res = await call('POST', `${ADMIN}/signature-requests`, admin, {
      contactId: 101,
      documentName: 'Rotto',
      file: { name: 'rotto.pdf', base64: pdf64('senza pagine') },
      method: 'acceptance',
    });
    expect(res.statusCode, res.body).toBe(201);
    const signed = await t.app.inject({
      method: 'POST',
      url: `/api/signing/acme/${res.json().documentKey}/sign`,
      payload: { fullName: 'Mario Rossi', accept: true },
    });
    expect(signed.statusCode, signed.body).toBe(200);
  });

  it('cancels an open request (by key, inline PDF): its link is gone, its event and audit written', async () => {
    const res = await call('POST', `${V1}/signature-requests`, write, {
      contactId: 102,
      documentName: 'Modulo',
      file: { name: 'modulo.pdf', base64: pdf64('modulo') },
      method: 'sms_code',
      documentKey: 'modulo-chiave-0001',
    });
    // Contact 102 has no phone: an SMS code cannot reach it.
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('contact_without_phone');
    const ok = await call('POST', `${V1}/signature-requests`, write, {
      contactId: 103,
      documentName: 'Modulo',
      file: { name: 'modulo.pdf', base64: pdf64('modulo') },
      method: 'sms_code',
      documentKey: 'modulo-chiave-0001',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const taken = await call('POST', `${V1}/signature-requests`, write, {
      contactId: 103,
      documentName: 'Modulo',
      file: { name: 'modulo.pdf', base64: pdf64('modulo') },
      method: 'sms_code',
      documentKey: 'modulo-chiave-0001',
    });
    expect(taken.statusCode).toBe(409);
    const cancelled = await call('POST', `${V1}/signature-requests/modulo-chiave-0001/cancel`, write);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/signing/acme/modulo-chiave-0001' })).statusCode,
    ).toBe(404);
    expect(await count('events', `type = 'signature.cancelled'`)).toBe(1);
    expect(await count('audit_log', `entity = 'signature_request' and action = 'cancelled'`)).toBe(1);
    const list = await call('GET', `${ADMIN}/signature-requests?status=cancelled`, admin);
    expect(list.json().items.map((i: { documentKey: string }) => i.documentKey)).toEqual([
      'modulo-chiave-0001',
    ]);
    expect(
      (await call('POST', `${V1}/signature-requests/modulo-chiave-0001/cancel`, readOnly)).statusCode,
    ).toBe(403);
  });

  it("leaves the contact's overview once cancelled", async () => {
    const res = await call('POST', `${ADMIN}/signature-requests`, admin, {
      contactId: 101,
      documentName: 'Da annullare',
      file: { name: 'x.pdf', base64: pdf64('x') },
      method: 'acceptance',
    });
    expect(res.statusCode, res.body).toBe(201);
    const key = res.json().documentKey as string;
    const mario = bearer(await tokenFor(t, 'mario.rossi'));
    const open = async () =>
      (
        (await t.app.inject({ method: 'GET', url: '/api/acme/101/overview', headers: mario })).json() as {
          signatures: { items: { documentKey: string }[] };
        }
      ).signatures.items.map((i) => i.documentKey);
    expect(await open()).toContain(key);
    expect((await call('POST', `${ADMIN}/signature-requests/${key}/cancel`, admin)).statusCode).toBe(200);
    expect(await open()).not.toContain(key);
  });

  it('refuses bad input with 4xx and writes nothing: not a PDF, unknown contact, past expiry', async () => {
    const textUpload = await upload(admin, 'note.pdf', 'solo testo, non un PDF');
    const before = await snapshot();
    const base = { contactId: 101, documentName: 'X', method: 'acceptance' };
    const cases: [unknown, number, string][] = [
      [
        { ...base, file: { name: 'a.pdf', base64: Buffer.from('hello').toString('base64') } },
        422,
        'not_a_pdf',
      ],
      [{ ...base, file: { uploadId: textUpload } }, 422, 'not_a_pdf'],
      [{ ...base, contactId: 999, file: { name: 'a.pdf', base64: pdf64('a') } }, 422, 'unknown_reference'],
      [
        { ...base, file: { name: 'a.pdf', base64: pdf64('a') }, expiresAt: '2020-01-01T00:00:00Z' },
        422,
        'expiry_in_past',
      ],
      [{ ...base, file: { uploadId: 99999 } }, 422, 'upload_not_found'],
      [{ ...base, method: 'fax', file: { name: 'a.pdf', base64: pdf64('a') } }, 400, 'validation_error'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await call('POST', `${ADMIN}/signature-requests`, admin, payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
    }
    expect(await snapshot()).toEqual(before);
    // The refused upload is still the admin's to use (unattached, swept after 24 hours).
    expect(await count('files', `id = ${textUpload} and attached_at is null`)).toBe(1);
  });

  it('answers 413 for a PDF above MAX_UPLOAD_MB and keeps nothing', async () => {
    const config = t.ctx.config as { MAX_UPLOAD_MB: number };
    const max = config.MAX_UPLOAD_MB;
    config.MAX_UPLOAD_MB = 1;
    try {
      const before = await snapshot();
      const big = Buffer.concat([pdfBytes('big'), Buffer.alloc(1024 * 1024 + 10)]).toString('base64');
      const res = await call('POST', `${ADMIN}/signature-requests`, admin, {
        contactId: 101,
        documentName: 'Grande',
        method: 'acceptance',
        file: { name: 'big.pdf', base64: big },
      });
      expect(res.statusCode).toBe(413);
      expect(await snapshot()).toEqual(before);
    } finally {
      config.MAX_UPLOAD_MB = max;
    }
  });

  it('refuses an agent every content and signature route', async () => {
    for (const [method, url] of [
      ['POST', `${ADMIN}/signature-requests`],
      ['GET', `${ADMIN}/signature-requests`],
      ['GET', `${ADMIN}/content/companies`],
      ['GET', `${ADMIN}/content/companies/10/items?kind=invoice`],
    ] as const) {
      const res = await call(method, url, agent, method === 'POST' ? {} : undefined);
      expect(res.statusCode, url).toBe(403);
    }
  });
});
