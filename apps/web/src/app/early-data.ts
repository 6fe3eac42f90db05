/**
 * Requests started at the top of the entry, before the app's modules are evaluated and the first render
 * (together most of a second of a slow phone's CPU): the signed-in user on any page of the layout, and
 * on My tickets, where a contact lands, that list and the page's code; on a ticket and on the overview,
 * their answer and their page's code (`firstPage`). main.tsx hands them to the query
 * cache (`seedEarlyData`), so the queries asking for the same data find it there or on its way instead
 * of starting after the layout has rendered.
 *
 * Only what the app already keeps is read: the token, and the company and contact remembered from the
 * last visit. The list is fetched only when the address names that same contact, so a link to another
 * contact (which the layout would redirect) costs nothing.
 *
 * On a new ticket, the invoices, a document to sign and a booking link, their page's code and its data
 * (the ticket types and wiki elements; the invoices; the portal and the document or link) start here too.
 *
 * On the staff desk's inbox with a staff session, the desk's code and texts start here instead of after
 * the first render, the inbox's data (the agent, the portal's settings, the view's first page) as soon as
 * that code is here (features/staff/desk-start.ts), and what the inbox does not need waits for its list
 * as on My tickets (lib/first-content).
 */
import type { QueryClient, QueryFunction, QueryKey } from '@tanstack/react-query';
import type { Invoice, MeAnswer, Overview, TicketListItem } from '@sportello/contracts';
import { fetchInvoices, invoicesQuery, openingInvoicesQuery } from '../features/billing/api/invoices';
import { appointmentLinkQuery, fetchAppointmentLink } from '../features/appointments/api/appointment-link';
import { fetchSigningDocument, signingDocumentQuery } from '../features/signing/api/signing-document';
import { fetchTicketTypes, ticketTypesQuery } from '../features/tickets/api/ticket-types';
import type { fetchWikiElements } from '../features/tickets/api/wiki-elements';
import { fetchMyTickets, myTicketsQuery, openingMyTicketsQuery } from '../features/tickets/api/my-tickets';
import { fetchTicket, ticketQuery } from '../features/tickets/api/ticket-detail';
import { fetchOverview, overviewQuery } from '../features/overview/api/overview';
import { loadStaffInboxTexts } from '../features/staff/i18n';
import { holdForContent } from '../lib/first-content';
import { warmUpIntl } from '../lib/intl-warmup';
import { storage } from '../lib/storage';
import { fetchMe, fetchPortalSettings, meQuery, portalSettingsQuery } from '../lib/tenant';

/** Paths of the standalone pages (router.tsx): everything else with a token is the layout. */
const STANDALONE = /^\/(appointments|tasks|confirm)(\/|$)|^\/([^/]+\/)?(login|privacy|documents)(\/|$)/i;
/** The desk's inbox, `/:company/staff` (its views are in the query), not its other pages. */
export const DESK_INBOX = /^\/[^/]+\/staff\/?$/i;
/** `/:company/:contactid/tickets`, matched as react-router does: any case, optional trailing slash. */
const MY_TICKETS = /^\/([^/]+)\/(\d+)\/tickets\/?$/i;
/** `/:company/:contactid/tickets/:ticketid`, a ticket opened from a link (an e-mail's, a notification's). */
const TICKET = /^\/([^/]+)\/(\d+)\/tickets\/(\d+)\/?$/i;
/** `/:company/:contactid/overview`, the overview. */
const OVERVIEW = /^\/([^/]+)\/(\d+)\/overview\/?$/i;
/** `/:company/login`, the portal's sign-in. */
const LOGIN = /^\/([^/]+)\/login\/?$/i;
/** `/:company/:contactid/tickets/new`, the new ticket's form. */
const NEW_TICKET = /^\/([^/]+)\/(\d+)\/tickets\/new\/?$/i;
/** `/:company/:contactid/invoices`. */
const INVOICES = /^\/([^/]+)\/(\d+)\/invoices\/?$/i;
/** `/:company/documents/:documentkey` and its `/confirm` step: a document to sign, without sign-in. */
const SIGNING = /^\/([^/]+)\/documents\/([^/]+)(\/confirm)?\/?$/i;
/** `/appointments/:company/:eventkey`: a booking link, without sign-in (not its cancellation). */
const BOOKING = /^\/appointments\/([^/]+)\/([^/]+)\/?$/i;

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

interface Early {
  me: Promise<MeAnswer> | null;
  myTickets: { company: string; contactId: number; list: Promise<TicketListItem[]> } | null;
  /** The My tickets page module (router.tsx renders it without a loading step once it is here). */
  ticketsPage: Promise<typeof import('../features/tickets/tickets-page')> | null;
  /** On a ticket: the ticket with its conversation, when the address names the remembered contact. */
  ticket: {
    company: string;
    contactId: number;
    ticketId: number;
    detail: ReturnType<typeof fetchTicket>;
  } | null;
  /** On the overview: its one answer, when the address names the remembered contact. */
  overview: { company: string; contactId: number; data: Promise<Overview> } | null;
  /**
   * The first page is this one (router.tsx then asks for its code, texts and styles as it is evaluated,
   * not once the first render has run: the entry holds each page's import once, in router.tsx).
   */
  firstPage: 'ticket' | 'overview' | 'login' | 'newTicket' | 'invoices' | 'signing' | 'booking' | null;
  /** On the portal's sign-in: its portal (the header's name and logo, the page's largest text). */
  loginCompany: string | null;
  /** On a new ticket: the portal's ticket types and, for a contact who sees the wiki, its elements. */
  newTicket: {
    company: string;
    contactId: number;
    types: Promise<Awaited<ReturnType<typeof fetchTicketTypes>>>;
    /** None when the contact may not see the wiki: never asked for then (the page does not read it). */
    wiki: Promise<Awaited<ReturnType<typeof fetchWikiElements>>>;
  } | null;
  /** On the invoices: the list of any date (the page's opening filters). */
  invoices: { company: string; contactId: number; list: Promise<Invoice[]> } | null;
  /** On a document to sign or a booking link: the portal of the address (the header) and the page's data. */
  publicPage: {
    company: string;
    portal: Promise<Awaited<ReturnType<typeof fetchPortalSettings>>>;
    signing: { documentKey: string; doc: ReturnType<typeof fetchSigningDocument> } | null;
    booking: { eventKey: string; link: ReturnType<typeof fetchAppointmentLink> } | null;
  } | null;
  /**
   * On the desk's inbox: its code with its texts (router.tsx draws its layout and inbox from them, and
   * main.tsx's first render waits for them), and the portal and view of the address (`seedEarlyData`).
   */
  desk: {
    ready: Promise<typeof import('../features/staff/staff-area')>;
    company: string;
    search: string;
  } | null;
}

const wikiModule = () => import('../features/tickets/api/wiki-elements');

function start(): Early {
  const none: Early = {
    me: null,
    myTickets: null,
    ticketsPage: null,
    ticket: null,
    overview: null,
    firstPage: null,
    loginCompany: null,
    newTicket: null,
    invoices: null,
    publicPage: null,
    desk: null,
  };
  if (typeof window === 'undefined') return none;
  const path = window.location.pathname;
  if (DESK_INBOX.test(path) && storage.get('staffToken')) {
    // The desk's layout and inbox, with their texts (router.tsx), start now rather than after the first
    // render, and the inbox's data as soon as that code is here (seedEarlyData); what the inbox does not
    // need waits for its list.
    holdForContent();
    const ready = Promise.all([import('../features/staff/staff-area'), loadStaffInboxTexts()]).then(
      ([m]) => m,
    );
    // The rows' date and number formatting data, on another thread while these load.
    warmUpIntl();
    return {
      ...none,
      desk: { ready, company: decode(path.split('/')[1]!) ?? '', search: window.location.search },
    };
  }
  const login = LOGIN.exec(path);
  if (login)
    // Its header waits for the portal's settings: they leave now, with the page's code.
    return { ...none, loginCompany: decode(login[1]!), firstPage: 'login' };
  const sign = SIGNING.exec(path);
  const book = sign ? null : BOOKING.exec(path);
  const publicCompany = decode((sign ?? book)?.[1] ?? '');
  const publicKey = decode((sign ?? book)?.[2] ?? '');
  const isCancellation = [publicCompany, publicKey].some((x) => x?.toLowerCase() === 'cancellation');
  if (publicCompany && publicKey && (sign || !isCancellation)) {
    // Open without sign-in: the header's portal, the page's one answer and its code leave now. Nothing
    // else waits for the content here (the frame's language picker is part of the page's header).
    return {
      ...none,
      firstPage: sign ? 'signing' : 'booking',
      publicPage: {
        company: publicCompany,
        portal: fetchPortalSettings(publicCompany),
        signing: sign
          ? { documentKey: publicKey, doc: fetchSigningDocument(publicCompany, publicKey) }
          : null,
        booking: book ? { eventKey: publicKey, link: fetchAppointmentLink(publicCompany, publicKey) } : null,
      },
    };
  }
  if (!storage.get('token')) return none;
  if (STANDALONE.test(path)) return none;
  const t = TICKET.exec(path);
  const o = t ? null : OVERVIEW.exec(path);
  const n = t || o ? null : NEW_TICKET.exec(path);
  const inv = t || o || n ? null : INVOICES.exec(path);
  const me = fetchMe();
  const early: Early = {
    ...none,
    me,
    firstPage: t ? 'ticket' : o ? 'overview' : n ? 'newTicket' : inv ? 'invoices' : null,
  };
  /** The remembered portal and contact when the address names them (the layout redirects otherwise). */
  const remembered = (m: RegExpExecArray) => {
    const company = storage.get('company');
    const contactId = Number(m[2]);
    return company &&
      company.toLowerCase() === decode(m[1]!)?.toLowerCase() &&
      String(contactId) === storage.get('contactId')
      ? { company, contactId }
      : null;
  };
  if (n) {
    // The form comes first: the header's menus, the editor and the rest wait for it (the page says when
    // it shows). The wiki's picker shows only for a contact who sees the wiki and whose company has
    // elements: asked for as soon as the user says so, so that the form draws once, with or without it.
    holdForContent();
    const r = remembered(n);
    if (r)
      early.newTicket = {
        ...r,
        types: fetchTicketTypes(r.company),
        // Imported here, not at the top: its module is part of My tickets' list chunk (vite.config.ts),
        // which would otherwise join every page's first load.
        wiki: me.then((answer) =>
          answer.contacts.find((c) => c.contactId === r.contactId)?.viewContactWiki
            ? wikiModule().then((m) => m.fetchWikiElements(r.company, r.contactId))
            : [],
        ),
      };
    return early;
  }
  if (inv) {
    // The list comes first: the header's menus and the period's calendar wait for it.
    holdForContent();
    const r = remembered(inv);
    if (r) early.invoices = { ...r, list: fetchInvoices(r.company, r.contactId, openingInvoicesQuery()) };
    return early;
  }
  if (o) {
    // Its cards come first: the header's menus and the rest wait for them.
    holdForContent();
    const company = storage.get('company');
    const contactId = Number(o[2]);
    if (
      company &&
      company.toLowerCase() === decode(o[1]!)?.toLowerCase() &&
      String(contactId) === storage.get('contactId')
    )
      early.overview = { company, contactId, data: fetchOverview(company, contactId) };
    return early;
  }
  if (t) {
    // The conversation comes first: the header's menus and the rest wait for it (the page says when it
    // shows, then the reply's editor loads too).
    holdForContent();
    const company = storage.get('company');
    const contactId = Number(t[2]);
    const ticketId = Number(t[3]);
    if (
      company &&
      company.toLowerCase() === decode(t[1]!)?.toLowerCase() &&
      String(contactId) === storage.get('contactId') &&
      Number.isSafeInteger(ticketId)
    )
      early.ticket = { company, contactId, ticketId, detail: fetchTicket(company, contactId, ticketId) };
    return early;
  }
  const m = MY_TICKETS.exec(path);
  if (!m) return early;
  // The list comes first: the header's menus, the filters' dropdowns and the rest wait for it.
  holdForContent();
  // The remembered spelling is the server's own (the layout stores the portal key it answered).
  const company = storage.get('company');
  const contactId = Number(m[2]);
  if (
    company &&
    company.toLowerCase() === decode(m[1]!)?.toLowerCase() &&
    String(contactId) === storage.get('contactId')
  )
    early.myTickets = {
      company,
      contactId,
      list: fetchMyTickets(company, contactId, openingMyTicketsQuery()),
    };
  // After the API calls: the page's chunks take most of the browser's six connections.
  early.ticketsPage = import('../features/tickets/tickets-page');
  return early;
}

export const early = start();
// Failures are handed to the queries (and the page's lazy import) that use these: none goes unhandled.
for (const p of [
  early.me,
  early.myTickets?.list,
  early.ticketsPage,
  early.ticket?.detail,
  early.overview?.data,
  early.desk?.ready,
  early.newTicket?.types,
  early.newTicket?.wiki,
  early.invoices?.list,
  early.publicPage?.portal,
  early.publicPage?.signing?.doc,
  early.publicPage?.booking?.link,
])
  p?.catch(() => {});

/**
 * What the first render waits for besides the texts: on the desk's inbox, its code (or its failure,
 * which the page then shows). Rendered before it, the app drew a loader, then the layout again once the
 * code came, and the desk's requests left only after that first render (most of a second of a slow
 * phone's CPU after the code was here); now they leave as the code comes, and the layout is drawn once.
 */
export const beforeFirstRender: Promise<unknown> = early.desk?.ready.catch(() => {}) ?? Promise.resolve();

/**
 * The query runs its own fetcher from the second call on (a retry, a refetch): only the first is the
 * early request.
 */
function firstThen<T, K extends QueryKey>(
  promise: Promise<T>,
  queryFn: QueryFunction<T, K>,
): QueryFunction<T, K> {
  let first: Promise<T> | null = promise;
  return (ctx) => {
    if (!first) return queryFn(ctx);
    const p = first;
    first = null;
    return p;
  };
}

/** Puts the early requests into the cache under the keys (and options) their queries use. */
export function seedEarlyData(client: QueryClient): void {
  if (early.desk?.company) {
    const { ready, company, search } = early.desk;
    // The desk's own query options come with its code: its requests leave as that code arrives.
    ready.then((m) => m.startDeskRequests(client, company, search)).catch(() => {});
  }
  if (early.me) {
    const options = meQuery();
    void client.prefetchQuery({ ...options, queryFn: firstThen(early.me, options.queryFn!) });
  }
  if (early.loginCompany) void client.prefetchQuery(portalSettingsQuery(early.loginCompany));
  if (early.ticket) {
    const { company, contactId, ticketId, detail } = early.ticket;
    const options = ticketQuery(company, contactId, ticketId);
    void client.prefetchQuery({
      ...options,
      queryFn: firstThen(detail, options.queryFn!),
    });
  }
  if (early.overview) {
    const { company, contactId, data } = early.overview;
    const options = overviewQuery(company, contactId);
    void client.prefetchQuery({ ...options, queryFn: firstThen(data, options.queryFn!) });
  }
  if (early.newTicket) {
    const { company, contactId, types, wiki } = early.newTicket;
    const typesOptions = ticketTypesQuery(company);
    void client.prefetchQuery({ ...typesOptions, queryFn: firstThen(types, typesOptions.queryFn!) });
    // Before the page's own query: its chunk needs this module too, and renders a task after it came.
    void wikiModule().then((m) => {
      const wikiOptions = m.wikiElementsQuery(company, contactId);
      return client.prefetchQuery({ ...wikiOptions, queryFn: firstThen(wiki, wikiOptions.queryFn!) });
    });
  }
  if (early.invoices) {
    const { company, contactId, list } = early.invoices;
    const options = invoicesQuery(company, contactId, openingInvoicesQuery());
    void client.prefetchQuery({ ...options, queryFn: firstThen(list, options.queryFn!) });
  }
  if (early.publicPage) {
    const { company, portal, signing, booking } = early.publicPage;
    const portalOptions = portalSettingsQuery(company);
    void client.prefetchQuery({ ...portalOptions, queryFn: firstThen(portal, portalOptions.queryFn!) });
    if (signing) {
      const options = signingDocumentQuery(company, signing.documentKey);
      void client.prefetchQuery({ ...options, queryFn: firstThen(signing.doc, options.queryFn!) });
    }
    if (booking) {
      const options = appointmentLinkQuery(company, booking.eventKey);
      void client.prefetchQuery({ ...options, queryFn: firstThen(booking.link, options.queryFn!) });
    }
  }
  if (early.myTickets) {
    const { company, contactId, list } = early.myTickets;
    const options = myTicketsQuery(company, contactId, openingMyTicketsQuery());
    void client.prefetchQuery({ ...options, queryFn: firstThen(list, options.queryFn!) });
  }
}
