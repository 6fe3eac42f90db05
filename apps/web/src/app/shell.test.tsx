import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeAnswer, PortalSettings } from '@sportello/contracts';
import { ALL_FLAGS, contact, portalSettings, user } from '../test/fixtures';
import { AppProvider, createQueryClient } from './provider';
import { routes } from './router';

type Handler = (url: string, init?: RequestInit) => { status: number; body?: unknown } | undefined;

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: string[] = [];
function serve(handler: Handler) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      const answer = handler(url, init);
      if (!answer) return json(404, { code: 'not_found', message: url });
      return json(answer.status, answer.body);
    }),
  );
}

/** The demo user's API: me, portal settings, public files and an empty tickets list. */
function serveUser(me: MeAnswer, publicFiles: unknown[] = []) {
  serve((url) => {
    if (url === '/api/Users/me') return { status: 200, body: me };
    if (/^\/api\/Settings\/portals\//.test(url)) return { status: 200, body: me.contacts[0]?.portalSettings };
    if (/\/publicfiles$/.test(url)) return { status: 200, body: publicFiles };
    if (/\/tickets$/.test(url)) return { status: 200, body: [] };
    return undefined;
  });
}

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

const h1 = (name: RegExp | string) => screen.findByRole('heading', { level: 1, name }, { timeout: 5000 });
/** Other engineers own the pages: the shell tests look at the address and the shell, not at page content. */
const at = (router: ReturnType<typeof renderAt>, pathname: string) =>
  waitFor(() => expect(router.state.location.pathname).toBe(pathname), { timeout: 5000 });

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('navigation guard (SPEC A2)', () => {
  it('sends a deep link without a token to /{company}/Login', async () => {
    serve((url) =>
      url.startsWith('/api/Settings/portals/') ? { status: 200, body: portalSettings() } : undefined,
    );
    const router = renderAt('/demo/101/tickets');
    await h1('Accesso');
    expect(router.state.location.pathname).toBe('/demo/Login');
    expect(calls).not.toContain('GET /api/Users/me');
  });

  it('sends to /Login when no company is given', async () => {
    serve(() => undefined);
    const router = renderAt('/');
    await h1('Accesso');
    expect(router.state.location.pathname).toBe('/Login');
  });

  it('treats a failing current-user call as signed out and drops the token', async () => {
    localStorage.setItem('token', 'stale');
    serve((url) =>
      url === '/api/Users/me' ? { status: 401, body: { code: 'invalid_token', message: 'x' } } : undefined,
    );
    const router = renderAt('/demo/101/tickets');
    await h1('Accesso');
    expect(router.state.location.pathname).toBe('/demo/Login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('asks an expired session to sign in again in a dialog, over the page it leaves in place', async () => {
    localStorage.setItem('token', 'old');
    const me = user([contact({ ...ALL_FLAGS })]);
    let expired = false;
    serve((url, init) => {
      if (url === '/api/auth/login' && init?.method === 'POST')
        return { status: 200, body: { token: 'new', expiresAt: '2099-01-01T00:00:00Z' } };
      if (expired && !url.startsWith('/api/Settings/')) {
        const auth = (init?.headers as Record<string, string> | undefined)?.Authorization;
        if (auth !== 'Bearer new') return { status: 401, body: { code: 'invalid_token', message: 'x' } };
      }
      if (url === '/api/Users/me') return { status: 200, body: me };
      if (/^\/api\/Settings\/portals\//.test(url))
        return { status: 200, body: me.contacts[0]?.portalSettings };
      if (/\/publicfiles$/.test(url)) return { status: 200, body: [] };
      if (/\/tickets(\/unread)?$/.test(url))
        return { status: 200, body: url.endsWith('unread') ? { ticketIds: [] } : [] };
      if (/\/overview$/.test(url)) {
        const none = { total: 0, items: [] };
        return {
          status: 200,
          body: {
            signatures: none,
            appointments: none,
            waitingTickets: null,
            openTickets: null,
            hourBanks: null,
            invoices: null,
          },
        };
      }
      return undefined;
    });
    const router = renderAt('/demo/101/tickets');
    await at(router, '/demo/101/tickets');
    await screen.findByRole('navigation', { name: 'Menu principale' });
    expired = true;
    // Any call answered 401 (here: opening the overview) opens the dialog instead of leaving the page.
    router.navigate('/demo/101/overview');
    const dialog = await screen.findByRole('dialog', { name: 'La sessione è scaduta' });
    expect(router.state.location.pathname).toBe('/demo/101/overview');
    const password = within(dialog).getByLabelText(/Password/);
    fireEvent.change(password, { target: { value: 'Correct-Horse-9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accedi' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(localStorage.getItem('token')).toBe('new');
    expect(router.state.location.pathname).toBe('/demo/101/overview');
  }, 20_000);

  it('matches the login route in any case', async () => {
    serve(() => undefined);
    renderAt('/demo/LOGIN');
    await h1('Accesso');
  });
});

describe('layout loading and dashboard', () => {
  it('redirects an administrator from the dashboard to tickets and remembers the contact', async () => {
    localStorage.setItem('token', 't');
    serveUser(user([contact({ ...ALL_FLAGS })]));
    const router = renderAt('/demo/101');
    await at(router, '/demo/101/tickets');
    expect(localStorage.getItem('company')).toBe('demo');
    expect(localStorage.getItem('contactId')).toBe('101');
  });

  it('refuses my tickets without manageTickets and goes to the first allowed section', async () => {
    localStorage.setItem('token', 't');
    serveUser(user([contact({ viewContactInvoices: true, viewContactDocuments: true })]));
    const router = renderAt('/demo/101/tickets');
    await at(router, '/demo/101/invoices');
    // …and says why, where it lands.
    expect((await screen.findByTestId('hidden-section-notice')).textContent).toContain(
      'La sezione richiesta non è disponibile per il tuo profilo',
    );
  });

  it('says nothing of a section when the address named none', async () => {
    localStorage.setItem('token', 't');
    serveUser(user([contact({ ...ALL_FLAGS })]));
    const router = renderAt('/demo/101');
    await at(router, '/demo/101/tickets');
    await screen.findByRole('navigation', { name: 'Menu principale' });
    expect(screen.queryByTestId('hidden-section-notice')).toBeNull();
  });

  it('refuses a list route without its flag', async () => {
    localStorage.setItem('token', 't');
    serveUser(user([contact({ manageTickets: true })]));
    const router = renderAt('/demo/101/invoices');
    await at(router, '/demo/101/tickets');
  });

  it('replaces a contact the user does not hold with the remembered one', async () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('company', 'demo');
    localStorage.setItem('contactId', '102');
    serveUser(
      user([
        contact({ contactId: 101, manageTickets: true }),
        contact({ contactId: 102, companyName: 'Beta', viewContactWiki: true }),
      ]),
    );
    const router = renderAt('/demo/999/tickets');
    await at(router, '/demo/102/wiki');
  });

  it('shows the full-screen spinner until the portal has settled', async () => {
    localStorage.setItem('token', 't');
    serveUser(user([contact({ ...ALL_FLAGS })]));
    renderAt('/demo/101/tickets');
    expect(screen.getByTestId('full-screen-spinner')).toBeTruthy();
    await screen.findByTestId('app-header');
    expect(screen.getByTestId('full-screen-spinner')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('full-screen-spinner')).toBeNull());
  });
});

describe('header and menu', () => {
  const withColour = (baseColor: string | null, extra: Partial<PortalSettings> = {}) =>
    user([contact({ ...ALL_FLAGS, portalSettings: portalSettings({ baseColor, ...extra }) })]);

  it('paints the header with the portal base colour and readable text', async () => {
    localStorage.setItem('token', 't');
    serveUser(withColour('#ffd43b'));
    renderAt('/demo/101/tickets');
    const header = await screen.findByTestId('app-header');
    expect(header.style.background).toBe('rgb(255, 212, 59)');
    expect(header.style.color).toBe('rgb(0, 0, 0)');
  });

  it('uses #202124 for the unset sentinel', async () => {
    localStorage.setItem('token', 't');
    serveUser(withColour('hsl(123,0%,0%)'));
    renderAt('/demo/101/tickets');
    const header = await screen.findByTestId('app-header');
    expect(header.style.background).toBe('rgb(32, 33, 36)');
    expect(header.style.color).toBe('rgb(255, 255, 255)');
  });

  it('lists the menu by permission, marks the current page and adds public files only when there are some', async () => {
    localStorage.setItem('token', 't');
    serveUser(user([contact({ manageTickets: true, viewContactActivityReports: true })]), [
      { id: 1, fileName: 'a.pdf', url: '/x', contentType: 'application/pdf' },
    ]);
    renderAt('/demo/101/tickets/5');
    const nav = await screen.findByRole('navigation', { name: 'Menu principale' });
    await waitFor(() => expect(within(nav).getAllByRole('link')).toHaveLength(4));
    const names = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(names).toEqual(['Panoramica', 'I miei ticket', 'Rapportini', 'Documenti pubblici']);
    expect(within(nav).getByRole('link', { name: 'I miei ticket' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('injects the portal CSS as text and removes it with the layout', async () => {
    localStorage.setItem('token', 't');
    const css = '.x{color:red}</style><script>window.hacked=1</script>';
    serveUser(withColour(null, { customCss: css }));
    renderAt('/demo/101/tickets');
    await screen.findByTestId('app-header');
    const style = document.head.querySelector('style[data-portal-css]');
    expect(style?.textContent).toBe(css);
    expect(document.head.querySelector('script')).toBeNull();
    cleanup();
    expect(document.head.querySelector('style[data-portal-css]')).toBeNull();
  });
});
