import './styles/mantine-first-paint.css';
import '../i18n';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import {
  createTheme,
  DEFAULT_THEME,
  MantineProvider,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  brandPalette,
  isUnsetBaseColor,
  parseColor,
  readablePrimaryShade,
  useActivePortal,
} from '../lib/branding';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: false },
    },
  });
}

/**
 * The theme of one portal: the primary colour is generated from the portal base colour, and its shade is
 * the lightest that keeps 4.5:1 against white (Mantine's default blue-6 is 3.55:1, an axe failure).
 */
export function buildTheme(baseColor: string | null | undefined) {
  const parsed = isUnsetBaseColor(baseColor) ? null : parseColor(baseColor!);
  const palette = (parsed
    ? brandPalette(parsed)
    : [...DEFAULT_THEME.colors.blue]) as unknown as MantineColorsTuple;
  return createTheme({
    colors: { brand: palette },
    primaryColor: 'brand',
    primaryShade: { light: readablePrimaryShade(palette), dark: 8 },
    // Filled badges and buttons in light colours get dark text instead of white.
    autoContrast: true,
    defaultRadius: 'sm',
    cursorType: 'pointer',
    // Users who ask the system for less motion get no transitions.
    respectReducedMotion: true,
  });
}

/** Mantine's dimmed (gray-6) and error (red-6) texts are about 3.3:1 on white; darker shades pass AA. */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
  },
  dark: {},
});

/**
 * The toast container comes after the first paint: `notifications.show` only needs the store, and toasts
 * queued before the container mounts still appear.
 */
const Notifications = lazy(() => import('./notifications').then((m) => ({ default: m.Notifications })));

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const portal = useActivePortal();
  const baseColor = portal?.baseColor ?? null;
  const theme = useMemo(() => buildTheme(baseColor), [baseColor]);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Suspense fallback={null}>
          <Notifications position="top-right" />
        </Suspense>
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
