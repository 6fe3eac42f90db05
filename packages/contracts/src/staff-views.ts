/**
 * The staff inbox's views, without zod: the desk's inbox page uses them, and a module of the contracts
 * that builds schemas (staff.ts) would bring every schema of its file, and of the files it imports, and
 * zod with it (26 KB gzip before the inbox showed).
 */
export const inboxViews = ['unassigned', 'mine', 'groups', 'waiting', 'open', 'closed'] as const;
export type InboxView = (typeof inboxViews)[number];
