import type { MeAnswer, MeContact } from '@sportello/contracts';

/** A route under the layout and who may open it (SPEC A2 menu, A6 flags). */
export type Section =
  | 'overview'
  | 'tickets'
  | 'alltickets'
  | 'activitycontracts'
  | 'servicecontracts'
  | 'recurringAdvances'
  | 'activityreports'
  | 'wiki'
  | 'estimates'
  | 'invoices'
  | 'documents'
  | 'publicfiles';

type Rule = (c: MeContact) => boolean;

/** The flag each layout section needs; the server refuses the same calls (B1). */
export const SECTION_RULES: Record<Section, Rule> = {
  // Every contact has something there (their signatures, their appointments); the server fills the rest by flag.
  overview: () => true,
  tickets: (c) => c.manageTickets,
  alltickets: (c) => c.administrator,
  activitycontracts: (c) => c.viewContactContracts,
  servicecontracts: (c) => c.viewContactContracts,
  recurringAdvances: (c) => c.viewRecurringAdvances,
  activityreports: (c) => c.viewContactActivityReports,
  wiki: (c) => c.viewContactWiki,
  estimates: (c) => c.viewEstimates,
  invoices: (c) => c.viewContactInvoices,
  documents: (c) => c.viewContactDocuments,
  // Depends only on the list being non-empty (A6): the page itself says when there is nothing.
  publicfiles: () => true,
};

/** An administrator may open any ticket of the company from the all-tickets list (B1). */
export const canOpenTicket: Rule = (c) => c.manageTickets || c.administrator;

/** Contracts point to service contracts when the portal says so, else activity contracts (A2). */
export const contractsSection = (c: MeContact): Section =>
  c.portalSettings.enableServiceContracts ? 'servicecontracts' : 'activitycontracts';

/**
 * Where sign-in lands: the overview when the portal's setting says so (issue 16), else the first section
 * the contact may see (SPEC A2).
 */
export function landingSection(c: MeContact): Section | null {
  return c.portalSettings.overviewLanding ? 'overview' : firstAllowedSection(c);
}

/**
 * The dashboard's target: the first section the contact may see, in the order of SPEC A2
 * (tickets, contracts, recurringAdvances, activityreports, wiki, estimates, invoices, documents); null if none.
 */
export function firstAllowedSection(c: MeContact): Section | null {
  const order: Section[] = [
    'tickets',
    contractsSection(c),
    'recurringAdvances',
    'activityreports',
    'wiki',
    'estimates',
    'invoices',
    'documents',
  ];
  return order.find((s) => SECTION_RULES[s](c)) ?? null;
}

export type MenuKey =
  | 'overview'
  | 'myTickets'
  | 'allTickets'
  | 'contracts'
  | 'hourContracts'
  | 'subscriptions'
  | 'reports'
  | 'wiki'
  | 'estimates'
  | 'invoices'
  | 'companyFiles'
  | 'publicFiles';

export interface MenuItem {
  key: MenuKey;
  section: Section;
}

/**
 * The menu of SPEC A2, in its order, filtered by permission; public files only when the list has items.
 * The overview (issue 16) comes first.
 */
export function menuItems(c: MeContact, hasPublicFiles: boolean): MenuItem[] {
  const all: (MenuItem & { show: boolean })[] = [
    { key: 'overview', section: 'overview', show: true },
    { key: 'myTickets', section: 'tickets', show: c.manageTickets },
    { key: 'allTickets', section: 'alltickets', show: c.administrator },
    { key: 'contracts', section: contractsSection(c), show: c.viewContactContracts },
    // With service contracts on, Contracts opens those: hour and unit contracts keep an item of their own.
    {
      key: 'hourContracts',
      section: 'activitycontracts',
      show: c.viewContactContracts && c.portalSettings.enableServiceContracts,
    },
    { key: 'subscriptions', section: 'recurringAdvances', show: c.viewRecurringAdvances },
    { key: 'reports', section: 'activityreports', show: c.viewContactActivityReports },
    { key: 'wiki', section: 'wiki', show: c.viewContactWiki },
    { key: 'estimates', section: 'estimates', show: c.viewEstimates },
    { key: 'invoices', section: 'invoices', show: c.viewContactInvoices },
    { key: 'companyFiles', section: 'documents', show: c.viewContactDocuments },
    { key: 'publicFiles', section: 'publicfiles', show: hasPublicFiles },
  ];
  return all.filter((i) => i.show).map(({ key, section }) => ({ key, section }));
}

export interface Remembered {
  company: string | null;
  contactId: string | null;
}

export interface ContactChoice {
  contact: MeContact;
  /** True when the URL did not name this contact exactly: the layout redirects to `/{company}/{contactId}`. */
  redirect: boolean;
}

const sameKey = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();
const sameId = (a: string | null | undefined, b: number) => !!a && /^\d+$/.test(a) && Number(a) === b;

/**
 * SPEC A2 layout loading: the URL's company and contact when the user holds them; otherwise the remembered
 * pair, then the first contact administering its company (the one the user runs: `demo` landed on the
 * company they only belong to, first by name), then the first contact. When the URL names a portal the
 * user belongs to but no valid contact of it, the choice stays inside that portal, so `/{company}` keeps
 * the user where the address says.
 */
export function pickContact(
  user: MeAnswer,
  company: string | undefined,
  contactId: string | undefined,
  remembered: Remembered,
): ContactChoice | null {
  const exact = user.contacts.find(
    (c) => sameKey(company, c.portalSettings.webPortalKey) && sameId(contactId, c.contactId),
  );
  if (exact) return { contact: exact, redirect: false };
  const inPortal = user.contacts.filter((c) => sameKey(company, c.portalSettings.webPortalKey));
  const pool = inPortal.length > 0 ? inPortal : user.contacts;
  const fallback =
    pool.find(
      (c) =>
        sameKey(remembered.company, c.portalSettings.webPortalKey) &&
        sameId(remembered.contactId, c.contactId),
    ) ??
    pool.find((c) => c.administrator) ??
    pool[0];
  return fallback ? { contact: fallback, redirect: true } : null;
}

export const contactPath = (c: MeContact) =>
  `/${encodeURIComponent(c.portalSettings.webPortalKey)}/${c.contactId}`;

/** SPEC A2 guard target: `/{company}/Login`, or `/Login` without a company. */
export const loginPath = (company: string | null | undefined) =>
  company ? `/${encodeURIComponent(company)}/Login` : '/Login';

/** Company switcher entries: every other contact, as 'companyName portalName' (A2). */
export function switcherEntries(user: MeAnswer, current: MeContact): { contact: MeContact; label: string }[] {
  return user.contacts
    .filter(
      (c) =>
        c !== current &&
        !(
          c.contactId === current.contactId &&
          sameKey(c.portalSettings.webPortalKey, current.portalSettings.webPortalKey)
        ),
    )
    .map((c) => ({ contact: c, label: `${c.companyName} ${c.portalSettings.webPortalName}` }));
}
