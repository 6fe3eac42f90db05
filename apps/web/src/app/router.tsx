import { Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { MeContact } from '@sportello/contracts';
import { DESK_EARLY, early } from './early-data';
import { lazyPage, PageLoader, type PageModule } from '../ui/lazy-page';
import { loadStaffInboxTexts, loadStaffTexts } from '../features/staff/i18n';
import { loadRestTexts, loadRestTextsAtStart } from '../i18n';
import { loadRestStyles } from '../styles/load-rest-styles';
import {
  DashboardRedirect,
  NotFoundPage,
  NotificationsRedirect,
  RequireContact,
} from './layout/route-guards';
import { ShellLayout } from './layout/shell-layout';
import { canOpenTicket, SECTION_RULES } from './sections';

/**
 * A page that shows only once Mantine's styles and the texts beyond the first paint are here
 * (load-rest-styles.ts, i18n/first-paint.ts). My tickets, where a contact lands, needs none of them: its
 * first paint waits for no more CSS nor texts. A ticket and the overview (`firstPaintStyles`) wait for
 * their texts only: their content draws with the first paint's styles (mantine-first-paint.css), and
 * what follows it loads the rest (the ticket's ticket-page-rest, the shell when idle).
 */
const page = (load: () => Promise<PageModule>, isFirst = false, firstPaintStyles = false) => {
  const styles = () => (firstPaintStyles ? null : loadRestStyles());
  return lazyPage(
    () => Promise.all([load(), styles(), loadRestTexts()]).then(([m]) => m),
    // The first page (app/early-data.ts): asked for now, while the app's other modules are evaluated;
    // drawn once its early requests, if any, are in the cache (the module that starts them is small).
    isFirst
      ? Promise.all([load(), styles(), loadRestTextsAtStart(), early.pageRequests?.catch(() => {})]).then(
          ([m]) => m,
        )
      : null,
  );
};

// Every page is its own chunk: a sign-in or a booking link loads no list code, and the reverse.
const TicketsPage = lazyPage(() => import('../features/tickets/tickets-page'), early.ticketsPage);
const AllTicketsPage = page(() => import('../features/tickets/all-tickets-page'));
const NewTicketPage = page(
  () => import('../features/tickets/new-ticket-page'),
  early.firstPage === 'newTicket',
);
const TicketDetailPage = page(
  () => import('../features/tickets/ticket-detail-page'),
  early.firstPage === 'ticket',
  true,
);
const OverviewPage = page(
  () => import('../features/overview/overview-page'),
  early.firstPage === 'overview',
  true,
);
const ReportsPage = page(() => import('../features/reports/reports-page'));
const ActivityContractsPage = page(() => import('../features/contracts/activity-contracts-page'));
const ServiceContractsPage = page(() => import('../features/contracts/service-contracts-page'));
const DocumentsPage = page(() => import('../features/documents/documents-page'));
const PublicFilesPage = page(() => import('../features/documents/public-files-page'));
const InvoicesPage = page(() => import('../features/billing/invoices-page'), early.firstPage === 'invoices');
const EstimatesPage = page(() => import('../features/billing/estimates-page'));
const RecurringAdvancesPage = page(() => import('../features/billing/recurring-advances-page'));
const WikiPage = page(() => import('../features/wiki/wiki-page'));
const LoginPage = page(() => import('../features/auth/login-page'), early.firstPage === 'login');
const ConfirmPage = page(() => import('../features/auth/confirm-page'));
const PrivacyPage = page(() => import('../features/auth/privacy-page'));
const ViewAsPage = page(() => import('../features/auth/view-as-page'));
const SignPage = page(() => import('../features/signing/sign-page'), early.firstPage === 'signing');
const BookingPage = page(
  () => import('../features/appointments/booking-page'),
  early.firstPage === 'booking',
);
const CancellationPage = page(() => import('../features/appointments/cancellation-page'));
const TaskPage = page(() => import('../features/tasks/task-page'));
/** The desk's Branding section frames it (its own chunk: no customer ever loads it). */
const BrandingPreviewPage = page(() => import('./layout/branding-preview'));
// The staff desk (issue 13), never part of a customer's first load: its layout with the inbox in one
// chunk, the sign-in, invitation and ticket pages each in their own, and the desk's texts in the
// current language (its own namespace) before any of them shows.
const deskPage = (load: () => Promise<PageModule>) =>
  page(() => Promise.all([load(), loadStaffTexts()]).then(([m]) => m));
const staffDesk = () => import('../features/staff/staff-area');
const StaffLoginPage = deskPage(() => import('../features/staff/staff-login-page'));
const StaffAcceptPage = deskPage(() => import('../features/staff/staff-accept-page'));
// The layout and the inbox draw with the first paint's styles and texts only (the layout fetches the
// rest after the inbox's list); the desk's other pages wait for them.
// On a first load of the inbox, early-data.ts has already asked for both (main.tsx renders once they are
// here, so they draw without a loading step).
const StaffShell = lazyPage(
  () => Promise.all([staffDesk(), loadStaffInboxTexts()]).then(([m]) => ({ default: m.StaffShell })),
  early.desk?.ready.then((m) => ({ default: m.StaffShell })),
);
const StaffInboxPage = lazyPage(
  () => staffDesk().then((m) => ({ default: m.InboxPage })),
  early.desk?.ready.then((m) => ({ default: m.InboxPage })),
);
// The desk's pages but the inbox wait for the rest of its texts too (i18n/inbox-texts.ts).
const StaffTicketPage = deskPage(() => import('../features/staff/staff-ticket-page'));
// The desk's new ticket validates with its schema (zod): a chunk of its own, as the customer's form.
const StaffNewTicketPage = deskPage(() => import('../features/staff/new-ticket-page'));
// The administration (issue 14): a chunk of its own beside the desk's, routing its sections itself.
const StaffAdminArea = deskPage(() => import('../features/staff/admin/admin-area'));
// The agent's own profile (issue 28): a chunk of its own, as the desk's other pages.
const StaffProfilePage = deskPage(() => import('../features/staff/profile/profile-page'));
// The reports (issue 28 item 14): asked for by the desk's code (staff-area.tsx), not by the entry.
const StaffReportsPage = lazyPage(() => staffDesk().then((m) => ({ default: m.ReportsPage })));
const NotificationsPage = page(() => import('../features/notifications/notifications-page'));
const ProfilePage = page(() => import('../features/account/profile-page'));
const ConfirmEmailPage = page(() => import('../features/account/confirm-email-page'));

type Page = ComponentType;

/** A standalone route: open without sign-in, its own loading fallback. */
const open = (Page: Page) => (
  <Suspense fallback={<PageLoader />}>
    <Page />
  </Suspense>
);

/** A layout child that needs a permission (the layout's Suspense shows the loading state). */
const guarded = (allow: (c: MeContact) => boolean, Page: Page) => (
  <RequireContact allow={allow}>
    <Page />
  </RequireContact>
);

/**
 * SPEC A2 routes. Matching is case-insensitive (react-router's default), so `/Login`, `/login` and
 * `recurringAdvances` in any case all work. Static segments outrank dynamic ones, so `/demo/login` and
 * `/demo/documents/…` never fall into the layout's `/:company/:contactid`.
 */
export const routes: RouteObject[] = [
  { path: '/appointments/:company?/cancellation/:eventkey?', element: open(CancellationPage) },
  { path: '/appointments/:company?/:eventkey?', element: open(BookingPage) },
  { path: '/tasks/:company?/:eventkey?', element: open(TaskPage) },
  { path: '/:company?/login', element: open(LoginPage) },
  { path: '/confirm', element: open(ConfirmPage) },
  { path: '/confirm-email', element: open(ConfirmEmailPage) },
  { path: '/:company?/privacy', element: open(PrivacyPage) },
  // "See as this contact" (staff desk): exchanges the code of the fragment for a read-only session.
  { path: '/:company/view-as', element: open(ViewAsPage) },
  { path: '/:company/branding-preview', element: open(BrandingPreviewPage) },
  // The user's page (issue 16): `/{company}/Notifications` opens it for the remembered contact.
  { path: '/:company?/notifications', element: <NotificationsRedirect /> },
  { path: '/:company?/documents/:documentkey?/confirm', element: open(SignPage) },
  { path: '/:company?/documents/:documentkey?', element: open(SignPage) },
  // Static `staff` outranks the contact layout's `:contactid`, so `/demo/staff/tickets/5` is the desk's.
  { path: '/:company/staff/login', element: open(StaffLoginPage) },
  { path: '/:company/staff/accept', element: open(StaffAcceptPage) },
  {
    path: '/:company/staff',
    element: open(StaffShell),
    children: [
      { index: true, element: <StaffInboxPage /> },
      { path: 'tickets/new', element: <StaffNewTicketPage /> },
      { path: 'tickets/:ticketid', element: <StaffTicketPage /> },
      { path: 'admin/*', element: <StaffAdminArea /> },
      { path: 'profile', element: <StaffProfilePage /> },
      { path: 'reports', element: <StaffReportsPage /> },
      { path: '*', element: <StaffInboxPage /> },
    ],
  },
  {
    path: '/:company?/:contactid?',
    element: <ShellLayout />,
    children: [
      { index: true, element: <DashboardRedirect /> },
      { path: 'overview', element: guarded(SECTION_RULES.overview, OverviewPage) },
      { path: 'tickets', element: guarded(SECTION_RULES.tickets, TicketsPage) },
      { path: 'tickets/new', element: guarded(SECTION_RULES.tickets, NewTicketPage) },
      { path: 'tickets/:ticketid', element: guarded(canOpenTicket, TicketDetailPage) },
      { path: 'alltickets', element: guarded(SECTION_RULES.alltickets, AllTicketsPage) },
      { path: 'activityreports', element: guarded(SECTION_RULES.activityreports, ReportsPage) },
      { path: 'activitycontracts', element: guarded(SECTION_RULES.activitycontracts, ActivityContractsPage) },
      { path: 'servicecontracts', element: guarded(SECTION_RULES.servicecontracts, ServiceContractsPage) },
      { path: 'documents', element: guarded(SECTION_RULES.documents, DocumentsPage) },
      { path: 'invoices', element: guarded(SECTION_RULES.invoices, InvoicesPage) },
      { path: 'wiki', element: guarded(SECTION_RULES.wiki, WikiPage) },
      { path: 'estimates', element: guarded(SECTION_RULES.estimates, EstimatesPage) },
      { path: 'recurringAdvances', element: guarded(SECTION_RULES.recurringAdvances, RecurringAdvancesPage) },
      { path: 'publicfiles', element: guarded(SECTION_RULES.publicfiles, PublicFilesPage) },
      { path: 'notifications', element: <NotificationsPage /> },
      // The user's own account: open to every contact, whatever its permissions.
      { path: 'profile', element: <ProfilePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The routes to match an address against: all of them, but on the desk's inbox and its tickets only the
 * desk's layout, the one they rank first there (router.test.ts compares the two over many addresses).
 * react-router flattens, ranks and compiles every route on every match, and the optional segments above
 * expand into over a hundred: a slow phone's first render of the inbox spent tens of ms there. The same
 * route objects, so moving between the inbox and the desk's other pages keeps the layout mounted.
 */
const DESK_ROUTES = routes.filter((r) => r.path === '/:company/staff');
export const routesFor = (pathname: string): RouteObject[] =>
  DESK_EARLY.test(pathname) ? DESK_ROUTES : routes;
