import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../../app/provider';
import { routes } from '../../app/router';
import { afterLoginPath } from './login-page';
import { checkNewPassword } from '../../ui/new-password-fields';
import { fitPrivacyHtml } from './privacy-page';
import { contact, portalSettings, user } from '../../test/fixtures';
import { applyLanguage } from '../../i18n';

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let posted: { url: string; body: unknown }[] = [];
function serve(answer: (url: string, body: unknown) => Response | undefined) {
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      if (init?.method === 'POST') posted.push({ url: String(input), body });
      return answer(String(input), body) ?? json(404, { code: 'not_found', message: 'x' });
    }),
  );
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

async function fillLogin(userName: string, password: string) {
  fireEvent.change(await screen.findByLabelText(/Nome utente o e-mail/), { target: { value: userName } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Accedi' }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('login page', () => {
  it("keeps the logo's place empty until the portal's settings say which logo, never drawing another first", async () => {
    let answer: (r: Response) => void = () => {};
    const settings = new Promise<Response>((r) => (answer = r));
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string) =>
        input === '/api/Settings/portals/demo'
          ? settings
          : Promise.resolve(json(404, { code: 'x', message: 'x' })),
      ),
    );
    renderAt('/demo/Login');
    const header = await screen.findByTestId('auth-header');
    expect(header.querySelector('img')).toBeNull();
    expect(screen.getByTestId('logo-pending')).toBeTruthy();
    answer(
      json(200, portalSettings({ logoUrl: '/api/files/7/logo.png', webPortalName: 'Rossi Assistenza' })),
    );
    await waitFor(() =>
      expect(header.querySelector('img')?.getAttribute('src')).toBe('/api/files/7/logo.png'),
    );
    expect(header.textContent).toContain('Rossi Assistenza');
  });

  it('shows the A8 message on wrong credentials and keeps no token', async () => {
    serve((url) =>
      url === '/api/auth/login'
        ? json(401, { code: 'wrong_credentials', message: 'Wrong username or password' })
        : undefined,
    );
    renderAt('/demo/Login');
    await fillLogin('demo', 'nope');
    expect((await screen.findByRole('alert')).textContent).toContain('Nome utente o password errati');
    expect(localStorage.getItem('token')).toBeNull();
    expect(posted[0]?.body).toEqual({ userName: 'demo', password: 'nope', remember: false });
  });

  it('explains throttling on 429', async () => {
    serve((url) =>
      url === '/api/auth/login' ? json(429, { code: 'too_many_attempts', message: 'x' }) : undefined,
    );
    renderAt('/demo/Login');
    await fillLogin('demo', 'nope');
    expect((await screen.findByRole('alert')).textContent).toContain('Troppi tentativi');
  });

  it('does not call the server with an empty field', async () => {
    serve(() => undefined);
    renderAt('/demo/Login');
    await fillLogin('', '');
    expect(await screen.findAllByText('Campo obbligatorio')).toHaveLength(2);
    expect(posted).toEqual([]);
  });

  it('stores the token and goes back to the refused deep link', async () => {
    serve((url) => {
      if (url === '/api/auth/login') return json(200, { token: 'tok', expiresAt: '2026-11-20T22:00:00Z' });
      if (url === '/api/Users/me') return json(200, user([contact({ viewContactInvoices: true })]));
      if (url.endsWith('/publicfiles')) return json(200, []);
      return undefined;
    });
    const router = createMemoryRouter(routes, {
      initialEntries: [{ pathname: '/demo/Login', state: { from: '/demo/101/invoices' } }],
    });
    render(
      <AppProvider queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    await fillLogin('demo', 'secret');
    // Not "remember me": the token lives as long as the browser session.
    await waitFor(() => expect(sessionStorage.getItem('token')).toBe('tok'));
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/demo/101/invoices'), { timeout: 5000 });
  });

  it('takes over the sign-in the server drew: what was typed and submitted there, then removes it', async () => {
    // The drawn page as the server sends it (app/sign-in-shell.ts), typed into and submitted meanwhile.
    const drawn = document.createElement('div');
    drawn.id = 'sign-in-shell';
    drawn.innerHTML =
      '<form data-sign-in-shell-form data-submitted><input name="username" value="demo">' +
      '<input name="password" type="password" value="secret"><input name="remember" type="checkbox" checked></form>';
    document.body.appendChild(drawn);
    (drawn.querySelector('input[name=password]') as HTMLInputElement).focus();
    serve((url) => {
      if (url === '/api/Settings/portals/demo') return json(200, portalSettings());
      if (url === '/api/auth/login') return json(200, { token: 'tok', expiresAt: '2026-11-20T22:00:00Z' });
      if (url === '/api/Users/me') return json(200, user([contact()]));
      return undefined;
    });
    renderAt('/demo/login');
    await waitFor(() => expect(document.getElementById('sign-in-shell')).toBeNull());
    await waitFor(() =>
      expect(posted).toEqual([
        { url: '/api/auth/login', body: { userName: 'demo', password: 'secret', remember: true } },
      ]),
    );
    // Remembered, as ticked on the drawn form.
    await waitFor(() => expect(localStorage.getItem('token')).toBe('tok'));
  });

  it('applies the language the user chose in the profile when they sign in on a new device', async () => {
    serve((url) => {
      if (url === '/api/auth/login') return json(200, { token: 'tok', expiresAt: '2026-11-20T22:00:00Z' });
      if (url === '/api/Users/me')
        return json(200, user([contact({ viewContactInvoices: true })], { language: 'es-ES' }));
      if (url.endsWith('/publicfiles')) return json(200, []);
      return undefined;
    });
    // A new device: nothing stored, the screen in the portal's language.
    expect(localStorage.getItem('language')).toBeNull();
    renderAt('/demo/Login');
    await fillLogin('demo', 'secret');
    try {
      await waitFor(() => expect(document.documentElement.lang).toBe('es-ES'));
      // Remembered on this device: the next visit starts in it before anyone signs in.
      expect(localStorage.getItem('language')).toBe('es-ES');
    } finally {
      applyLanguage('it-IT', { remember: false });
    }
  }, 15_000);

  it('asks for the second factor after the password, and remembers the session when asked', async () => {
    const challenge = { ticket: 'tk', methods: ['totp', 'recovery'], expiresAt: '2026-11-20T10:05:00Z' };
    serve((url) => {
      if (url === '/api/auth/login') return json(200, { secondFactor: challenge });
      if (url === '/api/auth/login/second-factor')
        return json(200, { token: 'two', expiresAt: '2026-12-20T10:00:00Z' });
      if (url === '/api/Users/me') return json(200, user([contact({ viewContactInvoices: true })]));
      return undefined;
    });
    renderAt('/demo/Login');
    fireEvent.click(await screen.findByRole('checkbox', { name: /Ricordami/ }));
    await fillLogin('demo', 'secret');
    const code = await screen.findByLabelText(/^Codice/);
    expect(localStorage.getItem('token')).toBeNull();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifica' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBe('two'));
    expect(posted).toEqual([
      { url: '/api/auth/login', body: { userName: 'demo', password: 'secret', remember: true } },
      { url: '/api/auth/login/second-factor', body: { ticket: 'tk', code: '123456' } },
    ]);
  });

  it('asks for a recovery link and answers neutrally', async () => {
    serve((url) => (url === '/api/auth/recovery' ? json(202, { status: 'sent' }) : undefined));
    renderAt('/demo/Login');
    fireEvent.click(await screen.findByRole('link', { name: 'Password dimenticata?' }));
    fireEvent.change(await screen.findByLabelText(/Nome utente o e-mail/), { target: { value: 'someone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invia' }));
    expect((await screen.findByRole('status')).textContent).toContain('Se il nome utente');
    expect(posted).toEqual([
      { url: '/api/auth/recovery', body: { userName: 'someone', company: 'demo', language: 'it-IT' } },
    ]);
  });
});

describe('confirm page', () => {
  it('checks the link, refuses different passwords before calling the server, then signs in', async () => {
    serve((url) => {
      if (url === '/api/auth/links/abc') return json(200, { purpose: 'invite', userName: 'mario' });
      if (url === '/api/auth/confirm') return json(200, { token: 'new', expiresAt: '2026-11-20T22:00:00Z' });
      return undefined;
    });
    const router = renderAt('/confirm?token=abc&company=demo');
    expect(await screen.findByRole('heading', { level: 1, name: 'Imposta la password' })).toBeTruthy();
    fireEvent.change(await screen.findByLabelText(/^Nuova password/), { target: { value: 'long-enough-1' } });
    fireEvent.change(screen.getByLabelText(/^Ripeti la password/), { target: { value: 'long-enough-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Conferma' }));
    expect(await screen.findByText('Controlla le password inserite')).toBeTruthy();
    expect(posted).toEqual([]);
    fireEvent.change(screen.getByLabelText(/^Ripeti la password/), { target: { value: 'long-enough-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Conferma' }));
    await waitFor(() => expect(sessionStorage.getItem('token')).toBe('new'));
    expect(posted[0]?.body).toEqual({
      token: 'abc',
      password: 'long-enough-1',
      passwordRepeat: 'long-enough-1',
    });
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/confirm'));
  });

  it('says when the link has expired', async () => {
    serve((url) =>
      url === '/api/auth/links/old' ? json(410, { code: 'link_expired', message: 'x' }) : undefined,
    );
    renderAt('/confirm?token=old');
    expect((await screen.findByRole('alert')).textContent).toContain('scaduto');
  });
});

describe('auth rules', () => {
  it('checks length and equality of a new password', () => {
    expect(checkNewPassword('short', 'short')).toEqual({ password: 'auth.passwordTooShort' });
    expect(checkNewPassword('long-enough-1', 'long-enough-2')).toEqual({ repeat: 'auth.passwordsDiffer' });
    expect(checkNewPassword('long-enough-1', 'long-enough-1')).toEqual({});
  });

  it('counts a password as the server does (an emoji is one character)', () => {
    // 9 characters, 10 UTF-16 units: the server refuses it, so the form must too.
    expect(checkNewPassword('12345678😀', '12345678😀')).toEqual({ password: 'auth.passwordTooShort' });
    expect(checkNewPassword('123456789😀', '123456789😀')).toEqual({});
  });

  it('returns only to an internal, non-login path after sign-in', () => {
    expect(afterLoginPath('/demo/101/invoices', 'demo')).toBe('/demo/101/invoices');
    expect(afterLoginPath('//evil.example', 'demo')).toBe('/demo');
    expect(afterLoginPath('https://evil.example', 'demo')).toBe('/demo');
    expect(afterLoginPath('/demo/Login', 'demo')).toBe('/demo');
    expect(afterLoginPath(undefined, undefined)).toBe('/');
  });
});

describe('privacy page', () => {
  it('keeps one h1: the terms’ own title becomes the page title and their headings move down', () => {
    const fitted = fitPrivacyHtml(
      '<h1>Informativa</h1><p>Testo</p><h2 style="color: red">Diritti</h2><h1>Altro</h1>',
    );
    expect(fitted.title).toBe('Informativa');
    expect(fitted.body).toBe('<p>Testo</p><h3 style="color: red">Diritti</h3><h2>Altro</h2>');
    expect(fitPrivacyHtml('<p>Solo testo</p>')).toEqual({ title: null, body: '<p>Solo testo</p>' });
  });

  it('shows the portal terms sanitised, with one h1', async () => {
    serve((url) =>
      url === '/api/settings/demo/privacy'
        ? json(200, { html: '<h1>Informativa</h1><p>Dati <img src="x" onerror="alert(1)">trattati</p>' })
        : undefined,
    );
    renderAt('/demo/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Informativa' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(await screen.findByText(/Dati/)).toBeTruthy();
    expect(document.querySelector('[onerror]')).toBeNull();
  });
});
