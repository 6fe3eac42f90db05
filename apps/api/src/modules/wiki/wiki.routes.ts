import type { App, AppContext } from '../../platform/context';

export function registerWikiRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
