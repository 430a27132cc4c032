/// <reference lib="dom" />
// Day one for a Zotero user (issue 33, points 1 to 4) in Chromium against the local service: a new
// item typed in from the keyboard (a thesis, its ISBN checked, Ctrl+Enter, Undo), Duplicate item and
// Regenerate citation keys from the context menu, Add by identifier with a mixed list (and a book made
// by hand from a refused ISBN), the key formula in Settings with its live preview and its error, and a
// Better BibTeX .bib whose PDFs come with it. Every dialog is screenshotted in both themes and axe-checked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { makePdf } from '../helpers/pdfs';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText, shownTexts } from './text';

describe('Day one for a Zotero user', () => {
  let service: RunningService;
  let data: ReturnType<typeof tempDir>;
  let files: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let knownDoi: string;

  const count = () => shownText(page.getByTestId('item-count'));
  const toast = () => shownText(page.getByTestId('toast'));
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 400, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    knownDoi = service.corpus.db.prepare('SELECT doi FROM papers ORDER BY id LIMIT 1 OFFSET 7').pluck().get() as string;
    data = tempDir('citewise-day-one-');
    files = tempDir('citewise-day-one-files-');
    const seed = join(files.path, 'seed.bib');
    writeFileSync(
      seed,
      '@article{kuhn1962, title = {The Structure of Scientific Revolutions}, author = {Kuhn, Thomas S.}, year = {1962}}\n',
    );
    await cli(data.path, service.url, 'import', seed);
    app = await launchApp({
      dataDir: data.path,
      env: {
        CITEWISE_SERVICE_URL: service.url,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByTestId('item-count').filter({ hasText: '1 item' }).waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
    data?.remove();
    files?.remove();
  });

  it('types in a thesis from the keyboard: fields of its type, a bad ISBN caught, Ctrl+Enter, Undo', async () => {
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+Shift+N');
    const dialog = page.getByTestId('new-item-dialog');
    await dialog.waitFor();
    // The type comes first, focused; the fields follow the type chosen.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-type');
    await dialog.getByLabel('Item type').selectOption('thesis');
    expect(await dialog.getByText('University', { exact: true }).count()).toBe(1);
    await dialog.getByLabel('Title', { exact: true }).fill('On the Errors of Citation');
    await dialog.getByLabel('Thesis type').fill('PhD thesis');
    await dialog.getByLabel('University').fill('University of Cambridge');
    await dialog.getByLabel('Date', { exact: true }).fill('2019-06');
    await dialog.getByLabel('ISBN').fill('0-306-40615-3');
    await dialog.getByLabel('Archive', { exact: true }).focus();
    await expect
      .poll(() => shownText(dialog.locator('#new-ISBN-problem')))
      .toBe('0-306-40615-3: The ISBN-10 check digit should be 2, not 3: the ISBN is probably mistyped.');
    await dialog.getByLabel('Family name').fill('Darwin');
    await dialog.getByLabel('Given name').fill('Erasmus');
    await shootThemes(page, 'new-item-thesis-error');
    // Saving is refused while the ISBN is wrong, and the focus goes to it.
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-ISBN');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('0-306-40615-2');
    await page.keyboard.press('Control+Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(toast).toContain('Added “On the Errors of Citation” as darwinErrorsCitation2019');
    await expect.poll(count).toBe('2 items');
    await expect.poll(() => shownText(page.getByTestId('details-title'))).toBe('On the Errors of Citation');
    expect(await page.getByTestId('item-details').locator('#f-publisher').inputValue()).toBe('University of Cambridge');
    await shootThemes(page, 'new-item-created');
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(toast).toContain('Undid: Add item “On the Errors of Citation” (moved to the Trash)');
    await expect.poll(count).toBe('1 item');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(count).toBe('2 items');
  });

  it('duplicates an item and regenerates keys from the context menu, each one undo step', async () => {
    await rowAt(0).click();
    await rowAt(0).click({ button: 'right' });
    const menu = page.getByTestId('selection-menu');
    await menu.waitFor();
    expect(await shownTexts(menu.getByRole('menuitem'))).toContain('Duplicate item');
    await menu.getByRole('menuitem', { name: 'Duplicate item' }).click();
    await expect.poll(toast).toContain('Duplicated as darwinErrorsCitation2019a');
    await expect.poll(count).toBe('3 items');
    await page.keyboard.press('Control+z');
    await expect.poll(count).toBe('2 items');

    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Shift+F10');
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: 'Regenerate citation keys…' }).click();
    const confirm = page.locator('dialog[open]');
    await confirm.waitFor();
    expect(await shownText(confirm)).toContain('2 items will get keys from the formula in Settings → Citation keys');
    await shootThemes(page, 'regenerate-keys-confirm');
    await confirm.getByRole('button', { name: 'Regenerate keys' }).click();
    // The key the import kept is not the formula's; the one made by the formula is already what it gives.
    await expect.poll(toast).toContain('New citation keys for 1 item (1 already as the formula gives)');
    await rowAt(1).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Citation key' }).inputValue())
      .toMatch(/^(kuhnStructureScientificRevolutions1962|darwinErrorsCitation2019)$/);
  });

  it('adds a mixed list by identifier, and makes a book by hand from an ISBN the service cannot look up', async () => {
    await page.getByTestId('add-button').click();
    await page.getByRole('button', { name: 'By identifier…' }).click();
    const dialog = page.getByTestId('identifier-dialog');
    await dialog
      .locator('textarea')
      .fill(
        [knownDoi, 'arXiv:2101.00001v2', 'PMID: 31452104', 'ISBN 978-3-16-148410-0', '0-306-40615-2', 'nonsense'].join(
          '\n',
        ),
      );
    await shootThemes(page, 'identifier-dialog-input');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => shownText(dialog.getByTestId('identifier-report')), { timeout: 30_000 })
      .toBe('Added 1 item, 1 already in your library, 4 not added.');
    expect(await shownText(dialog.getByTestId('identifiers-duplicate'))).toContain('ISBN 9780306406157');
    const refused = await shownText(dialog.getByTestId('identifiers-not-added'));
    expect(refused).toContain('arXiv:2101.00001v2: the citation service does not know this arXiv paper');
    expect(refused).toContain('PMID 31452104: the citation service finds papers by DOI only');
    expect(refused).toContain('nonsense: not a DOI');
    await shootThemes(page, 'identifier-dialog-report');
    await dialog.getByRole('button', { name: 'New book with this ISBN…' }).click();
    const book = page.getByTestId('new-item-dialog');
    await book.waitFor();
    expect(await book.getByLabel('Item type').inputValue()).toBe('book');
    expect(await book.getByLabel('ISBN').inputValue()).toBe('9783161484100');
    await book.getByLabel('Title', { exact: true }).fill('Logik der Forschung');
    await shootThemes(page, 'new-item-book-from-isbn');
    await book.getByTestId('new-item-save').click();
    await expect.poll(toast).toContain('Added “Logik der Forschung”');
    await expect.poll(count).toBe('4 items');
  });

  it('sets the key formula in Settings with a live preview, says where a formula is wrong, and new items follow it', async () => {
    await page.locator('nav[aria-label="Panes"] button[data-pane="settings"]').click();
    const section = page.getByTestId('citation-keys');
    await section.waitFor();
    const input = section.getByTestId('key-formula');
    await expect.poll(() => input.inputValue()).toBe('auth.lower + shorttitle(3,3) + year');
    await input.fill('autor.lower + year');
    await expect
      .poll(() => shownText(section.getByTestId('formula-problem')))
      .toContain('There is no function "autor"; did you mean auth? (character 1)');
    expect(await section.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await shootThemes(page, 'settings-key-formula-error');
    await input.fill("auth.lower + '_' + year");
    await expect.poll(() => shownText(section.getByTestId('key-preview'))).toContain('darwin_2019');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => shownText(section.getByTestId('formula-saved'))).toContain('Saved');
    await section.locator('summary').click();
    await shootThemes(page, 'settings-key-formula');
    // A new item takes it; the items already there keep their keys.
    await page.locator('nav[aria-label="Panes"] button[data-pane="library"]').click();
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+Shift+N');
    const dialog = page.getByTestId('new-item-dialog');
    await dialog.getByLabel('Item type').selectOption('webpage');
    await dialog.getByLabel('Title', { exact: true }).fill('A page');
    await dialog.getByLabel('Family name').fill('Hopper');
    await dialog.getByLabel('Date', { exact: true }).fill('2021');
    await dialog.getByLabel('Website', { exact: true }).press('Enter');
    await expect.poll(toast).toContain('as hopper_2021');
  });

  it('imports a Better BibTeX .bib with its PDFs: asks where relative paths start, reports the one not found', async () => {
    const folder = join(files.path, 'Zotero export');
    mkdirSync(join(folder, 'files', 'Ada:1843'), { recursive: true });
    writeFileSync(
      join(folder, 'files', 'Ada:1843', 'Lovelace - 1843 - Notes.pdf'),
      await makePdf({ title: 'Notes on the Analytical Engine', pages: [['Bernoulli numbers, computed.']] }),
    );
    const absolute = join(files.path, 'Babbage.pdf');
    writeFileSync(absolute, await makePdf({ title: 'Passages', pages: [['Difference engines.']] }));
    const bib = [
      '@article{lovelace1843,',
      '  title = {Notes on the Analytical Engine},',
      '  author = {Lovelace, Ada},',
      '  year = {1843},',
      '  file = {Full Text PDF:files/Ada\\:1843/Lovelace - 1843 - Notes.pdf:application/pdf;Snapshot:files/Ada\\:1843/gone.html:text/html}',
      '}',
      `@book{babbage1864, title = {Passages from the Life of a Philosopher}, author = {Babbage, Charles}, year = {1864}, file = {${absolute}}}`,
      '',
    ].join('\n');
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'Zotero export.bib', mimeType: 'application/x-bibtex', buffer: Buffer.from(bib) });
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-summary').waitFor();
    expect(await shownText(dialog.getByTestId('import-files-preview'))).toContain(
      "The entries name 3 files (PDFs and others); they are attached to their items, 2 of them by a path relative to the file's folder",
    );
    await dialog.getByTestId('import-folder').fill(join(files.path, 'nowhere'));
    await dialog.getByRole('button', { name: /^Import 2 entries/ }).click();
    await expect.poll(() => shownText(dialog.locator('#folder-error'))).toContain('There is no folder at');
    await dialog.getByTestId('import-folder').fill(folder);
    await shootThemes(page, 'import-bib-files-preview');
    await dialog.getByRole('button', { name: /^Import 2 entries/ }).click();
    await expect
      .poll(() => shownText(dialog.getByTestId('import-files-report')), { timeout: 30_000 })
      .toContain('2 files attached, 1 not found.');
    expect(await shownText(dialog.getByTestId('import-files-problems'))).toContain(
      'lovelace1843 Not found (looked for',
    );
    await shootThemes(page, 'import-bib-files-report');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.locator('[role="row"][data-id]').filter({ hasText: 'Notes on the Analytical Engine' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-details'))).toContain('Lovelace - 1843 - Notes.pdf');
    expect(problems.errors).toEqual([]);
  });
});
