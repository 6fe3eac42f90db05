import { billingRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { estimates, invoices, recurringAdvances } from './billing.service';

export function registerBillingRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, billingRoutes.invoices, (req, _reply, tenant) => invoices(ctx, tenant, req.query));
  route(app, ctx, billingRoutes.estimates, (req, _reply, tenant) => estimates(ctx, tenant, req.query));
  route(app, ctx, billingRoutes.recurring, (_req, _reply, tenant) => recurringAdvances(ctx, tenant));
}
