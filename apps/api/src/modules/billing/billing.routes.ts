import {
  billingQuerySchema,
  errorSchema,
  estimateListSchema,
  invoiceListSchema,
  recurringAdvanceListSchema,
  tenantParams,
} from '@sportello/contracts';
import { guard } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { estimates, invoices, recurringAdvances } from './billing.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

export function registerBillingRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/:company/:contactid/invoices',
    {
      schema: {
        tags: ['billing'],
        summary: "The company's invoices, newest first (filter on invoiceDate)",
        params: tenantParams,
        querystring: billingQuerySchema,
        response: { 200: invoiceListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/invoices');
      return invoices(ctx, t, req.query);
    },
  );

  app.get(
    '/api/:company/:contactid/estimates',
    {
      schema: {
        tags: ['billing'],
        summary: "The company's estimates, newest first (filter on estimateCreationDate)",
        params: tenantParams,
        querystring: billingQuerySchema,
        response: { 200: estimateListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/estimates');
      return estimates(ctx, t, req.query);
    },
  );

  app.get(
    '/api/:company/:contactid/jobadvances/recurring',
    {
      schema: {
        tags: ['billing'],
        summary: "The company's recurring advances (active subscriptions)",
        params: tenantParams,
        response: { 200: recurringAdvanceListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/jobadvances/recurring');
      return recurringAdvances(ctx, t);
    },
  );
}
