// Items waiting for the citation service say so (issue 23): PDFs added while the service cannot be
// reached, one with a DOI (its metadata waits) and two without an identifier (their title search
// waits), are marked "Waiting" in the Library table and "Waiting for the citation service", with
// what they wait for, in the details column. When the service is back (the same port, started
// again), the marks go by themselves. The title read from a PDF is shown as text, markup included.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { freePort } from '../helpers/free-port';
import { makePdf } from '../helpers/pdfs';
import { shootThemes } from './axe';
import { shownText } from './text';
import {
  canaryCalls,
  installCanary,
  launchApp,
  launchBrowser,
  newPage,
  screenshot,
  type PageProblems,
  type RunningApp,
} from './harness';

const HOSTILE = 'Zymurgy quasar <img src=x onerror=window.__canary()> lattice';

describe('the mark of items waiting for the citation service', () => {
  let port: number;
  let service: RunningService | null = null;
  let keys: RunningService['keys'];
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let byTitle: { doi: string; title: string; family: string };
  let byDoi: { doi: string; title: string };

  const rowOf = (title: string) => page.locator('[role="row"][data-id]', { hasText: title });
  const waitingMarks = () => page.getByTestId('item-table').locator('[data-waiting]');
  const canaryFired = () => canaryCalls(page);

  beforeAll(async () => {
    port = await freePort();
    service = await startService({ port, papers: 600, log: () => {} });
    keys = service.keys;
    const rows = service.corpus.db
      .prepare('SELECT * FROM papers WHERE retracted = 0 AND notice_flags = 0 ORDER BY id LIMIT 2')
      .all() as Parameters<RunningService['corpus']['paper']>[0][];
    const [a, b] = rows.map((r) => service!.corpus.paper(r));
    byTitle = { doi: a!.doi.toLowerCase(), title: a!.title, family: a!.authors[0]?.family ?? 'Nobody' };
    byDoi = { doi: b!.doi.toLowerCase(), title: b!.title };
    // The service goes away before the app starts: everything below is added offline.
    await service.close();
    service = null;
    const fullKey = keys.find((k) => k.scopes.has('*'))!.token;
    app = await launchApp({
      env: {
        CITEWISE_SERVICE_URL: `http://127.0.0.1:${port}`,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light' });
    await installCanary(context);
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Panes' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
  });

  it('marks each waiting item in the table and the details column, saying what it waits for', async () => {
    const pdf = async (name: string, spec: Parameters<typeof makePdf>[0]) => ({
      name,
      mimeType: 'application/pdf',
      buffer: Buffer.from(await makePdf(spec)),
    });
    await page.getByTestId('pdf-file').setInputFiles([
      await pdf('by-title.pdf', {
        title: byTitle.title,
        byline: `A. ${byTitle.family}, B. Nobody`,
        pages: [['No identifier is printed on this paper.']],
      }),
      await pdf('hostile.pdf', { title: HOSTILE, byline: 'Q. Nobody', pages: [['No identifier here either.']] }),
      await pdf('by-doi.pdf', { title: 'What the first page says', pages: [[`doi:${byDoi.doi}`]] }),
    ]);
    const dialog = page.getByTestId('pdf-add-dialog');
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 90_000 })
      .toMatch(/Added 3 PDFs of 3 files/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('3 items');

    // The table: a "Waiting" mark in each title cell, named in full for screen readers and on hover.
    await expect.poll(() => waitingMarks().count()).toBe(3);
    const titleMark = rowOf(byTitle.title).locator('[data-waiting]');
    expect(await titleMark.getAttribute('data-waiting')).toBe('title-search');
    expect(await shownText(titleMark)).toBe("Waiting for the citation service: a search by its PDF's title");
    expect(await titleMark.getAttribute('title')).toBe("Waiting for the citation service: a search by its PDF's title");
    // On screen only "Waiting": a small mark that leaves the title its room.
    expect((await titleMark.boundingBox())!.width).toBeLessThan(90);
    const doiMark = rowOf('What the first page says').locator('[data-waiting]');
    expect(await shownText(doiMark)).toBe(`Waiting for the citation service: its metadata (DOI ${byDoi.doi})`);

    // The details column: what it waits for, the title read from the PDF as text.
    await rowOf('Zymurgy quasar').click();
    await page.keyboard.press('Enter');
    const mark = page.getByTestId('waiting-mark');
    await mark.waitFor();
    expect(await shownText(mark.locator('strong'))).toBe('Waiting for the citation service');
    expect(await shownText(mark)).toContain(
      `The title read from its PDF, “${HOSTILE}”, is looked up in the service's paper search when the service can be reached`,
    );
    expect(await mark.locator('img').count()).toBe(0);
    expect(await canaryFired()).toBe(0);

    await rowOf('What the first page says').click();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => shownText(mark))
      .toContain(
        `Its metadata and citation evidence for DOI “${byDoi.doi}” are fetched when the service can be reached.`,
      );
    await rowOf(byTitle.title).click();
    await page.keyboard.press('Enter');
    await expect.poll(() => mark.getAttribute('data-waiting')).toBe('title-search');
    await shootThemes(page, 'library-waiting-mark');
  });

  it('the marks go when the service is back: identified, or sent to Needs review', async () => {
    service = await startService({ port, papers: 600, keys, log: () => {} });
    // Nothing is asked of the app: the connectivity probe notices the service and the waiting work resumes.
    await expect.poll(() => waitingMarks().count(), { timeout: 90_000, interval: 500 }).toBe(0);
    await expect.poll(() => page.getByTestId('waiting-mark').count()).toBe(0);
    await expect.poll(() => shownText(page.getByTestId('details-title'))).toBe(byTitle.title);
    expect(await rowOf(byDoi.title).count()).toBe(1);
    await screenshot(page, 'library-waiting-mark-done');
    await page.getByTestId('view-review').click();
    const review = page.getByTestId('review');
    await expect.poll(() => review.getByTestId('review-entry').count()).toBe(1);
    expect(await shownText(review.getByTestId('review-entry'))).toContain(HOSTILE);
    expect(await canaryFired()).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
