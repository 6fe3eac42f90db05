import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The layering rules of docs/architecture.md, as lint: the web app never imports the API, the API
 * never imports the web app, and a web feature never imports another feature (shared code goes to
 * ui/ or lib/).
 */
const boundaries = {
  rules: {
    layers: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = context.filename;
        const root = process.cwd();
        const rel = relative(root, file).split(sep).join('/');
        const featureOf = (p) => /^apps\/web\/src\/features\/([^/]+)\//.exec(p)?.[1];
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
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['scripts/**', 'bench/**', 'e2e/**', 'apps/api/src/cli/**', 'apps/api/src/server.ts', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
);
