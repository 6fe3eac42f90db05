import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SigningDocument } from '@sportello/contracts';
import { renderWithProviders } from '../../ui/testing';
import SignPage from './sign-page';

const KEY = 'acme-sign-otp-7f3a9c1e5b2d4f60';
const BASE = `/acme/documents/${KEY}`;

const pending: SigningDocument = {
  documentName: 'Contratto 2027',
  signerName: 'Mario Rossi',
  companyName: 'Contoso Srl',
  webPortalName: 'ACME',
  requireOtp: true,
  hasPhone: true,
  maskedPhone: '+39 ••• ••• •567',
  status: 'pending',
  signedAt: null,
  documentUrl: '/api/files/1/c.pdf?e=1&s=x',
  contentType: 'application/pdf',
  expiresAt: null,
  otp: null,
};

type Answer = { status: number; body?: unknown };
let calls: { method: string; url: string; body?: unknown }[] = [];

function serve(handler: (method: string, url: string, body: unknown) => Answer | undefined) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, body });
      const a = handler(method, url, body) ?? { status: 404, body: { code: 'not_found', message: url } };
      return new Response(a.body === undefined ? null : JSON.stringify(a.body), {
        status: a.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/:company?/documents/:documentkey?/confirm', element: <SignPage /> },
      { path: '/:company?/documents/:documentkey?', element: <SignPage /> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('the signing page', () => {
  it('asks for every field, then a code sent to the masked phone, and reports a wrong code', async () => {
    let doc = pending;
    serve((method, url) => {
      if (method === 'GET' && url === `/api/signing/acme/${KEY}`) return { status: 200, body: doc };
      if (method === 'POST' && url.endsWith('/otp')) {
        const now = Date.now();
        const sent = {
          sentAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 600_000).toISOString(),
          resendAvailableAt: new Date(now + 60_000).toISOString(),
          maskedPhone: '+39 ••• ••• •567',
        };
        doc = { ...doc, otp: { ...sent, attemptsLeft: 5 } };
        return { status: 200, body: sent };
      }
      if (method === 'POST' && url.endsWith('/sign'))
        return { status: 400, body: { code: 'invalid_otp', message: 'Invalid OTP code', attemptsLeft: 4 } };
      return undefined;
    });
    const user = userEvent.setup();
    const router = renderAt(BASE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Contratto 2027' })).toBeTruthy();
    expect(screen.getByText('Mario Rossi')).toBeTruthy();
    expect(document.querySelector('iframe[title="Contratto 2027"]')?.getAttribute('src')).toBe(
      pending.documentUrl,
    );

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please fill in all fields')).toBeTruthy();
    await user.click(screen.getByLabelText('I have read the document and I accept it'));
    await user.type(screen.getByLabelText(/Full name/), 'Mario Rossi');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/confirm`));

    expect(await screen.findByText('We will send a 6-digit code by SMS to +39 ••• ••• •567.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/^You can request a new code in (59|60) s$/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Resend code/ }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByText('Please fill in all fields')).toBeTruthy();
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('123');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByText('Invalid code')).toBeTruthy();
    expect(calls.filter((c) => c.url.endsWith('/sign'))).toHaveLength(0);

    await user.click(screen.getByLabelText('Digit 4 of 6'));
    await user.keyboard('456');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByText('Invalid OTP code. 4 attempts left.')).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('/sign'))?.body).toEqual({
      fullName: 'Mario Rossi',
      otpCode: '123456',
      accept: true,
    });
  }, 30_000);

  it('warns that signing by code cannot proceed without a phone number', async () => {
    serve((method) =>
      method === 'GET'
        ? { status: 200, body: { ...pending, hasPhone: false, maskedPhone: null } }
        : undefined,
    );
    renderAt(BASE);
    expect(
      await screen.findByText('no phone number provided, unable to proceed with OTP signature'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' }).hasAttribute('disabled')).toBe(true);
  });

  it('signs a request without a code on acceptance and shows the signed PDF', async () => {
    let doc: SigningDocument = { ...pending, requireOtp: false };
    serve((method, url) => {
      if (method === 'GET' && url.startsWith('/api/signing/')) return { status: 200, body: doc };
      if (method === 'POST' && url.endsWith('/sign')) {
        doc = {
          ...doc,
          status: 'signed',
          signedAt: '2026-11-20T10:00:00.000Z',
          documentUrl: '/api/files/2/s.pdf?e=1&s=y',
        };
        return { status: 200, body: { signedAt: doc.signedAt, documentUrl: doc.documentUrl } };
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderAt(BASE);
    await user.click(await screen.findByLabelText('I have read the document and I accept it'));
    await user.type(screen.getByLabelText(/Full name/), 'Mario Rossi');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByText('Document signed successfully')).toBeTruthy();
    // The portal's zone (Europe/Rome by default) decides the time shown.
    expect(screen.getByText('Signed on 20/11/2026 at 11:00')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download the signed PDF' }).getAttribute('href')).toBe(
      '/api/files/2/s.pdf?e=1&s=y&download=1',
    );
  });

  it('shows the same clear page for any unknown link', async () => {
    serve(() => ({ status: 404, body: { code: 'document_not_found', message: 'x' } }));
    renderAt('/acme/documents/nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Document not available' })).toBeTruthy();
  });

  it('sends a typed /confirm address back to the review step', async () => {
    serve((method) => (method === 'GET' ? { status: 200, body: pending } : undefined));
    const router = renderAt(`${BASE}/confirm`);
    await waitFor(() => expect(router.state.location.pathname).toBe(BASE));
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
  });
});
