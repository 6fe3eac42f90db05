import { sql } from 'drizzle-orm';
import { healthSchema } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 once the database answers',
        response: { 200: healthSchema },
      },
    },
    async () => {
      await ctx.database.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );
}
