/** The desk's people lists and "see as this contact" (contracts: admin-people.ts). */
import { peopleRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import * as svc from './people.service';

/** The staff guard resolved the `:company` portal and the admin role in it (as entities.routes.ts). */
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
}
