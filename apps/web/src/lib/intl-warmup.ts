/**
 * Warms the browser's formatting data on another thread (intl-warmup.worker.ts) while the page's code
 * and data load (the desk's inbox: app/early-data.ts). That data (ICU's locale, calendar and time-zone
 * tables) belongs to the renderer process, shared by its threads: the first date formatter of the main
 * thread loaded it, 150–200 ms of a slow phone's CPU between the portal's settings and the rows; after
 * the worker, the main thread's formatters cost it a few ms. Built on the main thread in a task or an
 * idle callback beforehand, it only moved that time (Chromium ran no idle callback before the rows).
 */
let worker: Worker | null = null;

export function warmUpIntl(): void {
  if (worker || typeof Worker !== 'function') return;
  try {
    // It ends itself once done (a message back and `terminate()` from here cost the main thread about
    // 10 ms of a slow phone's CPU, before the rows).
    worker = new Worker(new URL('./intl-warmup.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    // Without a worker the formatters load the data themselves, as before.
  }
}
