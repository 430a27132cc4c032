/// <reference lib="dom" />
// Saving and copying bibliographies around the formatter's worker threshold (100 items: below it the
// host formats in its own thread, from it on in the citation worker) and at 1,000 items, in all eight
// styles, through the Export dialog in browser mode (the built CLI's `serve`, whose bundle failed to
// find its citation worker from 100 items on). One library of 1,000 items, imported from a generated
// BibTeX file; every saved file and every copy is checked entry by entry.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITATION_STYLE_IDS } from '../../shared/model/csl';
import { bibliographyProblems, manyBibtex } from '../helpers/many-items';
import { tempDir } from '../helpers/tmp';
import { openHarness, routeHarness } from './components';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText } from './text';

interface HarnessWindow {
  __harness: {
    api: {
      invoke(
        channel: string,
        input: unknown,
      ): Promise<{ ok: boolean; value: { rows: { id: number; title: string | null }[] } }>;
    };
    exportDialog(props: Record<string, unknown>): void;
  };
}

const LIBRARY = 1000;
const SIZES = [99, 100, 101, LIBRARY];

describe('Export dialog: bibliographies of 99, 100, 101 and 1,000 entries in every style', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let ids: number[];

  beforeAll(async () => {
    dataDir = tempDir('citewise-export-sizes-');
    const bib = join(dataDir.path, 'many.bib');
    writeFileSync(bib, manyBibtex(LIBRARY));
    await cli(dataDir.path, 'http://127.0.0.1:9', 'import', bib);
    app = await launchApp({ dataDir: dataDir.path, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, acceptDownloads: true });
    await routeHarness(context, app.origin, ['clipboard-read', 'clipboard-write']);
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await openHarness(page, app.origin);
    const listed = await page.evaluate(() =>
      (window as unknown as HarnessWindow).__harness.api.invoke('library.list', { limit: 1000 }),
    );
    // In specimen order (the titles number them), so the first n ids are specimens 0 … n-1.
    ids = [...listed.value.rows].sort((a, b) => (a.title ?? '').localeCompare(b.title ?? '')).map((r) => r.id);
    expect(ids).toHaveLength(LIBRARY);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dataDir?.remove();
  });

  async function clipboard(): Promise<{ text: string; html: string }> {
    return page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const read = async (type: string) => (item!.types.includes(type) ? (await item!.getType(type)).text() : '');
      return { text: await read('text/plain'), html: await read('text/html') };
    });
  }

  /** Clicks Save and returns the download; without one, fails with what the dialog shows instead. */
  async function saveOrExplain(save: ReturnType<Page['getByRole']>, name: string): Promise<Download> {
    const waiting = page.waitForEvent('download', { timeout: 120_000 }).catch(() => null);
    await save.click();
    const download = await waiting;
    if (download) return download;
    await page.screenshot({ path: `test-results/export-sizes-no-download-${name}.png` });
    const shown = await page.getByTestId('export-dialog').innerText();
    throw new Error(
      `No download for ${name} within 120 s; the dialog shows:\n${shown.slice(-2000)}\nThe app printed:\n${app.output().slice(-4000)}`,
    );
  }

  for (const size of SIZES) {
    it(`saves and copies ${size} entries in ${CITATION_STYLE_IDS.join(', ')}`, { timeout: 600_000 }, async () => {
      const scope = size === LIBRARY ? { kind: 'library' } : { kind: 'items', ids: ids.slice(0, size) };
      await page.evaluate((p) => (window as unknown as HarnessWindow).__harness.exportDialog(p), {
        scope,
        scopeLabel: `Sample ${size}`,
      });
      await page.getByTestId('export-dialog').waitFor();
      await page.getByTestId('export-format').selectOption('text');
      for (const style of CITATION_STYLE_IDS) {
        await page.getByTestId('export-style').selectOption(style);
        const save = page.getByRole('button', { name: 'Save to file…' });
        await expect.poll(() => save.isEnabled(), { timeout: 60_000 }).toBe(true);
        const download = await saveOrExplain(save, `${style}-${size}`);
        expect(download.suggestedFilename()).toBe(`Sample ${size}.txt`);
        const saved = readFileSync((await download.path())!, 'utf8');
        expect(bibliographyProblems(saved, size, style), `${style}, ${size} saved`).toEqual([]);
        await expect
          .poll(() => shownText(page.getByTestId('export-message')), { timeout: 60_000 })
          .toContain(`Saved ${size} entries`);

        await page.evaluate(() => navigator.clipboard.writeText(''));
        const copy = page.getByRole('button', { name: 'Copy to clipboard' });
        await expect.poll(() => copy.isEnabled(), { timeout: 60_000 }).toBe(true);
        await copy.click();
        await expect.poll(async () => (await clipboard()).text.length, { timeout: 120_000 }).toBeGreaterThan(0);
        const copied = await clipboard();
        expect(bibliographyProblems(copied.text, size, style), `${style}, ${size} copied`).toEqual([]);
        const entryClass = style === 'bibtex' ? 'bibtex-entry' : 'csl-entry';
        expect(copied.html.split(`class="${entryClass}"`).length - 1, `${style}, ${size} copied as HTML`).toBe(size);
        expect(await shownText(page.getByTestId('export-message'))).toContain('Bibliography copied');
      }
    });
  }

  it('logged no console errors', () => {
    expect(problems.errors).toEqual([]);
  });
});
