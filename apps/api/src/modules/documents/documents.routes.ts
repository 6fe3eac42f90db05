import type { App, AppContext } from '../../platform/context';

export function registerDocumentsRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
