import type { Page } from 'playwright-core';

/**
 * What the journeys of the server-drawn pages share (the sign-in, the customer frames, the public
 * frames): the app's code held back, and each part's box as the drawn page and as the app draw it.
 */

/** A part's name, its selector in the drawn frame and in the app. */
export type FramePart = [name: string, frame: string, app: string];

/** The parts' boxes on one side (1: the frame, 2: the app); a page area ("main") by its top and width. */
export const frameBoxes = (page: Page, parts: FramePart[], side: 1 | 2) =>
  page.evaluate(
    ({ parts, side }) =>
      parts.map((p) => {
        const r = document.querySelector(p[side])?.getBoundingClientRect();
        if (!r || r.width === 0) return `${p[0]} none`;
        // The page area grows with the page's content, below the fold: its top and width are the frame's.
        const height = p[0] === 'main' ? '' : `×${Math.round(r.height)}`;
        return `${p[0]} ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}${height}`;
      }),
    { parts, side },
  );

/** The app's code held back until `release`: the page as a phone shows it before the script has run. */
export async function holdAppCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The frame is gone and the app's page shows its heading in its place. */
export const frameTakenOver = (page: Page) =>
  page.waitForFunction(
    () =>
      !document.getElementById('customer-frame') &&
      (document.querySelector('#root main h1')?.getBoundingClientRect().width ?? 0) > 0,
  );
