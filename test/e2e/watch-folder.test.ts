// Settings → Watch a folder in the real app (browser mode): the path is typed and checked by the core,
// the status follows what the watcher does (a PDF dropped in the folder is added, a broken one is
// reported with why), and the choice survives a restart. Screenshots in light and dark.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { tempDir } from '../helpers/tmp';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText } from './text';

// The machine is shared and slow: a request and the re-render after it can take seconds.
const POLL = { timeout: 15_000 };

describe('Settings → Watch a folder', () => {
  let dir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let inbox: string;
  let dataDir: string;

  const open = async () => {
    ({ page, problems } = await newPage(
      await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' }),
    ));
    await page.goto(app.url);
    await page.locator('nav button[data-pane="settings"]').click();
    await page.getByTestId('watch-folder-path').scrollIntoViewIfNeeded();
  };

  beforeAll(async () => {
    dir = tempDir('citewise-watch-e2e-');
    dataDir = join(dir.path, 'data');
    inbox = join(dir.path, 'Downloads');
    mkdirSync(inbox);
    app = await launchApp({ dataDir });
    browser = await launchBrowser();
    await open();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dir?.remove();
  });

  it('says what is wrong with a folder that cannot be watched', async () => {
    await expect
      .poll(() => shownText(page.getByTestId('watch-folder-status')), POLL)
      .toContain('No folder is watched.');
    await page.getByTestId('watch-folder-path').fill(join(inbox, 'nope'));
    await page.getByTestId('watch-folder-set').click();
    await expect
      .poll(() => shownText(page.getByTestId('watch-folder-error')), POLL)
      .toBe(`The folder ${join(inbox, 'nope')} does not exist.`);
    expect(await page.getByTestId('watch-folder-stop').count()).toBe(0);
  });

  it('watches a folder: a PDF saved there is added, a broken one is reported', async () => {
    await page.getByTestId('watch-folder-path').fill(inbox);
    await page.getByTestId('watch-folder-set').click();
    await expect.poll(() => shownText(page.getByTestId('watch-folder-status')), POLL).toContain(`Watching ${inbox}`);
    expect(await page.getByTestId('watch-folder-error').count()).toBe(0);
    writeFileSync(
      join(inbox, 'smith-2021.pdf'),
      await makePdf({ title: 'Soil carbon under grazing', xmpDoi: '10.5555/e2e.watch.1' }),
    );
    writeFileSync(join(inbox, 'notes.pdf'), 'not a PDF at all\n');
    writeFileSync(join(inbox, 'draft.pdf.crdownload'), 'still downloading');
    await expect
      .poll(() => shownText(page.getByTestId('watch-folder-status')), { timeout: 30_000 })
      .toMatch(/1 PDF added, 1 file could not be added/);
    expect(await shownText(page.getByTestId('watch-folder-status'))).toContain('Last added: smith-2021.pdf');
    expect(await shownText(page.getByTestId('watch-folder-problem'))).toBe(
      'notes.pdf was not added: it is not a PDF (it does not start with a PDF header).',
    );
    await screenshot(page, 'settings-watch-folder-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'settings-watch-folder-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The library lists the PDF (placeholder titled from its page while the service is unreachable).
    await page.locator('nav button[data-pane="library"]').click();
    await expect.poll(() => page.getByText('Soil carbon under grazing').count(), POLL).toBeGreaterThan(0);
    expect(problems.errors).toEqual([]);
  });

  it('keeps the folder after a restart without adding the files again, and stops when asked', async () => {
    await browser.close();
    await app.stop();
    app = await launchApp({ dataDir });
    browser = await launchBrowser();
    await open();
    await expect.poll(() => shownText(page.getByTestId('watch-folder-status')), POLL).toContain(`Watching ${inbox}`);
    expect(await page.getByTestId('watch-folder-path').inputValue()).toBe(inbox);
    expect(await shownText(page.getByTestId('watch-folder-status'))).toMatch(/1 PDF added, 1 file could not be added/);
    await page.getByTestId('watch-folder-stop').click();
    await expect
      .poll(() => shownText(page.getByTestId('watch-folder-status')), POLL)
      .toContain('No folder is watched.');
    expect(problems.errors).toEqual([]);
  });
});
