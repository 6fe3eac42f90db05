// Test-only helper: renders a widget or page inside the providers the app gives it.
import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { afterEach } from 'vitest';
import { applyLanguage, type Language } from '../i18n';

// The project runs without vitest globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

export function renderWithProviders(ui: ReactElement, { language = 'en-EN' }: { language?: Language } = {}) {
  applyLanguage(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MantineProvider env="test">{children}</MantineProvider>
    </QueryClientProvider>
  );
  return { client, ...render(ui, { wrapper: Wrapper }) };
}
