import { sql } from 'drizzle-orm';
import { platformRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/route';

/** A database that takes longer than this to answer `select 1` counts as down. */
export const HEALTH_TIMEOUT_MS = 5_000;

const unavailable = () => new AppError(503, 'database_unavailable', 'The database does not answer');

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, platformRoutes.health, async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ctx.database.db.execute(sql`select 1`),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(unavailable()), HEALTH_TIMEOUT_MS);
        }),
      ]);
    } catch {
      // A load balancer takes a process out of rotation on 503; a 500 reads as a bug of ours.
      throw unavailable();
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok' as const };
  });
}
