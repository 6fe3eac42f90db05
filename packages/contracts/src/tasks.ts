// Schemas of the tasks area: requests and answers, shared by the API and the web app.
// The task page is public: the unguessable event key is the only credential, so the answer carries
// what a customer may read about one ticket and nothing else (no ids, e-mails, phones or files).
import { z } from 'zod';
import { isoDateTime } from './common';
import { errorSchema } from './common';
import { defineRoute } from './route';

export const taskPageErrorCodes = {
  /** 404: no task link with this key in this portal. */
  taskNotFound: 'task_not_found',
} as const;

/** `GET /api/tasks/{company}/{eventkey}` params. */
export const taskPageParamsSchema = z.object({
  company: z.string().min(1).max(40),
  eventkey: z.string().min(1).max(200),
});

export const taskPageCommentSchema = z.object({
  /** The agent's display name, or the referent name of the contact who wrote it. */
  author: z.string(),
  /** Who wrote it, so the page can tell staff from customer. */
  authorKind: z.enum(['agent', 'contact']),
  date: isoDateTime,
  /** Sanitised HTML (sanitise again on display). */
  message: z.string(),
});
export type TaskPageComment = z.infer<typeof taskPageCommentSchema>;

/** The read-only summary of one ticket (SPEC B3). */
export const taskPageSchema = z.object({
  portalName: z.string(),
  timeZone: z.string(),
  ticketNumber: z.string(),
  internalAnnualProgressive: z.number().int(),
  title: z.string(),
  type: z.object({ name: z.string(), color: z.string().nullable() }),
  /** The status step's name, and whether it counts as closed (taskStatus 2). */
  status: z.object({ name: z.string(), isClosed: z.boolean() }),
  /** First and last name of the assigned agent, or null. */
  assignee: z.string().nullable(),
  group: z.string().nullable(),
  nextPlannedActivityInfo: z.string().nullable(),
  createdOn: isoDateTime,
  comments: z.array(taskPageCommentSchema),
});
export type TaskPage = z.infer<typeof taskPageSchema>;

// --- Routes (see route.ts) ---

export const taskRoutes = {
  page: defineRoute({
    method: 'GET',
    path: '/api/tasks/:company/:eventkey',
    params: taskPageParamsSchema,
    responses: { 200: taskPageSchema, 404: errorSchema },
    // The unguessable event key is the credential.
    access: { guard: 'public' },
    tags: ['tasks'],
    summary: 'Read-only summary of one ticket by its task key (public)',
  }),
};
