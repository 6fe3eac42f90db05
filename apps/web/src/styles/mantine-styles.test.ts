import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Resolved as the bundler does: the package exports its style files, not its package.json.
const stylesDir = dirname(createRequire(import.meta.url).resolve('@mantine/core/styles/global.layer.css'));
const imports = (file: string) =>
  [
    ...readFileSync(join(__dirname, file), 'utf8').matchAll(/@import '@mantine\/core\/styles\/([^']+)';/g),
  ].map((m) => m[1]!);

describe('Mantine styles split between the first paint and the rest', () => {
  const first = imports('mantine-first-paint.css');
  const rest = imports('mantine-rest.css');

  it('holds every layered file of Mantine once, so no component goes unstyled after an update', () => {
    const all = readdirSync(stylesDir).filter((f) => f.endsWith('.layer.css'));
    expect([...first, ...rest].sort()).toEqual(all.sort());
    expect(new Set([...first, ...rest]).size).toBe(first.length + rest.length);
  });

  it('uses only the layered files, so a sheet arriving late never overrides the portal CSS', () => {
    for (const f of [...first, ...rest]) expect(f).toMatch(/\.layer\.css$/);
  });

  it('starts with the variables and resets', () => {
    expect(first.slice(0, 3)).toEqual([
      'baseline.layer.css',
      'default-css-variables.layer.css',
      'global.layer.css',
    ]);
  });
});
