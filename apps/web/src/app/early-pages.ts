/**
 * The early requests of four first pages (app/early-data.ts): a new ticket (the ticket types and, for a
 * contact who sees the wiki, its elements), the invoices (the list of any date), a document to sign and
 * a booking link (the portal's settings, the document or the link). A chunk of its own that
 * early-data.ts asks for on those addresses only: in the entry, these fetchers and their route
 * references were a kilobyte (gzip) of every page's first load (e2e/bundle.e2e.ts). Its one round trip
 * is short beside the page's own code, asked for at the same time.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { MeAnswer } from '@sportello/contracts';
import { appointmentLinkQuery, fetchAppointmentLink } from '../features/appointments/api/appointment-link';
import { fetchInvoices, invoicesQuery, openingInvoicesQuery } from '../features/billing/api/invoices';
import { fetchSigningDocument, signingDocumentQuery } from '../features/signing/api/signing-document';
import { fetchTicketTypes, ticketTypesQuery } from '../features/tickets/api/ticket-types';
import { firstThen } from '../lib/first-then';
import { fetchPortalSettings, portalSettingsQuery } from '../lib/tenant';

export type EarlyPage =
  | { kind: 'newTicket'; company: string; contactId: number; me: Promise<MeAnswer> }
  | { kind: 'invoices'; company: string; contactId: number }
  | { kind: 'signing'; company: string; documentKey: string }
  | { kind: 'booking'; company: string; eventKey: string };

/** Imported when needed: its module is part of My tickets' list chunk (vite.config.ts). */
const wikiModule = () => import('../features/tickets/api/wiki-elements');

/**
 * Starts the page's requests now; the function it gives puts them into the query cache under the keys
 * (and options) their queries use. Failures are handed to those queries: none goes unhandled.
 */
export function startPage(page: EarlyPage): (client: QueryClient) => void {
  const quiet = <T>(p: Promise<T>) => {
    p.catch(() => {});
    return p;
  };
  switch (page.kind) {
    case 'newTicket': {
      const { company, contactId, me } = page;
      const types = quiet(fetchTicketTypes(company));
      // The form draws once the picker's fate is known (new-ticket-page.tsx): asked for as soon as the
      // user says the contact sees the wiki; a contact who does not is never asked for its elements.
      const wiki = quiet(
        me.then((answer) =>
          answer.contacts.find((c) => c.contactId === contactId)?.viewContactWiki
            ? wikiModule().then((m) => m.fetchWikiElements(company, contactId))
            : [],
        ),
      );
      return (client) => {
        const typesOptions = ticketTypesQuery(company);
        void client.prefetchQuery({ ...typesOptions, queryFn: firstThen(types, typesOptions.queryFn!) });
        // Before the page's own query: its chunk needs this module too, and renders a task after it came.
        void wikiModule().then((m) => {
          const options = m.wikiElementsQuery(company, contactId);
          return client.prefetchQuery({ ...options, queryFn: firstThen(wiki, options.queryFn!) });
        });
      };
    }
    case 'invoices': {
      const { company, contactId } = page;
      const list = quiet(fetchInvoices(company, contactId, openingInvoicesQuery()));
      return (client) => {
        const options = invoicesQuery(company, contactId, openingInvoicesQuery());
        void client.prefetchQuery({ ...options, queryFn: firstThen(list, options.queryFn!) });
      };
    }
    case 'signing':
    case 'booking': {
      // Open without sign-in: the header's portal and the page's one answer.
      const { company } = page;
      const portal = quiet(fetchPortalSettings(company));
      const doc = page.kind === 'signing' ? quiet(fetchSigningDocument(company, page.documentKey)) : null;
      const link = page.kind === 'booking' ? quiet(fetchAppointmentLink(company, page.eventKey)) : null;
      return (client) => {
        const portalOptions = portalSettingsQuery(company);
        void client.prefetchQuery({ ...portalOptions, queryFn: firstThen(portal, portalOptions.queryFn!) });
        if (doc && page.kind === 'signing') {
          const options = signingDocumentQuery(company, page.documentKey);
          void client.prefetchQuery({ ...options, queryFn: firstThen(doc, options.queryFn!) });
        }
        if (link && page.kind === 'booking') {
          const options = appointmentLinkQuery(company, page.eventKey);
          void client.prefetchQuery({ ...options, queryFn: firstThen(link, options.queryFn!) });
        }
      };
    }
  }
}
