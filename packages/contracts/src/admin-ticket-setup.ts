/**
 * The desk's ticket setup (issue 14 item 5): the portal's ticket types, status steps and assignee
 * groups created, renamed and removed by a staff admin. The rules are the import's
 * (`importTicketTypeSchema`, `importStatusStepSchema`, `importGroupSchema`): one source for each. They
 * are read through the desk's options (`GET /api/staff/portals/:company/options`). A group's members
 * are set from the group (`PUT …/admin/ticket-setup/groups/:id/members`) or per staff member
 * (`PUT …/staff/:staffid/groups`); the staff list (`GET …/admin/staff`) shows each member's groups.
 */
import { z } from 'zod';
import { importGroupSchema, importNameSchema, importStatusStepSchema, importTicketTypeSchema } from './admin';
import { errorSchema, extIdParam, rowIdSchema } from './common';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';

export const ticketSetupErrorCodes = {
  /**
   * 409: the change would leave the portal without its one default step (where new tickets start) or
   * its one closing step (where a customer's close moves a ticket): make another step so instead.
   */
  stepRequired: 'step_required',
  /** 422: the closing step must be a closed one (`taskStatus` 2), the default step must not. */
  stepStatusMismatch: 'step_status_mismatch',
  /** 409: another item of the same kind has this name (compared without regard to case). */
  nameTaken: 'name_taken',
} as const;

// The desk names a type or step with one name (the import may give one per language).
export const ticketTypeInputSchema = importTicketTypeSchema
  .omit({ id: true, extra: true })
  .extend({ name: importNameSchema });
export const statusStepInputSchema = importStatusStepSchema
  .omit({ id: true, extra: true })
  // The import's null means "not this one"; here a mark is set or moved, never cleared (409 instead).
  .extend({ name: importNameSchema, isDefault: z.boolean().optional(), isClosing: z.boolean().optional() });
export const assigneeGroupInputSchema = importGroupSchema.omit({ id: true, extra: true });
export type TicketTypeInput = z.infer<typeof ticketTypeInputSchema>;
export type StatusStepInput = z.infer<typeof statusStepInputSchema>;
export type AssigneeGroupInput = z.infer<typeof assigneeGroupInputSchema>;

const atLeastOne = (o: object) => Object.keys(o).length > 0;
const nonEmpty = 'expected at least one field to change';

export const setupTicketTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
});
export const statusStepSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** 2: tickets in this step are closed. */
  taskStatus: z.number().int(),
  isDefault: z.boolean(),
  isClosing: z.boolean(),
});
export const assigneeGroupSchema = z.object({ id: z.number().int(), name: z.string() });

/** The staff members of a group, by staff user id (the `id` of `GET …/admin/staff`). */
export const groupMembersInputSchema = z
  .object({
    staffIds: z.array(rowIdSchema).max(500),
  })
  .strict();
export type GroupMembersInput = z.infer<typeof groupMembersInputSchema>;
export const groupMembersSchema = assigneeGroupSchema.extend({
  /** Ascending. */
  staffIds: z.array(z.number().int()),
});
export type GroupMembers = z.infer<typeof groupMembersSchema>;

const root = '/api/staff/portals/:company/admin/ticket-setup';
const one = staffPortalParamsSchema.extend({ id: extIdParam });
const access = { guard: 'staff', role: 'admin' } as const;
const tags = ['staff: admin'] as const;

/** Create, change and remove routes of one kind, described alike. */
function kindRoutes<I extends z.ZodObject, A extends z.ZodType>(
  path: string,
  what: string,
  input: I,
  answer: A,
  notes: { update?: string; remove: string },
) {
  return {
    create: defineRoute({
      method: 'POST',
      path: `${root}/${path}`,
      params: staffPortalParamsSchema,
      body: input,
      responses: { 201: answer, 409: errorSchema, 422: errorSchema },
      access,
      tags,
      summary: `Add a ${what} to the portal (admins)`,
      description:
        `Its id follows the portal's largest. 409 \`name_taken\` when another ${what} has the name (any case). ` +
        `Audited and emitted in its transaction.${notes.update ?? ''}`,
    }),
    update: defineRoute({
      method: 'PATCH',
      path: `${root}/${path}/:id`,
      params: one,
      body: input.partial().refine(atLeastOne, nonEmpty),
      responses: { 200: answer, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      access,
      tags,
      summary: `Change a ${what} (admins)`,
      description:
        `Partial; 409 \`name_taken\` when another ${what} has the name (any case); audited and emitted in ` +
        `its transaction.${notes.update ?? ''}`,
    }),
    remove: defineRoute({
      method: 'DELETE',
      path: `${root}/${path}/:id`,
      params: one,
      responses: { 204: null, 404: errorSchema, 409: errorSchema },
      access,
      tags,
      summary: `Remove a ${what} (admins)`,
      description: notes.remove,
    }),
  };
}

export const ticketSetupRoutes = {
  types: kindRoutes('types', 'ticket type', ticketTypeInputSchema, setupTicketTypeSchema, {
    remove: '409 `entity_in_use` while tickets have this type.',
  }),
  steps: kindRoutes('steps', 'status step', statusStepInputSchema, statusStepSchema, {
    update:
      ' `isDefault`/`isClosing` true moves the mark from the step that held it; false on the step that ' +
      'holds it is 409 `step_required` (the portal keeps one of each). The closing step must have ' +
      '`taskStatus` 2 and the default step must not (422 `step_status_mismatch`).',
    remove:
      '409 `entity_in_use` while tickets are in this step; `step_required` for the default or closing step.',
  }),
  groups: {
    ...kindRoutes('groups', 'assignee group', assigneeGroupInputSchema, assigneeGroupSchema, {
      remove: "409 `entity_in_use` while tickets are assigned to it (its members' memberships go with it).",
    }),
    members: defineRoute({
      method: 'PUT',
      path: `${root}/groups/:id/members`,
      params: one,
      body: groupMembersInputSchema,
      responses: { 200: groupMembersSchema, 404: errorSchema, 422: errorSchema },
      access,
      tags,
      summary: "Set an assignee group's members (admins)",
      description:
        "The staff members listed become the group's members, the others leave it: the inbox's My groups " +
        "and who is e-mailed about the group's tickets. 422 `unknown_reference` for an id that is not a " +
        "member of the portal's staff. Audited and emitted (`assignee_group.members_changed`) when it changes.",
    }),
  },
};
