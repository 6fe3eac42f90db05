/**
 * The portal's support mailbox (issue 26, docs/email.md): its settings, set by a staff admin or the
 * installation key (audited, with a `mailbox.*` event that never carries the password), and "Test
 * connection". The password is sealed at rest as the webhook secrets are (platform/sealed-box.ts), bound
 * to the portal's id.
 */
import {
  mailboxTestBodySchema,
  type Mailbox,
  type MailboxSettings,
  type MailboxTest,
} from '@sportello/contracts';
import type { z } from 'zod';
import { sql } from 'drizzle-orm';
import { ImapFlow } from 'imapflow';
import { recordAdminChange, type AdminActor } from '../../platform/audit';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import { replyAddress } from '../../platform/mail-threading';
import { SealedBox } from '../../platform/sealed-box';
import { queryRows } from '../../platform/sql-json';

let cached: { secret: string; box: SealedBox } | undefined;

/** The box of the mailbox passwords under the process's SECRET. */
export function passwordBox(ctx: Pick<AppContext, 'secret'>): SealedBox {
  if (cached?.secret !== ctx.secret)
    cached = {
      secret: ctx.secret,
      box: new SealedBox(ctx.secret, 'sportello:mailbox-passwords', 'portal_mailboxes.portal:'),
    };
  return cached.box;
}

export interface MailboxRow {
  portal_id: number;
  address: string;
  imap_host: string;
  imap_port: number;
  imap_security: 'tls' | 'starttls' | 'none';
  imap_user: string;
  imap_password: string | null;
  folder: string;
  enabled: boolean;
  uid_validity: number | string | null;
  last_uid: number | string;
  last_read_at: Date | string | null;
  last_error: string | null;
  updated_at: Date | string;
}

const isoOrNull = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function mailboxAnswer(r: MailboxRow): Mailbox {
  return {
    address: r.address,
    imapHost: r.imap_host,
    imapPort: Number(r.imap_port),
    imapSecurity: r.imap_security,
    imapUser: r.imap_user,
    hasPassword: r.imap_password !== null,
    folder: r.folder,
    enabled: r.enabled,
    lastReadAt: isoOrNull(r.last_read_at),
    lastError: r.last_error,
    replyToExample: replyAddress(r.address, '123-…'),
  };
}

export async function mailboxRow(ctx: AppContext, portalId: number): Promise<MailboxRow | undefined> {
  const [row] = await queryRows<MailboxRow>(
    ctx.database.db,
    sql`select * from portal_mailboxes where portal_id = ${portalId}::int`,
  );
  return row;
}

export async function getMailbox(ctx: AppContext, portalId: number): Promise<{ mailbox: Mailbox | null }> {
  const row = await mailboxRow(ctx, portalId);
  return { mailbox: row ? mailboxAnswer(row) : null };
}

/** Sets the mailbox. Reading restarts from the folder's current end when the server or folder changes. */
export async function putMailbox(
  ctx: AppContext,
  actor: AdminActor,
  body: MailboxSettings,
): Promise<{ mailbox: Mailbox }> {
  const now = ctx.clock.now();
  const portalId = actor.portalId;
  return ctx.database.db.transaction(async (tx) => {
    const [taken] = await queryRows<{ portal_id: number }>(
      tx,
      sql`select portal_id from portal_mailboxes
        where lower(address) = lower(${body.address}) and portal_id <> ${portalId}::int`,
    );
    if (taken) throw conflict('Another portal already uses this address', 'mailbox_address_taken');
    const [before] = await queryRows<MailboxRow>(
      tx,
      sql`select * from portal_mailboxes where portal_id = ${portalId}::int for update`,
    );
    const password =
      body.password === undefined
        ? (before?.imap_password ?? null)
        : body.password === ''
          ? null
          : passwordBox(ctx).seal(body.password, portalId);
    // Another server, account or folder: UIDs there mean other messages.
    const moved =
      !before ||
      before.imap_host !== body.imapHost ||
      Number(before.imap_port) !== body.imapPort ||
      before.imap_user !== body.imapUser ||
      before.folder !== body.folder;
    const [after] = await queryRows<MailboxRow>(
      tx,
      sql`insert into portal_mailboxes (portal_id, address, imap_host, imap_port, imap_security, imap_user,
          imap_password, folder, enabled, created_at, updated_at)
        values (${portalId}::int, ${body.address}, ${body.imapHost}, ${body.imapPort}::int, ${body.imapSecurity},
          ${body.imapUser}, ${password}, ${body.folder}, ${body.enabled}, ${now.toISOString()}::timestamptz,
          ${now.toISOString()}::timestamptz)
        on conflict (portal_id) do update set address = excluded.address, imap_host = excluded.imap_host,
          imap_port = excluded.imap_port, imap_security = excluded.imap_security,
          imap_user = excluded.imap_user, imap_password = excluded.imap_password, folder = excluded.folder,
          enabled = excluded.enabled, updated_at = excluded.updated_at, last_error = null,
          uid_validity = case when ${moved} then null else portal_mailboxes.uid_validity end,
          last_uid = case when ${moved} then 0 else portal_mailboxes.last_uid end
        returning *`,
    );
    const answer = mailboxAnswer(after!);
    await recordAdminChange(tx, ctx, actor, {
      entity: 'mailbox',
      entityId: portalId,
      action: 'updated',
      before: before ? mailboxAnswer(before) : null,
      after: answer,
    });
    return { mailbox: answer };
  });
}

export async function deleteMailbox(ctx: AppContext, actor: AdminActor): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const [before] = await queryRows<MailboxRow>(
      tx,
      sql`delete from portal_mailboxes where portal_id = ${actor.portalId}::int returning *`,
    );
    if (!before) throw notFound('The portal has no support mailbox', 'no_mailbox');
    await recordAdminChange(tx, ctx, actor, {
      entity: 'mailbox',
      entityId: actor.portalId,
      action: 'deleted',
      before: mailboxAnswer(before),
      after: null,
    });
  });
}

export interface ImapSettings {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  user: string;
  password: string;
}

/** An IMAP client of the settings (not connected): bounded waits, no logging of its own. */
export function imapClient(s: ImapSettings, idleAfterMs?: number): ImapFlow {
  return new ImapFlow({
    // The reader idles a second after its last command, so new mail is announced at once.
    ...(idleAfterMs === undefined ? {} : { autoIdleDelay: idleAfterMs }),
    host: s.host,
    port: s.port,
    secure: s.security === 'tls',
    doSTARTTLS: s.security === 'starttls' ? true : s.security === 'none' ? false : undefined,
    auth: { user: s.user, pass: s.password },
    logger: false,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 5 * 60_000,
  });
}

/** The stored settings with the password opened; a reason instead when they give no way in. */
export function settingsOf(
  ctx: Pick<AppContext, 'secret'>,
  r: Pick<
    MailboxRow,
    'portal_id' | 'imap_host' | 'imap_port' | 'imap_security' | 'imap_user' | 'imap_password'
  >,
): { ok: true; settings: ImapSettings } | { ok: false; test: MailboxTest } {
  if (!r.imap_host)
    return {
      ok: false,
      test: { ok: false, code: 'no_host', detail: 'No IMAP server is set', messages: null },
    };
  let password = '';
  if (r.imap_password !== null) {
    const opened = passwordBox(ctx).open(r.imap_password, Number(r.portal_id));
    if (!opened.ok)
      return {
        ok: false,
        test: {
          ok: false,
          code: 'password_unreadable',
          detail:
            opened.reason === 'other_secret'
              ? 'The password was sealed under another SECRET: enter it again'
              : 'The stored password is damaged: enter it again',
          messages: null,
        },
      };
    password = opened.secret;
  }
  return {
    ok: true,
    settings: {
      host: r.imap_host,
      port: Number(r.imap_port),
      security: r.imap_security,
      user: r.imap_user,
      password,
    },
  };
}

const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What went wrong with an IMAP connection, as a code the desk words in the user's language. */
export function explainImapError(err: unknown): Pick<MailboxTest, 'code' | 'detail'> {
  const e = (err ?? {}) as {
    code?: string;
    message?: string;
    authenticationFailed?: boolean;
    serverResponseCode?: string;
    responseText?: string;
  };
  const detail = String(e.responseText || e.message || err).slice(0, 500);
  if (e.authenticationFailed || e.serverResponseCode === 'AUTHENTICATIONFAILED')
    return { code: 'auth_failed', detail };
  if (e.serverResponseCode === 'NONEXISTENT' || /doesn't exist|does not exist|nonexistent/i.test(detail))
    return { code: 'folder_missing', detail };
  if (e.code && CERT_CODES.has(e.code)) return { code: 'certificate_refused', detail };
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return { code: 'host_not_found', detail };
  if (e.code === 'ECONNREFUSED') return { code: 'connection_refused', detail };
  if (e.code === 'ETIMEDOUT' || e.code === 'CONNECT_TIMEOUT' || e.code === 'GREETING_TIMEOUT')
    return { code: 'timeout', detail };
  if (/ssl|tls|wrong version number|handshake/i.test(`${e.code ?? ''} ${detail}`))
    return { code: 'tls_failed', detail };
  return { code: 'error', detail };
}

/** Connects, signs in and opens the folder (read-only); answers in plain words what happened. */
export async function tryMailbox(settings: ImapSettings, folder: string): Promise<MailboxTest> {
  const client = imapClient(settings);
  // imapflow reports a dropped connection as an event too; the awaited calls below carry the error.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    return { ok: false, ...explainImapError(err), messages: null };
  }
  try {
    const box = await client.mailboxOpen(folder, { readOnly: true });
    return {
      ok: true,
      code: 'ok',
      detail: `Signed in; ${folder} has ${box.exists} messages`,
      messages: box.exists,
    };
  } catch (err) {
    const why = explainImapError(err);
    return {
      ok: false,
      ...(why.code === 'error' ? { ...why, code: 'folder_missing' } : why),
      messages: null,
    };
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** "Test connection": the stored settings, or those sent over them (not saved). */
export async function testMailbox(
  ctx: AppContext,
  portalId: number,
  override: z.infer<typeof mailboxTestBodySchema> | undefined,
): Promise<MailboxTest> {
  const row = await mailboxRow(ctx, portalId);
  const o = override ?? {};
  const merged = {
    portal_id: portalId,
    imap_host: o.imapHost ?? row?.imap_host ?? '',
    imap_port: o.imapPort ?? row?.imap_port ?? 993,
    imap_security: o.imapSecurity ?? row?.imap_security ?? 'tls',
    imap_user: o.imapUser ?? row?.imap_user ?? '',
    imap_password: row?.imap_password ?? null,
  };
  const s = settingsOf(ctx, merged);
  if (!s.ok && !(o.password !== undefined && s.test.code === 'password_unreadable')) return s.test;
  const settings: ImapSettings = s.ok
    ? s.settings
    : {
        host: merged.imap_host,
        port: merged.imap_port,
        security: merged.imap_security,
        user: merged.imap_user,
        password: '',
      };
  if (o.password !== undefined) settings.password = o.password;
  return tryMailbox(settings, o.folder ?? row?.folder ?? 'INBOX');
}
