/** SPEC A9: search debounce. */
export const SEARCH_DEBOUNCE_MS = 200;

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Tickets whose title contains every typed word, ignoring case and accents. */
export function filterTicketsByTitle<T extends { title: string }>(tickets: readonly T[], text: string): T[] {
  const words = fold(text).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...tickets];
  return tickets.filter((t) => {
    const title = fold(t.title);
    return words.every((w) => title.includes(w));
  });
}
