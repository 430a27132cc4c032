/// <reference lib="dom" />
// The export dialog against the real core: a library seeded with the CLI (the BibTeX fixture and a
// hostile CSL-JSON import), every format previewed, a bibliography in the chosen style and locale
// rendered safely, saving as a download with the contract's name and type, copying rich and plain
// text, and the dialog's keyboard behaviour (focus trap, Escape).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { startService, type RunningService } from '../service/server';
import { axeViolations, openHarness, routeHarness } from './components';
import { launchApp, launchBrowser, newPage, ROOT, screenshot, type PageProblems, type RunningApp } from './harness';
import { cli, writeHostile } from './seed';
import { shownText } from './text';

interface HarnessWindow {
  __harness: {
    calls: [string, unknown][];
    theme(t: 'light' | 'dark'): void;
    exportDialog(props: Record<string, unknown>): void;
  };
  __pwned?: unknown;
}

describe('Export dialog', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;

  async function open(props: Record<string, unknown> = {}): Promise<void> {
    await page.evaluate((p) => (window as unknown as HarnessWindow).__harness.exportDialog(p), props);
    await page.getByTestId('export-dialog').waitFor();
  }

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 50, log: () => {} });
    dataDir = tempDir('citewise-export-');
    await cli(
      dataDir.path,
      service.url,
      'import',
      join(ROOT, 'test/fixtures/formats/sample.json'),
      writeHostile(dataDir.path),
    );
    app = await launchApp({
      dataDir: dataDir.path,
      env: { CITEWISE_SERVICE_URL: service.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, acceptDownloads: true });
    await routeHarness(context, app.origin, ['clipboard-read', 'clipboard-write']);
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await openHarness(page, app.origin);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
    dataDir?.remove();
  });

  it('opens as a modal dialog with focus inside, previewing BibTeX', async () => {
    await open();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await expect.poll(() => page.getByTestId('export-text').textContent()).toMatch(/^@\w+\{/);
    expect(await page.getByTestId('export-style').isDisabled()).toBe(true);
    await screenshot(page, 'export-bibtex-light');
  });

  it('previews RIS and CSL-JSON as text', async () => {
    await page.getByTestId('export-format').selectOption('ris');
    await expect.poll(() => page.getByTestId('export-text').textContent()).toMatch(/^TY {2}- /m);
    await page.getByTestId('export-format').selectOption('csl-json');
    await expect
      .poll(async () => JSON.parse((await page.getByTestId('export-text').textContent()) ?? 'null'))
      .toEqual(expect.any(Array));
  });

  it('renders a bibliography in the chosen style through SafeMarkup, hostile entries as text', async () => {
    await page.getByTestId('export-format').selectOption('html');
    const bib = page.getByTestId('export-bibliography');
    // The first bibliography starts the formatter's worker: allow it a moment.
    await expect.poll(() => bib.locator('.csl-entry').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    expect(await shownText(bib)).toContain('Payload <img src=x onerror="window.__pwned=1"> in a');
    expect(await bib.locator('img, script, svg').count()).toBe(0);
    await page.getByTestId('export-style').selectOption('ieee');
    await expect.poll(() => shownText(bib), { timeout: 10_000 }).toMatch(/\[1\]/);
    await page.getByTestId('export-locale').selectOption('en-GB');
    await expect.poll(() => bib.locator('.csl-entry').count()).toBeGreaterThan(1);
    await screenshot(page, 'export-ieee-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.theme('dark'));
    await screenshot(page, 'export-ieee-dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.theme('light'));
  });

  it('saves the chosen format as a download with its extension and type', async () => {
    await page.getByTestId('export-format').selectOption('rtf');
    await expect.poll(() => page.getByTestId('export-bibliography').locator('.csl-entry').count()).toBeGreaterThan(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save to file…' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('My Library.rtf');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('{\\rtf')).toBe(true);
    await expect.poll(() => shownText(page.getByTestId('export-message'))).toContain('Saved');
    await page.getByTestId('export-format').selectOption('biblatex');
    await expect.poll(() => page.getByTestId('export-text').textContent()).toMatch(/^@/);
    const [bib] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save to file…' }).click(),
    ]);
    expect(bib.suggestedFilename()).toBe('My Library.bib');
  });

  it('copies a bibliography as rich and plain text', async () => {
    await page.getByTestId('export-format').selectOption('text');
    await expect.poll(() => page.getByTestId('export-bibliography').locator('.csl-entry').count()).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await expect.poll(() => shownText(page.getByTestId('export-message'))).toContain('Bibliography copied');
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      return {
        types: item!.types,
        text: await (await item!.getType('text/plain')).text(),
        html: await (await item!.getType('text/html')).text(),
      };
    });
    expect(copied.types).toEqual(expect.arrayContaining(['text/html', 'text/plain']));
    expect(copied.text).toMatch(/\[1\]/);
    expect(copied.html).toContain('csl-entry');
  });

  it('adds a style from a .csl file, uses it, and says why a file that is not a style was refused', async () => {
    await page.getByTestId('export-format').selectOption('text');
    const bad = Buffer.from('<html><body>not a style</body></html>');
    await page.getByTestId('add-style-file').setInputFiles({ name: 'page.csl', mimeType: 'text/xml', buffer: bad });
    // The first added style starts the formatter: allow it a moment.
    await expect
      .poll(() => shownText(page.getByTestId('style-error')), { timeout: 20_000 })
      .toContain('page.csl was not added: This is not a CSL style');
    const xml = readFileSync(join(ROOT, 'test/fixtures/cite/tiny-lab.csl'));
    await page.getByTestId('add-style-file').setInputFiles({ name: 'tiny-lab.csl', mimeType: 'text/xml', buffer: xml });
    await expect.poll(() => page.getByTestId('export-style').inputValue(), { timeout: 10_000 }).toBe('tiny-lab');
    expect(await page.getByTestId('style-error').count()).toBe(0);
    expect(await shownText(page.getByTestId('export-style').locator('option:checked'))).toBe('Tiny Lab Style (added)');
    // The tiny style prints each title in capitals and its year in parentheses.
    await expect
      .poll(() => shownText(page.getByTestId('export-bibliography').locator('.csl-entry').first()), {
        timeout: 10_000,
      })
      .toMatch(/^[^a-z]+ \(\d{4}\)$/);
    await screenshot(page, 'export-added-style-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('export-style').selectOption('apa');
  });

  it('keeps focus inside while tabbing, and closes on Escape', async () => {
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => (window as unknown as HarnessWindow).__harness.calls)).toEqual([['close', null]]);
  });

  it('says so when the scope has no items', async () => {
    await open({ scope: { kind: 'query', query: 'title:"no such title anywhere"' }, scopeLabel: 'Search results' });
    await expect
      .poll(() => shownText(page.getByTestId('export-preview')), { timeout: 10_000 })
      .toContain('has no items');
    expect(await page.getByRole('button', { name: 'Save to file…' }).isDisabled()).toBe(true);
  });

  it('ran no injected script and logged no console errors', async () => {
    expect(await page.evaluate(() => (window as unknown as HarnessWindow).__pwned)).toBeUndefined();
    expect(problems.errors).toEqual([]);
  });
});
