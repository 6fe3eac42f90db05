/** The desk's addresses under a portal: `/{portal}/staff/…`. */
export const staffPath = (company: string, rest = '') =>
  `/${encodeURIComponent(company)}/staff${rest ? `/${rest}` : ''}`;

export const staffTicketPath = (company: string, ticketId: number) =>
  staffPath(company, `tickets/${ticketId}`);

/** The desk's form of a ticket opened for a contact. */
export const staffNewTicketPath = (company: string) => staffPath(company, 'tickets/new');

/** Where to go after signing in: back to the desk page the guard refused, else the inbox. */
export function afterStaffLogin(from: unknown, company: string): string {
  const home = staffPath(company);
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return home;
  // Only a page of this portal's desk, and never the sign-in or invitation pages again.
  const prefix = home.toLowerCase();
  const lower = from.toLowerCase();
  if (!(lower === prefix || lower.startsWith(`${prefix}/`) || lower.startsWith(`${prefix}?`))) return home;
  if (/^\/[^/]+\/staff\/(login|accept)\b/i.test(from)) return home;
  return from;
}
