// The portal's tags in the Contracts section (issue 14): add, edit, remove, and a tag still used by
// service contracts is kept, said in words.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tag } from '@sportello/contracts';
import { storage } from '../../../../lib/storage';
import { portalSettings } from '../../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch, type Call } from '../../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

function api() {
  storage.set('staffToken', 'staff-token');
  let tags: Tag[] = [
    { id: 1, name: 'Server', tagGroupName: 'Asset' },
    { id: 2, name: 'Rete', tagGroupName: '' },
  ];
  const calls = stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const m = init?.method ?? 'GET';
    const admin = '/api/staff/portals/demo/admin';
    const body = () => JSON.parse(String(init!.body)) as Partial<Tag>;
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === `${admin}/company-picker`) return json({ items: [] });
    if (u.pathname === '/api/settings/demo/tags') return json(tags);
    if (u.pathname === `${admin}/tags` && m === 'POST') {
      const made = { id: 3, name: body().name!, tagGroupName: body().tagGroupName ?? '' };
      tags = [...tags, made];
      return json(made, 201);
    }
    if (u.pathname === `${admin}/tags/2` && m === 'PATCH') {
      tags = tags.map((g) => (g.id === 2 ? { ...g, ...body(), tagGroupName: body().tagGroupName ?? '' } : g));
      return json(tags.find((g) => g.id === 2));
    }
    if (u.pathname === `${admin}/tags/1` && m === 'DELETE')
      return json({ code: 'entity_in_use', message: 'Tag 1 is named by 1 service contract(s)' }, 409);
    if (u.pathname === `${admin}/tags/3` && m === 'DELETE') {
      tags = tags.filter((g) => g.id !== 3);
      return new Response(null, { status: 204 });
    }
    return undefined;
  });
  return calls;
}

const sent = (calls: Call[], method: string, path: string) =>
  calls
    .filter((c) => c.init?.method === method && new URL(c.url, 'http://x').pathname === path)
    .map((c) => (c.init?.body ? JSON.parse(String(c.init.body)) : null));

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe("the portal's tags in Contracts", { timeout: 30_000 }, () => {
  it('adds a tag with its group, renames one, and removes one after a confirmation', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/contracts');
    const user = userEvent.setup();
    const panel = await screen.findByTestId('tags-panel');
    await within(panel).findByText('Server');
    expect(within(panel).getAllByTestId('tag-row')).toHaveLength(2);

    const form = within(panel).getByTestId('tag-new');
    await user.click(within(form).getByRole('textbox', { name: /^New tag/ }));
    await user.paste('Stampanti');
    await user.click(within(form).getByRole('textbox', { name: 'Group' }));
    await user.paste('Asset');
    await user.click(within(form).getByRole('button', { name: 'Add tag' }));
    await within(panel).findByText('Stampanti');
    expect(sent(calls, 'POST', '/api/staff/portals/demo/admin/tags')).toEqual([
      { name: 'Stampanti', tagGroupName: 'Asset' },
    ]);
    // The form is empty again for the next one.
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: /^New tag/ }).value).toBe('');

    await user.click(within(panel).getByRole('button', { name: 'Edit the tag Rete' }));
    const edit = within(panel).getByTestId('tag-edit');
    const name = within(edit).getByRole<HTMLInputElement>('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.click(name);
    await user.paste('Rete LAN');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await within(panel).findByText('Rete LAN');
    expect(sent(calls, 'PATCH', '/api/staff/portals/demo/admin/tags/2')).toEqual([
      { name: 'Rete LAN', tagGroupName: null },
    ]);

    await user.click(within(panel).getByRole('button', { name: 'Delete the tag Stampanti' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the tag Stampanti' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(panel).queryByText('Stampanti')).toBeNull());
  });

  it('says in words that a tag used by service contracts is kept, and refuses a blank name first', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/contracts');
    const user = userEvent.setup();
    const panel = await screen.findByTestId('tags-panel');
    await within(panel).findByText('Server');

    await user.click(within(panel).getByRole('button', { name: 'Add tag' }));
    await within(panel).findByText('Write a name (at most 500 characters).');
    expect(sent(calls, 'POST', '/api/staff/portals/demo/admin/tags')).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Delete the tag Server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the tag Server' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The tag "Server" is used by service contracts: take it off those contracts first.',
    );
    expect(within(panel).getByText('Server')).toBeTruthy();
  });
});
