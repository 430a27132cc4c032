/// <reference lib="dom" />
// axe with the Library's remaining dialogs open (issue 32), in the light and the dark theme, no
// violation of any impact: Add PDFs, the tag dialog (rename, colour), the confirmations (delete a tag,
// move a collection to the Trash, delete for good, empty the Trash) and Settings → restore a backup.
// Each is opened from the keyboard and checked as a dialog: modal, named by its heading, focus inside,
// Escape closes it, focus goes back to what opened it (dialog-a11y.ts). The Conflicts dialog is
// checked in sharing.test.ts, which has a shared library.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { tempDir } from '../helpers/tmp';
import { checkDialog } from './dialog-a11y';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText } from './text';

const BIB = [
  '@article{ames2001, title = {Soil carbon under grazing}, author = {Ames, Ann}, journal = {Soil Biology}, year = {2001}, keywords = {to-read, soils}}',
  '@article{baker2002, title = {Grassland nitrogen budgets}, author = {Baker, Bo}, journal = {Oecologia}, year = {2002}, keywords = {toread}}',
  '@book{cole2003, title = {Alpine meadow microbes}, author = {Cole, Cy}, publisher = {Alpine Press}, year = {2003}, keywords = {soils}}',
  '@article{dunn2004, title = {Peat decomposition rates}, author = {Dunn, Di}, journal = {Wetlands}, year = {2004}}',
  '',
].join('\n');

describe('axe and the dialog pattern in the Library’s other dialogs', () => {
  let dataDir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  const tag = (name: string) => page.locator(`.tag-list [data-tag="${name}"]`);
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]:visible`);
  const rows = () => page.locator('[role="row"][data-index]:visible').count();
  const count = () => shownText(page.getByTestId('item-count'));
  const pane = (name: string) => page.locator(`nav button[data-pane="${name}"]`).click();

  beforeAll(async () => {
    dataDir = tempDir('citewise-a11y-library-');
    const bib = join(dataDir.path, 'refs.bib');
    writeFileSync(bib, BIB);
    await cli(dataDir.path, 'http://127.0.0.1:9', 'import', bib);
    app = await launchApp({ dataDir: dataDir.path, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByTestId('item-count').filter({ hasText: '4 items' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dataDir?.remove();
  });

  it('Add PDFs, with a summary of what was added', async () => {
    const add = page.getByTestId('add-button');
    await add.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('New item…');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'PDFs…' }).focus();
    await page.keyboard.press('Enter');
    await (
      await chooser
    ).setFiles([
      {
        name: 'heat.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(
          await makePdf({
            title: 'Ribosome stalling in yeast under heat',
            byline: 'A. Müller',
            pages: [['Published as doi:10.5555/heat.2024 in a journal.']],
          }),
        ),
      },
      { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a PDF at all') },
    ]);
    const dialog = page.getByTestId('pdf-add-dialog');
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 60_000 })
      .toMatch(/Added 1 PDF of 2 files/);
    expect(await checkDialog(page, 'pdf-add-dialog', dialog, add)).toEqual([]);
    await expect.poll(count).toBe('5 items');
  }, 120_000);

  it('the tag dialog (F2 on a tag) and the confirmation to delete a tag (Delete on it)', async () => {
    await tag('soils').focus();
    await page.keyboard.press('F2');
    const dialog = page.getByTestId('tag-dialog');
    expect(await checkDialog(page, 'tag-dialog', dialog, tag('soils'), 'Tag “soils”')).toEqual([]);

    await tag('toread').focus();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog');
    expect(await checkDialog(page, 'delete-tag-dialog', confirm, tag('toread'))).toEqual([]);
    expect(await tag('toread').count()).toBe(1);
  });

  it('the confirmation to move a collection to the Trash', async () => {
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByRole('textbox', { name: 'New collection name' }).fill('Thesis');
    await page.keyboard.press('Enter');
    const remove = page.getByRole('button', { name: 'Move Thesis to the Trash' });
    await remove.waitFor();
    await remove.focus();
    await page.keyboard.press('Enter');
    expect(await checkDialog(page, 'delete-collection-dialog', page.getByRole('dialog'), remove)).toEqual([]);
    expect(await page.locator('[data-collection]', { hasText: 'Thesis' }).count()).toBe(1);
  });

  it('in the Trash: delete for good and empty the Trash', async () => {
    await page.getByTestId('view-library').click();
    await page.getByRole('searchbox', { name: 'Search the library' }).fill('peat');
    await expect.poll(count).toBe('1 item');
    await rowAt(0).click();
    await page.keyboard.press('Delete');
    await page.getByRole('searchbox', { name: 'Search the library' }).fill('');
    await page.getByTestId('view-trash').click();
    await expect.poll(rows).toBe(1);
    const trash = page.getByRole('region', { name: 'Trash' });
    await rowAt(0).click();
    const forGood = trash.getByRole('button', { name: 'Delete for good' });
    await forGood.focus();
    await page.keyboard.press('Enter');
    expect(
      await checkDialog(page, 'delete-for-good-dialog', page.getByRole('dialog'), forGood, 'Delete for good?'),
    ).toEqual([]);

    const empty = trash.getByRole('button', { name: 'Empty Trash' });
    await empty.focus();
    await page.keyboard.press('Enter');
    expect(await checkDialog(page, 'empty-trash-dialog', page.getByRole('dialog'), empty)).toEqual([]);
    expect(await rows()).toBe(1);
  });

  it('Settings → Library: the confirmation to restore a backup', async () => {
    await pane('settings');
    await page.getByTestId('backup-now').click();
    await expect.poll(() => shownText(page.getByTestId('backup-result')), { timeout: 20_000 }).toMatch(/Backed up to/);
    const restore = page.getByTestId('restore-backup').first();
    await restore.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('restore-dialog');
    expect(await checkDialog(page, 'restore-dialog', dialog, restore, 'Restore this backup?')).toEqual([]);
    expect(problems.errors).toEqual([]);
  }, 60_000);
});
