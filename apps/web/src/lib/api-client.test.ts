import {
  authRoutes,
  portalRoutes,
  staffAuthRoutes,
  staffInboxRoutes,
  ticketRoutes,
} from '@sportello/contracts/route-refs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, onStaffUnauthorized, onUnauthorized, pathOf } from './api-client';
import { storage } from './storage';

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('token', null);
  storage.set('staffToken', null);
});

function stubFetch(answer: unknown, status = 200) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(answer), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('pathOf', () => {
  it("fills a contract's params, each as one encoded path segment", () => {
    expect(pathOf(ticketRoutes.detail, { company: 'a/b c', contactid: 7, ticketid: 12 })).toBe(
      '/api/a%2Fb%20c/7/tickets/12',
    );
  });

  it('refuses a missing param rather than calling a wrong URL', () => {
    expect(() => pathOf(ticketRoutes.detail, { company: 'acme', contactid: 7 } as never)).toThrow(/ticketid/);
  });
});

describe('call', () => {
  it("uses the contract's method and path, sends the token and the JSON body", async () => {
    storage.set('token', 'tok');
    const fetch = stubFetch({ id: 1 }, 201);
    await call(ticketRoutes.comment, {
      params: { company: 'acme', contactid: 7 },
      body: { taskId: 5, message: '<p>x</p>', commentType: 0, attachments: [] },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/acme/7/comments');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(JSON.parse(String(init.body))).toMatchObject({ taskId: 5 });
  });

  it('never sends the token to a public route', async () => {
    storage.set('token', 'tok');
    const fetch = stubFetch({});
    await call(portalRoutes.settings, { params: { company: 'acme' } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Settings/portals/acme');
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('writes the query and answers 204 as undefined', async () => {
    const fetch = stubFetch({});
    await call(ticketRoutes.all, {
      params: { company: 'acme', contactid: 7 },
      query: { from: '2026-01-01' },
    });
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/acme/7/tickets/all?from=2026-01-01');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(call(authRoutes.logout, {})).resolves.toBeUndefined();
  });

  it('types params and bodies from the contract', () => {
    // Compile-time checks (tsc runs over tests): each line below must be an error.
    const never = () => {
      // @ts-expect-error ticketid is required by the detail route
      void call(ticketRoutes.detail, { params: { company: 'acme', contactid: 7 } });
      // @ts-expect-error the create route needs a body
      void call(ticketRoutes.create, { params: { company: 'acme', contactid: 7 } });
      // @ts-expect-error contactid is a number
      void call(ticketRoutes.list, { params: { company: 'acme', contactid: 'x' } });
    };
    expect(typeof never).toBe('function');
  });
});

describe('staff and contact sessions', () => {
  const authOf = (fetch: ReturnType<typeof stubFetch>, i = 0) =>
    ((fetch.mock.calls[i] as unknown as [string, RequestInit])[1].headers as Record<string, string>)
      .Authorization;

  it("sends the staff token to staff routes and the contact's token to every other route", async () => {
    storage.set('token', 'contact-tok');
    storage.set('staffToken', 'staff-tok');
    const fetch = stubFetch({ items: [], counts: {}, countCap: 1, nextCursor: null });
    await call(staffInboxRoutes.list, { params: { company: 'acme' } });
    await call(ticketRoutes.list, { params: { company: 'acme', contactid: 7 } });
    expect(authOf(fetch, 0)).toBe('Bearer staff-tok');
    expect(authOf(fetch, 1)).toBe('Bearer contact-tok');
  });

  it("never sends the contact's token to a staff route when no agent is signed in", async () => {
    storage.set('token', 'contact-tok');
    const fetch = stubFetch({});
    await call(staffAuthRoutes.me, {}).catch(() => {});
    expect(authOf(fetch)).toBeUndefined();
  });

  it('a refused staff token signs the agent out and leaves the contact signed in (and the reverse)', async () => {
    storage.set('token', 'contact-tok');
    storage.set('staffToken', 'staff-tok');
    const staffOut = vi.fn();
    const contactOut = vi.fn();
    const offs = [onStaffUnauthorized(staffOut), onUnauthorized(contactOut)];
    stubFetch({ code: 'unauthorized', message: 'no' }, 401);
    await expect(call(staffAuthRoutes.me, {})).rejects.toMatchObject({ status: 401 });
    expect(storage.get('staffToken')).toBeNull();
    expect(storage.get('token')).toBe('contact-tok');
    expect([staffOut.mock.calls.length, contactOut.mock.calls.length]).toEqual([1, 0]);

    storage.set('staffToken', 'staff-tok');
    await expect(
      call(ticketRoutes.list, { params: { company: 'acme', contactid: 7 } }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(storage.get('token')).toBeNull();
    expect(storage.get('staffToken')).toBe('staff-tok');
    expect([staffOut.mock.calls.length, contactOut.mock.calls.length]).toEqual([1, 1]);
    offs.forEach((off) => off());
  });
});

describe("the drawn frame's early answers", () => {
  type Early = Record<string, { token: string; answer: Promise<Response> }>;
  const answer = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body)));

  /** A fresh api-client whose page's script asked for `early` (public/sign-in-shell.js). */
  async function withEarly(early: Early) {
    vi.useFakeTimers();
    vi.resetModules();
    (globalThis as { sportelloEarly?: Early }).sportelloEarly = early;
    try {
      const client = await import('./api-client');
      const { storage: store } = await import('./storage');
      return { ...client, store };
    } finally {
      delete (globalThis as { sportelloEarly?: Early }).sportelloEarly;
    }
  }
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the same GET with the same token once, then asks the server', async () => {
    const { call: callNow, store } = await withEarly({
      '/api/Users/me': { token: 'tok', answer: answer({ id: 1 }) },
    });
    store.set('token', 'tok');
    const fetch = stubFetch({ id: 2 });
    await expect(callNow(authRoutes.me, {})).resolves.toEqual({ id: 1 });
    expect(fetch).not.toHaveBeenCalled();
    await expect(callNow(authRoutes.me, {})).resolves.toEqual({ id: 2 });
    expect(fetch).toHaveBeenCalledTimes(1);
    store.set('token', null);
  });

  it("never hands another session's answer, nor one left after the start", async () => {
    const { call: callNow, store } = await withEarly({
      '/api/Users/me': { token: 'other', answer: answer({ id: 1 }) },
      '/api/acme/7/tickets/12': { token: 'tok', answer: answer({ id: 12 }) },
    });
    store.set('token', 'tok');
    const fetch = stubFetch({ id: 2 });
    await expect(callNow(authRoutes.me, {})).resolves.toEqual({ id: 2 });
    vi.runAllTimers();
    await expect(
      callNow(ticketRoutes.detail, { params: { company: 'acme', contactid: 7, ticketid: 12 } }),
    ).resolves.toEqual({ id: 2 });
    expect(fetch).toHaveBeenCalledTimes(2);
    store.set('token', null);
  });
});
