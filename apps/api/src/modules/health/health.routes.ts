import { sql } from 'drizzle-orm';
import { platformRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, platformRoutes.health, async () => {
    await ctx.database.db.execute(sql`select 1`);
    return { status: 'ok' as const };
  });
}
