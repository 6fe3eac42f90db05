import { readdirSync, readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The layering rules of docs/architecture.md, as `import-x/no-restricted-paths` zones (LAYER_ZONES and
 * SHARED_ZONES below):
 * - the web app never imports the API, nor the API the web app (they share only @sportello/contracts);
 * - web: a feature never imports another feature nor app/ (the shell that puts the features together),
 *   and ui/, lib/, styles/ and i18n/ import neither (shared code goes down to them, not the reverse);
 * - API: a module never imports another module but through that module's core index
 *   (`modules/<m>/core/index.ts`, e.g. the tickets core's writeComment), a core imports nothing of its
 *   module outside the core, and platform/ and db/ never import modules (what two modules share lives
 *   in platform/ or in a core). Tests (and the desk's test kit) may: they seed and render through the
 *   importer and the whole app.
 * `import-x/no-cycle`: no import cycles anywhere (type imports and `import()` left out: erased at build
 * time, or loaded later, so they do not run at load). And `spec-refs`: every rule a comment cites by
 * section ("SPEC A2", "(B3)") has that section in docs/portal-spec.md.
 */
const SPEC_SECTIONS = new Set(
  [
    ...readFileSync(new URL('./docs/portal-spec.md', import.meta.url), 'utf8').matchAll(/^## ([AB]\d+)\./gm),
  ].map((m) => m[1]),
);
const ZONE_RULE =
  "Time zones are handled in packages/contracts/src/time-zone.ts (the browser's display zone in apps/web/src/lib/time-zone.ts): use those.";
const TODAY_RULE =
  "That is the day in UTC, not in the portal's zone: use todayIn/localDay of @sportello/contracts/time-zone (todayInPortal, portalDayOf in the web).";

const sportello = {
  rules: {
    'spec-refs': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              const cited = [
                ...comment.value.matchAll(
                  /\bSPEC ([AB]\d+)\b|\(([AB]\d+)(?:[,/ ][^)]*)?\)|\b([AB]\d)(?=:| message| fields)/g,
                ),
              ].map((m) => m[1] ?? m[2] ?? m[3]);
              for (const section of cited)
                if (!SPEC_SECTIONS.has(section))
                  context.report({
                    loc: comment.loc,
                    message: `Cites ${section}, which docs/portal-spec.md does not have.`,
                  });
            }
          },
        };
      },
    },
  },
};

const API = 'apps/api/src';
const WEB = 'apps/web/src';
const dirsIn = (dir) =>
  readdirSync(new URL(`./${dir}/`, import.meta.url), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const apiModules = dirsIn(`${API}/modules`);
const withCore = apiModules.filter((m) => dirsIn(`${API}/modules/${m}`).includes('core'));
const webFeatures = dirsIn(`${WEB}/features`);
const SHARED_WEB = [`${WEB}/ui`, `${WEB}/lib`, `${WEB}/styles`, `${WEB}/i18n`];

/** Zones every file keeps, tests included. */
const SHARED_ZONES = [
  {
    target: 'apps/web',
    from: 'apps/api',
    message: 'The web app must not import the API: apps talk only through @sportello/contracts.',
  },
  {
    target: ['apps/api', 'packages/contracts'],
    from: 'apps/web',
    message: 'The API must not import the web app: apps talk only through @sportello/contracts.',
  },
  { target: 'packages/contracts', from: 'apps/api', message: 'The contracts import neither app.' },
  ...webFeatures.map((f) => ({
    target: `${WEB}/features/${f}`,
    from: `${WEB}/features`,
    except: [`./${f}`],
    message: `Feature ${f} imports another feature: move the shared part to ui/ or lib/.`,
  })),
  {
    target: SHARED_WEB,
    from: `${WEB}/features`,
    message:
      'ui/, lib/, styles/ and i18n/ must not import features: pass what they need in, or move it down.',
  },
];

/** Zones of the running code: tests may seed and render through the importer and the whole app. */
const LAYER_ZONES = [
  {
    target: SHARED_WEB,
    from: `${WEB}/app`,
    message: 'ui/, lib/, styles/ and i18n/ must not import app/: pass what they need in, or move it down.',
  },
  {
    target: `${WEB}/features`,
    from: `${WEB}/app`,
    message:
      'A feature must not import app/ (the shell that puts the features together): move the shared part to ui/, lib/ or styles/.',
  },
  ...apiModules.map((m) => ({
    target: `${API}/modules/${m}`,
    from: `${API}/modules`,
    except: [`./${m}`, ...withCore.filter((c) => c !== m).map((c) => `./${c}/core/index.ts`)],
    message: `Module ${m} imports another module: import its core index, or move the shared part to platform/.`,
  })),
  ...withCore.map((m) => ({
    target: `${API}/modules/${m}/core`,
    from: `${API}/modules/${m}`,
    except: ['./core'],
    message: `The ${m} core imports its module outside the core: a core stands alone.`,
  })),
  {
    target: [`${API}/platform`, `${API}/db`],
    from: `${API}/modules`,
    message: 'platform/ and db/ must not import modules: modules build on them.',
  },
];
const TESTS = ['**/*.test.{ts,tsx}', '**/test/**', 'apps/web/src/features/staff/desk-test-kit.tsx'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.e2e/**',
      'bench/.data/**',
      'apps/api/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { sportello, 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
          conditionNames: ['import', 'default'],
        }),
      ],
    },
    rules: {
      'sportello/spec-refs': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
      'import-x/no-restricted-paths': ['error', { zones: SHARED_ZONES }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    ignores: TESTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...SHARED_ZONES, ...LAYER_ZONES] }] },
  },
  {
    // One time-zone module for both sides: every zone rule lives there (docs/architecture.md).
    files: ['apps/api/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/contracts/src/**/*.ts'],
    ignores: ['packages/contracts/src/time-zone.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['dayjs/plugin/timezone*'], message: ZONE_RULE }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']",
          message: ZONE_RULE,
        },
        { selector: "CallExpression[callee.property.name='tz']", message: ZONE_RULE },
        {
          // `toISOString().slice(0, 10)` (or substring, substr): a day read in UTC.
          selector:
            "CallExpression[callee.property.name=/^(slice|substring|substr)$/][arguments.1.value=10][callee.object.callee.property.name='toISOString']",
          message: TODAY_RULE,
        },
        {
          selector:
            "CallExpression[callee.property.name='split'][callee.object.callee.property.name='toISOString']",
          message: TODAY_RULE,
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The web calls through route references: a contract object would bring its area's schemas, and
      // zod with them, into every page that calls it (docs/architecture.md, "Route contracts").
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@sportello/contracts$',
              importNamePattern: '^\\w+Routes$',
              allowTypeImports: true,
              message: 'Import route objects from @sportello/contracts/route-refs (method, path, guard).',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'scripts/**',
      'bench/**',
      'e2e/**',
      'examples/**',
      'apps/api/src/cli/**',
      'apps/api/src/server.ts',
      '.ci/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
