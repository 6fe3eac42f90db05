import type { App, AppContext } from '../../platform/context';

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
