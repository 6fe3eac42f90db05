import { startTransition, useEffect, useState } from 'react';

/** Rows of the first paint (what a laptop screen shows, and more); the rest follow in batches. */
export const FIRST_ROWS = 10;
const BATCH_ROWS = 15;

/**
 * How many rows to render now: a long list paints its first screen at once and the rest a batch per
 * frame, so no single long task holds the page (hundreds of rows take a second on a slow phone). Rows
 * already shown are memoised and not rendered again when the next batch arrives.
 */
export function useProgressiveCount(total: number, first = FIRST_ROWS): number {
  const [shown, setShown] = useState(first);
  useEffect(() => {
    if (shown >= total) return;
    // After the next paint, not before it: the frame with the first rows goes out first.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      // A transition: the batch renders in slices of a few ms, not as one task.
      timer = setTimeout(() => startTransition(() => setShown((n) => n + BATCH_ROWS)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, total]);
  return Math.min(shown, total);
}
