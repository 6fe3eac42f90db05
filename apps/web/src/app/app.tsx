import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProvider, createQueryClient } from './provider';
import { routes } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
