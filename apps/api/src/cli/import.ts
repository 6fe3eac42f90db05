/**
 * `npm run import -- path/to/file.json`: imports a back-office document into the database of this
 * installation (DATA_DIR or DATABASE_URL, like the server). File references may be `path`s, relative
 * to the JSON file. Exit codes: 0 imported, 1 invalid document or failure, 2 usage/configuration,
 * 3 DATA_DIR in use by a running server, 4 DATA_DIR unusable.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { importDocument } from '../modules/admin/import.service';
import { checkJsonText } from '../platform/request-guards';
import { AppError } from '../platform/errors';
import { loadCliConfig, withInstallation } from './installation';

async function main(): Promise<number> {
  const arg = process.argv.slice(2).find((a) => a !== '--');
  if (!arg) {
    console.error('Usage: npm run import -- path/to/document.json');
    return 2;
  }
  // npm runs scripts from the package root; a relative path means the caller's directory.
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), arg);
  const config = loadCliConfig();
  if (typeof config === 'number') return config;
  let doc: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    // The same checks as the HTTP import: a NUL would otherwise reach PostgreSQL mid-import.
    const problem = checkJsonText(text);
    if (problem) throw problem;
    doc = JSON.parse(text);
  } catch (e) {
    console.error(`Cannot read ${file}: ${(e as Error).message}`);
    return 1;
  }

  return withInstallation(config, async (ctx) => {
    try {
      const started = performance.now();
      const counts = await importDocument(ctx, doc, { baseDir: dirname(file) });
      const ms = Math.round(performance.now() - started);
      console.log(`Imported ${file} in ${ms} ms:`);
      for (const [kind, n] of Object.entries(counts)) if (n > 0) console.log(`  ${kind}: ${n}`);
      return 0;
    } catch (e) {
      if (e instanceof AppError) {
        console.error(`${e.message}:`);
        if (Array.isArray(e.details)) {
          for (const p of e.details as { path: string; message: string }[])
            console.error(`  ${p.path}: ${p.message}`);
        }
        return 1;
      }
      throw e;
    }
  });
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
