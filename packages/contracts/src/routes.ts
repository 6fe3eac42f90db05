// Every area's route contracts, for whoever needs them all (the server's completeness test, docs).
import { accountRoutes } from './account';
import { adminRoutes } from './admin';
import { peopleRoutes } from './admin-people';
import { accessRoutes, staffInstallationRoutes, webhookStaffRoutes } from './admin-access';
import { settingsAdminRoutes } from './admin-settings';
import { ticketSetupRoutes } from './admin-ticket-setup';
import { appointmentRoutes } from './appointments';
import { authRoutes } from './auth';
import { billingRoutes } from './billing';
import { platformRoutes } from './common';
import { contractRoutes } from './contracts';
import { documentRoutes } from './documents';
import { inboundRoutes, mailboxAdminRoutes, mailboxStaffRoutes } from './email';
import { auditRoutes, deskEntityRoutes, entityKeyRoutes, entityStaffRoutes } from './entities';
import { catalogAdminRoutes } from './entities-catalog';
import { contentStaffRoutes, signatureKeyRoutes, signatureStaffRoutes } from './admin-content';
import { integrationRoutes, webhookAdminRoutes, webhookKeyRoutes } from './integration';
import { overviewRoutes } from './overview';
import { portalRoutes } from './portals';
import { notificationRoutes } from './notifications';
import { reportRoutes } from './reports';
import { searchRoutes } from './search';
import type { RouteContract } from './route';
import { signingRoutes } from './signing';
import { staffAuthRoutes, staffDeskRoutes, staffInboxRoutes } from './staff';
import { staffMacroRoutes } from './staff-macros';
import { staffBellRoutes, staffSavedViewRoutes } from './staff-notifications';
import { staffSlaRoutes } from './staff-sla';
import { staffSlaCompanyRoutes } from './staff-sla-companies';
import { staffTriageRoutes } from './staff-triage';
import { staffContextRoutes } from './staff-context';
import { staffMergeRoutes } from './staff-merge';
import { deskReportRoutes } from './desk-reports';
import { taskRoutes } from './tasks';
import { ticketRoutes } from './tickets';
import { wikiRoutes } from './wiki';

export const apiRoutes = {
  platform: platformRoutes,
  auth: authRoutes,
  account: accountRoutes,
  portals: portalRoutes,
  admin: adminRoutes,
  tickets: ticketRoutes,
  overview: overviewRoutes,
  reports: reportRoutes,
  contracts: contractRoutes,
  wiki: wikiRoutes,
  documents: documentRoutes,
  billing: billingRoutes,
  signing: signingRoutes,
  appointments: appointmentRoutes,
  tasks: taskRoutes,
  integration: integrationRoutes,
  webhooks: webhookKeyRoutes,
  webhooksAdmin: webhookAdminRoutes,
  staffAuth: staffAuthRoutes,
  staffInbox: staffInboxRoutes,
  staffDesk: staffDeskRoutes,
  staffMacros: staffMacroRoutes,
  staffBell: staffBellRoutes,
  staffSavedViews: staffSavedViewRoutes,
  staffSla: staffSlaRoutes,
  staffSlaCompanies: staffSlaCompanyRoutes,
  staffTriage: staffTriageRoutes,
  staffContext: staffContextRoutes,
  staffMerge: staffMergeRoutes,
  deskReports: deskReportRoutes,
  entities: entityKeyRoutes,
  entitiesAdmin: entityStaffRoutes,
  deskEntities: deskEntityRoutes,
  audit: auditRoutes,
  catalogAdmin: catalogAdminRoutes,
  signatures: signatureKeyRoutes,
  signaturesAdmin: signatureStaffRoutes,
  contentAdmin: contentStaffRoutes,
  people: peopleRoutes,
  access: accessRoutes,
  staffInstallation: staffInstallationRoutes,
  settingsAdmin: settingsAdminRoutes,
  ticketTypesAdmin: ticketSetupRoutes.types,
  statusStepsAdmin: ticketSetupRoutes.steps,
  groupsAdmin: ticketSetupRoutes.groups,
  webhooksStaff: webhookStaffRoutes,
  search: searchRoutes,
  notifications: notificationRoutes,
  mailboxStaff: mailboxStaffRoutes,
  mailboxAdmin: mailboxAdminRoutes,
  inbound: inboundRoutes,
} satisfies Record<string, Record<string, RouteContract>>;

/** The contracts of every area, flat. */
export const allRouteContracts = (): RouteContract[] =>
  Object.values(apiRoutes).flatMap((area) => Object.values(area) as RouteContract[]);
