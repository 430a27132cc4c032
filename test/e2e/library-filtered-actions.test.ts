/// <reference lib="dom" />
// Acting on the library while the table is filtered (issue 21's area): Duplicates and Needs review,
// which list groups and PDFs and offer no search box; a merge of duplicates after a search and with a
// tag filter on, its undo, Move to Trash and its undo, a title edited so it no longer matches, an
// import, and a restore from the Trash. After each, the table refreshes to what the
// search or filter matches now, with the right count: the merged item stays when it matches, and
// "No items match" shows only when nothing does.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { importBib, openSession, screenshot, type AppSession } from './harness';
import { shownText, shownTexts } from './text';

// A duplicate pair (same title, first creator and year), each with its own tag, and one other item.
const BIB = [
  '@article{soilA, title = {Drought and soil microbiomes}, author = {Lee, Alice}, journal = {Journal of Hydrology}, year = {2020}, keywords = {wet}}',
  '@article{soilB, title = {Drought and soil microbiomes}, author = {Lee, Alice}, journal = {Journal of Hydrology}, year = {2020}, volume = {12}, keywords = {dry}}',
  '@article{peat2019, title = {Peatland carbon budgets after rewetting}, author = {Åström, Karl}, journal = {Environmental Research Letters}, year = {2019}}',
  '',
].join('\n');

describe('acting on the library while a search or a tag filter is on', () => {
  let service: RunningService;
  let session: AppSession;
  let page: Page;

  const search = () => page.getByRole('searchbox', { name: 'Search the library' });
  const count = () => shownText(page.getByTestId('item-count'));
  /** The titles of the rows the table shows (its pooled, hidden rows left out). */
  const titles = () => shownTexts(page.locator('[role="row"][data-index]:not([hidden]) [data-col="title"]'));
  const noMatch = () => page.getByText('No items match').count();
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);
  const toast = () => shownText(page.getByTestId('toast'));
  const dups = () => page.getByTestId('duplicates');
  const tag = (name: string) => page.locator('button.tag', { hasText: name });

  /** The table has settled on `n` rows titled `expected` (sorted), without "No items match" unless n is 0. */
  async function shows(expected: string[]): Promise<void> {
    await expect.poll(count, { timeout: 20_000 }).toBe(`${expected.length} item${expected.length === 1 ? '' : 's'}`);
    await expect
      .poll(async () => (await titles()).map((t) => t.trim()).sort(), { timeout: 20_000 })
      .toEqual([...expected].sort());
    expect(await noMatch()).toBe(expected.length === 0 ? 1 : 0);
  }

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 50, log: () => {} });
    session = await openSession(service.url, service.keys.find((k) => k.scopes.has('*'))!.token);
    page = session.page;
    await page.getByTestId('first-run').waitFor();
    await importBib(page, BIB, 3);
    await page
      .getByTestId('item-count')
      .filter({ hasText: /^3 items$/ })
      .waitFor({ timeout: 20_000 });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await service?.close();
  });

  const SOIL = 'Drought and soil microbiomes';
  const PEAT = 'Peatland carbon budgets after rewetting';

  it('offers no search box in Duplicates and Needs review, where a query would filter nothing, and says why', async () => {
    const note = () => page.getByTestId('no-search');
    await search().fill('peat');
    await shows([PEAT]);
    for (const [view, says] of [
      ['view-duplicates', 'Duplicates lists every group'],
      ['view-review', 'Needs review lists every PDF'],
    ] as const) {
      await page.getByTestId(view).click();
      await page.locator('[data-testid="no-search"]', { hasText: says }).waitFor({ timeout: 10_000 });
      expect(await shownText(note())).toContain('Search and the tag filter apply to the item lists');
      expect(await search().count(), `a search box in ${view}`).toBe(0);
    }
    // The pair that the typed "peat" would have hidden is listed: the search did not follow into the view.
    await page.getByTestId('view-duplicates').click();
    await expect.poll(() => shownText(dups())).toContain('1 group');
    await page.getByTestId('view-library').click();
    await search().waitFor();
    expect(await note().count()).toBe(0);
    await shows([SOIL, SOIL, PEAT]);
  });

  it('merges duplicates found after a search; the merged item matches the search afterwards, and undo brings both back', async () => {
    await search().fill('soil');
    await shows([SOIL, SOIL]);
    await page.getByTestId('view-duplicates').click();
    await expect.poll(() => shownText(dups())).toContain('1 group');
    await dups().getByRole('button', { name: 'Merge into the first' }).click();
    await expect.poll(toast).toContain('Merged 2 items into one');
    await expect.poll(() => shownText(dups())).toContain('No duplicates');
    // Another view starts without the search; typed again, it finds the merged item, once.
    await page.getByTestId('view-library').click();
    await shows([SOIL, PEAT]);
    await search().fill('soil');
    await shows([SOIL]);
    await screenshot(page, 'library-filtered-merged');
    // Undo with the search on: both copies match again.
    await page.getByTestId('item-table').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(toast).toMatch(/Undid: Merge/);
    await shows([SOIL, SOIL]);
  });

  it('merges duplicates with a tag filter on (it stays across views): the merged item keeps both tags and stays listed', async () => {
    await search().fill('');
    await tag('dry').click();
    await shows([SOIL]);
    await page.getByTestId('view-duplicates').click();
    await dups().getByRole('button', { name: 'Merge into the first' }).click();
    await expect.poll(toast).toContain('Merged 2 items into one');
    await page.getByTestId('view-library').click();
    // The kept item is soilA (tagged wet) and took soilB's tag: the filter on "dry" still lists it.
    await shows([SOIL]);
    await tag('dry').click();
    await tag('wet').click();
    await shows([SOIL]);
    await tag('wet').click();
    await shows([SOIL, PEAT]);
  });

  it('moves a matching item to the Trash, undoes it, and restores it from the Trash under a search', async () => {
    await search().fill('rewetting');
    await shows([PEAT]);
    await rowAt(0).click();
    await page.keyboard.press('Delete');
    await expect.poll(toast).toContain('Moved 1 item to the Trash');
    await shows([]);
    await page.keyboard.press('Control+z');
    await shows([PEAT]);
    await rowAt(0).click();
    await page.keyboard.press('Delete');
    await shows([]);
    await page.getByTestId('view-trash').click();
    await search().fill('rewetting');
    await shows([PEAT]);
    await rowAt(0).click();
    await page.getByRole('region', { name: 'Trash' }).getByRole('button', { name: 'Restore' }).click();
    await shows([]);
    await page.getByTestId('view-library').click();
    await shows([SOIL, PEAT]);
  });

  it('drops an item whose title is edited so it no longer matches, and lists an imported one that matches', async () => {
    await search().fill('carbon');
    await shows([PEAT]);
    await rowAt(0).click();
    await page.getByTestId('details-title').waitFor();
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('Peatland budgets after rewetting');
    await title.press('Tab');
    await shows([]);
    await importBib(page, '@article{carb2001, title = {Carbon in new places}, author = {Ox, Ola}, year = {2001}}\n', 1);
    await shows(['Carbon in new places']);
  });
});
