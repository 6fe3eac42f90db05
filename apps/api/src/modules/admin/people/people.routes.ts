/** The desk's people lists and "see as this contact" (contracts: admin-people.ts). */
import { deskEntityRoutes, peopleRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import * as svc from './people.service';

/** The staff guard resolved the `:company` portal (and the admin role in it where the contract asks). */
interface StaffPortal {
  staffUserId: number;
  portal: { portalId: number; portalKey: string } | null;
}
const adminOf = (s: StaffPortal): svc.AdminPortal => {
  if (!s.portal) throw new Error('staff admin route without :company');
  return { staffUserId: s.staffUserId, portalId: s.portal.portalId, portalKey: s.portal.portalKey };
};

export function registerPeopleRoutes(app: App, ctx: AppContext): void {
  const r = peopleRoutes;
  route(app, ctx, r.companies, (req, _reply, s) => svc.companies(ctx, adminOf(s), req.query));
  route(app, ctx, r.companyContacts, (req, _reply, s) =>
    svc.companyContacts(ctx, adminOf(s), req.params.id, req.query),
  );
  route(app, ctx, r.contacts, (req, _reply, s) => svc.contacts(ctx, adminOf(s), req.query));
  route(app, ctx, r.contactUsers, (req, _reply, s) =>
    svc.usersOfContact(ctx, adminOf(s), req.params.contactid),
  );
  route(app, ctx, r.viewAs, (req, _reply, s) => svc.openViewAs(ctx, adminOf(s), req.params.contactid));
  route(app, ctx, r.viewAsExchange, (req) => svc.exchangeViewCode(ctx, req.body.code));

  // The desk's contact picker (any staff member of the portal: agents open tickets for contacts): the
  // same list, without what only admins see (permissions, users).
  route(app, ctx, deskEntityRoutes.companyContacts, async (req, _reply, s) => {
    const page = await svc.companyContacts(ctx, adminOf(s), req.params.id, req.query);
    return {
      items: page.items.map((c) => ({
        contactId: c.contactId,
        companyId: c.companyId,
        referentName: c.referentName,
        email: c.email,
        phone: c.phone,
      })),
      nextCursor: page.nextCursor,
    };
  });
}
