// Test helpers of the desk's web tests: a stubbed fetch answering by URL, and the app's real routes in
// a memory router (so the desk's addresses are checked against the contact layout's too).
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { StaffMeAnswer } from '@sportello/contracts';
import { renderWithProviders } from '../../ui/testing';
import { routes } from '../../app/router';

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
export type Call = { url: string; init?: RequestInit };

/** Replaces fetch; unanswered URLs get a 404 `{code, message}`. Returns the calls made. */
export function stubFetch(route: (url: string, init?: RequestInit) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return route(url, init) ?? json({ code: 'not_found', message: 'no' }, 404);
    }),
  );
  return calls;
}

/** An agent of portal demo (`role` as given). */
export const staffMe = (role: 'agent' | 'admin' = 'agent'): StaffMeAnswer => ({
  id: 7,
  email: 'sara@desk.example',
  displayName: 'Sara Conti',
  portals: [{ webPortalKey: 'demo', webPortalName: 'Demo', role }],
});

let router: ReturnType<typeof createMemoryRouter> | undefined;

export function renderApp(path: string) {
  router = createMemoryRouter(routes, { initialEntries: [path] });
  return renderWithProviders(<RouterProvider router={router} />);
}

/** The memory router's current address (path and query). */
export const where = () => (router ? router.state.location.pathname + router.state.location.search : '');
