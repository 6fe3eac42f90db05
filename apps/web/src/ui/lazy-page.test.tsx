import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { act, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, NavLink, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { lazyPage, PageLoader, type PageModule } from './lazy-page';
import { renderWithProviders } from './testing';

function deferred() {
  let resolve!: (m: PageModule) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<PageModule>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A layout with a menu link and a Suspense boundary around its outlet, as the shell has. */
function setup(load: () => Promise<PageModule>) {
  const Page = lazyPage(load);
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <NavLink to="/b">B</NavLink>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </>
        ),
        errorElement: <p>failed</p>,
        children: [
          { path: 'a', element: <p>page a</p> },
          { path: 'b', element: <Page /> },
        ],
      },
    ],
    { initialEntries: ['/a'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('lazyPage', () => {
  it('commits the navigation at once with the page loader, then shows the page when its code is here', async () => {
    const code = deferred();
    const router = setup(() => code.promise);
    expect(screen.getByText('page a')).toBeTruthy();
    await act(() => router.navigate('/b'));
    // The new route is on screen (not the previous one kept by a suspended transition): the menu follows.
    expect(screen.queryByText('page a')).toBeNull();
    expect(screen.getByRole('link', { name: 'B' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    await act(async () => code.resolve({ default: () => <p>page b</p> }));
    expect(await screen.findByText('page b')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading…' })).toBeNull();
  });

  it('renders an already loaded page directly, and a failed load reaches the error boundary', async () => {
    const loaded = Promise.resolve({ default: () => <p>page b</p> });
    const router = setup(() => loaded);
    await act(() => router.navigate('/b'));
    expect(await screen.findByText('page b')).toBeTruthy();
    await act(() => router.navigate('/a'));
    await act(() => router.navigate('/b'));
    // Second visit: the code is here, so no loader in between.
    expect(screen.getByText('page b')).toBeTruthy();

    const code = deferred();
    const failing = setup(() => code.promise);
    await act(() => failing.navigate('/b'));
    await act(async () => code.reject(new Error('chunk gone')));
    expect(await screen.findByText('failed')).toBeTruthy();
  });

  it('draws a preloaded page whose code arrives between its first render and its effect', async () => {
    const code = deferred();
    const Page = lazyPage(() => code.promise, code.promise);
    /** Resolves the preload in the microtasks right after the render's task, before React's effects task. */
    function ArrivesNow() {
      queueMicrotask(() => code.resolve({ default: () => <p>page b</p> }));
      return null;
    }
    // React's own scheduling (no act()), as in the browser: render and commit, then effects in a later task.
    const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const before = env.IS_REACT_ACT_ENVIRONMENT;
    env.IS_REACT_ACT_ENVIRONMENT = false;
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    try {
      root.render(
        <MantineProvider env="test">
          <ArrivesNow />
          <Page />
        </MantineProvider>,
      );
      await waitFor(() => expect(host.textContent).toContain('page b'));
    } finally {
      root.unmount();
      host.remove();
      env.IS_REACT_ACT_ENVIRONMENT = before;
    }
  });
});
