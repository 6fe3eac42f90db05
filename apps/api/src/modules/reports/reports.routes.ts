import type { App, AppContext } from '../../platform/context';

export function registerReportsRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
