import './app/zod-config';
// Then: its requests leave before the app modules are evaluated and long before the first render.
import { beforeFirstRender, seedEarlyData } from './app/early-data';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/provider';
import { i18nReady } from './i18n';
import { hasSignInShell, takeSignInShell } from './lib/sign-in-shell';
import { signInPageReady } from './app/router';

const queryClient = createQueryClient();
const seeded = seedEarlyData(queryClient);

// On the sign-in the server drew, the page's code too: the first render replaces that page with itself.
const signInReady = hasSignInShell() ? signInPageReady?.catch(() => {}) : null;

void Promise.all([i18nReady, beforeFirstRender, seeded, signInReady]).then(() => {
  // The sign-in the server drew is replaced now: what the user did with it carries over.
  takeSignInShell();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
});
