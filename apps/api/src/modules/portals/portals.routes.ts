import type { App, AppContext } from '../../platform/context';

export function registerPortalRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
