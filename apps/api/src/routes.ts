import type { App, AppContext } from './platform/context';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerFileRoutes } from './modules/files/files.routes';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerAdminRoutes } from './modules/admin/admin.routes';
import { registerPortalRoutes } from './modules/portals/portals.routes';

/** Every module's routes, in one visible order. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  registerHealthRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerPortalRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
}
