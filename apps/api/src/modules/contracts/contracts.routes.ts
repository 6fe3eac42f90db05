import {
  activityContractListSchema,
  contractsQuerySchema,
  errorSchema,
  portalParamsSchema,
  serviceContractListSchema,
  tagListSchema,
  tenantParams,
} from '@sportello/contracts';
import { guard } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { listPortalTags } from './contracts.queries';
import { activityContracts, serviceContracts } from './contracts.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

export function registerContractsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/:company/:contactid/activitycontracts',
    {
      schema: {
        tags: ['contracts'],
        summary: 'Activity contracts (hours or units) with computed residuals and expiry',
        params: tenantParams,
        querystring: contractsQuerySchema,
        response: { 200: activityContractListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/activitycontracts');
      return activityContracts(ctx, t, req.query);
    },
  );

  app.get(
    '/api/:company/:contactid/activitycontracts/servicecontracts',
    {
      schema: {
        tags: ['contracts'],
        summary: 'Service contracts with tags, assets, documents and packages; expiry computed',
        params: tenantParams,
        querystring: contractsQuerySchema,
        response: { 200: serviceContractListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/activitycontracts/servicecontracts');
      return serviceContracts(ctx, t, req.query);
    },
  );

  app.get(
    '/api/settings/:company/tags',
    {
      schema: {
        tags: ['contracts'],
        summary: "The portal's tags (public: A7's tags call sends no token)",
        params: portalParamsSchema,
        response: { 200: tagListSchema, 404: errorSchema },
      },
    },
    async (req) => {
      await guard(req, ctx, 'GET /api/settings/:company/tags');
      const tags = await listPortalTags(ctx.database.db, req.params.company);
      if (!tags) throw notFound('No such portal', 'portal_not_found');
      return tags;
    },
  );
}
