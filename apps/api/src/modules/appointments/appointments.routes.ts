import type { App, AppContext } from '../../platform/context';

export function registerAppointmentsRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
