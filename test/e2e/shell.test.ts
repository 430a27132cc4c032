/// <reference lib="dom" />
// The app shell in a real Chromium: every pane reachable by click and by keyboard, the status bar,
// themes (following the OS, and chosen in Settings, which persists), screenshots of each.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText } from './text';

const PANES = [
  ['library', 'Library'],
  ['graph', 'Citation graph'],
  ['collections', 'Collections'],
  ['assistant', 'Assistant'],
  ['evidence', 'Evidence'],
  ['journals', 'Journals & Authors'],
  ['settings', 'Settings'],
] as const;

describe('app shell in browser mode', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    app = await launchApp();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Panes' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('drops the token from the address bar after the first load', () => {
    expect(page.url()).toBe(`${app.origin}/`);
  });

  it('shows the status bar: service state, jobs and version', async () => {
    await expect.poll(() => shownText(page.getByTestId('connectivity'))).toContain('Service not contacted yet');
    expect(await shownText(page.getByTestId('jobs'))).toContain('No background jobs');
    expect(await shownText(page.locator('footer'))).toMatch(/Browser mode · v\d+\.\d+\.\d+/);
  });

  it.each(PANES)('opens the %s pane from the navigation', async (id, title) => {
    await page.locator(`nav button[data-pane="${id}"]`).click();
    await expect.poll(() => shownText(page.locator('main h1'))).toBe(title);
    expect(await page.locator(`nav button[data-pane="${id}"]`).getAttribute('aria-current')).toBe('page');
    expect(page.url()).toBe(`${app.origin}/#/${id}`);
    if (id === 'library') await page.getByTestId('first-run').waitFor({ timeout: 10_000 });
    await screenshot(page, `shell-${id}-light`);
  });

  it('switches panes with Ctrl+digit, Ctrl+comma and "g" sequences', async () => {
    await page.locator('main').click();
    await page.keyboard.press('Control+3');
    await expect.poll(() => shownText(page.locator('main h1'))).toBe('Collections');
    await page.keyboard.press('Control+,');
    await expect.poll(() => shownText(page.locator('main h1'))).toBe('Settings');
    await page.keyboard.press('g');
    await page.keyboard.press('e');
    await expect.poll(() => shownText(page.locator('main h1'))).toBe('Evidence');
    await page.keyboard.press('Control+1');
    await expect.poll(() => shownText(page.locator('main h1'))).toBe('Library');
  });

  it('keeps the pane across a reload', async () => {
    await page.locator('nav button[data-pane="assistant"]').click();
    await page.reload();
    await expect.poll(() => shownText(page.locator('main h1'))).toBe('Assistant');
  });

  it('follows the OS theme, with screenshots of every pane in dark', async () => {
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    for (const [id, title] of PANES) {
      await page.locator(`nav button[data-pane="${id}"]`).click();
      await expect.poll(() => shownText(page.locator('main h1'))).toBe(title);
      // The empty library's first-run card comes with its count; shot before it, the table is blank.
      if (id === 'library') await page.getByTestId('first-run').waitFor({ timeout: 10_000 });
      await screenshot(page, `shell-${id}-dark`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });

  it('lets Settings override the OS theme, and remembers it across launches', async () => {
    await page.locator('nav button[data-pane="settings"]').click();
    await expect.poll(() => page.getByText('Library folder', { exact: true }).isVisible()).toBe(true);
    expect(await shownText(page.locator('dd code'))).toBe(app.dataDir);
    await page.getByLabel('Dark').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await screenshot(page, 'settings-dark-chosen');

    // A second launch on the same library starts dark although the OS is light.
    const second = await launchApp({ dataDir: app.dataDir });
    try {
      const other = await context.newPage();
      await other.goto(second.url);
      await expect.poll(() => other.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      await other.close();
    } finally {
      await second.stop();
    }
    await page.getByLabel('Follow the system').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });

  it('says so when the connection to the app is lost', async () => {
    const lonely = await launchApp();
    const p = await context.newPage();
    await p.goto(lonely.url);
    await p.getByRole('navigation', { name: 'Panes' }).waitFor();
    await lonely.stop();
    await expect
      .poll(() => shownText(p.getByTestId('connection')), { timeout: 10_000 })
      .toMatch(/Reconnecting to Citewise|Disconnected from Citewise/);
    expect(await shownText(p.getByTestId('connection-banner'))).toContain('Lost the connection to Citewise');
    await screenshot(p, 'shell-connection-lost');
    await p.close();
  });

  it('logged no console errors and no CSP violations', () => {
    expect(problems.errors).toEqual([]);
  });
});
