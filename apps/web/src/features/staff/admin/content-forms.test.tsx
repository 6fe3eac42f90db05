import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContentItem } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const DOCUMENT: ContentItem = {
  kind: 'document',
  id: 8,
  title: 'Verbale collaudo',
  date: '2026-03-01T00:00:00.000Z',
  total: null,
  contactId: 11,
  taskId: null,
  file: { id: 80, name: 'verbale.pdf', contentType: 'application/pdf', size: 1024 },
};

function api() {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const m = init?.method ?? 'GET';
    const admin = '/api/staff/portals/demo/admin';
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === `${admin}/content/companies`)
      return json([{ id: 1, companyName: 'Rossi Impianti Srl' }]);
    if (u.pathname === `${admin}/content/companies/1/contacts`)
      return json([
        { contactId: 11, referentName: 'Marco Rossi', email: 'marco@example.com', hasPhone: true },
      ]);
    if (u.pathname === `${admin}/content/companies/1/items`)
      return json({ items: [DOCUMENT], nextCursor: null });
    if (u.pathname === `${admin}/content/public-files`) return json({ items: [] });
    if (u.pathname === '/api/staff/portals/demo/signature-requests' && m === 'GET')
      return json({ items: [], nextCursor: null });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

const writes = (calls: { init?: RequestInit }[]) =>
  calls.filter((c) => c.init?.method && c.init.method !== 'GET').length;

describe(
  'desk administration: the content forms check their bodies with the contracts',
  { timeout: 30_000 },
  () => {
    it('a signature request without a contact or a PDF is not sent; the contact and the name are marked', async () => {
      const calls = api();
      renderApp('/demo/staff/admin/signatures');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'New request' }));
      const form = screen.getByRole('region', { name: 'New request' });
      await user.click(within(form).getByRole('button', { name: 'Send the request' }));
      expect(
        await within(form).findByText('Choose a contact, upload the PDF and give the document a name.'),
      ).toBeTruthy();
      expect(within(form).getByRole('combobox', { name: 'Contact' }).getAttribute('aria-invalid')).toBe(
        'true',
      );
      // No file to take its name from: the name is marked too.
      expect(within(form).getAllByText('Required field')).toHaveLength(2);
      expect(writes(calls)).toBe(0);
    });

    it("a document's edit without a name or a contact is not sent; each is said at its field", async () => {
      const calls = api();
      renderApp('/demo/staff/admin/documents?company=1&kind=document');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Edit Verbale collaudo' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Verbale collaudo' });
      await user.clear(within(dialog).getByRole('textbox', { name: /Document name/ }));
      await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Contact' }), '');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('Required field')).toBeTruthy();
      expect(within(dialog).getByText('A document belongs to a contact: choose one.')).toBeTruthy();
      expect(writes(calls)).toBe(0);
    });
  },
);
