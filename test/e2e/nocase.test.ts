// Braced words of a BibTeX title ({DNA}) become CSL's <span class="nocase"> in the library, so that
// no style changes their case. Wherever the app shows the title, that markup must be rendered (as the
// word), never shown as text: in the import preview, the table's title, the details and an exported
// bibliography, in every style.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITATION_STYLE_IDS } from '../../shared/model/csl';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText } from './text';

const BIB = [
  '@article{lee2020,',
  '  title = {The {DNA} of \\textit{E. coli} in {iPhone} users},',
  '  author = {Lee, Alice},',
  '  journal = {Journal of {pH} Studies},',
  '  year = {2020}',
  '}',
  '',
].join('\n');

describe('nocase markup is rendered, never shown', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    app = await launchApp();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Panes' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('in the import preview', async () => {
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'braces.bib', mimeType: 'application/x-bibtex', buffer: Buffer.from(BIB) });
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-summary').waitFor();
    const row = dialog.locator('table tbody tr').first();
    const title = row.locator('td').nth(1);
    // As the table shows titles: CSL's markup read as its text, anything else kept as text.
    expect(await shownText(title)).toBe('The DNA of E. coli in iPhone users');
    await screenshot(page, 'nocase-import-preview');
    await dialog.getByRole('button', { name: /^Import 1 entry/ }).click();
    await dialog.getByTestId('import-report').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('1 item');
  });

  it('in the table and the details', async () => {
    const row = page.locator('[role="row"][data-index="0"]');
    // The title column (the Container column is the Library table's own, reported separately).
    expect(await shownText(row.locator('[data-col="title"]'))).toBe('The DNA of E. coli in iPhone users');
    await row.click();
    await page.keyboard.press('Enter');
    await expect.poll(() => shownText(page.getByTestId('details-title'))).toBe('The DNA of E. coli in iPhone users');
  });

  it('in the bibliography of the Export dialog, in every style', async () => {
    await page.locator('[role="row"][data-index="0"]').click();
    await page.getByTestId('export-button').click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    await dialog.getByTestId('export-format').selectOption('html');
    const bib = dialog.getByTestId('export-bibliography');
    for (const style of CITATION_STYLE_IDS) {
      await dialog.getByTestId('export-style').selectOption(style);
      // MLA and Chicago put titles in title case; the braced words keep theirs.
      const title =
        style === 'mla' || style === 'chicago'
          ? 'The DNA of E. Coli in iPhone Users'
          : style === 'bibtex'
            ? '{DNA}'
            : 'The DNA of E. coli in iPhone users';
      await expect.poll(() => shownText(bib), { timeout: 20_000 }).toContain(title);
      expect(await shownText(bib), style).not.toMatch(/nocase|<span/);
    }
    await screenshot(page, 'nocase-export');
  });

  it('logged no console errors', () => {
    expect(problems.errors).toEqual([]);
  });
});
