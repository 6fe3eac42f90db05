import { platformRoutes } from '@sportello/contracts';
import type { App, AppContext } from './platform/context';
import { collectUploadRoutes, registerUploadRoutes, route } from './platform/route';
import { installAccessControl, registeredRoutes } from './platform/access';
import { finishOpenApi } from './platform/openapi';
import { installUploadLimits } from './platform/upload-limits';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerFileRoutes } from './modules/files/files.routes';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerPortalRoutes } from './modules/portals/portals.routes';
import { registerAdminRoutes } from './modules/admin/admin.routes';
import { registerTicketsRoutes } from './modules/tickets/tickets.routes';
import { registerOverviewRoutes } from './modules/overview/overview.routes';
import { registerReportsRoutes } from './modules/reports/reports.routes';
import { registerContractsRoutes } from './modules/contracts/contracts.routes';
import { registerWikiRoutes } from './modules/wiki/wiki.routes';
import { registerDocumentsRoutes } from './modules/documents/documents.routes';
import { registerBillingRoutes } from './modules/billing/billing.routes';
import { registerSigningRoutes } from './modules/signing/signing.routes';
import { registerAppointmentsRoutes } from './modules/appointments/appointments.routes';
import { registerTasksRoutes } from './modules/tasks/tasks.routes';
import { registerIntegrationRoutes } from './modules/integration/integration.routes';
import { registerStaffRoutes } from './modules/staff/staff.routes';
import { registerSearchRoutes } from './modules/search/search.routes';
import { registerNotificationRoutes } from './modules/notifications/notifications.routes';
import { registerEmailRoutes } from './modules/email/email.routes';
import { createContactIn, inviteUserIn } from './modules/admin/entities/entities.service';

/** Every module's routes, in one visible order. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  // Before any route: records every route and applies each contract's access rule to every request.
  installAccessControl(app, ctx);
  collectUploadRoutes(app);
  registerHealthRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerPortalRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerTicketsRoutes(app, ctx);
  registerOverviewRoutes(app, ctx);
  registerReportsRoutes(app, ctx);
  registerContractsRoutes(app, ctx);
  registerWikiRoutes(app, ctx);
  registerDocumentsRoutes(app, ctx);
  registerBillingRoutes(app, ctx);
  registerSigningRoutes(app, ctx);
  registerAppointmentsRoutes(app, ctx);
  registerTasksRoutes(app, ctx);
  registerIntegrationRoutes(app, ctx);
  registerStaffRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerNotificationRoutes(app, ctx);
  // "Invite as contact" writes the contact and the invitation through the entity service.
  registerEmailRoutes(app, ctx, { createContactIn, inviteUserIn });
  // Built once, on first ask: every route is registered by then.
  let docs: Record<string, unknown> | undefined;
  route(app, ctx, platformRoutes.docs, async () => {
    docs ??= finishOpenApi(
      app.swagger(),
      registeredRoutes(app).flatMap((r) => (r.contract && r.method !== 'HEAD' ? [r.contract] : [])),
    );
    return docs;
  });
  // Last, in a scope of their own with the multipart parser (why: route.ts).
  await registerUploadRoutes(
    app,
    { limits: { fileSize: ctx.config.MAX_UPLOAD_MB * 1024 * 1024, files: 1, fields: 10 } },
    (scope) => installUploadLimits(scope, ctx),
  );
}
