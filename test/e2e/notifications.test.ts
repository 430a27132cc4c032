/// <reference lib="dom" />
// The retraction watch as a researcher meets it: papers in the library turned out retracted or under
// an expression of concern (found by `citewise check` while the app was closed), and on opening the
// app a notification says so, with a link to the "Retracted & notices" view; dismissed, it stays gone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';
import { seriousViolations } from './axe';
import { launchApp, launchBrowser, newPage, screenshot, type RunningApp } from './harness';
import { cli, pickDois } from './seed';
import { shownText } from './text';

describe('retraction notifications', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let dataDir: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 400, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    const dois = pickDois(service);
    dataDir = tempDir('citewise-notify-');
    await cli(
      dataDir.path,
      service.url,
      'import',
      new URL('../fixtures/formats/library.bib', import.meta.url).pathname,
    );
    await cli(dataDir.path, service.url, 'add', dois.retracted, dois.concern);
    // `check` exits 3 when items are flagged; --keep-unseen leaves the changes for the app to tell.
    await cli(dataDir.path, service.url, 'check', '--keep-unseen').catch((err: Error) => {
      if (!/flagged|retract|concern/i.test(err.message)) throw err;
    });
    app = await launchApp({
      dataDir: dataDir.path,
      env: {
        CITEWISE_SERVICE_URL: service.url,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    ({ page } = await newPage(await browser.newContext({ viewport: { width: 1360, height: 820 } })));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
    dataDir?.remove();
  });

  it('tells the user which items changed status and shows them', async () => {
    await page.goto(app.url);
    const note = page.getByTestId('status-notification');
    await note.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => shownText(note))
      .toMatch(/2 items in your library have new editorial notices \(1 retracted, 1 under an expression of concern\)/);
    await screenshot(page, 'notification-light');
    expect(await seriousViolations(page)).toEqual([]);
    await note.getByRole('button', { name: 'Show them' }).click();
    await note.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.locator('[role="row"][aria-rowindex]:not([aria-rowindex="1"]):visible').count())
      .toBe(2);
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'notification-shown-dark');

    // Seen: a new window does not tell again.
    await page.reload();
    await page.getByRole('grid').waitFor();
    await new Promise((r) => setTimeout(r, 1000));
    expect(await page.getByTestId('status-notification').count()).toBe(0);
  });
});
