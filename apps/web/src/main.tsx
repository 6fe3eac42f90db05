import './app/zod-config';
// Then: its requests leave before the app modules are evaluated and long before the first render.
import { beforeFirstRender, seedEarlyData } from './app/early-data';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/provider';
import { i18nReady } from './i18n';

const queryClient = createQueryClient();
seedEarlyData(queryClient);

// The first render is a transition: React renders the shell and the page in slices of a few ms,
// yielding to the browser between them, instead of one long task (docs/architecture.md, "A phone's
// first screen").
void Promise.all([i18nReady, beforeFirstRender]).then(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
});
