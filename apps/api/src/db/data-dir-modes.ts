import fs from 'node:fs';
import { join, resolve } from 'node:path';

/** DATA_DIR cannot be used (not writable, or its modes cannot be made private): one line says why. */
export class DataDirError extends Error {}

const PRIVATE = 0o077;
let patched = false;

/**
 * Everything this process creates is for its user only. The umask covers files and directories
 * created with a mode; PGlite's file system layer (Emscripten NODEFS) then calls chmod with 0666 on
 * every file it creates (968 files, the WAL included, were readable and writable by any local
 * account), so chmod is masked the same way. Nothing in the server needs group or other access.
 */
export function ownerOnlyModes(): void {
  process.umask(PRIVATE);
  if (patched) return;
  patched = true;
  const mask = (mode: fs.Mode) => (typeof mode === 'number' ? mode & ~PRIVATE : mode);
  const { chmodSync, fchmodSync } = fs;
  fs.chmodSync = (path, mode) => chmodSync(path, mask(mode));
  fs.fchmodSync = (fd, mode) => fchmodSync(fd, mask(mode));
}

/** The same, as a prelude for a child process (the one that creates the embedded database). */
export const OWNER_ONLY_PRELUDE = `process.umask(${PRIVATE});
{ const fs = require('node:fs'); const { chmodSync, fchmodSync } = fs;
  const m = (x) => (typeof x === 'number' ? x & ~${PRIVATE} : x);
  fs.chmodSync = (p, x) => chmodSync(p, m(x)); fs.fchmodSync = (f, x) => fchmodSync(f, m(x)); }
`;

/**
 * Left by earlier versions, which walked the tree once and then only checked the top: anything loosened
 * later inside (a restore, a copy, another tool's umask) stayed so. Every start now walks the tree.
 */
const OLD_MARKER = '.private-modes';
/** Trees walked by this process (server.ts and the database opener both ask at start). */
const walked = new Set<string>();

function tighten(path: string, isDir: boolean, mode: number): void {
  if ((mode & PRIVATE) === 0) return;
  try {
    fs.chmodSync(path, isDir ? 0o700 : mode & 0o700);
  } catch (e) {
    throw new DataDirError(
      `DATA_DIR: cannot make ${path} private to this user (${(e as NodeJS.ErrnoException).code}): ` +
        'run the server as the owner of DATA_DIR, or fix its modes (chmod -R go= DATA_DIR)',
    );
  }
}

function walk(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const path = join(dir, entry.name);
    tighten(path, entry.isDirectory(), fs.lstatSync(path).mode);
    if (entry.isDirectory()) walk(path);
  }
}

/**
 * Creates DATA_DIR (0700) or checks an existing one at start: it must be a writable directory, and
 * anything in it with group or other bits (an older version's install, a restore, a copy made under
 * another umask) is made private, the whole tree at every start (once per process). Throws
 * DataDirError with one clear line when that is impossible.
 */
export function secureDataDir(dir: string): void {
  ownerOnlyModes();
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    if (!st.isDirectory()) throw new DataDirError(`DATA_DIR ${dir} is not a directory`);
    tighten(dir, true, st.mode);
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    const key = resolve(dir);
    if (walked.has(key)) return;
    walk(dir);
    walked.add(key);
    fs.rmSync(join(dir, OLD_MARKER), { force: true });
  } catch (e) {
    if (e instanceof DataDirError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new DataDirError(
      `DATA_DIR ${dir} cannot be used (${err.code ?? err.message}): it must be a directory this user can write`,
    );
  }
}
