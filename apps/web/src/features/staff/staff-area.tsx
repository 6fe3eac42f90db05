// The staff desk (issue 13), `/{portal}/staff`: its layout and its inbox, the chunk a desk visit starts
// with (the router imports it on demand, so a customer's first load carries none of it). The sign-in,
// invitation and ticket pages and the administration are chunks of their own, and the desk's texts come
// a language at a time (i18n/index.ts): the inbox shows without the code of the pages behind it.
import { loadRestTexts } from '../../i18n';
import { loadRestStyles } from '../../styles/load-rest-styles';
import { lazyPage } from '../../ui/lazy-page';
import { loadStaffTexts } from './i18n';

export { default as InboxPage } from './inbox-page';
export { StaffShell } from './staff-shell';
export { startDeskRequests } from './desk-start';

/**
 * The reports page (issue 28 item 14), its charts and its texts: chunks of their own, asked for from here
 * rather than from the router, so the customer's first load (the router's) carries not even their names.
 */
export const ReportsPage = lazyPage(() =>
  Promise.all([import('./reports/reports-page'), loadRestStyles(), loadRestTexts(), loadStaffTexts()]).then(
    ([m]) => m.loadReportTexts().then(() => m),
  ),
);
