/// <reference lib="dom" />
// Dragging the Library table's scrollbar thumb down its whole track on 20,000 items: at the end the
// last rows show, right, and the rows skipped on the way were never asked for (the table asks for the
// rows it shows where they are, not for every page in between); a jump to the middle and reading on
// from there, clicking, arrow keys and a Shift+click range over rows never loaded all work.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../electron/core/library/client';
import type { CslItem } from '../../shared/model/csl';
import { tempDir } from '../helpers/tmp';
import { generateItems } from '../unit/library/helpers/generate-items';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText } from './text';

const N = 20_000;

async function buildLibrary(dataDir: string): Promise<void> {
  async function* chunks(): AsyncGenerator<CslItem[]> {
    for (let offset = 0; offset < N; offset += 2_000) yield generateItems(2_000, 1, offset);
  }
  const client = await LibraryClient.start({ file: join(dataDir, 'citewise.sqlite') });
  try {
    const result = await client.importItems(chunks(), { source: 'e2e' });
    if (result.added !== N) throw new Error(`imported ${result.added} of ${N}`);
  } finally {
    await client.close();
  }
}

describe('Library table on 20,000 items, its scrollbar thumb dragged', () => {
  let dataDir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  /** Where the drag to the end asked for rows by offset. */
  let draggedOffsets: number[] = [];

  const grid = () => page.getByTestId('item-table');
  const rowAt = (i: number) => page.locator(`.body [role="row"][data-index="${i}"]`);
  /** The generated library lists newest first: the title of row i ends with the number N - 1 - i. */
  const titleOf = (i: number) => shownText(rowAt(i).locator('.text'));
  /** Rows asked for since the last call: requests, rows, and how many started at an offset. */
  const requests = () =>
    page.evaluate(() => {
      const w = window as unknown as { __rowRequests: { limit: number; offset?: number }[] };
      const asked = w.__rowRequests.splice(0);
      return {
        requests: asked.length,
        rows: asked.reduce((a, b) => a + b.limit, 0),
        offsets: asked.filter((a) => a.offset !== undefined).map((a) => a.offset!),
      };
    });
  /** Placeholders among the rows in view. */
  const placeholdersInView = () =>
    grid().evaluate((g) => {
      const top = g.scrollTop;
      return [...g.querySelectorAll<HTMLElement>('.body [role="row"]:not([hidden])')].filter((row) => {
        const y = Number(row.dataset.index) * 30;
        return y + 30 > top && y < top + g.clientHeight - 31 && row.classList.contains('placeholder');
      }).length;
    });

  beforeAll(async () => {
    dataDir = tempDir('citewise-e2e-drag-');
    await buildLibrary(dataDir.path);
    app = await launchApp({ dataDir: dataDir.path });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await context.addInitScript(() => {
      const w = window as unknown as { __rowRequests: { limit: number; offset?: number }[] };
      w.__rowRequests = [];
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const m = JSON.parse(data) as { channel?: string; input?: { limit?: number; offset?: number } };
        if (m.channel === 'library.list')
          w.__rowRequests.push({
            limit: m.input?.limit ?? 0,
            ...(m.input?.offset !== undefined ? { offset: m.input.offset } : {}),
          });
        return send.call(this, data);
      } as typeof send;
    });
    await page.goto(`${app.url}#/library`);
    await page
      .getByTestId('item-count')
      .getByText(`${N.toLocaleString('en')} items`)
      .waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[role="grid"]')?.getAttribute('aria-busy') === 'false');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dataDir?.remove();
  });

  it('shows the last rows after a drag to the end, having asked for a few hundred rows, not 20,000', async () => {
    await page.waitForTimeout(300);
    await requests();
    // The thumb from the top of its track to the bottom in a quarter of a second (80,000 rows/s), one
    // move a frame, the position following the clock as the mouse does. Faster than reading in order
    // can follow on any machine: on a quiet one, 1,000-row pages in order kept pace with a one-second
    // drag (20,000 rows/s) and read all 20,200 rows, which is right there but not what this tests.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const g = document.querySelector<HTMLElement>('[role="grid"]')!;
          const maxTop = g.scrollHeight - g.clientHeight;
          const start = performance.now();
          const tick = (now: number): void => {
            g.scrollTop = Math.min(maxTop, Math.round((maxTop * Math.max(0, now - start)) / 250));
            if (g.scrollTop >= maxTop) resolve();
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    // The last rows are loaded where they are once the thumb is let go.
    await expect.poll(() => titleOf(N - 1), { timeout: 10_000 }).toMatch(/ 0$/);
    await expect.poll(placeholdersInView, { timeout: 10_000 }).toBe(0);
    expect(await titleOf(N - 20)).toMatch(/ 19$/);
    await page.waitForTimeout(500);
    const asked = await requests();
    draggedOffsets = asked.offsets;
    // Rows at the top before the drag outran them, and the rows in view at the end: nowhere near 20,000.
    // (On a quiet machine 1,272 rows in 4 requests; a loaded one gives the run more frames' time to grow.)
    expect(asked.rows, JSON.stringify(asked)).toBeLessThanOrEqual(6_000);
    expect(asked.requests, JSON.stringify(asked)).toBeLessThanOrEqual(10);
    expect(asked.offsets.length).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'library-drag-end');
  });

  it('jumps to the middle, then reads on from there page by page (cursor, not offset) with no placeholder at rest', async () => {
    // A row the drag did not load (a frame that came late on a busy machine lets it load the rows in view then).
    const middle = [10_000, 14_000, 7_000, 12_000, 16_000].find((m) =>
      draggedOffsets.every((o) => o > m + 500 || o < m - 1_500),
    )!;
    await requests();
    await grid().evaluate((g, top) => (g.scrollTop = top), middle * 30);
    await expect.poll(() => titleOf(middle + 5), { timeout: 10_000 }).toMatch(new RegExp(` ${N - 1 - middle - 5}$`));
    await expect.poll(placeholdersInView, { timeout: 10_000 }).toBe(0);
    const jump = await requests();
    expect(jump.offsets).toHaveLength(1);
    expect(jump.offsets[0]).toBeGreaterThanOrEqual(middle - 20);
    // Read on down 1,500 rows at 4 rows a frame: the rows follow, continued from where they are.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const g = document.querySelector<HTMLElement>('[role="grid"]')!;
          const end = g.scrollTop + 1_500 * 30;
          const tick = (): void => {
            g.scrollTop += 120;
            if (g.scrollTop >= end) resolve();
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    await expect.poll(placeholdersInView, { timeout: 10_000 }).toBe(0);
    const at = await grid().evaluate((g) => Math.ceil(g.scrollTop / 30) + 2);
    expect(await titleOf(at)).toMatch(new RegExp(` ${N - 1 - at}$`));
    const read = await requests();
    expect(read.requests).toBeGreaterThanOrEqual(1);
    expect(read.offsets).toEqual([]);
  });

  it('selects and moves by keyboard among rows loaded at the end, with the right ids and ARIA', async () => {
    await grid().evaluate((g) => (g.scrollTop = g.scrollHeight));
    await expect.poll(placeholdersInView, { timeout: 10_000 }).toBe(0);
    await rowAt(N - 3).click();
    await expect.poll(() => rowAt(N - 3).getAttribute('aria-selected')).toBe('true');
    expect(await grid().getAttribute('aria-activedescendant')).toBe(`lib-row-${N - 3}`);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => grid().getAttribute('aria-activedescendant')).toBe(`lib-row-${N - 2}`);
    expect(await rowAt(N - 2).getAttribute('aria-selected')).toBe('true');
    expect(await rowAt(N - 3).getAttribute('aria-selected')).toBe('false');
    expect(await rowAt(N - 2).getAttribute('aria-rowindex')).toBe(String(N));
    await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Shift+ArrowUp');
    await expect.poll(() => page.locator('.body [role="row"][aria-selected="true"]').count()).toBe(3);
    await page.keyboard.press('Escape');
  });

  it('selects every row of a Shift+click range over rows that were never loaded', async () => {
    await grid().evaluate((g) => (g.scrollTop = 0));
    await expect.poll(placeholdersInView, { timeout: 10_000 }).toBe(0);
    await rowAt(1).click();
    await grid().evaluate((g) => (g.scrollTop = g.scrollHeight));
    await expect.poll(placeholdersInView, { timeout: 10_000 }).toBe(0);
    await rowAt(N - 1).click({ modifiers: ['Shift'] });
    await expect
      .poll(() => shownText(page.getByTestId('selected-count')), { timeout: 30_000 })
      .toBe(`· ${(N - 1).toLocaleString('en')} selected`);
    expect(await rowAt(N - 1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Escape');
    expect(problems.errors).toEqual([]);
  });
});
