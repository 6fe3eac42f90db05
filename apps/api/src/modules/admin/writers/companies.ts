/** Client companies and their contacts (with the permission flags). */
import { permissionFlags, type ImportCompany } from '@sportello/contracts';
import { companies, contacts } from '../../../db/schema';
import { onlyChanged, upsertByExtId, type CompanyItem, type Owned, type PortalScope } from './support';

/** The companies' own rows (their lists are written by the writers of each kind). */
export async function writeCompanies(s: PortalScope, rows: ImportCompany[]): Promise<void> {
  await upsertByExtId(
    rows.map((c) => ({ portalId: s.portalId, extId: c.id, companyName: c.companyName })),
    s.ids.companies,
    (part) =>
      s.tx
        .insert(companies)
        .values(part)
        .onConflictDoUpdate({
          target: [companies.portalId, companies.extId],
          ...onlyChanged(companies, ['companyName']),
        })
        .returning({ id: companies.id, extId: companies.extId }),
  );
}

/** A flag the document leaves out is off. */
function permissionsOf(c: CompanyItem<'contacts'>) {
  const perms = c.permissions ?? {};
  return Object.fromEntries(permissionFlags.map((f) => [f, perms[f] === true])) as Record<
    (typeof permissionFlags)[number],
    boolean
  >;
}

export async function writeContacts(s: PortalScope, rows: Owned<CompanyItem<'contacts'>>[]): Promise<void> {
  await upsertByExtId(
    rows.map(({ companyId, item: c }) => ({
      portalId: s.portalId,
      companyId,
      extId: c.contactId,
      referentName: c.referentName,
      email: c.email ?? null,
      phone: c.phone ?? null,
      ...permissionsOf(c),
    })),
    s.ids.contacts,
    (part) =>
      s.tx
        .insert(contacts)
        .values(part)
        .onConflictDoUpdate({
          target: [contacts.portalId, contacts.extId],
          ...onlyChanged(contacts, ['companyId', 'referentName', 'email', 'phone', ...permissionFlags]),
        })
        .returning({ id: contacts.id, extId: contacts.extId }),
  );
}
