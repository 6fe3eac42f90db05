// `npm test`'s last step: the unit tests and the browser journeys at the same time. The journeys mostly
// wait on real time (a browser, one server, one journey at a time: about a quarter of a core); the unit
// tests (two workers, vitest.config.ts) fill the cores beside them. One after the other they took 11 + 8
// minutes on CI's two cores. The unit tests run at a lower priority (`nice`), so the journeys, whose waits
// have time limits, keep the upper hand. The journeys' output streams; the unit tests' is printed in one
// piece when they end, so the two never interleave mid-report. Fails if either fails.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const nice = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p));

function run(name, command, args, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit'],
    });
    const chunks = [];
    if (buffered) {
      child.stdout.on('data', (d) => chunks.push(d));
      child.stderr.on('data', (d) => chunks.push(d));
    }
    child.on('error', (e) => {
      chunks.push(Buffer.from(`${name}: ${e.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => {
      if (buffered) {
        process.stdout.write(`\n==== ${name} ====\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      const rc = code ?? (signal ? 1 : 0);
      process.stdout.write(`\n==== ${name}: exit ${rc} ====\n`);
      resolve(rc);
    });
  });
}

const unit = nice
  ? run('npm run test:unit', nice, ['-n', '5', npm, 'run', 'test:unit'], { buffered: true })
  : run('npm run test:unit', npm, ['run', 'test:unit'], { buffered: true });
const e2e = run('npm run test:e2e', npm, ['run', 'test:e2e'], { buffered: false });
const codes = await Promise.all([unit, e2e]);
process.exit(codes.every((c) => c === 0) ? 0 : 1);
