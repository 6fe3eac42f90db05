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
 * (app/early-pages.ts, a chunk of its own asked for here) start here too.
 *
 * On the staff desk's inbox with a staff session, the desk's code and texts start here instead of after
 * the first render, the inbox's data (the agent, the portal's settings, the view's first page) as soon as
 * that code is here (features/staff/desk-start.ts), and what the inbox does not need waits for its list
 * as on My tickets (lib/first-content). On a desk ticket likewise, its page and data instead of the
 * inbox's (desk-start.ts), and the rest after its conversation.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { MeAnswer, Overview, TicketListItem } from '@sportello/contracts';
import type { EarlyPage } from './early-pages';
import { fetchMyTickets, myTicketsQuery, openingMyTicketsQuery } from '../features/tickets/api/my-tickets';
import { fetchTicket, ticketQuery } from '../features/tickets/api/ticket-detail';
import { fetchOverview, overviewQuery } from '../features/overview/api/overview';
import { loadStaffInboxTexts } from '../features/staff/i18n';
import { holdForContent } from '../lib/first-content';
import { warmUpIntl } from '../lib/intl-warmup';
import { storage } from '../lib/storage';
import { firstThen } from '../lib/first-then';
import { fetchMe, meQuery, portalSettingsQuery } from '../lib/tenant';

/** Paths of the standalone pages (router.tsx): everything else with a token is the layout. */
const STANDALONE = /^\/(appointments|tasks|confirm)(\/|$)|^\/([^/]+\/)?(login|privacy|documents)(\/|$)/i;
/**
 * The desk's inbox, `/:company/staff` (its views are in the query), and its tickets,
 * `/:company/staff/tickets/:ticketid`, not its other pages.
 */
export const DESK_EARLY = /^\/[^/]+\/staff(\/tickets\/\d+)?\/?$/i;
/** `/:company/:contactid/tickets`, matched as react-router does: any case, optional trailing slash. */
const MY_TICKETS = /^\/([^/]+)\/(\d+)\/tickets\/?$/i;
/** `/:company/:contactid/tickets/:ticketid`, a ticket opened from a link (an e-mail's, a notification's). */
const TICKET = /^\/([^/]+)\/(\d+)\/tickets\/(\d+)\/?$/i;
/** `/:company/:contactid/overview`, the overview. */
const OVERVIEW = /^\/([^/]+)\/(\d+)\/overview\/?$/i;
/** `/:company/login`, the portal's sign-in. */
const LOGIN = /^\/([^/]+)\/login\/?$/i;
/** `/:company/:contactid/tickets/new` (the new ticket's form) and `/:company/:contactid/invoices`. */
const NEW_TICKET_OR_INVOICES = /^\/([^/]+)\/(\d+)\/(tickets\/new|invoices)\/?$/i;
/** `/:company/documents/:documentkey` and its `/confirm` step: a document to sign, without sign-in. */
const SIGNING = /^\/([^/]+)\/documents\/([^/]+)(\/confirm)?\/?$/i;
/** `/appointments/:company/:eventkey`: a booking link, without sign-in (not its cancellation). */
const BOOKING = /^\/appointments\/(?!cancellation\/)([^/]+)\/(?!cancellation\/?$)([^/]+)\/?$/i;

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
  /**
   * On a new ticket, the invoices, a document to sign or a booking link: their requests, started once
   * their module is here (app/early-pages.ts), and what puts them into the cache.
   */
  pageRequests: Promise<(client: QueryClient) => void> | null;
  /**
   * On the desk's inbox: its code with its texts (router.tsx draws its layout and inbox from them, and
   * main.tsx's first render waits for them), and the portal of the address (`seedEarlyData`; the desk's
   * code reads the view or the ticket from the address, still this one as it comes).
   */
  desk: {
    ready: Promise<typeof import('../features/staff/staff-area')>;
    company: string;
  } | null;
}

/** The early requests of a new ticket, the invoices, a document to sign or a booking link. */
const startPage = (page: EarlyPage) => import('./early-pages').then((m) => m.startPage(page));

function start(): Early {
  const none: Early = {
    me: null,
    myTickets: null,
    ticketsPage: null,
    ticket: null,
    overview: null,
    firstPage: null,
    loginCompany: null,
    pageRequests: null,
    desk: null,
  };
  if (typeof window === 'undefined') return none;
  const path = window.location.pathname;
  if (DESK_EARLY.test(path) && storage.get('staffToken')) {
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
      desk: { ready, company: decode(path.split('/')[1]!) ?? '' },
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
  if (publicCompany && publicKey) {
    // Open without sign-in: the header's portal, the page's one answer and its code leave now. Nothing
    // else waits for the content here (the frame's language picker is part of the page's header).
    return {
      ...none,
      firstPage: sign ? 'signing' : 'booking',
      pageRequests: startPage(
        sign
          ? { kind: 'signing', company: publicCompany, documentKey: publicKey }
          : { kind: 'booking', company: publicCompany, eventKey: publicKey },
      ),
    };
  }
  if (!storage.get('token')) return none;
  if (STANDALONE.test(path)) return none;
  const t = TICKET.exec(path);
  const o = t ? null : OVERVIEW.exec(path);
  const p = t || o ? null : NEW_TICKET_OR_INVOICES.exec(path);
  const kind = p && (p[3]!.length > 8 ? 'newTicket' : 'invoices');
  const me = fetchMe();
  const early: Early = { ...none, me, firstPage: t ? 'ticket' : o ? 'overview' : kind };
  /**
   * The remembered portal and contact when the address names them (the layout redirects otherwise). The
   * remembered spelling is the server's own (the layout stores the portal key it answered).
   */
  const remembered = (m: RegExpExecArray) => {
    const company = storage.get('company');
    const contactId = Number(m[2]);
    return company &&
      company.toLowerCase() === decode(m[1]!)?.toLowerCase() &&
      String(contactId) === storage.get('contactId')
      ? { company, contactId }
      : null;
  };
  if (p) {
    // The form or the list comes first: the header's menus, the editor or the period's calendar and the
    // rest wait for it (the page says when it shows).
    holdForContent();
    const r = remembered(p);
    if (r)
      early.pageRequests = startPage(kind === 'newTicket' ? { kind, ...r, me } : { kind: 'invoices', ...r });
    return early;
  }
  if (o) {
    // Its cards come first: the header's menus and the rest wait for them.
    holdForContent();
    const r = remembered(o);
    if (r) early.overview = { ...r, data: fetchOverview(r.company, r.contactId) };
    return early;
  }
  if (t) {
    // The conversation comes first: the header's menus and the rest wait for it (the page says when it
    // shows, then the reply's editor loads too).
    holdForContent();
    const r = remembered(t);
    const ticketId = Number(t[3]);
    if (r && Number.isSafeInteger(ticketId))
      early.ticket = { ...r, ticketId, detail: fetchTicket(r.company, r.contactId, ticketId) };
    return early;
  }
  const m = MY_TICKETS.exec(path);
  if (!m) return early;
  // The list comes first: the header's menus, the filters' dropdowns and the rest wait for it.
  holdForContent();
  const r = remembered(m);
  if (r) early.myTickets = { ...r, list: fetchMyTickets(r.company, r.contactId, openingMyTicketsQuery()) };
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
  early.pageRequests,
])
  p?.catch(() => {});

/**
 * What the first render waits for besides the texts: on the desk's inbox or a ticket, its code (or its
 * failure, which the page then shows). Rendered before it, the app drew a loader, then the layout again
 * once the code came, and the desk's requests left only after that first render (most of a second of a
 * slow phone's CPU after the code was here); now they leave as the code comes, and the layout is drawn
 * once.
 */
export const beforeFirstRender: Promise<unknown> = early.desk?.ready.catch(() => {}) ?? Promise.resolve();

/** Puts the early requests into the cache under the keys (and options) their queries use. */
export function seedEarlyData(client: QueryClient): void {
  if (early.desk?.company) {
    const { ready, company } = early.desk;
    // The desk's own query options come with its code: its requests leave as that code arrives.
    ready.then((m) => m.startDeskRequests(client, company)).catch(() => {});
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
  // Its module is here long before the page's code (router.tsx's first page waits for it too).
  if (early.pageRequests) void early.pageRequests.then((seed) => seed(client)).catch(() => {});
  if (early.myTickets) {
    const { company, contactId, list } = early.myTickets;
    const options = myTicketsQuery(company, contactId, openingMyTicketsQuery());
    void client.prefetchQuery({ ...options, queryFn: firstThen(list, options.queryFn!) });
  }
}
