import { Center, Loader } from '@mantine/core';
import { lazy, startTransition, useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

export type PageModule = { default: ComponentType };

/** While a lazy page's code loads. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-label={t('common.loading')}>
      <Loader />
    </Center>
  );
}

/**
 * A page in its own chunk. While its code loads the page shows the page loader as ordinary content
 * rather than suspending: a navigation is a React transition, and a transition that suspends keeps the
 * previous route on screen (an empty main area, the menu still marking the old page) while the address
 * already names the new one. Rendering a loader commits the new route at once, so the menu follows the
 * address, and the page appears as soon as its code is here, without React's 300 ms hold on content
 * revealed after a Suspense fallback. `preloaded`: an import already under way (app/early-data.ts).
 */
export function lazyPage(
  load: () => Promise<PageModule>,
  preloaded?: Promise<PageModule> | null,
): ComponentType {
  let loaded: ComponentType | null = null;
  let failed = false;
  let loading: Promise<PageModule> | null = null;
  const loadOnce = () =>
    (loading ??= (preloaded ?? load()).then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (error: unknown) => {
        failed = true;
        throw error;
      },
    ));
  if (preloaded) loadOnce().catch(() => {});
  // Rendered only after a failed load: it throws that failure to the app's error boundary (app/app.tsx).
  const Failed = lazy(loadOnce);
  return function Page() {
    const [, setSettled] = useState(false);
    useEffect(() => {
      // A transition: the page renders in slices of a few ms, not as one task.
      const settle = () => startTransition(() => setSettled(true));
      // A preloaded module may have come between this render and its effect: draw it now, or the
      // loader would stay (nothing else renders this again).
      if (loaded || failed) settle();
      else loadOnce().then(settle, settle);
    }, []);
    const Loaded = loaded;
    if (Loaded) return <Loaded />;
    return failed ? <Failed /> : <PageLoader />;
  };
}
