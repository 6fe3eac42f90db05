import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The layering rules of docs/architecture.md, as lint:
 * - the web app never imports the API, nor the API the web app (they share only @sportello/contracts);
 * - web: a feature never imports another feature, and ui/ and lib/ never import features (shared code
 *   goes to ui/ or lib/, which features use, not the reverse);
 * - API: a module never imports another module but through that module's core index
 *   (`modules/<m>/core`, e.g. the tickets core's writeComment), a core imports nothing of its module
 *   outside the core, and platform/ and db/ never import modules (what two modules share lives in
 *   platform/ or in a core). Tests may: they seed through the importer.
 * `no-cycle`: no import cycles anywhere. And `spec-refs`: every rule a comment cites by section
 * ("SPEC A2", "(B3)") has that section in docs/portal-spec.md.
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

/**
 * The run-time import graph of the repository's sources, read once per lint run: relative imports and
 * re-exports only (packages cannot import back into us), `import type` left out (erased at build time),
 * `import()` left out (loaded later, so a cycle through it does not run at load).
 */
const SOURCE_ROOTS = ['apps/api/src', 'apps/web/src', 'packages/contracts/src', 'e2e', 'bench', 'scripts'];
const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
let importGraph;

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}.mjs`, join(base, 'index.ts')];
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.m?js$/, '.ts'), base.replace(/\.m?js$/, '.tsx'));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

function graphOf(root) {
  if (importGraph) return importGraph;
  importGraph = new Map();
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', '.data'].includes(entry.name)) walk(path);
      } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const targets = new Set();
        for (const m of readFileSync(path, 'utf8').matchAll(STATIC_IMPORT)) {
          const target = m[1] ? undefined : resolveImport(path, m[2]);
          if (target) targets.add(target);
        }
        importGraph.set(path, targets);
      }
    }
  };
  for (const r of SOURCE_ROOTS) walk(join(root, r));
  return importGraph;
}

/** A chain of imports from `start` back to `file`, or null. */
function pathBack(graph, start, file) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === file) {
      const chain = [];
      for (let p = at; p !== null; p = parent.get(p)) chain.unshift(p);
      return chain;
    }
    for (const next of graph.get(at) ?? [])
      if (!parent.has(next)) {
        parent.set(next, at);
        queue.push(next);
      }
  }
  return null;
}

const boundaries = {
  rules: {
    'no-cycle': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = context.filename;
        const root = process.cwd();
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          if (node.importKind === 'type' || node.exportKind === 'type') return;
          const target = resolveImport(file, spec);
          if (!target) return;
          const chain = pathBack(graphOf(root), target, file);
          if (chain)
            context.report({
              node,
              message: `Import cycle: ${[file, ...chain].map((f) => relative(root, f).split(sep).join('/')).join(' -> ')}`,
            });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
      },
    },
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
    layers: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = context.filename;
        const root = process.cwd();
        const rel = relative(root, file).split(sep).join('/');
        const featureOf = (p) => /^apps\/web\/src\/features\/([^/]+)\//.exec(p)?.[1];
        const moduleOf = (p) => /^apps\/api\/src\/modules\/([^/]+)\//.exec(p)?.[1];
        const isTest = /\.test\.tsx?$/.test(rel) || rel.includes('/test/');
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string') return;
          if (/^@sportello\/(api|web)/.test(spec)) {
            context.report({
              node,
              message: `Import of ${spec}: apps talk only through @sportello/contracts.`,
            });
            return;
          }
          if (!spec.startsWith('.')) return;
          const target = relative(root, resolve(dirname(file), spec))
            .split(sep)
            .join('/');
          if (rel.startsWith('apps/web/') && target.startsWith('apps/api/'))
            context.report({ node, message: 'The web app must not import the API.' });
          if (rel.startsWith('apps/api/') && target.startsWith('apps/web/'))
            context.report({ node, message: 'The API must not import the web app.' });
          const from = featureOf(rel);
          const to = featureOf(target + '/');
          if (from && to && from !== to)
            context.report({
              node,
              message: `Feature ${from} imports feature ${to}: move the shared part to ui/ or lib/.`,
            });
          if (/^apps\/web\/src\/(ui|lib)\//.test(rel) && to)
            context.report({
              node,
              message: `ui/ and lib/ must not import features (${to}): pass what they need in, or move it down.`,
            });
          if (isTest) return;
          const fromModule = moduleOf(rel);
          const toModule = moduleOf(target + '/');
          const coreIndex = /^apps\/api\/src\/modules\/[^/]+\/core(\/index(\.ts)?)?$/.test(target);
          if (fromModule && toModule && fromModule !== toModule && !coreIndex)
            context.report({
              node,
              message: `Module ${fromModule} imports module ${toModule}: import its core index, or move the shared part to platform/.`,
            });
          if (
            fromModule &&
            fromModule === toModule &&
            /^apps\/api\/src\/modules\/[^/]+\/core\//.test(rel) &&
            !/^apps\/api\/src\/modules\/[^/]+\/core\//.test(target + '/')
          )
            context.report({
              node,
              message: `The ${fromModule} core imports its module's ${target.split('/').pop()}: a core stands alone.`,
            });
          if (/^apps\/api\/src\/(platform|db)\//.test(rel) && toModule)
            context.report({
              node,
              message: `platform/ and db/ must not import modules (${toModule}): modules build on them.`,
            });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};

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
    plugins: { boundaries },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'boundaries/layers': 'error',
      'boundaries/spec-refs': 'error',
      'boundaries/no-cycle': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
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
