/** The overview (issue 16): what needs the contact, gathered by permission (SPEC A6 flags). */
import type { Overview } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import type { TenantContext } from '../../platform/tenancy';
import { readOverview } from './overview.queries';

export function overview(ctx: AppContext, t: TenantContext): Promise<Overview> {
  const f = t.flags;
  return readOverview(ctx.database.db, {
    portalId: t.portalId,
    companyId: t.companyId,
    contactId: t.contactId,
    userId: t.userId,
    // Administrators see the company's tickets (B1), contacts with manageTickets their own.
    tickets: f.administrator ? 'company' : f.manageTickets ? 'own' : null,
    hourBanks: f.viewContactContracts,
    invoices: f.viewContactInvoices,
    now: ctx.clock.now(),
  });
}
