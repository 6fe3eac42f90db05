/**
 * The limits of merging and of time spent (issue 28), without zod: the desk's forms use them, and
 * staff-merge.ts, which builds the schemas, would bring zod into the page's chunk.
 */

/** A merge can be undone by a portal admin for this long. */
export const MERGE_UNDO_HOURS = 24;
/** Minutes one time entry holds at most: a day. */
export const TIME_MINUTES_MAX = 1440;
export const TIME_NOTE_MAX = 500;
