/**
 * Users of an import: global names (case-insensitive), slow password hashes computed before the
 * transaction, contacts set to the document's list, invitations e-mailed once.
 */
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { ImportUser } from '@sportello/contracts';
import type { Db, Tx } from '../../../db/client';
import { contacts, portals, sessions, userContacts, users, userTokens } from '../../../db/schema';
import { newToken, sha256 } from '../../../platform/auth';
import { AppError } from '../../../platform/errors';
import { enqueueEmail } from '../../../platform/outbox';
import { hashPassword, verifyPassword } from '../../../platform/passwords';
import { invitationEmail } from '../../../platform/account-mail';
import { chunk } from '../import.files';
import { updateChanged } from './support';

const INVITE_TTL_MS = 7 * 24 * 3600_000;

interface StoredUser {
  id: number;
  passwordHash: string | null;
  passwordChangedAt: Date | null;
}

export interface PreparedUser {
  user: ImportUser;
  key: string;
  /** As found before the transaction; checked again inside it. */
  before: StoredUser | undefined;
  /** A new hash when the document's password differs from the stored one. */
  newHash: string | undefined;
}

const keyOf = (userName: string) => userName.trim().toLowerCase();

async function loadUsers(db: Db | Tx, keys: string[]): Promise<Map<string, StoredUser>> {
  const out = new Map<string, StoredUser>();
  for (const part of chunk(keys, 5000)) {
    const rows = await db
      .select({
        id: users.id,
        key: sql<string>`lower(${users.userName})`,
        passwordHash: users.passwordHash,
        passwordChangedAt: users.passwordChangedAt,
      })
      .from(users)
      .where(inArray(sql`lower(${users.userName})`, part));
    for (const r of rows) out.set(r.key, r);
  }
  return out;
}

/**
 * Hashes the document's passwords (in parallel, ~15 ms each) outside the transaction. A password equal
 * to the stored one keeps its hash, so a re-import changes nothing and signs nobody out.
 */
export async function prepareUsers(db: Db | Tx, list: ImportUser[]): Promise<PreparedUser[]> {
  const stored = await loadUsers(
    db,
    list.map((u) => keyOf(u.userName)),
  );
  return Promise.all(
    list.map(async (user) => {
      const key = keyOf(user.userName);
      const before = stored.get(key);
      let newHash: string | undefined;
      if (
        user.password &&
        !(before?.passwordHash && (await verifyPassword(before.passwordHash, user.password)))
      ) {
        newHash = await hashPassword(user.password);
      }
      return { user, key, before, newHash };
    }),
  );
}

function sameUser(a: StoredUser | undefined, b: StoredUser | undefined): boolean {
  if (!a || !b) return a === b;
  return a.id === b.id && a.passwordHash === b.passwordHash;
}

export async function writeUsers(
  tx: Tx,
  prepared: PreparedUser[],
  now: Date,
  publicUrl: string,
): Promise<void> {
  if (prepared.length === 0) return;
  const current = await loadUsers(
    tx,
    prepared.map((p) => p.key),
  );
  for (const p of prepared) {
    if (!sameUser(p.before, current.get(p.key))) {
      throw new AppError(
        409,
        'import_conflict',
        `user ${p.user.userName} changed while importing; run the import again`,
      );
    }
  }

  const finalHash = new Map<string, string | null>();
  const existingRows = prepared
    .filter((p) => p.before)
    .map((p) => {
      const before = p.before as StoredUser;
      const passwordHash = p.newHash ?? before.passwordHash;
      finalHash.set(p.key, passwordHash);
      return {
        id: before.id,
        userName: p.user.userName,
        email: p.user.email,
        passwordHash,
        passwordChangedAt: p.newHash ? now : before.passwordChangedAt,
      };
    });
  const newRows = prepared
    .filter((p) => !p.before)
    .map((p) => {
      finalHash.set(p.key, p.newHash ?? null);
      return {
        userName: p.user.userName,
        email: p.user.email,
        passwordHash: p.newHash ?? null,
        passwordChangedAt: p.newHash ? now : null,
        createdAt: now,
      };
    });
  const idOf = new Map<string, number>();
  for (const p of prepared) if (p.before) idOf.set(p.key, p.before.id);
  for (const part of chunk(existingRows, 1000)) {
    await updateChanged(tx, users, ['userName', 'email', 'passwordHash', 'passwordChangedAt'], part);
  }
  for (const part of chunk(newRows, 1000)) {
    const rows = await tx.insert(users).values(part).returning({ id: users.id, userName: users.userName });
    for (const r of rows) idOf.set(keyOf(r.userName), r.id);
  }
  const userId = (p: PreparedUser) => idOf.get(p.key) as number;

  // A new password signs the user out everywhere.
  const changed = prepared.filter((p) => p.before && p.newHash).map(userId);
  for (const part of chunk(changed, 5000)) {
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(inArray(sessions.userId, part), isNull(sessions.revokedAt)));
  }

  // Contacts: exactly the document's list for each user it names.
  const wanted = prepared.flatMap((p) => (p.user.contacts ?? []).map((c) => ({ p, ...c })));
  const portalKeys = [...new Set(wanted.map((w) => w.webPortalKey))];
  const contactExts = [...new Set(wanted.map((w) => w.contactId))];
  const contactOf = new Map<string, { id: number; portalName: string; language: string }>();
  for (const part of chunk(contactExts, 5000)) {
    if (portalKeys.length === 0) break;
    const rows = await tx
      .select({
        id: contacts.id,
        ext: contacts.extId,
        key: portals.key,
        portalName: portals.name,
        language: portals.defaultLanguage,
      })
      .from(contacts)
      .innerJoin(portals, eq(portals.id, contacts.portalId))
      .where(and(inArray(portals.key, portalKeys), inArray(contacts.extId, part)));
    for (const r of rows) contactOf.set(`${r.key}\n${r.ext}`, r);
  }
  const pairs = new Map<string, [number, number]>();
  const portalOf = new Map<number, { portalName: string; language: string }>();
  /** The portal key of the invitation link (`&company=`): the page it opens wears that portal's branding. */
  const portalKeyOf = new Map<number, string>();
  for (const w of wanted) {
    const c = contactOf.get(`${w.webPortalKey}\n${w.contactId}`);
    if (!c)
      throw new AppError(
        409,
        'import_conflict',
        `contact ${w.contactId} of ${w.webPortalKey} changed while importing`,
      );
    const uid = userId(w.p);
    pairs.set(`${uid}:${c.id}`, [uid, c.id]);
    if (!portalOf.has(uid)) portalOf.set(uid, c);
    if (!portalKeyOf.has(uid)) portalKeyOf.set(uid, w.webPortalKey);
  }
  const allIds = prepared.map(userId);
  const existingPairs: { userId: number; contactId: number }[] = [];
  for (const part of chunk(allIds, 5000)) {
    existingPairs.push(
      ...(await tx
        .select({ userId: userContacts.userId, contactId: userContacts.contactId })
        .from(userContacts)
        .where(inArray(userContacts.userId, part))),
    );
  }
  const have = new Set(existingPairs.map((e) => `${e.userId}:${e.contactId}`));
  const stale = existingPairs.filter((e) => !pairs.has(`${e.userId}:${e.contactId}`));
  for (const part of chunk(stale, 1000)) {
    await tx.execute(
      sql`delete from ${userContacts} where (${userContacts.userId}, ${userContacts.contactId}) in (${sql.join(
        part.map((e) => sql`(${e.userId}::int, ${e.contactId}::int)`),
        sql`, `,
      )})`,
    );
  }
  const fresh = [...pairs.entries()].filter(([k]) => !have.has(k)).map(([, v]) => v);
  for (const part of chunk(fresh, 1000)) {
    await tx
      .insert(userContacts)
      .values(part.map(([u, c]) => ({ userId: u, contactId: c })))
      .onConflictDoNothing();
  }

  // Invitations: only for users who still have no password and no pending invitation.
  const invitees = prepared.filter((p) => p.user.invite && !p.user.password && !finalHash.get(p.key));
  if (invitees.length === 0) return;
  const pending = new Set<number>();
  for (const part of chunk(invitees.map(userId), 5000)) {
    const rows = await tx
      .select({ userId: userTokens.userId })
      .from(userTokens)
      .where(
        and(
          inArray(userTokens.userId, part),
          eq(userTokens.purpose, 'invite'),
          isNull(userTokens.usedAt),
          gt(userTokens.expiresAt, now),
        ),
      );
    for (const r of rows) pending.add(r.userId);
  }
  for (const p of invitees) {
    const uid = userId(p);
    if (pending.has(uid)) continue;
    const token = newToken();
    await tx.insert(userTokens).values({
      tokenHash: sha256(token),
      userId: uid,
      purpose: 'invite',
      expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
      createdAt: now,
    });
    const key = portalKeyOf.get(uid);
    const link =
      `${publicUrl}/confirm?token=${encodeURIComponent(token)}` +
      (key ? `&company=${encodeURIComponent(key)}` : '');
    await enqueueEmail(
      tx,
      invitationEmail({
        to: p.user.email,
        userName: p.user.userName,
        portalName: portalOf.get(uid)?.portalName ?? 'Sportello',
        link,
        language: portalOf.get(uid)?.language,
      }),
      now,
    );
  }
}
