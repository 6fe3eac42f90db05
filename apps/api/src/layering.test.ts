import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The lint of eslint.config.js (docs/architecture.md), tried on code that breaks each rule: the layering
 * zones and the cycle check of eslint-plugin-import-x, the spec citations, the time-zone rules. A zone
 * that never fires (a moved folder, a mistyped path) would let the layering rot silently.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

// Lint of the sources: nothing in it touches a database, so the PostgreSQL pass of CI skips it. The
// first lint builds the type-aware program (seconds alone; over 30 s once beside CI's other suites).
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the layering lint', { timeout: 120_000 }, () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  const problems = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
    return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
  };

  const zone = (path: string, why: string) =>
    `import-x/no-restricted-paths: Unexpected path "${path}" imported in restricted zone. ${why}`;

  it('refuses an API module importing another module, but not a test seeding through the importer', async () => {
    const code = `import { importDocument } from '../admin/import.service';\nexport const x = importDocument;\n`;
    expect(await problems('apps/api/src/modules/wiki/wiki.extra.ts', code)).toEqual([
      zone(
        '../admin/import.service',
        'Module wiki imports another module: import its core index, or move the shared part to platform/.',
      ),
    ]);
    expect(await problems('apps/api/src/modules/wiki/wiki.extra.test.ts', code)).toEqual([]);
  });

  it("lets a module import another module's core index only, and keeps the core apart from its module", async () => {
    const viaIndex = `import { writeComment } from '../tickets/core';\nexport const x = writeComment;\n`;
    expect(await problems('apps/api/src/modules/wiki/wiki.extra.ts', viaIndex)).toEqual([]);
    const inside = `import { lockTicket } from '../tickets/core/write-comment.queries';\nexport const x = lockTicket;\n`;
    expect(await problems('apps/api/src/modules/wiki/wiki.extra.ts', inside)).toEqual([
      zone(
        '../tickets/core/write-comment.queries',
        'Module wiki imports another module: import its core index, or move the shared part to platform/.',
      ),
    ]);
    const back = `import { addComment } from '../tickets.service';\nexport const x = addComment;\n`;
    expect(await problems('apps/api/src/modules/tickets/core/extra.ts', back)).toEqual([
      zone(
        '../tickets.service',
        'The tickets core imports its module outside the core: a core stands alone.',
      ),
    ]);
  });

  it('refuses platform/ importing a module, even through its core index', async () => {
    const code = `import { ticketScope } from '../modules/tickets/core';\nexport const x = ticketScope;\n`;
    expect(await problems('apps/api/src/platform/extra.ts', code)).toEqual([
      zone('../modules/tickets/core', 'platform/ and db/ must not import modules: modules build on them.'),
    ]);
  });

  it('keeps the web app and the API apart, by path or by package', async () => {
    const code = `import { loadConfig } from '@sportello/api/src/config';\nexport const x = loadConfig;\n`;
    expect(await problems('apps/web/src/lib/extra.ts', code)).toEqual([
      zone(
        '@sportello/api/src/config',
        'The web app must not import the API: apps talk only through @sportello/contracts.',
      ),
    ]);
    const web = `import { dayjs } from '../../../web/src/lib/format';\nexport const x = dayjs;\n`;
    expect(await problems('apps/api/src/platform/extra.ts', web)).toEqual([
      zone(
        '../../../web/src/lib/format',
        'The API must not import the web app: apps talk only through @sportello/contracts.',
      ),
    ]);
  });

  it('refuses web ui/ and lib/ importing a feature, a feature importing another, and a feature importing app/', async () => {
    const code = `import { isClosedTicket } from '../features/tickets/ticket-filters';\nexport const x = isClosedTicket;\n`;
    for (const dir of ['ui', 'lib'])
      expect(await problems(`apps/web/src/${dir}/extra.ts`, code)).toEqual([
        zone(
          '../features/tickets/ticket-filters',
          'ui/, lib/, styles/ and i18n/ must not import features: pass what they need in, or move it down.',
        ),
      ]);
    const fromFeature = `import { isClosedTicket } from '../tickets/ticket-filters';\nexport const x = isClosedTicket;\n`;
    expect(await problems('apps/web/src/features/wiki/extra.ts', fromFeature)).toEqual([
      zone(
        '../tickets/ticket-filters',
        'Feature wiki imports another feature: move the shared part to ui/ or lib/.',
      ),
    ]);
    const app = `import { routes } from '../../app/router';\nexport const x = routes;\n`;
    const appRule =
      'A feature must not import app/ (the shell that puts the features together): move the shared part to ui/, lib/ or styles/.';
    expect(await problems('apps/web/src/features/staff/extra.tsx', app)).toEqual([
      zone('../../app/router', appRule),
    ]);
    expect(await problems('apps/web/src/features/staff/extra.test.tsx', app)).toEqual([]);
    expect(
      await problems(
        'apps/web/src/ui/extra.tsx',
        `import { routes } from '../app/router';\nexport const x = routes;\n`,
      ),
    ).toEqual([
      zone(
        '../app/router',
        'ui/, lib/, styles/ and i18n/ must not import app/: pass what they need in, or move it down.',
      ),
    ]);
  });

  it('refuses an import cycle, but not through a type import or import()', async () => {
    // The tickets service imports the tickets queries: importing it back closes a cycle.
    const code = `import { createTicket } from './tickets.service';\nexport const x = createTicket;\n`;
    expect(await problems('apps/api/src/modules/tickets/tickets.queries.ts', code)).toEqual([
      'import-x/no-cycle: Dependency cycle detected',
    ]);
    const typeOnly = `import type { TicketScope } from './tickets.service';\nexport type X = TicketScope;\n`;
    expect(await problems('apps/api/src/modules/tickets/tickets.queries.ts', typeOnly)).toEqual([]);
    const later = `export const x = () => import('./tickets.service');\n`;
    expect(await problems('apps/api/src/modules/tickets/tickets.queries.ts', later)).toEqual([]);
  });

  it('refuses a comment citing a rule docs/portal-spec.md does not have', async () => {
    const code = `/** As SPEC A2 says, and (B3); but SPEC B9 does not exist. */\nexport const x = 1;\n`;
    expect(await problems('apps/api/src/platform/extra.ts', code)).toEqual([
      'sportello/spec-refs: Cites B9, which docs/portal-spec.md does not have.',
    ]);
  });

  it('keeps time-zone handling in the one module of both sides', async () => {
    const rule =
      "Time zones are handled in packages/contracts/src/time-zone.ts (the browser's display zone in apps/web/src/lib/time-zone.ts): use those.";
    const plugin = `import timezone from 'dayjs/plugin/timezone';\nexport const x = timezone;\n`;
    const intl = `export const f = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Rome' });\n`;
    const tz = `import { dayjs } from '../../lib/format';\nexport const x = dayjs().tz('Europe/Rome');\n`;
    expect(await problems('apps/api/src/modules/tickets/extra.ts', plugin)).toEqual([
      `no-restricted-imports: 'dayjs/plugin/timezone' import is restricted from being used by a pattern. ${rule}`,
    ]);
    expect(await problems('apps/api/src/platform/extra.ts', intl)).toEqual([`no-restricted-syntax: ${rule}`]);
    expect(await problems('apps/web/src/features/tickets/extra.ts', tz)).toEqual([
      `no-restricted-syntax: ${rule}`,
    ]);
    expect(await problems('packages/contracts/src/time-zone.ts', intl)).toEqual([]);
    expect(await problems('apps/web/src/lib/time-zone.ts', intl)).toEqual([`no-restricted-syntax: ${rule}`]);
  });

  it('refuses today computed in UTC, anywhere but the time-zone module', async () => {
    const rule =
      "That is the day in UTC, not in the portal's zone: use todayIn/localDay of @sportello/contracts/time-zone (todayInPortal, portalDayOf in the web).";
    const slice = `export const today = () => new Date().toISOString().slice(0, 10);\n`;
    const split = `export const today = () => new Date().toISOString().split('T')[0];\n`;
    const stamp = `export const stamp = (d: Date) => d.toISOString().slice(0, 19);\n`;
    for (const file of [
      'apps/web/src/features/staff/admin/extra.tsx',
      'apps/api/src/modules/tickets/extra.ts',
    ])
      for (const code of [slice, split])
        expect(await problems(file, code), file).toEqual([`no-restricted-syntax: ${rule}`]);
    expect(await problems('apps/api/src/modules/tickets/extra.ts', stamp)).toEqual([]);
    expect(await problems('packages/contracts/src/time-zone.ts', slice)).toEqual([]);
  });
});
