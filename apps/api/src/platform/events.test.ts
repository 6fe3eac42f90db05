/**
 * Every customer-side change writes exactly one event of its type in its own transaction, with the
 * payload a back office needs; a rolled-back change leaves neither event nor webhook delivery.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUserToken } from '../modules/auth/auth.queries';
import { createTestApp, type TestApp } from '../test/harness';
import { multipartFile } from '../test/personas';
import { bearer, seedExample, tokenFor } from '../test/seed';
import { queueAgentAnswerEmails } from '../modules/tickets/core';
import { emitCommentEvent, emitTicketEvent } from './events';

let t: TestApp;
let anna: Record<string, string>;
let mario: Record<string, string>;

interface EventRow {
  id: string;
  type: string;
  source: Record<string, unknown>;
  data: Record<string, unknown>;
}
const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;

async function eventsAfter(id: number): Promise<EventRow[]> {
  const list = rows<EventRow>(
    await t.ctx.database.db.execute(
      sql`select id::text, type, source, data from events where id > ${id} order by id`,
    ),
  );
  return list.map((e) => ({ ...e, source: json(e.source), data: json(e.data) }));
}
async function lastId(): Promise<number> {
  const r = rows<{ id: string | null }>(
    await t.ctx.database.db.execute(sql`select max(id)::text as id from events`),
  );
  return Number(r[0]?.id ?? 0);
}

/** Runs `act` and answers the events it wrote. */
async function during(act: () => Promise<unknown>): Promise<EventRow[]> {
  const before = await lastId();
  await act();
  return eventsAfter(before);
}

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  anna = bearer(await tokenFor(t, 'anna.verdi'));
  mario = bearer(await tokenFor(t, 'mario.rossi'));
  // Every event fans out to a subscribed endpoint: deliveries must follow events exactly.
  await t.ctx.database.db.execute(sql`insert into webhook_endpoints
    (portal_id, url, event_types, secret, created_at, updated_at)
    select id, 'http://127.0.0.1:9/hook', '{}', 'whsec_dGVzdA==', now(), now() from portals where key = 'acme'`);
});
afterAll(async () => {
  await t?.close();
});

describe('events of the customer side', () => {
  let ticketId = 0;

  it('ticket.created, once, with the ticket as the back office knows it', async () => {
    const evs = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/acme/102/tickets',
        headers: anna,
        payload: { title: 'Stampante', taskTypeId: 1, description: '<p>Non stampa</p>', attachments: [] },
      });
      expect(res.statusCode, res.body).toBe(201);
      ticketId = res.json().id;
    });
    expect(evs.map((e) => e.type)).toEqual(['ticket.created']);
    const ticket = evs[0]!.data.ticket as Record<string, unknown>;
    expect(ticket).toMatchObject({
      id: ticketId,
      companyId: 10,
      title: 'Stampante',
      description: '<p>Non stampa</p>',
      taskTypeId: 1,
      creatorContactId: 102,
      isClosed: false,
      attachments: [],
    });
    expect(evs[0]!.source).toEqual({ type: 'contact', contactId: 102 });
  });

  it('ticket.comment_added, once, with the HTML and the attachment URL of the integration API', async () => {
    const m = multipartFile('foto.png', 'PNGDATA', 'image/png');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/comments/attachments',
      headers: { ...anna, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const evs = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/acme/102/comments',
        headers: anna,
        payload: { taskId: ticketId, message: '<p>Ecco <b>la foto</b></p>', attachments: [up.json().id] },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(evs.map((e) => e.type)).toEqual(['ticket.comment_added']);
    const comment = evs[0]!.data.comment as Record<string, unknown>;
    expect(comment).toMatchObject({ ticketId, message: '<p>Ecco <b>la foto</b></p>', senderContactId: 102 });
    const [att] = comment.attachments as { name: string; file: Record<string, unknown> }[];
    expect(att!.name).toBe('foto.png');
    expect(att!.file).toMatchObject({ name: 'foto.png', contentType: 'image/png', size: 7 });
    expect(att!.file.url).toBe(`${t.ctx.config.publicUrl}/api/integration/v1/files/${String(att!.file.id)}`);
  });

  it('ticket.closed once; closing a closed ticket emits nothing', async () => {
    const close = () =>
      t.app.inject({ method: 'POST', url: `/api/acme/102/tickets/${ticketId}/close`, headers: anna });
    const evs = await during(async () => expect((await close()).statusCode).toBe(200));
    expect(evs.map((e) => e.type)).toEqual(['ticket.closed']);
    expect(evs[0]!.data.ticket).toMatchObject({ id: ticketId, isClosed: true });
    expect(evs[0]!.data.previousStatusStepId).not.toBeNull();
    expect(await during(async () => expect((await close()).statusCode).toBe(200))).toEqual([]);
  });

  it('ticket.reopened once, before the comment, when a contact replies to a closed ticket', async () => {
    const evs = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/acme/102/comments',
        headers: anna,
        payload: { taskId: ticketId, message: '<p>Still broken</p>', attachments: [] },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(evs.map((e) => e.type)).toEqual(['ticket.reopened', 'ticket.comment_added']);
    expect(evs[0]!.data.ticket).toMatchObject({ id: ticketId, isClosed: false });
    expect(evs[0]!.data.previousStatusStepId).not.toBeNull();
    expect(evs[0]!.source).toEqual({ type: 'contact', contactId: 102 });
  });

  it('document.uploaded once, with name and size', async () => {
    const m = multipartFile('visura.pdf', '%PDF-1.4 x', 'application/pdf');
    const evs = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/documents/upload/contact',
        headers: { ...mario, ...m.headers },
        payload: m.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(evs.map((e) => e.type)).toEqual(['document.uploaded']);
    expect(evs[0]!.data.document).toMatchObject({
      contactId: 101,
      companyId: 10,
      documentName: 'visura.pdf',
      file: { name: 'visura.pdf', size: 10 },
    });
  });

  it('signature.signed once', async () => {
    const evs = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/signing/acme/acme-sign-plain-9a8b7c6d5e4f3a2b/sign',
        payload: { fullName: 'Carla Neri', accept: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(evs.map((e) => e.type)).toEqual(['signature.signed']);
    expect(evs[0]!.data.signatureRequest).toMatchObject({
      documentKey: 'acme-sign-plain-9a8b7c6d5e4f3a2b',
      contactId: 103,
    });
  });

  it('appointment.booked and appointment.cancelled once each, without the cancellation key', async () => {
    let cancellationUrl = '';
    const booked = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/appointments/acme/acme-sopralluogo-5e6f7a8b',
        payload: {
          start: '2026-11-23T08:00:00.000Z',
          durationMinutes: 60,
          firstName: 'Mario',
          lastName: 'Bianchi',
          phone: '+39 333 1234567',
          email: 'mb@example.com',
          companyName: '',
          notes: '',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      cancellationUrl = res.json().cancellationUrl;
    });
    expect(booked.map((e) => e.type)).toEqual(['appointment.booked']);
    const key = cancellationUrl.split('/').pop()!;
    expect(JSON.stringify(booked[0]!.data)).not.toContain(key);
    const cancelled = await during(async () => {
      const res = await t.app.inject({ method: 'POST', url: `/api/appointments/acme/cancellation/${key}` });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(cancelled.map((e) => e.type)).toEqual(['appointment.cancelled']);
    const ref = (e: EventRow) => (e.data.appointment as { reference: string }).reference;
    expect(ref(cancelled[0]!)).toBe(ref(booked[0]!));
  });

  it('user.activated once when an invitation is accepted', async () => {
    const user = rows<{ id: number }>(
      await t.ctx.database.db.execute(sql`select id from users where user_name = 'nuovo.utente'`),
    )[0]!;
    const token = await insertUserToken(t.ctx.database.db, user.id, 'invite', t.clock.now(), 3600_000);
    const evs = await during(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/confirm',
        payload: { token, password: 'Correct-Horse-10', passwordRepeat: 'Correct-Horse-10' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(evs.map((e) => e.type)).toEqual(['user.activated']);
    expect(evs[0]!.data.user).toMatchObject({ userName: 'nuovo.utente', contacts: [{ contactId: 104 }] });
  });

  it('queued exactly one webhook delivery per event', async () => {
    const r = rows<{ events: number; deliveries: number }>(
      await t.ctx.database.db.execute(sql`select (select count(*) from events)::int as events,
        (select count(*) from webhook_deliveries)::int as deliveries`),
    )[0]!;
    expect(r.events).toBeGreaterThanOrEqual(8);
    expect(r.deliveries).toBe(r.events);
  });

  it('a rolled-back change leaves no event and no delivery', async () => {
    const before = await lastId();
    const deliveries = async () =>
      rows<{ n: number }>(
        await t.ctx.database.db.execute(sql`select count(*)::int as n from webhook_deliveries`),
      )[0]!.n;
    const d0 = await deliveries();
    const ticket = rows<{ id: number }>(
      await t.ctx.database.db.execute(sql`select id from tickets where ext_id = ${ticketId}`),
    )[0]!;
    await expect(
      t.ctx.database.db.transaction(async (tx) => {
        expect(await emitTicketEvent(tx, t.ctx, 'ticket.reopened', ticket.id, { type: 'system' })).toBe(1);
        throw new Error('the change fails after its event was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await eventsAfter(before)).toEqual([]);
    expect(await deliveries()).toBe(d0);
  });

  it('an internal note emits no comment event and queues no customer e-mail, whoever asks', async () => {
    const db = t.ctx.database.db;
    const ticket = rows<{ id: number; portal_id: number }>(
      await db.execute(sql`select id, portal_id from tickets where ext_id = ${ticketId}`),
    )[0]!;
    const agent = rows<{ id: number }>(
      await db.execute(sql`select id from agents where portal_id = ${ticket.portal_id} order by id limit 1`),
    )[0]!;
    const insert = async (internal: boolean, extId: number) =>
      rows<{ id: number }>(
        await db.execute(sql`insert into ticket_comments
          (portal_id, ticket_id, ext_id, message, creation_date, sender_agent_id, internal)
          values (${ticket.portal_id}, ${ticket.id}, ${extId}, '<p>Nota riservata</p>', now(), ${agent.id},
            ${internal}) returning id`),
      )[0]!.id;
    const note = await insert(true, 97001);
    const reply = await insert(false, 97002);
    const outbox = async () =>
      rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from outbox`))[0]!.n;
    const mails0 = await outbox();
    const written = await during(() =>
      db.transaction(async (tx) => {
        for (const type of ['agent.comment_added', 'ticket.comment_added'] as const)
          expect(await emitCommentEvent(tx, t.ctx, type, note, { type: 'system' })).toBe(0);
        expect(await queueAgentAnswerEmails(tx, t.ctx, note, new Date())).toBe(0);
      }),
    );
    expect(written).toEqual([]);
    expect(await outbox()).toBe(mails0);
    // The same comment made public is announced and mailed to the creator (Anna).
    const pub = await during(() =>
      db.transaction(async (tx) => {
        expect(await emitCommentEvent(tx, t.ctx, 'agent.comment_added', reply, { type: 'system' })).toBe(1);
        expect(await queueAgentAnswerEmails(tx, t.ctx, reply, new Date())).toBeGreaterThan(0);
      }),
    );
    expect(pub.map((e) => e.type)).toEqual(['agent.comment_added']);
  });
});
