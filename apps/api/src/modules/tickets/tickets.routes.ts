import {
  allTicketsQuerySchema,
  colleagueListSchema,
  colleaguesParamsSchema,
  colleaguesQuerySchema,
  errorSchema,
  newCommentRequestSchema,
  newTicketRequestSchema,
  portalParamsSchema,
  tenantParams,
  ticketCommentSchema,
  ticketDetailSchema,
  ticketListQuerySchema,
  ticketListSchema,
  ticketParamsSchema,
  ticketTypeListSchema,
  uploadResultSchema,
} from '@sportello/contracts';
import { guard } from '../../platform/access';
import { sendJsonText } from '../../platform/answer-cache';
import type { App, AppContext } from '../../platform/context';
import { receiveUpload } from '../documents/uploads';
import { listTicketTypes } from './tickets.queries';
import {
  addComment,
  allTickets,
  closeTicket,
  colleagues,
  createTicket,
  myTickets,
  ticketDetail,
} from './tickets.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const uploadDescription =
  'multipart/form-data with one field `file` (at most MAX_UPLOAD_MB, else 413 and nothing is kept). ' +
  'The answered id can be listed once, by the same contact, in `attachments` of a new ticket or comment.';

export function registerTicketsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/:company/:contactid/tickets',
    {
      schema: {
        tags: ['tickets'],
        summary: 'My tickets: the tickets of the company created by this contact, newest first',
        description: 'Also used without query by the header search, which filters by title.',
        params: tenantParams,
        querystring: ticketListQuerySchema,
        response: { 200: ticketListSchema, ...errors },
      },
    },
    async (req, reply) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/tickets');
      return sendJsonText(reply, await myTickets(ctx, t, req.query));
    },
  );

  app.get(
    '/api/:company/:contactid/tickets/all',
    {
      schema: {
        tags: ['tickets'],
        summary: "All tickets of the contact's company (administrators), newest first",
        params: tenantParams,
        querystring: allTicketsQuerySchema,
        response: { 200: ticketListSchema, ...errors },
      },
    },
    async (req, reply) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/tickets/all');
      return sendJsonText(reply, await allTickets(ctx, t, req.query));
    },
  );

  app.get(
    '/api/:company/:contactid/tickets/:ticketid',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Ticket detail with description, attachments and conversation',
        description: 'Administrators open any ticket of the company, other contacts their own (else 404).',
        params: ticketParamsSchema,
        response: { 200: ticketDetailSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/tickets/:ticketid');
      return ticketDetail(ctx, t, req.params.ticketid);
    },
  );

  app.post(
    '/api/:company/:contactid/tickets',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Open a ticket (status: the portal default step)',
        params: tenantParams,
        body: newTicketRequestSchema,
        response: { 201: ticketDetailSchema, ...errors, 409: errorSchema },
      },
    },
    async (req, reply) => {
      const t = await guard(req, ctx, 'POST /api/:company/:contactid/tickets');
      return reply.code(201).send(await createTicket(ctx, t, req.body));
    },
  );

  app.post(
    '/api/:company/:contactid/tickets/:ticketid/close',
    {
      schema: {
        tags: ['tickets'],
        summary: "Close a ticket: moves it to the portal's closing step (idempotent)",
        params: ticketParamsSchema,
        response: { 200: ticketDetailSchema, ...errors, 409: errorSchema },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'POST /api/:company/:contactid/tickets/:ticketid/close');
      return closeTicket(ctx, t, req.params.ticketid);
    },
  );

  app.post(
    '/api/:company/:contactid/comments',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Add a comment to a ticket (A7: POST …/Comments)',
        params: tenantParams,
        body: newCommentRequestSchema,
        response: { 201: ticketCommentSchema, ...errors },
      },
    },
    async (req, reply) => {
      const t = await guard(req, ctx, 'POST /api/:company/:contactid/comments');
      return reply.code(201).send(await addComment(ctx, t, req.body));
    },
  );

  for (const [path, summary] of [
    ['/api/:company/:contactid/documents/upload', 'Upload a ticket attachment'],
    ['/api/:company/:contactid/comments/attachments', 'Upload a comment attachment'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags: ['tickets'],
          summary,
          description: uploadDescription,
          consumes: ['multipart/form-data'],
          params: tenantParams,
          response: { 201: uploadResultSchema, ...errors, 413: errorSchema },
        },
      },
      async (req, reply) => {
        const t = await guard(
          req,
          ctx,
          path === '/api/:company/:contactid/documents/upload'
            ? 'POST /api/:company/:contactid/documents/upload'
            : 'POST /api/:company/:contactid/comments/attachments',
        );
        const stored = await receiveUpload(req, ctx, t, async (_tx, file) => file);
        return reply
          .code(201)
          .send({ id: stored.id, url: ctx.signer.sign(stored.id, stored.name, ctx.clock.now()) });
      },
    );
  }

  app.get(
    '/api/users/:contactid/colleagues',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Other users holding a contact of the same company (the all-tickets user filter)',
        description:
          "The contact is looked up among the caller's contacts; when the caller holds that contact id in " +
          'several portals, `company` is required (400 company_required).',
        params: colleaguesParamsSchema,
        querystring: colleaguesQuerySchema,
        response: { 200: colleagueListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/users/:contactid/colleagues');
      return colleagues(ctx, t);
    },
  );

  app.get(
    '/api/settings/:company/tickets/types',
    {
      schema: {
        tags: ['tickets'],
        summary: "The portal's ticket types",
        params: portalParamsSchema,
        response: { 200: ticketTypeListSchema, ...errors },
      },
    },
    async (req) => {
      const p = await guard(req, ctx, 'GET /api/settings/:company/tickets/types');
      return listTicketTypes(ctx.database.db, p.portalId);
    },
  );
}
