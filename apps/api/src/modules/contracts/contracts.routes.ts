import type { App, AppContext } from '../../platform/context';

export function registerContractsRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
