import type { App, AppContext } from '../../platform/context';

export function registerTicketsRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
