import { z } from 'zod';

/**
 * The ten permission flags of a contact, as the back office names them. The one list: the API's
 * tenancy reads these columns, the access rules of the route contracts name them, the import and
 * the `/api/Users/me` answer carry them, and the web menu decides with them.
 */
export const permissionFlags = [
  'manageTickets',
  'administrator',
  'viewContactContracts',
  'viewRecurringAdvances',
  'viewContactActivityReports',
  'viewContactWiki',
  'viewEstimates',
  'viewContactInvoices',
  'viewContactDocuments',
  'uploadContactDocuments',
] as const;
export type PermissionFlag = (typeof permissionFlags)[number];

/** A flag per permission, each built by `flag` (e.g. `z.boolean()` in answers, `.nullish()` in the import). */
export function permissionShape<T extends z.ZodType>(flag: () => T): Record<PermissionFlag, T> {
  return Object.fromEntries(permissionFlags.map((f) => [f, flag()])) as Record<PermissionFlag, T>;
}
