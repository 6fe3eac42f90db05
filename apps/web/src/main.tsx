import './app/zod-config';
// Then: its requests leave before the app modules are evaluated and long before the first render.
import { beforeFirstRender, seedEarlyData } from './app/early-data';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/provider';
import { i18nReady } from './i18n';

const queryClient = createQueryClient();
seedEarlyData(queryClient);

void Promise.all([i18nReady, beforeFirstRender]).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
