import { Suspense } from 'react';
import { act, screen } from '@testing-library/react';
import { createMemoryRouter, NavLink, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../ui/testing';
import { PageLoader } from './layout/spinners';
import { lazyPage, type PageModule } from './lazy-page';

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
});
