import { errorSchema, taskPageParamsSchema, taskPageSchema } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { getTaskPage } from './tasks.service';

/** Public (no token): the unguessable event key is the credential. */
export function registerTasksRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/tasks/:company/:eventkey',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Read-only summary of one ticket by its task key (public)',
        params: taskPageParamsSchema,
        response: { 200: taskPageSchema, 404: errorSchema },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return getTaskPage(ctx, req.params.company, req.params.eventkey);
    },
  );
}
