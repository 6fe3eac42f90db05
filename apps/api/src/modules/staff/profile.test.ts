/**
 * The agent's identity (issue 28 item 9): a display name required at the desk's invitation, and the
 * agent's own profile (name, avatar, signature) as customers see it on replies; the signature ends
 * public replies written on the desk, never notes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { multipartFile, seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas, staffMember } from './staff.fixture';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let sara: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
  // Invited before display names were asked for: the e-mail's name until she sets one.
  sara = await staffMember(t, 'acme', 'sara.conti@acme.example');
});
afterAll(async () => {
  await t?.close();
});

const desk = '/api/staff/portals/acme';
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

const inject = (who: Record<string, string>, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: who,
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  });

async function upload(
  who: Record<string, string>,
  name: string,
  bytes: Buffer,
  type: string,
): Promise<number> {
  const m = multipartFile(name, bytes, type);
  const res = await t.app.inject({
    method: 'POST',
    url: `${desk}/uploads`,
    headers: { ...who, ...m.headers },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function reply(who: Record<string, string>, message: string, internal = false) {
  const res = await inject(who, 'POST', `${desk}/tickets/5003/comments`, { message, internal });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; message: string };
}

async function customerComment(id: number) {
  const p = personas.owner;
  const res = await inject(p.headers, 'GET', `/api/${p.company}/${p.contactId}/tickets/5003`);
  expect(res.statusCode, res.body).toBe(200);
  return (
    res.json() as {
      comments: {
        id: number;
        message: string;
        senderUser: { displayName: string; hasProfileImage: boolean; profileImage: string | null } | null;
      }[];
    }
  ).comments.find((c) => c.id === id);
}

describe('the display name at the invitation', () => {
  it('is required by the desk’s invitation and is what the member is called', async () => {
    const without = await inject(staff.adminA, 'POST', `${desk}/admin/staff`, {
      email: 'no.name@acme.example',
      role: 'agent',
    });
    expect(without.statusCode).toBe(400);
    const blank = await inject(staff.adminA, 'POST', `${desk}/admin/staff`, {
      email: 'no.name@acme.example',
      displayName: '   ',
      role: 'agent',
    });
    expect(blank.statusCode).toBe(400);
    const named = await inject(staff.adminA, 'POST', `${desk}/admin/staff`, {
      email: 'anna.neri@acme.example',
      displayName: ' Anna Neri ',
      role: 'agent',
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().member.displayName).toBe('Anna Neri');
    const agent = (await t.ctx.database.db.execute(
      sql`select a.display_name from agents a join staff_memberships m on m.agent_id = a.id
        join staff_users u on u.id = m.staff_user_id where u.email = 'anna.neri@acme.example'`,
    )) as unknown as { rows: { display_name: string }[] };
    expect(agent.rows[0]?.display_name).toBe('Anna Neri');
  });
});

describe('the agent’s profile', () => {
  it('keeps the e-mail’s name until the agent sets one, then customers see name, avatar, signature', async () => {
    const before = await inject(sara, 'GET', `${desk}/profile`);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({
      email: 'sara.conti@acme.example',
      displayName: 'sara.conti',
      signature: '',
      avatarUrl: null,
    });
    const early = await reply(sara, 'Prima risposta');
    expect((await customerComment(early.id))?.senderUser).toMatchObject({
      displayName: 'sara.conti',
      profileImage: null,
    });

    const avatar = await upload(sara, 'sara.png', PNG, 'image/png');
    const set = await inject(sara, 'PATCH', `${desk}/profile`, {
      displayName: 'Sara Conti',
      signature: 'Sara Conti  \r\nHelpdesk <IT> & impianti\n',
      avatar: { uploadId: avatar },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      displayName: 'Sara Conti',
      signature: 'Sara Conti\nHelpdesk <IT> & impianti',
      avatarUrl: expect.stringContaining('/api/files/'),
    });

    // A public reply ends with the signature, once, escaped; the customer sees the name and avatar.
    const answer = await reply(sara, '<p>Risolto, grazie</p>');
    expect(answer.message).toBe(
      '<p>Risolto, grazie</p><p>-- <br>Sara Conti<br>Helpdesk &lt;IT&gt; &amp; impianti</p>',
    );
    const seen = await customerComment(answer.id);
    expect(seen?.message).toBe(answer.message);
    expect(seen?.senderUser).toMatchObject({ displayName: 'Sara Conti', hasProfileImage: true });
    expect(seen?.senderUser?.profileImage).toBeTruthy();
    // Both links show the image itself.
    for (const url of [set.json().avatarUrl as string, seen!.senderUser!.profileImage!]) {
      const img = await t.app.inject({ method: 'GET', url, headers: personas.owner.headers });
      expect(img.statusCode, `${url}: ${img.body}`).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
    }
    // Replies written before take the new name too: customers know one agent by one name.
    expect((await customerComment(early.id))?.senderUser?.displayName).toBe('Sara Conti');

    // A note is the staff's: no signature.
    const note = await reply(sara, 'Nota interna', true);
    expect(note.message).toBe('Nota interna');

    // The inbox names the assignee by the new name.
    const options = (await inject(sara, 'GET', `${desk}/options`)).json() as {
      agents: { displayName: string; staffUserId: number | null }[];
      me: { staffUserId: number };
    };
    const mine = options.agents.find((a) => a.staffUserId === options.me.staffUserId);
    expect(mine?.displayName).toBe('Sara Conti');

    // Back to initials.
    const cleared = await inject(sara, 'PATCH', `${desk}/profile`, { avatar: null });
    expect(cleared.json()).toMatchObject({ avatarUrl: null, displayName: 'Sara Conti' });
    expect((await customerComment(answer.id))?.senderUser?.profileImage).toBeNull();
  });

  it('takes only the agent’s own unattached image upload, at most 1 MB', async () => {
    const text = await upload(sara, 'not-an-image.png', Buffer.from('hello'), 'image/png');
    const notImage = await inject(sara, 'PATCH', `${desk}/profile`, { avatar: { uploadId: text } });
    expect(notImage.statusCode).toBe(422);
    expect(notImage.json().code).toBe('avatar_not_image');

    const big = await upload(sara, 'big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]), 'image/png');
    const tooBig = await inject(sara, 'PATCH', `${desk}/profile`, { avatar: { uploadId: big } });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe('avatar_too_large');

    const others = await upload(staff.agentA, 'luca.png', PNG, 'image/png');
    const foreign = await inject(sara, 'PATCH', `${desk}/profile`, { avatar: { uploadId: others } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().code).toBe('upload_not_found');

    const long = await inject(sara, 'PATCH', `${desk}/profile`, { signature: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    const empty = await inject(sara, 'PATCH', `${desk}/profile`, { displayName: '' });
    expect(empty.statusCode).toBe(400);
    // Nothing of the refused changes stuck.
    expect((await inject(sara, 'GET', `${desk}/profile`)).json()).toMatchObject({
      displayName: 'Sara Conti',
    });
  });
});
