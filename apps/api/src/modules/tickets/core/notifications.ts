/**
 * Customer notifications (issue 16 part 5). Triggers of migration 0013 write them, in the transaction
 * of the change, whoever the writer is (import, integration API, staff desk, portal), and queue the
 * e-mail as an outbox row of the `notification` channel; this module sends that e-mail (rendered when
 * sent: the user's language, the portal's name and colour) and tells the triggers who acted from the
 * portal, so nobody is notified of their own change.
 */
import { notificationPath, type NotificationKind } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../../db/client';
import { escapeHtml, langOf } from '../../../platform/account-mail';
import type { AppContext } from '../../../platform/context';
import { createMailTransport, type MailTransport } from '../../../platform/mail';
import type { EmailMessage, OutboxChannel } from '../../../platform/outbox';
import { queryRows } from '../../../platform/sql-json';

/** The portal user making this transaction's change: the triggers leave them out of its notifications. */
export async function markActor(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`select set_config('sportello.actor_user', ${String(userId)}, true)`);
}

type Lang = 'it' | 'en' | 'es';
const texts: Record<
  Lang,
  {
    subject: Record<Exclude<NotificationKind, 'agentReply'>, (title: string) => string>;
    intro: Record<Exclude<NotificationKind, 'agentReply'>, (title: string, detail: string) => string>;
    open: string;
    optOut: string;
  }
> = {
  it: {
    subject: {
      statusChange: (t) => `Il ticket «${t}» ha cambiato stato`,
      newDocument: (t) => `Nuovo documento: ${t}`,
      newInvoice: (t) => `Nuova fattura ${t}`,
      signatureRequest: (t) => `Documento da firmare: ${t}`,
    },
    intro: {
      statusChange: (t, d) => `Il tuo ticket «${t}» ora è: ${d}.`,
      newDocument: (t) => `Nel portale c'è un nuovo documento per te: ${t}.`,
      newInvoice: (t) => `Nel portale c'è una nuova fattura: ${t}.`,
      signatureRequest: (t) => `Ti chiediamo di firmare il documento «${t}».`,
    },
    open: 'Apri nel portale',
    optOut: 'Puoi scegliere quali avvisi ricevere per e-mail nella pagina Notifiche del portale.',
  },
  en: {
    subject: {
      statusChange: (t) => `Ticket "${t}" changed status`,
      newDocument: (t) => `New document: ${t}`,
      newInvoice: (t) => `New invoice ${t}`,
      signatureRequest: (t) => `Document to sign: ${t}`,
    },
    intro: {
      statusChange: (t, d) => `Your ticket "${t}" is now: ${d}.`,
      newDocument: (t) => `There is a new document for you on the portal: ${t}.`,
      newInvoice: (t) => `There is a new invoice on the portal: ${t}.`,
      signatureRequest: (t) => `You are asked to sign the document "${t}".`,
    },
    open: 'Open in the portal',
    optOut: 'You can choose which notices you get by e-mail on the Notifications page of the portal.',
  },
  es: {
    subject: {
      statusChange: (t) => `El ticket «${t}» ha cambiado de estado`,
      newDocument: (t) => `Nuevo documento: ${t}`,
      newInvoice: (t) => `Nueva factura ${t}`,
      signatureRequest: (t) => `Documento para firmar: ${t}`,
    },
    intro: {
      statusChange: (t, d) => `Tu ticket «${t}» ahora está: ${d}.`,
      newDocument: (t) => `Hay un nuevo documento para ti en el portal: ${t}.`,
      newInvoice: (t) => `Hay una nueva factura en el portal: ${t}.`,
      signatureRequest: (t) => `Te pedimos que firmes el documento «${t}».`,
    },
    open: 'Abrir en el portal',
    optOut: 'Puedes elegir qué avisos recibes por correo en la página Notificaciones del portal.',
  },
};

const safeColor = (c: string | null) => (c && /^#[0-9a-f]{3,8}$/i.test(c) ? c : '#1c7ed6');

export interface NotificationMail {
  to: string;
  language: string | null;
  portalName: string;
  baseColor: string | null;
  kind: Exclude<NotificationKind, 'agentReply'>;
  title: string;
  detail: string | null;
  link: string;
}

/** The e-mail of one notification, in the user's language, on the portal's colour. */
export function notificationEmail(m: NotificationMail): EmailMessage {
  const t = texts[langOf(m.language ?? undefined)];
  const intro = t.intro[m.kind](m.title, m.detail ?? '');
  const color = safeColor(m.baseColor);
  return {
    to: m.to,
    subject: `[${m.portalName}] ${t.subject[m.kind](m.title)}`,
    text: `${intro}\n\n${t.open}: ${m.link}\n\n-- \n${m.portalName}\n${t.optOut}\n`,
    html:
      `<div style="font-family:sans-serif;max-width:640px">` +
      `<div style="background:${color};color:#fff;padding:12px 16px;font-weight:bold">${escapeHtml(m.portalName)}</div>` +
      `<div style="padding:16px"><p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(m.link)}" style="color:${color}">${escapeHtml(t.open)}</a></p>` +
      `<p style="color:#666;font-size:12px">${escapeHtml(t.optOut)}</p></div></div>`,
  };
}

interface MailRow {
  kind: NotificationKind;
  title: string;
  detail: string | null;
  ref_ext_id: number | string | null;
  ref_key: string | null;
  email: string | null;
  language: string | null;
  wants: boolean;
  portal_key: string;
  portal_name: string;
  base_color: string | null;
  default_language: string;
  contact_ext_id: number | string;
}

/**
 * The e-mail of a queued notification as it stands when sent; undefined when there is nothing to send
 * any more (the notification or the user's address is gone, or the user turned the switch off since).
 */
export async function renderNotificationMail(
  ctx: AppContext,
  notificationId: number,
): Promise<EmailMessage | undefined> {
  const rows = await queryRows<MailRow>(
    ctx.database.db,
    sql`select n.kind, n.title, n.detail, n.ref_ext_id, n.ref_key, u.email, u.language,
        case n.kind when 'statusChange' then u.notify_status_changes when 'newDocument' then u.notify_new_documents
          when 'newInvoice' then u.notify_new_invoices when 'signatureRequest' then u.notify_signature_requests
          else false end as wants,
        p.key as portal_key, p.name as portal_name, p.base_color, p.default_language, c.ext_id as contact_ext_id
      from notifications n join users u on u.id = n.user_id join contacts c on c.id = n.contact_id
      join portals p on p.id = c.portal_id
      where n.id = ${notificationId}`,
  );
  const r = rows[0];
  if (!r || !r.email || !r.wants || r.kind === 'agentReply') return undefined;
  const refId = r.ref_ext_id === null ? null : Number(r.ref_ext_id);
  const path = notificationPath(
    { kind: r.kind, refId, refKey: r.ref_key },
    r.portal_key,
    Number(r.contact_ext_id),
  );
  return notificationEmail({
    to: r.email,
    language: r.language ?? r.default_language,
    portalName: r.portal_name,
    baseColor: r.base_color,
    kind: r.kind,
    title: r.title,
    detail: r.detail,
    link: `${ctx.config.publicUrl}${path}`,
  });
}

/** The outbox channel `notification`: renders each queued notification's e-mail and sends it. */
export function notificationMailChannel(
  ctx: AppContext,
  log: FastifyBaseLogger,
  mail: MailTransport = createMailTransport(ctx.config, log),
): OutboxChannel {
  return {
    name: 'notification',
    kind: mail.kind,
    async send(payload, meta) {
      const id = Number((payload as { notification?: unknown }).notification);
      const message = Number.isSafeInteger(id) ? await renderNotificationMail(ctx, id) : undefined;
      if (message) await mail.send(message, meta);
    },
    close: () => mail.close(),
  };
}
