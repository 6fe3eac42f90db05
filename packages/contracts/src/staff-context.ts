// The customer beside a ticket on the staff desk (issue 28 item 10): who asked, their company, their
// other open tickets and what only Sportello knows of the company, each list bounded.
import { z } from 'zod';
import { errorSchema, isoDateTime } from './common';
import { defineRoute } from './route';
import { staffTicketParamsSchema } from './staff';

/** Each list of the panel holds at most this many rows, with the count of all. */
export const CONTEXT_LIST_MAX = 5;

const section = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ total: z.number().int(), items: z.array(item) });

export const ticketContextSchema = z.object({
  /** The requester (null: the contact is gone). */
  contact: z
    .object({
      id: z.number().int(),
      name: z.string(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
    })
    .nullable(),
  company: z.object({ id: z.number().int(), name: z.string() }),
  /** The requester's other tickets not closed, newest activity first. */
  openTickets: section(
    z.object({
      id: z.number().int(),
      ticketNumber: z.string(),
      title: z.string(),
      stepName: z.string(),
      lastActivityAt: isoDateTime,
    }),
  ),
  /** The company's activity contracts running today; an hour bank's minutes left (null: not one). */
  contracts: section(
    z.object({
      id: z.number().int(),
      name: z.string(),
      end: isoDateTime.nullable(),
      hoursAmount: z.number().nullable(),
      residualMinutes: z.number().int().nullable(),
    }),
  ),
  /**
   * The company's unpaid invoices, the one due first first (those the back office sent a due date and
   * no payment for). null: not for the caller's role (the portal's admins only).
   */
  invoices: section(
    z.object({
      id: z.number().int(),
      documentNumber: z.string(),
      total: z.number(),
      invoiceDate: isoDateTime,
      dueDate: isoDateTime,
      overdue: z.boolean(),
    }),
  ).nullable(),
  /** Documents the company's contacts are asked to sign and have not (not cancelled, not expired). */
  signatures: section(
    z.object({
      documentKey: z.string(),
      documentName: z.string(),
      contactName: z.string(),
      expiresAt: isoDateTime.nullable(),
    }),
  ),
  /** Appointments booked with the requester's e-mail address, from now on. */
  appointments: section(
    z.object({ id: z.number().int(), title: z.string(), startsAt: isoDateTime, agentName: z.string() }),
  ),
});
export type TicketContext = z.infer<typeof ticketContextSchema>;

export const staffContextRoutes = {
  context: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/tickets/:ticketid/context',
    params: staffTicketParamsSchema,
    responses: { 200: ticketContextSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary:
      "The requester beside the ticket: contact, company, other open tickets, the company's contracts, " +
      'invoices (admins), signatures waiting, upcoming appointments',
  }),
};
