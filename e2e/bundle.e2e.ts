// The customer's first load, from the build the journeys run on (e2e/run.mjs builds it): under its
// ceiling, and without the code only some users need (the editor, the PDF viewer, the staff desk and its
// administration) or only some pages (zod with the schemas of the forms, dayjs with the calendars).
// `npm run bench` reports the same figures in bench/RESULTS.md.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleReport, INITIAL_JS_CEILING } from '../bench/lib/page';

const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

describe("the customer's first load", () => {
  const report = bundleReport(dist);

  it(`stays within ${INITIAL_JS_CEILING / 1024} KB of JavaScript (gzip)`, () => {
    expect(report.initialJs, JSON.stringify(report.initialFiles)).toBeLessThanOrEqual(INITIAL_JS_CEILING);
  });

  it.each(report.lazyChecks.map((c) => [c.name, c.lazy] as const))('leaves out the %s', (_name, lazy) => {
    expect(lazy).toBe(true);
  });
});
