import {
  activityReportListSchema,
  activityReportsQuerySchema,
  errorSchema,
  tenantParams,
} from '@sportello/contracts';
import { guard } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { activityReports } from './reports.service';

export function registerReportsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/:company/:contactid/activities/activityreports',
    {
      schema: {
        tags: ['reports'],
        summary: "The company's activity reports, newest first",
        description:
          '`wikiFilter`: reports of tickets linked to that wiki element. A linked ticket (taskId, taskName) ' +
          'is given only when the caller may open it.',
        params: tenantParams,
        querystring: activityReportsQuerySchema,
        response: { 200: activityReportListSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/activities/activityreports');
      return activityReports(ctx, t, req.query);
    },
  );
}
