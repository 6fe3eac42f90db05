/*
 * Zod compiles object parsers with `new Function` when it thinks it may; probing for that breaks the
 * page's CSP (script-src 'self', no 'unsafe-eval') and logs a violation. Jitless validation is plain
 * code: slower only for schemas parsed thousands of times, which the browser never does.
 *
 * main.tsx imports this first, before any schema is used. It sets zod's global configuration object
 * (what `z.config({ jitless: true })` writes, shared by every copy of zod 4) without importing zod:
 * zod stays out of the first load (`zod/v4/core` alone added 11 KB to it). zod-config.test.ts checks
 * that `z.config()` reads it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// In place: zod, once loaded, keeps a reference to this very object.
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
