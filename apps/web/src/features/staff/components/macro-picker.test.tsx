// The macro picker (issue 28 item 6): searching asks the server, the arrow keys and Enter choose, the
// chosen macro comes filled for the ticket, and the changes it will make can be dropped one by one.
import { useState } from 'react';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MacroActions, MacroList, RenderedMacro, StaffOptions } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { renderWithProviders } from '../../../ui/testing';
import { json, stubFetch } from '../desk-test-kit';
import { loadStaffTexts } from '../i18n';
import { MacroActionsBar, MacroPicker } from './macro-picker';

configure({ asyncUtilTimeout: 8000 });

const macro = (id: number, name: string, shared: boolean) => ({
  id,
  name,
  shared,
  editable: !shared,
  texts: { 'it-IT': `<p>${name}</p>` },
  actions: {},
  updatedAt: '2026-11-18T09:30:00Z',
});
const ALL: MacroList = {
  items: [macro(1, 'Chiusura', true), macro(2, 'Grazie', false), macro(3, 'Reset password', true)],
  more: false,
};
const OPTIONS: StaffOptions = {
  steps: [{ id: 4, name: 'Closed', taskStatus: 2, isDefault: false, isClosing: true }],
  types: [],
  groups: [{ id: 1, name: 'Helpdesk' }],
  agents: [{ id: 2, displayName: 'Sara Conti', staffUserId: 7 }],
  ticketTags: [],
  lowRatingThreshold: 2,
  me: { staffUserId: 7, agentId: 2, groupIds: [1] },
};

function Harness({ onPick }: { onPick: (m: RenderedMacro) => void }) {
  const [opened, setOpened] = useState(true);
  const [actions, setActions] = useState<MacroActions>({});
  return (
    <>
      <MacroPicker
        company="demo"
        ticketId={5}
        opened={opened}
        onClose={() => setOpened(false)}
        onPick={(m) => {
          onPick(m);
          setActions(m.actions);
        }}
      />
      <MacroActionsBar
        actions={actions}
        options={OPTIONS}
        onRemove={(key) => setActions(({ [key]: _, ...rest }) => rest)}
      />
      <output data-testid="kept">{JSON.stringify(actions)}</output>
    </>
  );
}

beforeAll(async () => {
  await loadStaffTexts();
});
afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('the macro picker', { timeout: 30_000 }, () => {
  it('searches, picks with the keyboard and shows the changes it brings, each removable', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = stubFetch((url) => {
      const u = new URL(url, 'http://x');
      if (u.pathname === '/api/staff/portals/demo/macros') {
        const q = (u.searchParams.get('q') ?? '').toLowerCase();
        return json({ ...ALL, items: ALL.items.filter((m) => m.name.toLowerCase().includes(q)) });
      }
      if (u.pathname === '/api/staff/portals/demo/tickets/5/macros/3')
        return json({
          id: 3,
          name: 'Reset password',
          language: 'en-EN',
          text: '<p>Hi Anna, your password is reset.</p>',
          actions: { stepId: 4, priority: 'low', assigneeId: null },
        } satisfies RenderedMacro);
      return undefined;
    });
    const picked: RenderedMacro[] = [];
    renderWithProviders(<Harness onPick={(m) => picked.push(m)} />);
    const user = userEvent.setup();
    const search = await screen.findByRole('combobox', { name: 'Search macros' });
    expect(await screen.findAllByRole('option')).toHaveLength(3);

    await user.type(search, 'pass');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    expect(calls.some((c) => new URL(c.url, 'http://x').searchParams.get('q') === 'pass')).toBe(true);
    await user.keyboard('{ArrowDown}{Enter}');

    await waitFor(() => expect(picked).toHaveLength(1));
    expect(picked[0]!.text).toBe('<p>Hi Anna, your password is reset.</p>');
    // The dialog closed; the changes are shown in words, and one can be dropped.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Set status to Closed')).toBeTruthy();
    expect(screen.getByText('Unassign')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Do not apply: Set priority to Low' }));
    expect(JSON.parse(screen.getByTestId('kept').textContent!)).toEqual({ stepId: 4, assigneeId: null });
  });

  it('says so when nothing matches', async () => {
    storage.set('staffToken', 'staff-token');
    stubFetch((url) =>
      new URL(url, 'http://x').pathname === '/api/staff/portals/demo/macros'
        ? json({ items: [], more: false })
        : undefined,
    );
    renderWithProviders(<Harness onPick={() => undefined} />);
    await userEvent.setup().type(await screen.findByRole('combobox', { name: 'Search macros' }), 'zzz');
    expect(await screen.findByText('No macro has this in its name.')).toBeTruthy();
  });
});
