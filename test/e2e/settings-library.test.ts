/// <reference lib="dom" />
// Settings → Citations and Library file and backups, in the real app against the local service: the
// default style and language persist and show a sample from the library (hostile markup inert), the
// data folder and library file are shown, Back up now adds a backup to the list, restoring is
// explained, and Export library opens the export dialog, which Escape closes. Its buttons show the
// app-wide focus ring and disabled state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { startService, type RunningService } from '../service/server';
import { axeViolations } from './components';
import { launchApp, launchBrowser, newPage, ROOT, screenshot, type PageProblems, type RunningApp } from './harness';
import { cli, writeHostile } from './seed';
import { shownText } from './text';

describe('Settings: citations, library file and backups', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 50, log: () => {} });
    dataDir = tempDir('citewise-settings-');
    // The hostile item is the first added, so it is the sample.
    await cli(dataDir.path, service.url, 'import', writeHostile(dataDir.path));
    app = await launchApp({
      dataDir: dataDir.path,
      env: { CITEWISE_SERVICE_URL: service.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext({ viewport: { width: 1280, height: 1000 } })));
    await page.goto(app.url);
    await page.locator('nav button[data-pane="settings"]').click();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
    dataDir?.remove();
  });

  it('defaults to APA in US English and shows a sample of the library in it, hostile markup as text', async () => {
    await expect.poll(() => page.getByTestId('default-style').inputValue()).toBe('apa');
    expect(await page.getByTestId('default-locale').inputValue()).toBe('en-US');
    const sample = page.getByTestId('citation-sample');
    await expect
      .poll(() => shownText(sample), { timeout: 20_000 })
      .toContain('Payload <img src=x onerror="window.__pwned=1"> in a');
    expect(await sample.locator('img, script, svg').count()).toBe(0);
    expect(await sample.locator('.csl-entry').count()).toBe(1);
  });

  it('keeps a new default style and language across a reload, and the sample follows', async () => {
    await page.getByTestId('default-style').selectOption('ieee');
    await page.getByTestId('default-locale').selectOption('en-GB');
    await expect.poll(() => shownText(page.getByTestId('citation-sample')), { timeout: 10_000 }).toMatch(/^\s*\[1\]/);
    await page.reload();
    await expect.poll(() => page.getByTestId('default-style').inputValue()).toBe('ieee');
    expect(await page.getByTestId('default-locale').inputValue()).toBe('en-GB');
  });

  it('shows where the library lives', async () => {
    await expect.poll(() => shownText(page.getByTestId('data-dir'))).toBe(app.dataDir);
    await expect
      .poll(() => shownText(page.getByTestId('library-file')))
      .toMatch(new RegExp(`^${app.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.+\\.sqlite$`));
    expect(await shownText(page.getByTestId('library-counts'))).toContain('2 items');
    expect(await shownText(page.getByTestId('restore-note'))).toContain('citewise restore');
  });

  // The app-wide button and field styles (app.css .button, .input): a ring a keyboard user sees, and a
  // dimmed disabled state. A field's ring is drawn inside its border, where no scrolling box clips it.
  it('shows a 2px ring in the focus colour on every Settings button and text field reached with Tab', async () => {
    const focus = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--focus)';
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    await page.getByRole('heading', { name: 'Settings', exact: true }).click();
    const seen: { field: boolean; text: string; ring: string }[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const f = await page.evaluate(() => {
        const el = document.activeElement;
        const field =
          el instanceof HTMLSelectElement ||
          el instanceof HTMLTextAreaElement ||
          (el instanceof HTMLInputElement && !['checkbox', 'radio', 'file'].includes(el.type));
        if (!(el instanceof HTMLButtonElement || field) || !el.closest('.settings-section')) return null;
        const s = getComputedStyle(el);
        return {
          field,
          text: field
            ? (el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.tagName)
            : (el.textContent?.trim() ?? ''),
          ring: `${s.outlineWidth} ${s.outlineStyle} ${s.outlineColor} offset ${s.outlineOffset}`,
        };
      });
      if (f) seen.push(f);
    }
    // Back up now, Export library…, Change…, Remove… : the walk reaches several; and the default
    // style, its language, the auto-export path, format and scope, the watched folder.
    expect(seen.filter((f) => !f.field).length).toBeGreaterThanOrEqual(3);
    expect(seen.filter((f) => f.field).length).toBeGreaterThanOrEqual(3);
    for (const f of seen) expect(f.ring, f.text).toBe(`2px solid ${focus} offset ${f.field ? -2 : 1}px`);
  });

  it('dims a disabled button, and not an enabled one', async () => {
    const opacity = (testid: string) => page.getByTestId(testid).evaluate((el) => getComputedStyle(el).opacity);
    // Keep in sync stays disabled until a path is typed.
    expect(await page.getByTestId('auto-export-add').isDisabled()).toBe(true);
    expect(await opacity('auto-export-add')).toBe('0.55');
    expect(await opacity('backup-now')).toBe('1');
  });

  it('backs up now and lists the backup', async () => {
    const before = await page.locator('[data-testid="backups"] tbody tr').count();
    await page.getByTestId('backup-now').click();
    await expect.poll(() => shownText(page.getByTestId('backup-result'))).toMatch(/Backed up to citewise-.+\.sqlite/);
    await expect.poll(() => page.locator('[data-testid="backups"] tbody tr').count()).toBe(before + 1);
    expect(await shownText(page.locator('[data-testid="backups"] tbody tr').first())).toContain('Backed up by you');
    await page.getByTestId('backups').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-library-light');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'settings-library-dark');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the citation section in both themes', async () => {
    await page.getByTestId('default-style').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-citations-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'settings-citations-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('opens the export dialog for the whole library in the default style; Escape closes it and focus returns', async () => {
    await page.getByTestId('export-library').click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    expect(await page.getByTestId('export-style').inputValue()).toBe('ieee');
    expect(await page.getByTestId('export-locale').inputValue()).toBe('en-GB');
    await page.getByTestId('export-format').selectOption('html');
    await expect
      .poll(() => page.getByTestId('export-bibliography').locator('.csl-entry').count(), { timeout: 10_000 })
      .toBe(2);
    await screenshot(page, 'export-from-settings-light');
    // The shell behind the backdrop is dimmed on purpose; the dialog is what must read well.
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export-library');
  });

  it('offers a style added from a .csl file as the default, and removing it sets the default back to APA', async () => {
    await page.getByTestId('export-library').click();
    await page.getByRole('dialog', { name: 'Export' }).waitFor();
    await page.getByTestId('export-format').selectOption('text');
    await page.getByTestId('add-style-file').setInputFiles({
      name: 'tiny-lab.csl',
      mimeType: 'text/xml',
      buffer: readFileSync(join(ROOT, 'test/fixtures/cite/tiny-lab.csl')),
    });
    await expect.poll(() => page.getByTestId('export-style').inputValue(), { timeout: 20_000 }).toBe('tiny-lab');
    await page.keyboard.press('Escape');
    await page.reload();
    await expect.poll(() => shownText(page.getByTestId('added-styles'))).toContain('Tiny Lab Style');
    await page.getByTestId('default-style').selectOption('tiny-lab');
    // The tiny style prints titles in capitals.
    await expect
      .poll(() => shownText(page.getByTestId('citation-sample')), { timeout: 10_000 })
      .toContain('PAYLOAD <IMG SRC=X');
    await page.getByTestId('added-styles').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-added-style-light');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.getByRole('button', { name: 'Remove the style Tiny Lab Style' }).click();
    await expect.poll(() => page.getByTestId('added-styles').count()).toBe(0);
    await expect.poll(() => page.getByTestId('default-style').inputValue()).toBe('apa');
  });

  it('ran no injected script and logged no console errors', async () => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(problems.errors).toEqual([]);
  });
});
