// Triage (issue 28 item 2): who hears of a customer's new ticket or reply that has neither an assignee
// nor a group with members: one assignee group of the portal, or its staff admins (docs/staff.md,
// "Agent e-mails").
import { z } from 'zod';
import { errorSchema, extIdSchema } from './common';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';

export const triageSettingInputSchema = z
  .object({
    /** An assignee group of the portal (its id, as the desk's options answer it); null: the admins. */
    groupId: extIdSchema.nullable(),
  })
  .strict();
export type TriageSettingInput = z.infer<typeof triageSettingInputSchema>;

export const triageSettingSchema = z.object({
  /** Null: the portal's staff admins (the default, and after the chosen group was removed). */
  group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type TriageSetting = z.infer<typeof triageSettingSchema>;

const root = '/api/staff/portals/:company/admin/triage';

export const staffTriageRoutes = {
  get: defineRoute({
    method: 'GET',
    path: root,
    params: staffPortalParamsSchema,
    responses: { 200: triageSettingSchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff: admin'],
    summary: "Who hears of a customer's ticket or reply that has no assignee and no group (admins)",
  }),
  put: defineRoute({
    method: 'PUT',
    path: root,
    params: staffPortalParamsSchema,
    body: triageSettingInputSchema,
    responses: { 200: triageSettingSchema, 422: errorSchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff: admin'],
    summary: "Choose the portal's triage: one assignee group, or the admins (null) (admins)",
    description:
      "A customer's new ticket, reply or low rating on a ticket with neither an assignee nor a group with " +
      "members notifies this group's active members (bell and e-mail); without one, or when none of its " +
      "members may sign in, the portal's staff admins. 422 `unknown_reference` for a group the portal " +
      'has not. Audited (`portal`, `updated`, the group before and after) when it changes.',
  }),
};
