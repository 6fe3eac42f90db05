/** Client companies and their contacts (with the permission flags). */
import { permissionFlags, type ImportCompany } from '@sportello/contracts';
import { companies, contacts } from '../../../db/schema';
import { upsertByExtId, type CompanyItem, type Owned, type PortalScope } from './support';

/** The companies' own rows (their lists are written by the writers of each kind). */
export async function writeCompanies(s: PortalScope, rows: ImportCompany[]): Promise<void> {
  await upsertByExtId(
    s,
    companies,
    ['companyName'],
    rows.map((c) => ({ portalId: s.portalId, extId: c.id, companyName: c.companyName })),
    s.ids.companies,
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
    s,
    contacts,
    ['companyId', 'referentName', 'email', 'phone', ...permissionFlags],
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
  );
}
