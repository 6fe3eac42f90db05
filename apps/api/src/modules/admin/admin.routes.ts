import type { App, AppContext } from '../../platform/context';

export function registerAdminRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
