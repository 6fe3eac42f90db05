/**
 * What a received message is, read from mailparser's result alone (no database): automatic or not,
 * a delivery status notification and whom it names, what the receiving server said of its sender, and
 * the new text of a reply. The rules are docs/email.md's "Loops" and "Trust".
 */
import EmailReplyParser from 'email-reply-parser';
import type { AddressObject, ParsedMail } from 'mailparser';
import { htmlToText } from '../../platform/html';

const header = (m: ParsedMail, name: string): string => {
  const v = m.headers.get(name);
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return v instanceof Date ? v.toISOString() : JSON.stringify(v);
};

/**
 * Why a message was sent by a machine (so nothing may answer it, and it is not a comment), or undefined
 * for a person's mail: `Auto-Submitted` other than `no` (RFC 3834), `Precedence: bulk/list/junk`,
 * `X-Autoreply`/`X-Autorespond`, a mailing list's `List-Id`.
 */
export function automaticReason(m: ParsedMail): string | undefined {
  const auto = header(m, 'auto-submitted').trim().toLowerCase();
  if (auto && !auto.startsWith('no')) return `automatic message (Auto-Submitted: ${auto.slice(0, 40)})`;
  const precedence = header(m, 'precedence').trim().toLowerCase();
  if (['bulk', 'list', 'junk'].includes(precedence)) return `automatic message (Precedence: ${precedence})`;
  for (const h of ['x-autoreply', 'x-autorespond', 'x-autoresponse'])
    if (m.headers.has(h)) return `automatic message (${h})`;
  const list = m.headers.get('list') as { id?: unknown } | undefined;
  if (m.headers.has('list-id') || list?.id) return 'mailing list message (List-Id)';
  return undefined;
}

/** The recipients a delivery status notification (RFC 3464) says failed; undefined when it is none. */
export function bouncedRecipients(m: ParsedMail): { address: string; status: string }[] | undefined {
  const type = m.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const isDsn =
    type?.value?.toLowerCase() === 'multipart/report' &&
    (type.params?.['report-type'] ?? '').toLowerCase() === 'delivery-status';
  const failedHeader = header(m, 'x-failed-recipients');
  if (!isDsn && !failedHeader) return undefined;
  const found = new Map<string, string>();
  // mailparser hands the message/delivery-status part over as text; its fields are one per line.
  const fields = (m.text ?? '').split(/\r?\n\r?\n/);
  for (const block of fields) {
    const recipient = /^(?:Final|Original)-Recipient:\s*rfc822;\s*<?([^\s<>]+@[^\s<>]+)>?/im.exec(block);
    if (!recipient) continue;
    const action = /^Action:\s*(\S+)/im.exec(block)?.[1]?.toLowerCase() ?? 'failed';
    const status = /^Status:\s*(\S+)/im.exec(block)?.[1] ?? '';
    if (action === 'failed' && !found.has(recipient[1]!.toLowerCase()))
      found.set(recipient[1]!.toLowerCase(), status);
  }
  for (const a of failedHeader.split(','))
    if (a.includes('@') && !found.has(a.trim().toLowerCase())) found.set(a.trim().toLowerCase(), '');
  return [...found].map(([address, status]) => ({ address, status }));
}

/** Whether the receiving server's `Authentication-Results` said SPF, DKIM or DMARC failed. */
export function authenticationFailed(m: ParsedMail): boolean {
  const results = header(m, 'authentication-results').toLowerCase();
  return /\b(spf=(fail|softfail)|dkim=fail|dmarc=fail)\b/.test(results);
}

const addressesOf = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value).flatMap((v) => [v, ...(v.group ?? [])]);

/** The sender: the From address (lower case) and name. */
export function senderOf(m: ParsedMail): { address: string; name: string } | undefined {
  const from = addressesOf(m.from).find((v) => v.address);
  if (!from?.address) return undefined;
  return { address: from.address.trim().toLowerCase(), name: (from.name ?? '').trim() };
}

/** Everything that may carry a ticket reference: recipients, delivery headers, In-Reply-To, References. */
export function referenceText(m: ParsedMail): { addresses: string; threads: string } {
  const recipients = [...addressesOf(m.to), ...addressesOf(m.cc)].map((v) => v.address ?? '');
  for (const h of ['delivered-to', 'x-original-to', 'envelope-to']) recipients.push(header(m, h));
  const refs = Array.isArray(m.references) ? m.references.join(' ') : (m.references ?? '');
  return { addresses: recipients.join(' '), threads: `${m.inReplyTo ?? ''} ${refs}` };
}

const parser = new EmailReplyParser();

/**
 * A forward, by its subject's first prefix: `Fwd:`/`Fw:` (most clients), `I:` (Outlook in Italian), `RV:`
 * (in Spanish), `TR:`, `WG:`. A reply to a forward (`Re: Fwd:`) is a reply.
 */
export const isForward = (m: ParsedMail) => /^\s*(?:fwd?|i|rv|tr|wg)\s*:/i.test(m.subject ?? '');

/**
 * A new ticket's title from a subject: without the reply and forward prefixes mail clients stack in front
 * (`Re:`, `R:`, `RE:`, `AW:`, `SV:`, the forward ones above, `Fwd[2]:`), which say how the mail travelled,
 * not what it is about. A subject that is nothing but prefixes keeps them.
 */
export function ticketTitleOf(subject: string): string {
  const bare = subject.replace(/^(?:\s*(?:re|r|aw|sv|fwd?|i|rv|tr|wg)\s*(?:\[\d+\])?\s*:)+\s*/i, '');
  return (bare || subject).trim();
}

/**
 * The new text of a reply: the plain part (or the HTML's text when there is none) without the quoted
 * history and the signature (email-reply-parser); the whole text when stripping would leave nothing.
 * A forward keeps its whole text: the forwarded message is what the sender wants read, not history.
 */
export function replyText(m: ParsedMail): string {
  const whole = (m.text ?? (typeof m.html === 'string' ? htmlToText(m.html) : '')).replace(/\0/g, '');
  if (isForward(m)) return whole.trim();
  // Outlook's text has no "On … wrote:" line, only its header block (after a rule in HTML-born text,
  // after "-----Original Message-----" in plain or RTF mail): cut there first.
  const outlook =
    /^(?:(?:_{10,}|-{3,} ?(?:Original Message|Messaggio originale|Mensaje original) ?-{3,})\s*\n)?(?:From|Da|De):\s.*\n(?:(?:Sent|Inviato|Enviado|Date|Data|Fecha):\s.*\n)/im.exec(
      whole,
    );
  const head = outlook ? whole.slice(0, outlook.index) : whole;
  const stripped = parser.parseReply(head).trim();
  return stripped || whole.trim();
}

/** A short text of the message for the desk's lists. */
export function previewOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** Text without NUL (PostgreSQL text refuses it) and bounded. */
export const cleanText = (s: string | undefined, max: number) => (s ?? '').replace(/\0/g, '').slice(0, max);
