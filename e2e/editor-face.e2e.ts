import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch } from './browser';
import { expectAccessible, LANGS, login, signedIn } from './kit';

/**
 * The new ticket's description editor (tiptap) is built when the user reaches it (ui/html-editor.tsx,
 * `onDemand`): until then its face stands in, of the editor's own height at every width and in every
 * language, so the attachments and buttons below it do not move when it comes (issue 30's layout
 * shift), and it is the editor for the keyboard and screen readers: a labelled textbox that keeps what
 * is typed before the editor's code is here and hands it over with the focus.
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
        // The editor comes when the user reaches it.
        await page.locator('[data-editor-face] [role="textbox"]').click();
        const toolbar = page.getByRole('toolbar');
        await toolbar.waitFor();
        const editorHeight = await toolbar.evaluate((t) => t.parentElement!.getBoundingClientRect().height);
        expect(Math.abs(editorHeight - faceHeight), `${width} px, ${language}`).toBeLessThan(0.5);
        expect(Math.abs((await dropzoneY(page)) - before), `${width} px, ${language}`).toBeLessThan(0.5);
        await context.close();
      }
  }, 180_000);

  it('is not built until reached, and loses no key typed before it comes', async () => {
    const context = await signedIn(browser, token, { width: 360, language: 'en-EN' });
    const page = await context.newPage();
    let editorAsked = false;
    page.on('request', (r) => {
      if (/\/assets\/html-editor-tiptap-[^/]+\.js$/.test(r.url())) editorAsked = true;
    });
    await page.goto(NEW_TICKET);
    const face = page.getByRole('textbox', { name: /^Description/ });
    await face.waitFor();
    expect(await face.evaluate((e) => !!e.closest('[data-editor-face]'))).toBe(true);
    await page.waitForTimeout(1500);
    expect(editorAsked).toBe(false);
    await expectAccessible(page);

    const release = await holdEditor(page);
    // From the subject with the keyboard, as a keyboard or screen-reader user comes.
    await page.getByRole('textbox', { name: /^Subject/ }).focus();
    await page.keyboard.press('Tab');
    expect(await face.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('The printer <smokes>');
    await page.keyboard.press('Enter');
    await page.keyboard.type('since');
    release();
    await page.getByRole('toolbar').waitFor();
    await page.keyboard.type(' this morning');
    const editor = page.locator('.ProseMirror');
    await expect
      .poll(() => editor.locator('p').allInnerTexts())
      .toEqual(['The printer <smokes>', 'since this morning']);
    expect(await editor.evaluate((e) => e.contains(document.activeElement))).toBe(true);
    expect(await page.locator('[data-editor-face]').count()).toBe(0);
    await context.close();
  }, 120_000);
});
