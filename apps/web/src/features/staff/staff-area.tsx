// The staff desk (issue 13), `/{portal}/staff/…`: this module is the desk's one lazily loaded chunk (the
// router imports it on demand, so a customer's first load carries none of it) and it registers the
// desk's texts as it loads (i18n/index.ts). The router maps each desk address to one of these.
import './i18n';

export { default as InboxPage } from './inbox-page';
export { default as StaffAcceptPage } from './staff-accept-page';
export { default as StaffLoginPage } from './staff-login-page';
export { StaffShell } from './staff-shell';
export { default as StaffTicketPage } from './staff-ticket-page';
