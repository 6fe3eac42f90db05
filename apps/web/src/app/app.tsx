import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useLocation, useRoutes } from 'react-router';
import { AppErrorBoundary } from './layout/app-error-boundary';
import { AppProvider, createQueryClient } from './provider';
import { routesFor } from './router';

/**
 * The routes, matched by react-router's declarative router (`BrowserRouter` + `useRoutes`): the app uses
 * none of the data router's features (loaders, actions, fetchers, blockers), whose code was 16 KB gzip of
 * the first load. Navigations are React transitions all the same (lazy-page.tsx relies on it). An error
 * while drawing a page (its code failed to load) shows AppErrorBoundary's message, until the next
 * navigation.
 */
function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routesFor(location.pathname));
  return <AppErrorBoundary resetKey={location.key}>{element}</AppErrorBoundary>;
}

/** `queryClient`: main.tsx passes the one it has already seeded with the early requests. */
export function App(props: { queryClient?: QueryClient }) {
  const [queryClient] = useState(() => props.queryClient ?? createQueryClient());
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
