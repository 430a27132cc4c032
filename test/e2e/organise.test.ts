/// <reference lib="dom" />
// Organising as a Zotero user does, in the Library: a tag renamed (and merged onto another), coloured
// with its key, toggled on the selection with that key, deleted with Undo; tag autocomplete in the
// details column; items related both ways. Screenshots in light and dark under test-results/, axe
// clean in both with the tag dialog open.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { allViolations } from './axe';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText } from './text';

const BIB = [
  '@article{ames2001, title = {Soil carbon under grazing}, author = {Ames, Ann}, year = {2001}, keywords = {to-read, soils}}',
  '@article{baker2002, title = {Grassland nitrogen budgets}, author = {Baker, Bo}, year = {2002}, keywords = {toread}}',
  '@article{cole2003, title = {Alpine meadow microbes}, author = {Cole, Cy}, year = {2003}, keywords = {soils}}',
  '',
].join('\n');

describe('Organising: tags and related items', () => {
  let dataDir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  const toast = () => shownText(page.getByTestId('toast'));
  const grid = () => page.getByTestId('item-table');
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);
  const tag = (name: string) => page.locator(`.tag-list [data-tag="${name}"]`);
  const tagNames = () =>
    page.locator('.tag-list [data-tag]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tag));
  const search = (text: string) => page.getByRole('searchbox', { name: 'Search the library' }).fill(text);
  const count = () => shownText(page.getByTestId('item-count'));

  async function shoot(name: string): Promise<void> {
    await page.waitForTimeout(150);
    await screenshot(page, `organise-${name}-light`);
    expect(await allViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.waitForTimeout(100);
    await screenshot(page, `organise-${name}-dark`);
    expect(await allViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  }

  beforeAll(async () => {
    dataDir = tempDir('citewise-organise-');
    const bib = join(dataDir.path, 'refs.bib');
    writeFileSync(bib, BIB);
    await cli(dataDir.path, 'http://127.0.0.1:9', 'import', bib);
    app = await launchApp({ dataDir: dataDir.path });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 860 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByTestId('item-count').filter({ hasText: '3 items' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dataDir?.remove();
  });

  it('renames a tag by keyboard (F2), merging onto an existing one after saying so, with Undo', async () => {
    await tag('toread').focus();
    await page.keyboard.press('F2');
    const dialog = page.getByTestId('tag-dialog');
    await dialog.waitFor();
    const name = dialog.getByRole('combobox', { name: 'Name' });
    await name.fill('to-read');
    expect(await shownText(dialog.locator('#tag-rename-hint'))).toContain('A tag “to-read” exists');
    await shoot('tag-dialog');
    await dialog.getByRole('button', { name: 'Merge into “to-read”' }).click();
    await expect.poll(toast).toContain('Renamed tag toread to to-read on 1 item');
    await expect.poll(tagNames).toEqual(['soils', 'to-read']);
    expect(await shownText(tag('to-read').locator('.count'))).toBe('2');
    await page.getByTestId('toast').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(tagNames).toEqual(['soils', 'to-read', 'toread']);
  });

  it('colours a tag with key 1, and key 1 in the table toggles it on the selection', async () => {
    await tag('soils').click({ button: 'right' });
    const dialog = page.getByTestId('tag-dialog');
    await dialog.getByRole('radio', { name: 'Green' }).check();
    await dialog.getByRole('button', { name: 'Save colour' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(tagNames).toEqual(['soils', 'to-read', 'toread']);
    expect(await tag('soils').locator('kbd').textContent()).toBe('1');
    // Select the Baker item (no soils) and the Ames item (soils): key 1 adds it to both.
    await search('nitrogen OR carbon');
    await expect.poll(count).toBe('2 items');
    await grid().focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('1');
    await expect.poll(toast).toContain('Added tag soils to 2 items');
    await expect.poll(() => shownText(tag('soils').locator('.count'))).toBe('3');
    await page.keyboard.press('1');
    await expect.poll(toast).toContain('Removed tag soils from 2 items');
    await expect.poll(() => shownText(tag('soils').locator('.count'))).toBe('1');
    await page.keyboard.press('Control+z');
    await expect.poll(() => shownText(tag('soils').locator('.count'))).toBe('3');
    await page.keyboard.press('2');
    await expect.poll(toast).toContain('No tag has key 2');
    await search('');
    await expect.poll(count).toBe('3 items');
    await shoot('colored-tag');
  });

  it('deletes a tag from every item after asking, and Undo brings it back', async () => {
    await tag('toread').focus();
    await page.keyboard.press('Delete');
    await page.getByRole('button', { name: 'Delete tag' }).click();
    await expect.poll(toast).toContain('Deleted tag toread from 1 item');
    await expect.poll(tagNames).toEqual(['soils', 'to-read']);
    await page.getByTestId('toast').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(tagNames).toEqual(['soils', 'to-read', 'toread']);
  });

  it('offers the library’s tags while a tag is typed in the details, and relates items both ways', async () => {
    await search('carbon');
    await expect.poll(count).toBe('1 item');
    await rowAt(0).click();
    const details = page.locator('[data-region="details"]');
    const options = () =>
      details
        .locator('#details-known-tags option')
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    // Ames has soils and to-read: the others are offered.
    await expect.poll(options).toEqual(['toread']);
    const first = await shownText(rowAt(0).locator('[data-col="title"]'));

    const picker = details.getByRole('combobox', { name: 'Relate an item: title, author or key' });
    await picker.fill('alpine');
    await details.getByRole('option', { name: /Alpine meadow microbes/ }).waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => shownText(details.getByTestId('related').locator('ul.related')))
      .toContain('Alpine meadow microbes');
    await shoot('related');
    // The other side sees it too; the link shows it in the table.
    await details.getByTestId('related').locator('button.link', { hasText: 'Alpine meadow microbes' }).click();
    await expect.poll(count).toBe('1 item');
    await expect.poll(() => shownText(details.getByTestId('related'))).toContain(first);
    await details.getByRole('button', { name: new RegExp(`Remove the relation to ${first}`) }).click();
    await expect.poll(() => details.getByTestId('related').locator('ul.related').count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  it('builds a query in the advanced search, nested, shows its text and count, searches and saves it', async () => {
    await search('author:ames');
    await expect.poll(count).toBe('1 item');
    await grid().focus();
    await page.keyboard.press('Control+Shift+F');
    const dialog = page.getByTestId('advanced-search');
    await dialog.waitFor();
    // Opened on the search box's query.
    expect(await dialog.getByRole('combobox', { name: 'Field of rule 1' }).inputValue()).toBe('author');
    expect(await dialog.getByRole('textbox', { name: 'Value of rule 1' }).inputValue()).toBe('ames');
    const text = () => shownText(dialog.getByTestId('advanced-search-text'));
    expect(await text()).toBe('author:ames');
    // Match any of: author ames, or a nested group (year between 2002 and 2003, not the tag soils).
    await dialog.getByRole('combobox', { name: 'Match' }).first().selectOption('any');
    await dialog.getByRole('button', { name: 'Add group' }).first().click();
    const nested = dialog.getByTestId('search-group-1');
    await nested.getByRole('combobox', { name: 'Match' }).selectOption('all');
    await nested.getByRole('combobox', { name: 'Field of rule 2.1' }).selectOption('year');
    await nested.getByRole('combobox', { name: 'Condition of rule 2.1' }).selectOption('between');
    await nested.getByRole('textbox', { name: 'Value of rule 2.1' }).fill('2002');
    await nested.getByRole('textbox', { name: 'Upper bound of rule 2.1' }).fill('20x3');
    expect(await shownText(dialog.getByTestId('advanced-search-error'))).toBe(
      'Rule 2.1: The upper bound must be a whole number such as 2015.',
    );
    expect(await dialog.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
    await nested.getByRole('textbox', { name: 'Upper bound of rule 2.1' }).fill('2003');
    await nested.getByRole('button', { name: 'Add rule' }).click();
    await nested.getByRole('combobox', { name: 'Field of rule 2.2' }).selectOption('tag');
    await nested.getByRole('combobox', { name: 'Condition of rule 2.2' }).selectOption('isNot');
    await nested.getByRole('textbox', { name: 'Value of rule 2.2' }).fill('toread');
    await expect.poll(text).toBe('author:ames OR year:2002..2003 NOT tag:toread');
    await expect.poll(() => shownText(dialog.getByTestId('advanced-search-count'))).toBe('2 items match');
    await shoot('advanced-search');

    await dialog.getByRole('textbox', { name: 'Save as' }).fill('Ames or early untagged');
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(toast).toContain('Saved the search “Ames or early untagged”');
    await page.getByRole('button', { name: 'Ames or early untagged', exact: true }).waitFor();

    // The saved search puts its text in the search box; the dialog opens on it as groups and rules again.
    await page.getByRole('button', { name: 'Ames or early untagged', exact: true }).click();
    await expect.poll(count).toBe('2 items');
    await page.getByTestId('advanced-search-button').click();
    const again = page.getByTestId('advanced-search');
    expect(await again.getByRole('combobox', { name: 'Condition of rule 2.2' }).inputValue()).toBe('isNot');
    expect(await again.getByRole('textbox', { name: 'Upper bound of rule 2.1' }).inputValue()).toBe('2003');
    await again.getByRole('combobox', { name: 'Match' }).first().selectOption('all');
    await again.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => page.getByRole('searchbox', { name: 'Search the library' }).inputValue())
      .toBe('author:ames (year:2002..2003 NOT tag:toread)');
    await expect.poll(count).toBe('0 items');
    expect(problems.errors).toEqual([]);
  });

  it('moves a collection to the Trash and restores it with its items and subcollection', async () => {
    await search('');
    await expect.poll(count).toBe('3 items');
    const collection = (name: string) => page.locator('[data-collection]', { hasText: name });
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByRole('textbox', { name: 'New collection name' }).fill('Thesis');
    await page.keyboard.press('Enter');
    await collection('Thesis').waitFor();
    await page.getByTestId('view-library').click();
    await grid().focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+Shift+L');
    await page.getByTestId('collection-picker').waitFor();
    await page.keyboard.type('thes');
    await page.keyboard.press('Enter');
    await expect.poll(() => shownText(collection('Thesis').locator('.count'))).toBe('2');
    await collection('Thesis').click();
    await page.getByRole('button', { name: 'Move Thesis to the Trash' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move to Trash' }).click();
    await expect.poll(toast).toContain('Moved the collection to the Trash');
    await expect.poll(() => collection('Thesis').count()).toBe(0);
    await page.getByTestId('view-trash').click();
    const trashed = page.getByTestId('trashed-collections');
    await expect.poll(() => shownText(trashed)).toContain('Thesis 2 items');
    await shoot('collection-trash');
    await trashed.getByRole('button', { name: 'Restore Thesis' }).click();
    await expect.poll(toast).toContain('Restored “Thesis” with its items');
    await expect.poll(() => shownText(collection('Thesis').locator('.count'))).toBe('2');
    await expect.poll(() => trashed.count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
