import { describe, expect, it } from 'vitest';
import { ALL_FLAGS, contact, portalSettings, user } from '../test/fixtures';
import {
  firstAllowedSection,
  landingSection,
  loginPath,
  menuItems,
  pickContact,
  switcherEntries,
} from './sections';

const none = { company: null, contactId: null };

describe('firstAllowedSection (dashboard redirect, SPEC A2 order)', () => {
  it('sends a contact with every permission to tickets', () => {
    expect(firstAllowedSection(contact(ALL_FLAGS))).toBe('tickets');
  });

  it('follows the order tickets, contracts, recurringAdvances, activityreports, wiki, estimates, invoices, documents', () => {
    expect(firstAllowedSection(contact({ viewContactDocuments: true, viewContactInvoices: true }))).toBe(
      'invoices',
    );
    expect(firstAllowedSection(contact({ viewContactDocuments: true }))).toBe('documents');
    expect(firstAllowedSection(contact({ viewContactWiki: true, viewEstimates: true }))).toBe('wiki');
    expect(firstAllowedSection(contact({ viewContactActivityReports: true, viewContactWiki: true }))).toBe(
      'activityreports',
    );
    expect(
      firstAllowedSection(contact({ viewRecurringAdvances: true, viewContactActivityReports: true })),
    ).toBe('recurringAdvances');
  });

  it('points contracts to service contracts when the portal enables them', () => {
    expect(firstAllowedSection(contact({ viewContactContracts: true, viewContactWiki: true }))).toBe(
      'activitycontracts',
    );
    expect(
      firstAllowedSection(
        contact({
          viewContactContracts: true,
          portalSettings: portalSettings({ enableServiceContracts: true }),
        }),
      ),
    ).toBe('servicecontracts');
  });

  it('does not count administrator, uploads or public files as a section', () => {
    expect(firstAllowedSection(contact({ administrator: true, uploadContactDocuments: true }))).toBeNull();
  });
});

describe('landingSection (where sign-in lands)', () => {
  it('is the first section of SPEC A2 unless the portal makes the overview the landing screen', () => {
    expect(landingSection(contact(ALL_FLAGS))).toBe('tickets');
    expect(landingSection(contact({ viewContactDocuments: true }))).toBe('documents');
    const overview = portalSettings({ overviewLanding: true });
    expect(landingSection(contact({ ...ALL_FLAGS, portalSettings: overview }))).toBe('overview');
    // Even a contact with no section at all has their overview (signatures, appointments).
    expect(landingSection(contact({ portalSettings: overview }))).toBe('overview');
  });
});

describe('menuItems (SPEC A2 menu by permission)', () => {
  it('lists everything for a contact with every permission, public files only when there are some', () => {
    expect(menuItems(contact(ALL_FLAGS), true).map((i) => i.key)).toEqual([
      'overview',
      'myTickets',
      'allTickets',
      'contracts',
      'subscriptions',
      'reports',
      'wiki',
      'estimates',
      'invoices',
      'companyFiles',
      'publicFiles',
    ]);
    expect(menuItems(contact(ALL_FLAGS), false).map((i) => i.key)).not.toContain('publicFiles');
  });

  it('shows only what the flags allow', () => {
    const items = menuItems(contact({ manageTickets: true, viewContactActivityReports: true }), false);
    expect(items).toEqual([
      { key: 'overview', section: 'overview' },
      { key: 'myTickets', section: 'tickets' },
      { key: 'reports', section: 'activityreports' },
    ]);
  });

  it('points Contracts to the portal setting, and keeps hour and unit contracts reachable', () => {
    const c = contact({
      viewContactContracts: true,
      portalSettings: portalSettings({ enableServiceContracts: true }),
    });
    // Service contracts do not replace the hour and unit (activity) contracts: both have their item.
    expect(menuItems(c, false)).toEqual([
      { key: 'overview', section: 'overview' },
      { key: 'contracts', section: 'servicecontracts' },
      { key: 'hourContracts', section: 'activitycontracts' },
    ]);
    expect(menuItems(contact({ viewContactContracts: true }), false)).toEqual([
      { key: 'overview', section: 'overview' },
      { key: 'contracts', section: 'activitycontracts' },
    ]);
  });
});

describe('pickContact (SPEC A2 layout loading)', () => {
  const a = contact({ contactId: 101 });
  const b = contact({ contactId: 102, companyName: 'Beta' });
  const other = contact({
    contactId: 101,
    companyName: 'Other',
    portalSettings: portalSettings({ webPortalKey: 'other', webPortalName: 'Other Portal' }),
  });
  const u = user([a, b, other]);

  it('keeps the URL contact when the user holds it (company case-insensitively)', () => {
    expect(pickContact(u, 'DEMO', '102', none)).toEqual({ contact: b, redirect: false });
    expect(pickContact(u, 'other', '101', none)).toEqual({ contact: other, redirect: false });
  });

  it('falls back to the remembered portal and contact, then to the first contact', () => {
    expect(pickContact(u, undefined, undefined, { company: 'demo', contactId: '102' })).toEqual({
      contact: b,
      redirect: true,
    });
    expect(pickContact(u, undefined, undefined, none)).toEqual({ contact: a, redirect: true });
    expect(pickContact(u, 'nope', '5', { company: 'other', contactId: '101' })).toEqual({
      contact: other,
      redirect: true,
    });
  });

  it('lands first on a company the user administers, when nothing is remembered', () => {
    const member = contact({ contactId: 201, companyName: 'Bottega Verdi' });
    const admin = contact({ contactId: 11, companyName: 'Rossi Impianti', administrator: true });
    const demo = user([member, admin]);
    expect(pickContact(demo, undefined, undefined, none)).toEqual({ contact: admin, redirect: true });
    expect(pickContact(demo, 'demo', undefined, none)).toEqual({ contact: admin, redirect: true });
    // What the user chose last still wins.
    expect(pickContact(demo, undefined, undefined, { company: 'demo', contactId: '201' })).toEqual({
      contact: member,
      redirect: true,
    });
  });

  it('refuses a contact of another user or another portal', () => {
    expect(pickContact(u, 'demo', '999', none)).toEqual({ contact: a, redirect: true });
    expect(pickContact(u, 'demo', 'abc', none)).toEqual({ contact: a, redirect: true });
    // A remembered pair the user no longer holds is ignored.
    expect(pickContact(u, undefined, undefined, { company: 'demo', contactId: '999' })).toEqual({
      contact: a,
      redirect: true,
    });
  });

  it('stays in the portal the URL names when only the contact is wrong', () => {
    expect(pickContact(u, 'other', undefined, { company: 'demo', contactId: '102' })).toEqual({
      contact: other,
      redirect: true,
    });
    expect(pickContact(u, 'demo', '5', { company: 'demo', contactId: '102' })).toEqual({
      contact: b,
      redirect: true,
    });
  });

  it('has nothing to pick for a user without contacts', () => {
    expect(pickContact(user([]), 'demo', '101', none)).toBeNull();
  });
});

describe('switcherEntries and loginPath', () => {
  it('lists the other contacts as "companyName portalName"', () => {
    const a = contact({ contactId: 101 });
    const b = contact({
      contactId: 201,
      companyName: 'Beta',
      portalSettings: portalSettings({ webPortalName: 'Demo Portal' }),
    });
    expect(switcherEntries(user([a, b]), a).map((e) => e.label)).toEqual(['Beta Demo Portal']);
    expect(switcherEntries(user([a]), a)).toEqual([]);
  });

  it('sends to /{company}/Login, or /Login without a company', () => {
    expect(loginPath('demo')).toBe('/demo/Login');
    expect(loginPath(undefined)).toBe('/Login');
  });
});
