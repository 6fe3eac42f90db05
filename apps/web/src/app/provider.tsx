import '../styles/mantine-first-paint.css';
import '../styles/dark.css';
import '../i18n';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import {
  createTheme,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  localStorageColorSchemeManager,
  MantineProvider,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { isUnsetBaseColor } from '@sportello/contracts';
import {
  brandPalette,
  BLACK_TEXT_LUMINANCE,
  parseColor,
  readableDarkLightShade,
  readableDarkShade,
  readablePrimaryShade,
  useActivePortal,
} from '../lib/branding';
import { importAfterContent } from '../lib/first-content';

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
/**
 * Filled red (remove someone, cancel a booking) is always white on red-9 (5.4:1). Mantine would paint it
 * in the portal's primary shade (6 to 9) with black or white words by luminance, 4.65:1 on the demo's
 * colour: near enough to the line that axe failed the removal dialog once in a full journey run.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled' || input.color !== 'red') return colors;
  return {
    ...colors,
    background: 'var(--mantine-color-red-9)',
    hover: 'color-mix(in srgb, var(--mantine-color-red-9), black 15%)',
    color: 'var(--mantine-color-white)',
  };
};

export function buildTheme(baseColor: string | null | undefined) {
  const parsed = isUnsetBaseColor(baseColor) ? null : parseColor(baseColor!);
  const palette = (parsed
    ? brandPalette(parsed)
    : [...DEFAULT_THEME.colors.blue]) as unknown as MantineColorsTuple;
  return createTheme({
    colors: { brand: palette },
    primaryColor: 'brand',
    // The shade white text and a white page both read; filled buttons keep it on dark too (white text
    // still reads), while text, links and outlines on dark take readableDarkShade (cssVariablesResolver).
    primaryShade: { light: readablePrimaryShade(palette), dark: readablePrimaryShade(palette) },
    // Filled badges and buttons in light colours get black text instead of white, where it contrasts more.
    autoContrast: true,
    luminanceThreshold: BLACK_TEXT_LUMINANCE,
    variantColorResolver,
    defaultRadius: 'sm',
    cursorType: 'pointer',
    // Users who ask the system for less motion get no transitions.
    respectReducedMotion: true,
  });
}

/**
 * Mantine's dimmed (gray-6) and error (red-6) texts are about 3.3:1 on white; darker shades pass AA. On
 * dark, dimmed (dark-2) is about 4:1, and links take the shade the dark surfaces read (readableDarkShade).
 */
const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const palette = theme.colors[theme.primaryColor] ?? DEFAULT_THEME.colors.blue;
  const dark = readableDarkShade(palette);
  const brand = (shade: number) => `var(--mantine-color-${theme.primaryColor}-${shade})`;
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
      '--mantine-color-error': 'var(--mantine-color-red-9)',
      '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    },
    dark: {
      '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
      '--mantine-color-error': 'var(--mantine-color-red-4)',
      '--mantine-color-placeholder': 'var(--mantine-color-dark-2)',
      // Pages write secondary text as gray-7 / gray-8 (AA on white): on dark they read as the light greys.
      '--mantine-color-gray-7': 'var(--mantine-color-dark-1)',
      '--mantine-color-gray-8': 'var(--mantine-color-dark-0)',
      // Red-8 is the red text and outlines of the pages (AA on white); on dark the light red reads.
      '--mantine-color-red-8': 'var(--mantine-color-red-4)',
      // Links and outlines in the portal colour: the shade the dark surfaces read; light variants' words
      // the shade that reads on those surfaces and on the variant's own darker background too.
      '--mantine-color-anchor': brand(dark),
      [`--mantine-color-${theme.primaryColor}-text`]: brand(dark),
      [`--mantine-color-${theme.primaryColor}-outline`]: brand(dark),
      [`--mantine-color-${theme.primaryColor}-light-color`]: brand(readableDarkLightShade(palette)),
    },
  };
};

/** Dark mode follows the system until the user picks one in the user menu (kept in this browser). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'sportello-color-scheme' });

/**
 * The toast container comes after the first paint (after My tickets' list: lib/first-content):
 * `notifications.show` only needs the store, and toasts queued before the container mounts still appear.
 */
const Notifications = lazy(() =>
  importAfterContent(() => import('./notifications')).then((m) => ({ default: m.Notifications })),
);

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const baseColor = useActivePortal((p) => p?.baseColor ?? null);
  const theme = useMemo(() => buildTheme(baseColor), [baseColor]);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="auto"
        colorSchemeManager={colorSchemeManager}
      >
        <Suspense fallback={null}>
          <Notifications position="top-right" />
        </Suspense>
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
