import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, contacts, portals, userContacts } from '../db/schema';
import { forbidden } from './errors';

export const permissionFlags = [
  'manageTickets',
  'administrator',
  'viewContactContracts',
  'viewRecurringAdvances',
  'viewContactActivityReports',
  'viewContactWiki',
  'viewEstimates',
  'viewContactInvoices',
  'viewContactDocuments',
  'uploadContactDocuments',
] as const;
export type PermissionFlag = (typeof permissionFlags)[number];

/** Who is asking, inside which portal and company: every portal query is scoped by this. */
export interface TenantContext {
  userId: number;
  portalId: number;
  portalKey: string;
  timeZone: string;
  companyId: number;
  companyName: string;
  /** Internal contact id (joins) and the back office's id (answers). */
  contactId: number;
  contactExtId: number;
  flags: Record<PermissionFlag, boolean>;
}

/**
 * Resolves `{company}/{contactid}` for the signed-in user in one query, or refuses with 403: a contact
 * the user does not hold looks the same whether it exists or not.
 */
export async function resolveTenant(
  db: Db,
  userId: number,
  portalKey: string,
  contactExtId: number | string,
): Promise<TenantContext> {
  const ext = typeof contactExtId === 'number' ? contactExtId : Number(contactExtId);
  if (!Number.isSafeInteger(ext)) throw forbidden('You do not hold this contact', 'not_your_contact');
  const rows = await db
    .select({
      portalId: portals.id,
      portalKey: portals.key,
      timeZone: portals.timeZone,
      companyId: companies.id,
      companyName: companies.companyName,
      contactId: contacts.id,
      contactExtId: contacts.extId,
      manageTickets: contacts.manageTickets,
      administrator: contacts.administrator,
      viewContactContracts: contacts.viewContactContracts,
      viewRecurringAdvances: contacts.viewRecurringAdvances,
      viewContactActivityReports: contacts.viewContactActivityReports,
      viewContactWiki: contacts.viewContactWiki,
      viewEstimates: contacts.viewEstimates,
      viewContactInvoices: contacts.viewContactInvoices,
      viewContactDocuments: contacts.viewContactDocuments,
      uploadContactDocuments: contacts.uploadContactDocuments,
    })
    .from(contacts)
    .innerJoin(portals, eq(portals.id, contacts.portalId))
    .innerJoin(companies, eq(companies.id, contacts.companyId))
    .innerJoin(userContacts, and(eq(userContacts.contactId, contacts.id), eq(userContacts.userId, userId)))
    .where(and(eq(portals.key, portalKey.toLowerCase()), eq(contacts.extId, ext)))
    .limit(1);
  const r = rows[0];
  if (!r) throw forbidden('You do not hold this contact', 'not_your_contact');
  const flags = Object.fromEntries(permissionFlags.map((f) => [f, r[f]])) as Record<PermissionFlag, boolean>;
  return {
    userId,
    portalId: r.portalId,
    portalKey: r.portalKey,
    timeZone: r.timeZone,
    companyId: r.companyId,
    companyName: r.companyName,
    contactId: r.contactId,
    contactExtId: r.contactExtId,
    flags,
  };
}

export function requireFlag(ctx: TenantContext, flag: PermissionFlag): void {
  if (!ctx.flags[flag]) throw forbidden(`This contact lacks the ${flag} permission`, 'missing_permission');
}
