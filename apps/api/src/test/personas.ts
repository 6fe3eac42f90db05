/**
 * The example portal with the personas of the access tests, and a clone of it under another portal
 * key that reuses every id (contacts, tickets, wiki elements…) with other users. Built from
 * fixtures/example.json so the importer is exercised too.
 */
import { permissionFlags } from '@sportello/contracts';
import { bearer, exampleDocument, seedExample, tokenFor } from './seed';
import type { TestApp } from './harness';

type Json = Record<string, unknown>;
const ALL_FLAGS = permissionFlags;

const flags = (on: boolean, except: string[] = []) =>
  Object.fromEntries(ALL_FLAGS.map((f) => [f, on && !except.includes(f)]));

export const OTHER_PORTAL = 'beta';

/** Order of the access matrix columns. */
export const PERSONAS = [
  'owner',
  'colleague',
  'admin',
  'noFlag',
  'otherCompany',
  'otherPortal',
  'anonymous',
  'forged',
] as const;
export type Persona = (typeof PERSONAS)[number];

/**
 * - owner: acme/102 (Anna), every flag but administrator; created ticket 5003.
 * - colleague: acme/104, same company, every flag but administrator; owns no ticket.
 * - admin: acme/101 (Mario), every flag.
 * - noFlag: acme/105, same company, no flag at all.
 * - otherCompany: acme/201 (Giulia, company 20), every flag.
 * - otherPortal: holds beta/102 only, and calls acme/102 (same ids, other portal).
 */
export function personaDocument(): Json {
  const doc = exampleDocument() as Json & { portals: Json[]; users: Json[] };
  const acme = doc.portals[0] as Json & { companies: (Json & { contacts: Json[] })[] };
  const company10 = acme.companies[0]!;
  for (const c of company10.contacts) {
    if (c.contactId === 102 || c.contactId === 104) c.permissions = flags(true, ['administrator']);
  }
  company10.contacts.push({ contactId: 105, referentName: 'ACME Senza Permessi', permissions: flags(false) });
  const clone = JSON.parse(JSON.stringify(acme).replaceAll('ACME', 'BETA')) as Json;
  clone.webPortalKey = OTHER_PORTAL;
  doc.portals.push(clone);
  doc.users.push(
    {
      userName: 'colleague.user',
      email: 'nuovo2@acme.example',
      contacts: [{ webPortalKey: 'acme', contactId: 104 }],
    },
    {
      userName: 'senza.permessi',
      email: 'senza@acme.example',
      contacts: [{ webPortalKey: 'acme', contactId: 105 }],
    },
    {
      userName: 'giulia.blu',
      email: 'giulia@acme.example',
      contacts: [{ webPortalKey: 'acme', contactId: 201 }],
    },
    {
      userName: 'beta.anna',
      email: 'anna@beta.example',
      contacts: [{ webPortalKey: OTHER_PORTAL, contactId: 102 }],
    },
    {
      userName: 'beta.mario',
      email: 'mario@beta.example',
      contacts: [{ webPortalKey: OTHER_PORTAL, contactId: 101 }],
    },
  );
  // The invited user of the example holds 104 too; the colleague persona uses its own user.
  doc.users = doc.users.filter((u) => u.userName !== 'nuovo.utente');
  return doc;
}

export interface PersonaAccess {
  headers: Record<string, string>;
  company: string;
  contactId: number;
}

/** Imports the persona document and answers, per persona, the headers and the path values it uses. */
export async function seedPersonas(
  t: TestApp,
  edit: (doc: Json & { portals: Json[]; users: Json[] }) => void = () => {},
): Promise<Record<Persona, PersonaAccess>> {
  const doc = personaDocument() as Json & { portals: Json[]; users: Json[] };
  edit(doc);
  await seedExample(t, doc);
  const h = async (user: string) => bearer(await tokenFor(t, user));
  return {
    owner: { headers: await h('anna.verdi'), company: 'acme', contactId: 102 },
    colleague: { headers: await h('colleague.user'), company: 'acme', contactId: 104 },
    admin: { headers: await h('mario.rossi'), company: 'acme', contactId: 101 },
    noFlag: { headers: await h('senza.permessi'), company: 'acme', contactId: 105 },
    otherCompany: { headers: await h('giulia.blu'), company: 'acme', contactId: 201 },
    otherPortal: { headers: await h('beta.anna'), company: 'acme', contactId: 102 },
    anonymous: { headers: {}, company: 'acme', contactId: 102 },
    forged: {
      headers: bearer('Zm9yZ2VkLXRva2VuLXRoYXQtbm9ib2R5LWlzc3VlZA'),
      company: 'acme',
      contactId: 102,
    },
  };
}

/** A multipart body with one field `file`. */
export function multipartFile(
  name: string,
  bytes: Buffer | string,
  contentType = 'application/octet-stream',
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sportello${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
