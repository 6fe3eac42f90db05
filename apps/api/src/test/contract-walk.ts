/**
 * Reads a route contract's request schemas by zod's introspection: the inputs (leaves) of its path,
 * query and body with what bounds them, a valid sample of each part, and the edge values a fuzzer
 * would send each leaf. Used by contract-bounds.test.ts (every integer and date bounded by its column)
 * and boundary-walk.test.ts (every route sent its edges, no 5xx).
 */
import { bounds, EXT_ID_MAX, INT4_MAX, type RouteContract } from '@sportello/contracts';
import type { z } from 'zod';

type Def = { type: string; [k: string]: unknown };
type CheckDef = { check: string; value?: number; format?: string; pattern?: RegExp; maximum?: number };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (s: z.ZodType): CheckDef[] =>
  ((defOf(s).checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);

export type Part = 'params' | 'query' | 'body';
export type LeafKind = 'int' | 'number' | 'string' | 'date' | 'other';

export interface Leaf {
  part: Part;
  path: (string | number)[];
  /** The leaf's schemas once wrappers (optional, default, pipe) are taken off: all of them bound it. */
  schemas: z.ZodType[];
  kind: LeafKind;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The schemas a value passes through, outermost wrappers removed (a pipe gives both ends). */
function core(s: z.ZodType): z.ZodType[] {
  const d = defOf(s);
  if (WRAPPERS.has(d.type)) return core(d.innerType as z.ZodType);
  if (d.type === 'pipe') {
    const out = defOf(d.out as z.ZodType).type === 'transform' ? [] : core(d.out as z.ZodType);
    return [...core(d.in as z.ZodType), ...out];
  }
  return [s];
}

const DATE_KEY = /date|^from$|^to$|[a-z](At|On)$|^(start|end|day|firstDay|lastDay)$/;

function kindOf(schemas: z.ZodType[], key: string | number | undefined): LeafKind {
  const types = schemas.map((s) => defOf(s).type);
  if (types.includes('number')) {
    const int = schemas.some((s) =>
      checksOf(s).some((c) => c.check === 'number_format' && /int/.test(c.format!)),
    );
    return int ? 'int' : 'number';
  }
  if (types.includes('string')) {
    const dated = schemas.some(
      (s) =>
        ['day', 'dateTime'].includes(bounds.get(s)?.kind ?? '') ||
        ['datetime', 'date'].includes(String(defOf(s).format)) ||
        checksOf(s).some((c) => c.pattern && /\\d\{4\}-/.test(c.pattern.source)),
    );
    return dated || (typeof key === 'string' && DATE_KEY.test(key)) ? 'date' : 'string';
  }
  return 'other';
}

/** Every input of a part, to `maxDepth` levels (arrays: their first element; unions: each option). */
export function leavesOf(schema: z.ZodType | undefined, part: Part, maxDepth = 6): Leaf[] {
  const out: Leaf[] = [];
  const seen = new Set<string>();
  const walk = (s: z.ZodType, path: (string | number)[], depth: number) => {
    if (depth > maxDepth) return;
    const schemas = core(s);
    const inner = schemas[0]!;
    const d = defOf(inner);
    if (d.type === 'object') {
      for (const [k, v] of Object.entries(d.shape as Record<string, z.ZodType>))
        walk(v, [...path, k], depth + 1);
    } else if (d.type === 'array') walk(d.element as z.ZodType, [...path, 0], depth + 1);
    else if (d.type === 'union') for (const o of d.options as z.ZodType[]) walk(o, path, depth + 1);
    else if (d.type === 'intersection') {
      walk(d.left as z.ZodType, path, depth);
      walk(d.right as z.ZodType, path, depth);
    } else if (d.type === 'lazy') walk((d.getter as () => z.ZodType)(), path, depth + 1);
    else if (d.type === 'record') walk(d.valueType as z.ZodType, [...path, 'key'], depth + 1);
    else {
      const key = path.join('.');
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ part, path, schemas, kind: kindOf(schemas, path.at(-1)) });
    }
  };
  if (schema) walk(schema, [], 0);
  return out;
}

/** Every input of a contract. */
export const inputsOf = (c: RouteContract): Leaf[] => [
  ...leavesOf(c.params, 'params'),
  ...leavesOf(c.query, 'query'),
  ...(c.bodyKind === 'multipart' ? [] : leavesOf(c.body, 'body')),
];

/** The largest value a number leaf declares (`.max()`, `.lte()`, `.lt()`), or undefined. */
export function declaredMax(leaf: Leaf): number | undefined {
  const maxima = leaf.schemas.flatMap((s) =>
    checksOf(s)
      .filter((c) => c.check === 'less_than')
      .map((c) => c.value!),
  );
  return maxima.length ? Math.min(...maxima) : undefined;
}

/**
 * What is wrong with a leaf's bounds, if anything: an integer must declare a maximum that fits an
 * `integer` column, or be a back-office id (`extId`: up to 2^53 − 1, the bigint ids); any other number
 * a maximum JSON carries exactly; a date must be one of the bounded kinds of common.ts.
 */
export function boundProblem(leaf: Leaf): string | undefined {
  if (leaf.kind === 'int' || leaf.kind === 'number') {
    const max = declaredMax(leaf);
    if (max === undefined) return 'declares no maximum';
    if (leaf.kind === 'int' && max > INT4_MAX && max !== EXT_ID_MAX)
      return `maximum ${max}: above an integer column and not a back-office id (${EXT_ID_MAX})`;
    if (max > EXT_ID_MAX) return `maximum ${max} is past what JSON carries`;
    return undefined;
  }
  if (leaf.kind === 'date') {
    const bounded = leaf.schemas.some((s) => ['day', 'dateTime'].includes(bounds.get(s)?.kind ?? ''));
    if (!bounded) return 'a date that is not one of the bounded kinds (dateInput, dateTimeInput, dayString)';
  }
  const decimal = leaf.schemas.map((s) => bounds.get(s)).find((m) => m?.kind === 'decimal');
  if (decimal && BigInt(decimal.max!) > 9_223_372_036_854_775_807n) return 'a cursor past bigint';
  return undefined;
}

// ---- samples and edges ---------------------------------------------------------------------------

const STRING_CANDIDATES = [
  'walk',
  'walk@acme.example',
  'https://example.com/hook',
  '2026-11-20',
  '2026-11-20T10:00:00Z',
  '09:00',
  'Europe/Rome',
  '#336699',
  '00000000-0000-4000-8000-000000000000',
  'acme',
  '1',
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ',
  'Walk-Password-2026!',
];

/** A value the schema accepts, as small as possible (optional keys left out), or undefined. */
export function sampleOf(s: z.ZodType, depth = 0): unknown {
  if (depth > 12) return undefined;
  const d = defOf(s);
  switch (d.type) {
    case 'optional':
      return undefined;
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sampleOf(d.innerType as z.ZodType, depth + 1);
    case 'pipe':
      return sampleOf(d.in as z.ZodType, depth + 1);
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(d.shape as Record<string, z.ZodType>)) {
        const x = sampleOf(v, depth + 1);
        if (x !== undefined) o[k] = x;
      }
      return o;
    }
    case 'array': {
      const min = checksOf(s).find((c) => c.check === 'min_length');
      return min ? [sampleOf(d.element as z.ZodType, depth + 1)] : [];
    }
    case 'union':
      for (const o of d.options as z.ZodType[]) {
        const x = sampleOf(o, depth + 1);
        if (o.safeParse(x).success) return x;
      }
      return sampleOf((d.options as z.ZodType[])[0]!, depth + 1);
    case 'intersection':
      return Object.assign(
        {},
        sampleOf(d.left as z.ZodType, depth + 1),
        sampleOf(d.right as z.ZodType, depth + 1),
      );
    case 'lazy':
      return sampleOf((d.getter as () => z.ZodType)(), depth + 1);
    case 'record':
      return {};
    case 'enum':
      return Object.values(d.entries as Record<string, unknown>)[0];
    case 'literal':
      return (d.values as unknown[])[0];
    case 'boolean':
      return false;
    case 'number': {
      for (const n of [1, 0, 5, 30, 60, 100]) if (s.safeParse(n).success) return n;
      const min = checksOf(s).find((c) => c.check === 'greater_than');
      return min?.value ?? 1;
    }
    case 'string': {
      const min = checksOf(s).find((c) => c.check === 'min_length')?.value ?? 0;
      for (const c of [...STRING_CANDIDATES, 'x'.repeat(Math.max(1, Number(min)))])
        if (s.safeParse(c).success) return c;
      return 'x';
    }
    default:
      return undefined;
  }
}

const DIGITS_21 = '999999999999999999999';
const NUMBER_EDGES: unknown[] = [-1, 2 ** 31, EXT_ID_MAX, 2 ** 53, 1e21];
const TEXT_NUMBER_EDGES = ['-1', '2147483648', String(EXT_ID_MAX), '9007199254740992', DIGITS_21, '007'];
const STRING_EDGES = ['', 'x'.repeat(10_000), 'a\u0000b', DIGITS_21];
const DATE_EDGES = [
  '0000-01-01',
  '0001-01-01',
  '+275760-09-13T00:00:00Z',
  '2026-01-01T00:00:00-20:00',
  '9999-12-31T23:59:59-15:59',
];

/** The edge values a leaf is sent (text for the path and the query). */
export function edgesOf(leaf: Leaf): unknown[] {
  const text = leaf.part !== 'body';
  switch (leaf.kind) {
    case 'int':
    case 'number':
      return text ? TEXT_NUMBER_EDGES : NUMBER_EDGES;
    case 'date':
      return [...DATE_EDGES, 'a\u0000b'];
    case 'string':
      // A path parameter is one segment: an empty one is another route.
      return text && leaf.part === 'params' ? STRING_EDGES.slice(1) : STRING_EDGES;
    default:
      return ['x', -1];
  }
}

/** `value` with `leaf.path` set to `edge` (arrays and objects on the way made as needed). */
export function withLeaf(value: unknown, path: (string | number)[], edge: unknown): unknown {
  if (path.length === 0) return edge;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr = Array.isArray(value) ? [...(value as unknown[])] : [];
    arr[head] = withLeaf(arr[head], rest, edge);
    return arr;
  }
  const obj = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object) } : {};
  (obj as Record<string, unknown>)[head!] = withLeaf((obj as Record<string, unknown>)[head!], rest, edge);
  return obj;
}
