import type { App, AppContext } from '../../platform/context';

export function registerBillingRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
