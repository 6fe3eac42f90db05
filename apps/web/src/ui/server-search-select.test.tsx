import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storage } from '../lib/storage';
import { ServerSearchSelect, searchUrl } from './server-search-select';
import { renderWithProviders } from './testing';

const items = [
  { id: 7, folderName: 'Servers', name: 'NAS' },
  { id: 9, folderName: 'Printers', name: 'Laser' },
];

describe('searchUrl', () => {
  it('appends the term as filter', () => {
    expect(searchUrl('/api/acme/1/wikielements', 'nas x')).toBe('/api/acme/1/wikielements?filter=nas%20x');
    expect(searchUrl('/api/x?a=1', '')).toBe('/api/x?a=1&filter=');
  });
});

describe('ServerSearchSelect', { timeout: 20_000 }, () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    storage.set('token', 'tok-1');
    fetchMock = vi.fn(async (url: string) => {
      const term = new URL(url, 'http://x').searchParams.get('filter') ?? '';
      const found = items.filter((i) => i.name.toLowerCase().includes(term.toLowerCase()));
      return new Response(JSON.stringify(found), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    storage.set('token', null);
  });

  it('asks on mount with the bearer, then 200 ms after typing, and lists folderName - name', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <ServerSearchSelect label="Asset" url="/api/acme/1/wikielements" value={null} onChange={onChange} />,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/acme/1/wikielements?filter=');
    expect((init as RequestInit).headers).toMatchObject({ Authorization: 'Bearer tok-1' });

    await userEvent.click(screen.getByRole('button', { name: /^Asset/ }));
    expect(await screen.findByRole('option', { name: 'Servers - NAS' })).toBeTruthy();
    const search = screen.getByPlaceholderText('search among wiki items');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(search, { target: { value: 'las' } });
    act(() => vi.advanceTimersByTime(150));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(60));
    vi.useRealTimers();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenLastCalledWith('/api/acme/1/wikielements?filter=las', expect.anything()),
    );
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Servers - NAS' })).toBeNull());
    await userEvent.click(screen.getByRole('option', { name: 'Printers - Laser' }));
    expect(onChange).toHaveBeenCalledWith(items[1]);
  });

  it("says 'no item found' and clears the search", async () => {
    renderWithProviders(
      <ServerSearchSelect label="Asset" url="/api/w" value={items[0]!} onChange={() => {}} />,
    );
    expect(screen.getByRole('button', { name: /^Asset/ }).textContent).toContain('Servers - NAS');
    await userEvent.click(screen.getByRole('button', { name: /^Asset/ }));
    fireEvent.change(screen.getByPlaceholderText('search among wiki items'), {
      target: { value: 'nothing' },
    });
    expect(await screen.findByText('no item found')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect((screen.getByPlaceholderText('search among wiki items') as HTMLInputElement).value).toBe('');
    expect(await screen.findByRole('option', { name: 'Printers - Laser' })).toBeTruthy();
  });
});
