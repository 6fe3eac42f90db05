// Schemas of the overview area (issue 16): one screen gathering, by permission, what needs the contact.
import { z } from 'zod';
import { isoDateTime, tenantParams } from './common';
import { defineRoute } from './route';
import { localizedNamesSchema } from './tickets';

/** At most this many items per section; `total` says how many there are. */
export const OVERVIEW_SECTION_LIMIT = 5;

export const overviewTicketSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  ticketNumber: z.string(),
  internalAnnualProgressive: z.number().int(),
  stepName: z.string(),
  /** The step's name per language, when given (tickets.ts localizedNamesSchema). */
  stepNames: localizedNamesSchema,
  lastActivityAt: isoDateTime,
});
export type OverviewTicket = z.infer<typeof overviewTicketSchema>;

const section = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ total: z.number().int(), items: z.array(item) });

/** An hour bank: an activity contract counted in hours, still valid, and the minutes it has left. */
export const overviewHourBankSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  end: isoDateTime.nullable(),
  hoursAmount: z.number(),
  /** Negative when overdrawn. */
  residualMinutes: z.number().int(),
});
export type OverviewHourBank = z.infer<typeof overviewHourBankSchema>;

/** A document the contact is asked to sign; `documentKey` opens `/{company}/documents/{documentKey}`. */
export const overviewSignatureSchema = z.object({
  documentKey: z.string(),
  documentName: z.string(),
  expiresAt: isoDateTime.nullable(),
});

/** An appointment booked with the user's e-mail, not cancelled, still to come. */
export const overviewAppointmentSchema = z.object({
  title: z.string(),
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  agentName: z.string(),
});

export const overviewInvoiceSchema = z.object({
  id: z.number().int(),
  documentNumber: z.string(),
  total: z.number(),
  invoiceDate: isoDateTime,
});

/**
 * `GET /api/{company}/{contactid}/overview`. A section is null when the contact lacks its permission:
 * tickets (`manageTickets`, or `administrator` for the whole company's), hour banks
 * (`viewContactContracts`), invoices (`viewContactInvoices`). Signatures and appointments are the
 * contact's and the user's own.
 */
export const overviewSchema = z.object({
  waitingTickets: section(overviewTicketSchema).nullable(),
  openTickets: section(overviewTicketSchema).nullable(),
  hourBanks: section(overviewHourBankSchema).nullable(),
  signatures: section(overviewSignatureSchema),
  appointments: section(overviewAppointmentSchema),
  invoices: section(overviewInvoiceSchema).nullable(),
});
export type Overview = z.infer<typeof overviewSchema>;

export const overviewRoutes = {
  overview: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/overview',
    params: tenantParams,
    responses: { 200: overviewSchema },
    access: { guard: 'tenant' },
    tags: ['overview'],
    summary: 'What needs the contact, by permission, in one answer',
    description:
      'Tickets waiting for the customer and open tickets (own, or the company’s for administrators), hour ' +
      'banks, documents waiting for a signature, upcoming appointments, latest invoices.',
  }),
};
