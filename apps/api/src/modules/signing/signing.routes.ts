import type { App, AppContext } from '../../platform/context';

export function registerSigningRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
