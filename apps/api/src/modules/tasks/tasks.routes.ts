import type { App, AppContext } from '../../platform/context';

export function registerTasksRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
