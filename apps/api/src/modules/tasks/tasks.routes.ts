import { taskRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { getTaskPage } from './tasks.service';

export function registerTasksRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, taskRoutes.page, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return getTaskPage(ctx, req.params.company, req.params.eventkey);
  });
}
