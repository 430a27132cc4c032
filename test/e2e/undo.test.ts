/// <reference lib="dom" />
// Issue 17 as the user met it: an item saved from the Evidence pane, some browsing in the Library,
// then Ctrl+Z. Undo must move the item to the Trash (not delete it) and the toast must name it; Undo
// offers (toast, details column) must disappear once they would revert something else or their step
// was undone; redo must still work after an unrelated change.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { openApp, type AppSession, type PageProblems } from './harness';
import { cli, writeHostile } from './seed';
import { shownText } from './text';

/** How a label quotes a title (electron/core/library/undo-labels.ts): at most 40 characters, cut at a word. */
function quoted(title: string): string {
  const plain = title.replace(/\s+/g, ' ').trim();
  if (plain.length <= 40) return `“${plain}”`;
  const cut = plain.slice(0, 40);
  const space = cut.lastIndexOf(' ');
  return `“${(space > 20 ? cut.slice(0, space) : cut).trimEnd()} …”`;
}

describe('Undo in the Library', () => {
  let service: RunningService;
  let dataDir: ReturnType<typeof tempDir>;
  let session: AppSession;
  let page: Page;
  let problems: PageProblems;
  let savedTitle = '';

  const count = () => shownText(page.getByTestId('item-count'));
  const toast = () => page.getByTestId('toast');
  const goTo = (pane: string) =>
    page
      .getByRole('navigation', { name: 'Panes' })
      .getByRole('button', { name: new RegExp(`^${pane}`) })
      .click();
  const rowTitled = (title: string) => page.locator('[role="row"][data-id]').filter({ hasText: title });

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 200, log: () => {} });
    dataDir = tempDir('citewise-undo-');
    await cli(dataDir.path, service.url, 'import', writeHostile(dataDir.path));
    session = await openApp({ service, dataDir: dataDir.path, context: { viewport: { width: 1360, height: 820 } } });
    ({ page, problems } = session);
  });

  afterAll(async () => {
    await session?.close();
    await service?.close();
    dataDir?.remove();
  });

  it('saves a clinical trial from the Evidence pane', async () => {
    await goTo('Evidence');
    await page.getByRole('tab', { name: 'Clinical trials' }).click();
    const doc = JSON.parse(
      service.corpus.db
        .prepare(`SELECT doc FROM evidence WHERE dataset = 'clinical-trials' ORDER BY seq LIMIT 1`)
        .pluck()
        .get() as string,
    ) as { title: string };
    const word = doc.title
      .split(/[^\p{L}]+/u)
      .sort((a, b) => b.length - a.length)[0]!
      .toLowerCase();
    await page.getByRole('searchbox').fill(word);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('evidence-results').locator('li').first().getByRole('button').first().click();
    const detail = page.getByTestId('evidence-detail');
    await detail.waitFor();
    savedTitle = await shownText(detail.locator('h2'));
    await detail.getByRole('button', { name: 'Save to library' }).click();
    await expect.poll(() => shownText(detail.getByTestId('evidence-saved'))).toMatch(/Saved to your library as \w+/);
  });

  it('after browsing the Library, Ctrl+Z moves the saved item to the Trash and the toast names it', async () => {
    await goTo('Library');
    await expect.poll(count).toBe('3 items');
    // Other things, none of them a change: a search, a sort, another item's details.
    await page.getByRole('searchbox', { name: 'Search the library' }).fill('plain');
    await expect.poll(count).toBe('1 item');
    await page.getByRole('searchbox', { name: 'Search the library' }).fill('');
    await expect.poll(count).toBe('3 items');
    await page.getByRole('columnheader', { name: /Title/ }).getByRole('button').click();
    await rowTitled('A Plain Book').click();
    await page.getByTestId('details-title').waitFor();

    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => shownText(toast())).toContain(`Undid: Add item ${quoted(savedTitle)} (moved to the Trash)`);
    await expect.poll(count).toBe('2 items');
    expect(await toast().getByTestId('toast-redo').count()).toBe(1);
    await shootThemes(page, 'undo-add-item-toast');

    await page.getByTestId('view-trash').click();
    await expect.poll(count).toBe('1 item');
    expect(await rowTitled(savedTitle.slice(0, 30)).count()).toBe(1);
    await page.getByTestId('view-library').click();
    await expect.poll(count).toBe('2 items');
  });

  it('redoes after an unrelated edit, and drops the details column’s Undo once its step is not the last one', async () => {
    await rowTitled('A Plain Book').click();
    const publisher = page.getByLabel('Publisher', { exact: true });
    await publisher.fill('Other Press');
    await publisher.press('Tab');
    await expect.poll(() => shownText(page.getByTestId('undo-hint'))).toBe('Saved: Edit publisher of “A Plain Book”.');

    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => shownText(toast())).toContain(`Redid: Add item ${quoted(savedTitle)}`);
    await expect.poll(count).toBe('3 items');
    // Undo would now revert the redone save, not the publisher: the details column offers nothing.
    await expect.poll(() => page.getByTestId('undo').count()).toBe(0);
    expect(await page.getByLabel('Publisher', { exact: true }).inputValue()).toBe('Other Press');

    // Ctrl+Z twice: the save again, then the publisher (named on the toast).
    await page.keyboard.press('Control+z');
    await expect.poll(() => shownText(toast())).toContain(`Undid: Add item ${quoted(savedTitle)}`);
    await page.keyboard.press('Control+z');
    await expect.poll(() => shownText(toast())).toContain('Undid: Edit publisher of “A Plain Book”');
    await expect.poll(() => page.getByLabel('Publisher', { exact: true }).inputValue()).toBe('Press');
  });

  it('takes the Undo off a toast once another change comes after its step', async () => {
    const hostile = rowTitled('Payload');
    await hostile.click();
    await page.keyboard.press('Delete');
    await expect.poll(() => shownText(toast())).toContain('Moved 1 item to the Trash');
    await expect.poll(() => toast().getByTestId('toast-undo').count()).toBe(1);
    // Another change, made in the details column of another item while the toast is up.
    await rowTitled('A Plain Book').click();
    await page.getByLabel('New tag').fill('to-read');
    await page.getByLabel('New tag').press('Enter');
    await expect
      .poll(async () => `${await shownText(toast())}|${await toast().getByTestId('toast-undo').count()}`)
      .toMatch(/Moved 1 item to the Trash.*\|0$/s);
    await expect.poll(count).toBe('1 item');
    expect(problems.errors).toEqual([]);
  });

  it('the Evidence pane’s Undo undoes the save’s step on the one stack, so the Library can redo it', async () => {
    await goTo('Evidence');
    const detail = page.getByTestId('evidence-detail');
    await page.getByTestId('evidence-results').locator('li').first().getByRole('button').first().click();
    await detail.getByRole('button', { name: 'Save to library' }).click();
    await expect.poll(() => shownText(detail.getByTestId('evidence-saved'))).toMatch(/Saved to your library as \w+/);
    await detail.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => shownText(detail)).toMatch(/Moved \w+ to the Trash\./);
    await shootThemes(page, 'undo-evidence-undone');
    // The save's own step was undone, not covered by a new "Move to the Trash" step: Ctrl+Z in the Library
    // now reverts the change made before the save (the tag), and Redo twice brings back the tag, then the item.
    await goTo('Library');
    await expect.poll(count).toBe('1 item');
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => shownText(toast())).toContain('Undid: Add tag to-read to “A Plain Book”');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => shownText(toast())).toContain('Redid: Add tag to-read to “A Plain Book”');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => shownText(toast())).toContain(`Redid: Add item ${quoted(savedTitle)}`);
    await expect.poll(count).toBe('2 items');
    // The Evidence pane offers no Undo for a save whose step is no longer the one undo would revert.
    await goTo('Evidence');
    await page.getByTestId('evidence-results').locator('li').first().getByRole('button').first().click();
    await expect.poll(() => shownText(detail.getByTestId('evidence-saved'))).toMatch(/Already in your library as \w+/);
    expect(await detail.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
