// The staff desk (issue 13), `/{portal}/staff`: its layout and its inbox, the chunk a desk visit starts
// with (the router imports it on demand, so a customer's first load carries none of it). The sign-in,
// invitation and ticket pages and the administration are chunks of their own, and the desk's texts come
// a language at a time (i18n/index.ts): the inbox shows without the code of the pages behind it.
export { default as InboxPage } from './inbox-page';
export { StaffShell } from './staff-shell';
export { startDeskRequests } from './desk-start';
