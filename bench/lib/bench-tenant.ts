import { permissionFlags } from '@sportello/contracts';
import type pg from 'pg';
import type { TenantContext } from '../../apps/api/src/platform/tenancy';
import { BENCH_CONTACT_EXT, BENCH_PORTAL } from './generate';

/**
 * The bench contact (p001/1) as the API's tenancy sees it, read from a loaded bench database: every
 * flag, `administrator` as asked (a contact's own tickets, or the company's).
 */
export async function benchTenant(client: pg.Client, administrator: boolean): Promise<TenantContext> {
  const r = await client.query<{
    portal_id: number;
    company_id: number;
    contact_id: number;
    user_id: number;
  }>(
    `select c.portal_id, c.company_id, c.id as contact_id, uc.user_id
     from contacts c join portals p on p.id = c.portal_id join user_contacts uc on uc.contact_id = c.id
     where p.key = $1 and c.ext_id = $2`,
    [BENCH_PORTAL, BENCH_CONTACT_EXT],
  );
  const known = r.rows[0];
  if (!known)
    throw new Error(`no bench contact ${BENCH_PORTAL}/${BENCH_CONTACT_EXT}: load the bench data first`);
  return {
    userId: known.user_id,
    portalId: known.portal_id,
    portalKey: BENCH_PORTAL,
    timeZone: 'Europe/Rome',
    companyId: known.company_id,
    companyName: '',
    contactId: known.contact_id,
    contactExtId: BENCH_CONTACT_EXT,
    flags: Object.fromEntries(
      permissionFlags.map((f) => [f, f === 'administrator' ? administrator : true]),
    ) as TenantContext['flags'],
    listVersion: 0,
  };
}
