import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { PDFDocument, PDFRawStream, StandardFonts, decodePDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documents, outbox, signatureEvents, signatureOtps, signatureRequests } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, exampleDocument, seedExample, tokenFor } from '../../test/seed';
import { buildSignedPdf } from './signing.pdf';
import { maskPhone } from './signing.service';

// The real builder, wrapped so a test can watch what else can run while the PDF is built.
vi.mock('./signing.pdf', async (importOriginal) => {
  const real = await importOriginal<typeof import('./signing.pdf')>();
  return { ...real, buildSignedPdf: vi.fn(real.buildSignedPdf) };
});

const OTP_KEY = 'acme-sign-otp-7f3a9c1e5b2d4f60';
const NOPHONE_KEY = 'acme-sign-nophone-1c2d3e4f5a6b7c8d';
const PLAIN_KEY = 'acme-sign-plain-9a8b7c6d5e4f3a2b';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) SigningTest/1.0';

type Json = Record<string, unknown>;

/** A real three-page PDF, to check the signed copy keeps every page. */
async function threePagePdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 3; i++)
    doc.addPage([595, 842]).drawText(`Pagina ${i}`, { x: 72, y: 720, size: 18, font });
  return Buffer.from(await doc.save()).toString('base64');
}

/**
 * The example fixture, plus requests each test can spend (a signature is one-shot), an expired one,
 * and a second portal that must not reach acme's keys.
 */
async function fixture(): Promise<Json> {
  const doc = exampleDocument() as { portals: Json[] };
  const acme = doc.portals[0]!;
  const requests = acme.signatureRequests as Json[];
  const pdf = (requests[0]!.file as Json).base64 as string;
  const add = (documentKey: string, extra: Json = {}) =>
    requests.push({
      documentKey,
      contactId: 101,
      documentName: `Doc ${documentKey}`,
      file: { name: `${documentKey}.pdf`, contentType: 'application/pdf', base64: pdf },
      requireOtp: true,
      ...extra,
    });
  add('acme-lock-0001');
  add('acme-expired-code-0001');
  add('acme-resend-0001');
  add('acme-race-otp-0001');
  add('acme-race-plain-0001', { requireOtp: false });
  add('acme-race-send-0001');
  add('acme-fail-0001');
  add('acme-expired-request-0001', { expiresAt: '2026-11-01T00:00:00Z' });
  add('acme-future-0001', { expiresAt: '2027-01-01T00:00:00Z', requireOtp: false });
  add('acme-outside-tx-0001', { requireOtp: false });
  add('acme-multipage-0001', {
    requireOtp: false,
    documentName: 'Contratto quadro è € “firmato”',
    file: { name: 'quadro.pdf', contentType: 'application/pdf', base64: await threePagePdf() },
  });
  add('acme-not-a-pdf-0001', {
    requireOtp: false,
    documentName: 'Condizioni.txt',
    file: {
      name: 'condizioni.txt',
      contentType: 'text/plain',
      base64: Buffer.from('Condizioni').toString('base64'),
    },
  });
  // A second portal with a request of its own: neither portal reaches the other's keys.
  const other = {
    webPortalKey: 'globex',
    webPortalName: 'Globex',
    statusSteps: [
      { id: 1, name: 'Aperto', taskStatus: 0, isDefault: true },
      { id: 2, name: 'Chiuso', taskStatus: 2, isClosing: true },
    ],
    companies: [
      {
        id: 10,
        companyName: 'Globex Client',
        contacts: [
          { contactId: 101, referentName: 'Globex Signer', phone: '+393330000009', permissions: {} },
        ],
      },
    ],
    signatureRequests: [
      {
        documentKey: 'globex-sign-0001',
        contactId: 101,
        documentName: 'Globex contract',
        file: { name: 'g.pdf', contentType: 'application/pdf', base64: pdf },
        requireOtp: false,
      },
    ],
  };
  doc.portals.push(other);
  return doc as unknown as Json;
}

/** The text a page draws with the standard fonts (pdf-lib writes it as hex strings). */
async function pageText(pdf: PDFDocument, index: number): Promise<string> {
  const page = pdf.getPage(index);
  const contents = page.node.Contents();
  const streams = contents && 'asArray' in contents ? contents.asArray() : [contents];
  let ops = '';
  for (const ref of streams) {
    const stream = pdf.context.lookup(ref as never);
    if (stream instanceof PDFRawStream)
      ops += Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  }
  const words = [...ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) =>
    Buffer.from(m[1]!, 'hex').toString('latin1'),
  );
  return words.join('\n');
}

describe('document signing', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await seedExample(t, await fixture());
  });
  afterAll(() => t?.close());

  const db = () => t.ctx.database.db;
  const get = (key: string, company = 'acme') =>
    t.app.inject({ method: 'GET', url: `/api/signing/${company}/${key}` });
  const sendOtp = (key: string, company = 'acme') =>
    t.app.inject({
      method: 'POST',
      url: `/api/signing/${company}/${key}/otp`,
      headers: { 'user-agent': UA },
    });
  const sign = (key: string, body: Json) =>
    t.app.inject({
      method: 'POST',
      url: `/api/signing/acme/${key}/sign`,
      headers: { 'user-agent': UA },
      payload: body,
    });
  /** The code in the last SMS queued for a document, read from the outbox as the worker would send it. */
  const lastSms = async (documentName: string) => {
    const rows = await db()
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.channel, 'sms'), sql`${outbox.payload}->>'text' like ${`%"${documentName}"%`}`))
      .orderBy(desc(outbox.id))
      .limit(1);
    const payload = rows[0]?.payload as { to: string; text: string } | undefined;
    if (!payload) throw new Error(`no SMS for ${documentName}`);
    return { ...payload, code: /(\d{6})/.exec(payload.text)![1]! };
  };
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const requestRow = async (key: string) =>
    (await db().select().from(signatureRequests).where(eq(signatureRequests.documentKey, key)))[0]!;
  const download = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };

  it('answers the same 404 for an unknown key, another portal, a wrong case and an expired request', async () => {
    const answers = await Promise.all([
      get('acme-sign-otp-0000000000000000'),
      get(OTP_KEY, 'globex'),
      get(OTP_KEY.toUpperCase()),
      get('acme-expired-request-0001'),
      get(OTP_KEY, 'nosuchportal'),
      get('globex-sign-0001'),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(answers[0]!.json());
    }
    expect(answers[0]!.json().code).toBe('document_not_found');
    expect((await get('globex-sign-0001', 'globex')).json()).toMatchObject({ signerName: 'Globex Signer' });
    const otp = await sendOtp('acme-expired-request-0001');
    expect(otp.statusCode).toBe(404);
    expect((await sign('acme-expired-request-0001', { fullName: 'X', accept: true })).statusCode).toBe(404);
  });

  it('shows a pending request with its name, signer, masked phone and the original file', async () => {
    const res = await get(OTP_KEY, 'ACME');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      documentName: 'ACME Contratto da firmare',
      signerName: 'ACME Mario Rossi',
      companyName: 'ACME Contoso Srl',
      requireOtp: true,
      hasPhone: true,
      maskedPhone: '+39 ••• ••• •567',
      status: 'pending',
      signedAt: null,
      contentType: 'application/pdf',
      otp: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const file = await download(body.documentUrl);
    expect(file.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get('acme-future-0001')).json().expiresAt).toBe('2027-01-01T00:00:00.000Z');
  });

  it('masks phone numbers of several shapes', () => {
    expect(maskPhone('+393331234567')).toBe('+39 ••• ••• •567');
    expect(maskPhone('0039 333 123 4567')).toBe('+39 ••• ••• •567');
    expect(maskPhone('+1 415 555 0123')).toBe('+1 ••• ••• •123');
    expect(maskPhone('3331234567')).toBe('••• ••• •567');
    expect(maskPhone('12345')).not.toContain('123');
  });

  it('signs with a code sent by SMS: audit trail, signed PDF with an audit page, contact document', async () => {
    const original = await download((await get(OTP_KEY)).json().documentUrl);
    const sent = await sendOtp(OTP_KEY);
    expect(sent.statusCode).toBe(200);
    const now = t.clock.now().getTime();
    expect(sent.json()).toEqual({
      sentAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 600_000).toISOString(),
      resendAvailableAt: new Date(now + 60_000).toISOString(),
      maskedPhone: '+39 ••• ••• •567',
    });
    const sms = await lastSms('ACME Contratto da firmare');
    expect(sms.to).toBe('+393331234567');
    expect(sms.text).toBe(
      `Sportello: il codice per firmare "ACME Contratto da firmare" è ${sms.code}. Valido 10 minuti.`,
    );
    // Only the hash is kept.
    const stored = await db().select().from(signatureOtps);
    expect(JSON.stringify(stored)).not.toContain(sms.code);
    expect((await get(OTP_KEY)).json().otp).toMatchObject({ attemptsLeft: 5 });

    t.clock.advance(30_000);
    const res = await sign(OTP_KEY, { fullName: 'Mario Rossi', accept: true, otpCode: sms.code });
    expect(res.statusCode).toBe(200);
    const { signedAt, documentUrl } = res.json();
    expect(signedAt).toBe(t.clock.now().toISOString());

    const page = (await get(OTP_KEY)).json();
    expect(page).toMatchObject({ status: 'signed', signedAt, otp: null, contentType: 'application/pdf' });
    expect(page.documentUrl).toBe(documentUrl);

    const originalSha = createHash('sha256').update(original).digest('hex');
    const signedPdf = await PDFDocument.load(await download(documentUrl));
    const originalPdf = await PDFDocument.load(original);
    expect(signedPdf.getPageCount()).toBe(originalPdf.getPageCount() + 1);
    const audit = await pageText(signedPdf, signedPdf.getPageCount() - 1);
    expect(audit).toContain(originalSha);
    expect(audit).toContain('ACME Mario Rossi');
    expect(audit).toContain('Mario Rossi');
    expect(audit).toContain(OTP_KEY);
    expect(audit).toContain('Codice OTP via SMS a +39 \x95\x95\x95 \x95\x95\x95 \x95567');
    expect(audit).toContain('20/11/2026 11:00:30 (Europe/Rome)');
    expect(audit).toContain(UA);

    const row = await requestRow(OTP_KEY);
    const events = await db()
      .select()
      .from(signatureEvents)
      .where(eq(signatureEvents.requestId, row.id))
      .orderBy(signatureEvents.id);
    // The first view of the page is recorded (the desk shows the request as opened).
    expect(events.map((e) => e.event)).toEqual(['opened', 'otp_sent', 'signed']);
    const signed = events[2]!;
    expect(signed.ip).toBe('127.0.0.1');
    expect(signed.userAgent).toBe(UA);
    expect(signed.details).toMatchObject({
      method: 'sms_otp',
      originalSha256: originalSha,
      typedName: 'Mario Rossi',
    });

    const docs = await db().select().from(documents).where(eq(documents.fileId, row.signedFileId!));
    expect(docs).toHaveLength(1);
    expect(docs[0]!.documentName).toBe('ACME Contratto da firmare (firmato)');
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/documents',
      headers: bearer(await tokenFor(t, 'mario.rossi')),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({ documentName: 'ACME Contratto da firmare (firmato)', createDate: signedAt }),
    );

    const again = await sign(OTP_KEY, { fullName: 'Mario Rossi', accept: true, otpCode: sms.code });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_signed', signedAt });
    const resend = await sendOtp(OTP_KEY);
    expect(resend.statusCode).toBe(409);
    expect(resend.json()).toMatchObject({ code: 'already_signed', signedAt });
  });

  it('counts five wrong codes, then locks the code until a new one is sent', async () => {
    const key = 'acme-lock-0001';
    expect((await sendOtp(key)).statusCode).toBe(200);
    const { code } = await lastSms(`Doc ${key}`);
    for (let left = 4; left >= 0; left--) {
      const res = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: wrongCode(code) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'invalid_otp', message: 'Invalid OTP code', attemptsLeft: left });
    }
    const locked = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: code });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().code).toBe('otp_locked');
    expect((await requestRow(key)).signedAt).toBeNull();
    expect((await get(key)).json().otp.attemptsLeft).toBe(0);

    t.clock.advance(60_000);
    expect((await sendOtp(key)).statusCode).toBe(200);
    const fresh = await lastSms(`Doc ${key}`);
    const ok = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: fresh.code });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a code older than ten minutes', async () => {
    const key = 'acme-expired-code-0001';
    expect((await sendOtp(key)).statusCode).toBe(200);
    const { code } = await lastSms(`Doc ${key}`);
    t.clock.advance(10 * 60_000);
    const res = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: code });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('otp_expired');
    expect((await requestRow(key)).signedAt).toBeNull();
  });

  it('refuses a resend within 60 s and a sixth code within the hour; a new code replaces the old one', async () => {
    const key = 'acme-resend-0001';
    expect((await sendOtp(key)).statusCode).toBe(200);
    const first = await lastSms(`Doc ${key}`);

    const early = await sendOtp(key);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'otp_resend_too_early', retryAfterSeconds: 60 });
    t.clock.advance(59_000);
    expect((await sendOtp(key)).json()).toMatchObject({ code: 'otp_resend_too_early', retryAfterSeconds: 1 });
    t.clock.advance(1_000);
    expect((await sendOtp(key)).statusCode).toBe(200);
    const second = await lastSms(`Doc ${key}`);

    if (first.code !== second.code) {
      const stale = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: first.code });
      expect(stale.json().code).toBe('invalid_otp');
    }

    for (let i = 3; i <= 5; i++) {
      t.clock.advance(60_000);
      expect((await sendOtp(key)).statusCode).toBe(200);
    }
    t.clock.advance(60_000);
    const tooMany = await sendOtp(key);
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().code).toBe('otp_too_many');
    // The first of the five codes was sent 5 minutes ago: the limit frees 55 minutes from now.
    expect(tooMany.json().retryAfterSeconds).toBe(55 * 60);
    expect(tooMany.headers['retry-after']).toBe(String(55 * 60));
    const smsCount = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(sql`${outbox.payload}->>'text' like ${`%"Doc ${key}"%`}`);
    expect(smsCount[0]!.n).toBe(5);

    t.clock.advance(55 * 60_000);
    expect((await sendOtp(key)).statusCode).toBe(200);
    const last = await lastSms(`Doc ${key}`);
    const ok = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: last.code });
    expect(ok.statusCode).toBe(200);
  });

  it('warns when the contact has no phone, and sends nothing', async () => {
    const page = (await get(NOPHONE_KEY)).json();
    expect(page).toMatchObject({ requireOtp: true, hasPhone: false, maskedPhone: null });
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox);
    const res = await sendOtp(NOPHONE_KEY);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'no_phone',
      message: 'no phone number provided, unable to proceed with OTP signature',
    });
    const signRes = await sign(NOPHONE_KEY, { fullName: 'Anna Verdi', accept: true, otpCode: '123456' });
    expect(signRes.json().code).toBe('no_phone');
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('signs a request without a code by acceptance alone; missing fields are refused', async () => {
    expect((await sendOtp(PLAIN_KEY)).json().code).toBe('otp_not_required');
    for (const body of [
      {},
      { fullName: 'Paolo Neri' },
      { fullName: '   ', accept: true },
      { fullName: 'P', accept: false },
    ]) {
      const res = await sign(PLAIN_KEY, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'fields_required', message: 'Please fill in all fields' });
    }
    const res = await sign(PLAIN_KEY, { fullName: 'Paolo Neri', accept: true });
    expect(res.statusCode).toBe(200);
    const signedPdf = await PDFDocument.load(await download(res.json().documentUrl));
    expect(await pageText(signedPdf, signedPdf.getPageCount() - 1)).toContain('Accettazione (senza codice)');
  });

  it('asks for every field of an OTP request, and for a code to be sent first', async () => {
    const key = 'acme-fail-0001';
    const noCode = await sign(key, { fullName: 'Mario Rossi', accept: true });
    expect(noCode.json().code).toBe('fields_required');
    const notSent = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: '123456' });
    expect(notSent.statusCode).toBe(400);
    expect(notSent.json().code).toBe('otp_not_sent');
  });

  it('gives exactly one signature to two simultaneous requests', async () => {
    expect((await sendOtp('acme-race-otp-0001')).statusCode).toBe(200);
    const { code } = await lastSms('Doc acme-race-otp-0001');
    for (const [key, body] of [
      ['acme-race-otp-0001', { fullName: 'Mario Rossi', accept: true, otpCode: code }],
      ['acme-race-plain-0001', { fullName: 'Mario Rossi', accept: true }],
    ] as const) {
      const answers = await Promise.all([sign(key, body), sign(key, body), sign(key, body)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
      const row = await requestRow(key);
      const signedEvents = await db()
        .select()
        .from(signatureEvents)
        .where(and(eq(signatureEvents.requestId, row.id), eq(signatureEvents.event, 'signed')));
      expect(signedEvents).toHaveLength(1);
      const docs = await db()
        .select()
        .from(documents)
        .where(sql`${documents.documentName} = ${`Doc ${key} (firmato)`}`);
      expect(docs).toHaveLength(1);
    }
  });

  it('sends one code when two are asked for at once', async () => {
    const key = 'acme-race-send-0001';
    const answers = await Promise.all([sendOtp(key), sendOtp(key)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const row = await requestRow(key);
    const codes = await db().select().from(signatureOtps).where(eq(signatureOtps.requestId, row.id));
    expect(codes).toHaveLength(1);
  });

  it('leaves nothing behind when storing the signed PDF fails', async () => {
    const key = 'acme-fail-0001';
    t.clock.advance(60 * 60_000);
    expect((await sendOtp(key)).statusCode).toBe(200);
    const { code } = await lastSms(`Doc ${key}`);
    const docsBefore = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(documents);
    const put = t.ctx.fileStore.stageBuffer.bind(t.ctx.fileStore);
    t.ctx.fileStore.stageBuffer = async () => {
      throw new Error('disk full');
    };
    try {
      const res = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: code });
      expect(res.statusCode).toBe(500);
    } finally {
      t.ctx.fileStore.stageBuffer = put;
    }
    const row = await requestRow(key);
    expect(row.signedAt).toBeNull();
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(documents)
      )[0]!.n,
    ).toBe(docsBefore[0]!.n);
    // The code was not spent by the failed attempt.
    const ok = await sign(key, { fullName: 'Mario Rossi', accept: true, otpCode: code });
    expect(ok.statusCode).toBe(200);
  });

  it('builds the signed PDF with no transaction open, then commits the result at once', async () => {
    const key = 'acme-outside-tx-0001';
    const real = (await vi.importActual<typeof import('./signing.pdf')>('./signing.pdf')).buildSignedPdf;
    let probe = '';
    vi.mocked(buildSignedPdf).mockImplementationOnce(async (...args) => {
      // Another statement on the request row runs while the PDF is built: an open transaction would
      // block it (PGlite's one connection) or hold the row (PostgreSQL: NOWAIT fails).
      const other = db()
        .execute(sql`select id from signature_requests where document_key = ${key} for update nowait`)
        .then(
          () => 'ran',
          () => 'row locked',
        );
      probe = await Promise.race([other, new Promise<string>((r) => setTimeout(() => r('blocked'), 2000))]);
      return real(...args);
    });
    const res = await sign(key, { fullName: 'Mario Rossi', accept: true });
    expect(res.statusCode).toBe(200);
    expect(probe).toBe('ran');
    expect((await requestRow(key)).signedFileId).not.toBeNull();
  });

  it('keeps every page of a multi-page original and writes any name safely', async () => {
    const res = await sign('acme-multipage-0001', { fullName: 'Zoë Łukasz 王小明', accept: true });
    expect(res.statusCode).toBe(200);
    const pdf = await PDFDocument.load(await download(res.json().documentUrl));
    expect(pdf.getPageCount()).toBe(4);
    const audit = await pageText(pdf, 3);
    expect(audit).toContain('Zoë ?ukasz ???');
    expect(audit).toContain(
      'Contratto quadro è € “firmato”'.replace('€', '\x80').replace('“', '\x93').replace('”', '\x94'),
    );
  });

  it('signs a file that is not a PDF with an audit page alone', async () => {
    const res = await sign('acme-not-a-pdf-0001', { fullName: 'Mario Rossi', accept: true });
    expect(res.statusCode).toBe(200);
    const pdf = await PDFDocument.load(await download(res.json().documentUrl));
    expect(pdf.getPageCount()).toBe(1);
    const sha = createHash('sha256').update('Condizioni').digest('hex');
    expect(await pageText(pdf, 0)).toContain(sha);
  });

  it('documents the three routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json() as { paths: Json };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/signing/{company}/{documentkey}',
        '/api/signing/{company}/{documentkey}/otp',
        '/api/signing/{company}/{documentkey}/sign',
      ]),
    );
  });
});
