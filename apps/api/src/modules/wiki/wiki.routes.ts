import { errorSchema, tenantParams, wikiElementListSchema, wikiQuerySchema } from '@sportello/contracts';
import { guard } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { wikiElements } from './wiki.service';

export function registerWikiRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/:company/:contactid/wikielements',
    {
      schema: {
        tags: ['wiki'],
        summary: "The company's wiki elements with properties (file links signed) and associated contracts",
        description:
          'Also the server-search dropdown of the wiki pickers: `filter` matches element names ' +
          '(case-insensitive substring); items read `folderName - name`.',
        params: tenantParams,
        querystring: wikiQuerySchema,
        response: { 200: wikiElementListSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/wikielements');
      return wikiElements(ctx, t, req.query);
    },
  );
}
