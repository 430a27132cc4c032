/// <reference lib="dom" />
// Settings → Citation service, against the local service: the address in use, saving a key (which
// the page never gets back), checking which access it grants, replacing and removing it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText, shownTexts } from './text';

describe('Settings: citation service and API key', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let fullKey: string;
  let limitedKey: string;

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 300, log: () => {} });
    fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    limitedKey = service.keys.find((k) => !k.scopes.has('*'))!.token;
    // No D-Bus session: the key must stay in this session, never in a developer's real keychain.
    app = await launchApp({
      env: { CITEWISE_SERVICE_URL: service.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext({ viewport: { width: 1280, height: 860 } })));
    await page.goto(app.url);
    await page.locator('nav button[data-pane="settings"]').click();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
  });

  it('shows the address in use and where it comes from, and that no key is stored', async () => {
    await expect.poll(() => shownText(page.getByTestId('service-url'))).toBe(service.url);
    expect(await shownText(page.locator('section.service'))).toContain('set for this run');
    expect(await shownText(page.getByTestId('key-status'))).toContain('No key is stored');
    await screenshot(page, 'settings-service-no-key');
  });

  it('saves a limited key for this session, says why, and shows which access it grants', async () => {
    await page.getByLabel('API key').fill(limitedKey);
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => shownText(page.getByTestId('key-status'))).toContain('in use for this session');
    expect(await shownText(page.getByTestId('key-reason'))).toMatch(/No OS keychain is available .*session only/);
    await page.getByTestId('key-access').waitFor();
    const rows = await shownTexts(page.locator('[data-testid="key-access"] tbody tr'));
    expect(rows.find((r) => r.startsWith('papers, tallies'))).toContain('Yes');
    expect(rows.find((r) => r.startsWith('the citation graph'))).toContain('No');
    expect(rows.find((r) => r.startsWith('the Assistant'))).toContain('No');
    // The page holds no copy of the key: the field was emptied and nothing echoes it.
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(limitedKey);
    await screenshot(page, 'settings-service-limited-key');
  });

  it('replaces it with a full-access key; every access is granted', async () => {
    await page.getByLabel('API key').fill(fullKey);
    await page.getByRole('button', { name: 'Save key' }).click();
    // Saving clears the old result before the new check lands, so wait for a full table of 11 answers.
    await expect
      .poll(async () =>
        (await shownTexts(page.locator('[data-testid="key-access"] tbody tr td:nth-child(2)'))).map((t) =>
          t.slice(0, 3),
        ),
      )
      .toEqual(Array(11).fill('Yes'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'settings-service-full-key-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('says so when the service does not accept a key', async () => {
    await page.getByLabel('API key').fill('not-a-real-key');
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect
      .poll(() => shownText(page.locator('[data-testid="key-access"] p')))
      .toMatch(/does not accept this API key/);
    expect(await page.locator('[data-testid="key-access"] table').count()).toBe(0);
    await screenshot(page, 'settings-service-rejected-key');
  });

  it('removes the key', async () => {
    await page.getByRole('button', { name: 'Remove key' }).click();
    await expect.poll(() => shownText(page.getByTestId('key-status'))).toContain('No key is stored');
    expect(await page.getByTestId('key-access').count()).toBe(0);
  });

  it('logged no console errors', () => {
    expect(problems.errors).toEqual([]);
  });
});
