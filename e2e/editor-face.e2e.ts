import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch } from './browser';
import { LANGS, login, signedIn } from './kit';

/**
 * The new ticket's description editor comes after the form (tiptap, lib/first-content): until then its
 * face stands in (ui/html-editor.tsx), of the editor's own height at every width and in every language,
 * so the attachments and buttons below it do not move when it comes (issue 30's layout shift).
 */
const NEW_TICKET = `${baseUrl}/demo/11/tickets/new`;

/** The editor's code held back until `release`. */
async function holdEditor(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/html-editor-tiptap-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const dropzoneY = (page: Page) =>
  page.evaluate(() => document.querySelector('.mantine-Dropzone-root')!.getBoundingClientRect().y);

describe('the new ticket editor face', () => {
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    browser = await launch();
    token = await login('demo');
  });
  afterAll(() => browser?.close());

  it('is as high as the editor at 360, 412 and 1366 px in every language: nothing below moves', async () => {
    for (const width of [360, 412, 1366])
      for (const [, language] of LANGS) {
        const context = await signedIn(browser, token, { width, language });
        const page = await context.newPage();
        const release = await holdEditor(page);
        await page.goto(NEW_TICKET);
        const face = page.locator('[data-editor-face]');
        await face.waitFor();
        // The face's height and the attachments' place read together, once the face is laid out: on a
        // loaded machine a first read could come between two renders, the form not laid out (height 0).
        let faceHeight = 0;
        let before = 0;
        await expect
          .poll(async () => {
            [faceHeight, before] = await page.evaluate(() => [
              document.querySelector('[data-editor-face]')?.getBoundingClientRect().height ?? 0,
              document.querySelector('.mantine-Dropzone-root')?.getBoundingClientRect().y ?? 0,
            ]);
            return faceHeight > 0 && before > 0;
          })
          .toBe(true);
        release();
        const toolbar = page.getByRole('toolbar');
        await toolbar.waitFor();
        const editorHeight = await toolbar.evaluate((t) => t.parentElement!.getBoundingClientRect().height);
        expect(Math.abs(editorHeight - faceHeight), `${width} px, ${language}`).toBeLessThan(0.5);
        expect(Math.abs((await dropzoneY(page)) - before), `${width} px, ${language}`).toBeLessThan(0.5);
        await context.close();
      }
  }, 180_000);
});
