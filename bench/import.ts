/**
 * Times the back-office import on in-memory PGlite: the example document, the demo portal and a
 * generated document of N tickets (default 1,000), each imported twice (the second run is a no-op
 * re-import). Run: `npx tsx bench/import.ts [tickets]`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/client';
import { migrate } from '../apps/api/src/db/migrate';
import { buildDemoDocument } from '../apps/api/src/modules/admin/demo-data';
import { importDocument } from '../apps/api/src/modules/admin/import.service';
import { generatedDocument } from '../apps/api/src/modules/admin/import.test-support';
import { systemClock } from '../apps/api/src/platform/clock';
import type { AppContext } from '../apps/api/src/platform/context';
import { FileStore, FileUrlSigner } from '../apps/api/src/platform/files';

const tickets = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'sportello-bench-import-'));
const database = await openDatabase({});
await migrate(database);
const secret = 'bench-secret-'.padEnd(40, 'x');
const ctx: AppContext = {
  config: loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }),
  database,
  clock: systemClock,
  fileStore: new FileStore(join(dir, 'files')),
  signer: new FileUrlSigner(secret),
  secret,
};

async function time(label: string, doc: unknown): Promise<void> {
  for (const run of ['first', 're-import']) {
    const statements = database.stats.statements;
    const started = performance.now();
    await importDocument(ctx, doc);
    const ms = Math.round(performance.now() - started);
    console.log(
      `${label.padEnd(24)} ${run.padEnd(9)} ${String(ms).padStart(6)} ms  ${database.stats.statements - statements} statements`,
    );
  }
}

try {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const example = JSON.parse(readFileSync('apps/api/src/test/fixtures/example.json', 'utf8'));
  await time('example.json', example);
  const started = performance.now();
  const demo = await buildDemoDocument(new Date());
  console.log(`demo document built in ${Math.round(performance.now() - started)} ms (PDFs and PNGs)`);
  await time('demo', demo);
  await time(`generated ${tickets} tickets`, generatedDocument(tickets));
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
