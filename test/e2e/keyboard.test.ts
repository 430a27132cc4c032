/// <reference lib="dom" />
// The Library without a mouse (issue 21): the sidebar's lists are one tab stop each with the arrow
// keys inside, F6 / Shift+F6 cycle the regions with the focus visible, `?` lists the shortcuts (from
// the same declared list the handlers use), and the focus stays where the user is after a field is
// committed or a note added. Screenshots in both themes, checked with axe.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../../renderer/src/lib/keyboard/shortcuts';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { foldWhitespace, shownText } from './text';

const TAGS = 100;

describe('The Library from the keyboard', () => {
  let dataDir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  /** What has the focus: its tag, label or text, enough to tell controls apart. */
  const active = async () => {
    const el = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      return {
        tag: el.tagName.toLowerCase(),
        label: el.getAttribute('aria-label') ?? el.id ?? '',
        text: el.textContent ?? '',
      };
    });
    return el ? `${el.tag}|${el.label}|${foldWhitespace(el.text).slice(0, 30)}` : 'body';
  };
  const activeRegion = () =>
    page.evaluate(() => document.activeElement?.closest<HTMLElement>('[data-region]')?.dataset.region ?? null);
  const focusVisible = () => page.evaluate(() => document.activeElement?.matches(':focus-visible') ?? false);

  beforeAll(async () => {
    dataDir = tempDir('citewise-keyboard-');
    // 40 items sharing 100 tags between them: the tag list is long, as in a real library.
    const items = Array.from({ length: 40 }, (_, i) => ({
      id: `item${i}`,
      type: 'article-journal',
      title: `Keyboard study number ${i + 1}`,
      author: [{ family: `Author${i}`, given: 'A.' }],
      issued: { 'date-parts': [[2000 + (i % 20)]] },
      keyword: [0, 1, 2].map((k) => `topic-${String((i * 3 + k) % TAGS).padStart(3, '0')}`).join(', '),
    }));
    const file = join(dataDir.path, 'items.json');
    writeFileSync(file, JSON.stringify(items));
    await cli(dataDir.path, 'http://127.0.0.1:9', 'import', file);
    app = await launchApp({ dataDir: dataDir.path, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByTestId('item-count').filter({ hasText: '40 items' }).waitFor();
    await page
      .locator('.tag-list .tag')
      .nth(TAGS - 1)
      .waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dataDir?.remove();
  });

  it('reaches the search box from the page start in a few Tab presses, past 100 tags', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let presses = 0;
    while (presses < 200) {
      await page.keyboard.press('Tab');
      presses++;
      if ((await active()).startsWith('input|Search the library')) break;
    }
    // Panes (7), Add and Export, then one stop per sidebar list (views, +, collections, searches, tag filter, tags).
    console.log(`Tab presses from the page start to the search box: ${presses}`);
    expect(presses).toBeLessThanOrEqual(20);
    expect(presses).toBeGreaterThan(5);
  });

  it('moves within a list with the arrow keys, and Tab leaves the list in one press', async () => {
    const first = page.locator('.tag-list .tag').first();
    await first.focus();
    expect(await active()).toContain('topic-000');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toContain('topic-001');
    await page.keyboard.press('End');
    expect(await active()).toContain('topic-099');
    await page.keyboard.press('Home');
    expect(await active()).toContain('topic-000');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).not.toBe('40 items');
    expect(await active()).toContain('topic-001');
    // Tab back into the tag list returns to the tag the user was on.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await active()).toContain('topic-001');
    await page.keyboard.press('Space');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('40 items');
    // The views list: one stop, arrows inside.
    await page.getByTestId('view-library').focus();
    await page.keyboard.press('ArrowDown');
    expect(await active()).toContain('Unfiled');
    await page.keyboard.press('ArrowUp');
    expect(await active()).toContain('My Library');
    expect(await page.getByTestId('view-unfiled').getAttribute('tabindex')).toBe('-1');
  });

  it('cycles the regions with F6 and Shift+F6, the focus visible in each', async () => {
    await page.getByRole('searchbox', { name: 'Search the library' }).focus();
    const seen: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('F6');
      seen.push(await activeRegion());
      expect(await focusVisible(), `focus visible in ${seen.at(-1)}`).toBe(true);
      if (i === 0) await shootThemes(page, 'keyboard-f6-table');
    }
    expect(seen).toEqual(['table', 'details', 'sidebar', 'search']);
    await page.keyboard.press('Shift+F6');
    expect(await activeRegion()).toBe('sidebar');
    await page.keyboard.press('Shift+F6');
    expect(await activeRegion()).toBe('details');
  });

  it('lists every declared shortcut in the ? overlay, but not while typing', async () => {
    const search = page.getByRole('searchbox', { name: 'Search the library' });
    await search.focus();
    await page.keyboard.press('Shift+Slash');
    expect(await page.getByTestId('shortcuts-dialog').count()).toBe(0);
    expect(await search.inputValue()).toBe('?');
    await search.fill('');
    await page.getByTestId('view-library').focus();
    await page.keyboard.press('Shift+Slash');
    const dialog = page.getByTestId('shortcuts-dialog');
    await dialog.waitFor();
    const descriptions = new Set(SHORTCUTS.map((s) => s.description));
    await expect.poll(() => dialog.locator('tbody tr:has(td)').count()).toBe(descriptions.size);
    // The key column is as wide in every section: each description starts at the same x.
    const starts = await dialog
      .locator('tbody td')
      .evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().left)));
    expect(new Set(starts).size, `description starts ${[...new Set(starts)].join(', ')}`).toBe(1);
    expect(await dialog.locator('h3').count()).toBeGreaterThan(1);
    for (const s of SHORTCUTS)
      await expect
        .poll(() => dialog.getByText(s.keys, { exact: true }).count(), { message: s.keys })
        .toBeGreaterThan(0);
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await shootThemes(page, 'keyboard-shortcuts-overlay');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('keeps the focus in the details after a field is committed and a note added', async () => {
    await page.locator('[role="row"][data-id]').first().click();
    const title = page.locator('#f-title');
    await title.waitFor();
    await title.focus();
    await title.fill('Keyboard study, renamed');
    await page.keyboard.press('Tab');
    const next = await active();
    expect(next).not.toBe('body');
    await expect
      .poll(() => page.locator('[role="row"][data-id]').filter({ hasText: 'Keyboard study, renamed' }).count())
      .toBe(1);
    // The save re-created the fields; the focus is still on the one the user tabbed to.
    await page.waitForTimeout(300);
    expect(await active()).toBe(next);
    // Enter commits a field and stays in it.
    const field = page.locator('#f-volume');
    await field.focus();
    await field.fill('12');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#f-volume').inputValue()).toBe('12');
    await page.waitForTimeout(300);
    expect(await active()).toContain('input|f-volume');
    // A note: typed, "Add note" pressed from the keyboard; the focus goes back to the note box.
    const note = page.getByRole('textbox', { name: 'New note' });
    await note.focus();
    await page.keyboard.type('A note written without the mouse');
    await page.keyboard.press('Tab');
    expect(await active()).toContain('Add note');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('notes').textContent()).toContain('A note written without the mouse');
    await expect.poll(() => active()).toContain('div|New note');
    expect(problems.errors).toEqual([]);
  });
});
