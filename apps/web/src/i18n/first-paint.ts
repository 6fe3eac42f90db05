/**
 * The Italian texts of the first paint: the shell (header and its menus, main menu, footer, loaders, error
 * texts) and My tickets, where a contact lands. The build splits it-IT.json in two by this list
 * (`it-IT.json?first-paint` in the first load, `it-IT.json?rest` fetched by every other page before it
 * shows, and by the shell when idle; vite.config.ts); the file itself stays whole, for translators and
 * the parity test. A text new to the shell or to My tickets goes into this list: first-paint.test.tsx
 * renders them with these texts alone and names any key missing.
 *
 * Each entry is a key path (a whole section or one text); `!path` leaves a part of a listed section out.
 */
export const FIRST_PAINT_TEXTS: readonly string[] = [
  'common',
  'layout',
  'menu',
  'dashboard',
  'theme',
  'search',
  'notifications',
  'widgets',
  'following.sort',
  'following.sortActivity',
  'following.sortCreated',
  'following.ticketSent',
  'following.unread',
  'following.waiting',
  'tickets',
  '!tickets.new',
  '!tickets.detail',
  '!tickets.editor',
  '!tickets.upload',
  'account.menuItem',
  'auth.privacyLink',
  'overview.menu',
];

export type Texts = { [key: string]: string | Texts };

const pathOf = (entry: string) => entry.replace(/^!/, '').split('.');

function get(tree: Texts, path: string[]): string | Texts | undefined {
  let at: string | Texts | undefined = tree;
  for (const k of path) at = typeof at === 'object' ? at[k] : undefined;
  return at;
}

function put(tree: Texts, path: string[], value: string | Texts): void {
  let at = tree;
  for (const k of path.slice(0, -1)) at = (at[k] ??= {}) as Texts;
  at[path[path.length - 1]!] = value;
}

function drop(tree: Texts, path: string[]): void {
  const [k, ...rest] = path;
  const child = tree[k!];
  if (rest.length === 0 || typeof child !== 'object') delete tree[k!];
  else {
    drop(child, rest);
    if (Object.keys(child).length === 0) delete tree[k!];
  }
}

const copy = (tree: Texts): Texts => JSON.parse(JSON.stringify(tree)) as Texts;

/**
 * `[firstPaint, rest]`: the texts the list names, and all the others. Together they are the whole tree,
 * each text in exactly one of them. An entry naming no text is an error (a renamed key).
 */
export function splitTexts(all: Texts, entries: readonly string[] = FIRST_PAINT_TEXTS): [Texts, Texts] {
  const first: Texts = {};
  for (const entry of entries) {
    const value = get(all, pathOf(entry));
    if (value === undefined) throw new Error(`texts of a first load: ${entry} names no text`);
    if (entry.startsWith('!')) drop(first, pathOf(entry));
    else put(first, pathOf(entry), typeof value === 'string' ? value : copy(value));
  }
  const rest = copy(all);
  const leaves = (tree: Texts, prefix: string[]): string[][] =>
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === 'string' ? [[...prefix, k]] : leaves(v, [...prefix, k]),
    );
  for (const path of leaves(first, [])) drop(rest, path);
  return [first, rest];
}
