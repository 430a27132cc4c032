/// <reference lib="dom" />
// Collections and paper search as a researcher uses them, in Chromium against the local service:
// a collection made from items selected in the Library, one from a library collection, one from a
// search query (its filters checked before anything is sent), its matched DOIs imported into the
// library and filed, a refresh,
// the kept copy opening when the network is gone; the paper search with filters, tallies, notices,
// paging and adding hits; and a key without Collections access told so plainly.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { startService, type RunningService } from '../service/server';
import { seriousViolations, shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { startServiceProxy, type ServiceProxy } from './service-proxy';
import { shownText, shownTexts } from './text';

const SEEDED = 8;
const NO_BUS = 'unix:path=/nonexistent/bus';

describe('collections and paper search', () => {
  let service: RunningService;
  let proxy: ServiceProxy;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let seeded: string[];
  let word: string;
  let limitedKey: string;

  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);
  const count = () => shownText(page.getByTestId('item-count'));
  const pane = (id: string) => page.locator(`nav button[data-pane="${id}"]`).click();

  const shoot = (name: string): Promise<void> => shootThemes(page, `collections-${name}`);

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 900, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    limitedKey = service.keys.find((k) => !k.scopes.has('*') && !k.scopes.has('collections'))!.token;
    const db = service.corpus.db;
    seeded = db
      .prepare('SELECT doi FROM papers WHERE retracted = 0 ORDER BY id LIMIT ?')
      .pluck()
      .all(SEEDED) as string[];
    // A title word frequent enough to page through and to fill a small collection.
    const titles = db.prepare('SELECT title FROM papers').pluck().all() as string[];
    const freq = new Map<string, number>();
    for (const t of titles)
      for (const w of new Set(t.toLowerCase().match(/[a-z]{6,}/g) ?? [])) freq.set(w, (freq.get(w) ?? 0) + 1);
    word = [...freq.entries()].filter(([, n]) => n >= 45 && n <= 200).sort((a, b) => b[1] - a[1])[0]![0];
    dataDir = tempDir('citewise-collections-');
    await cli(dataDir.path, service.url, 'add', ...seeded);
    proxy = await startServiceProxy(service.url, { doi: '10.0000/none', payload: '' });
    app = await launchApp({
      dataDir: dataDir.path,
      env: { CITEWISE_SERVICE_URL: proxy.url, CITEWISE_API_KEY: fullKey, DBUS_SESSION_BUS_ADDRESS: NO_BUS },
    });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(
      await browser.newContext({ viewport: { width: 1360, height: 900 }, colorScheme: 'light' }),
    ));
    await page.goto(app.url);
    await page
      .getByTestId('item-count')
      .filter({ hasText: `${SEEDED} items` })
      .waitFor({ timeout: 20_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.goOffline().catch(() => {});
    await service?.close();
    dataDir?.remove();
  });

  it('makes a collection on the service from items selected in the Library and shows what matched', async () => {
    await pane('collections');
    await page.getByText('No collections yet').waitFor();
    await shoot('empty');
    // Select three items in the Library, then make the collection from them.
    await pane('library');
    await rowAt(0).click();
    await rowAt(2).click({ modifiers: ['Shift'] });
    await expect.poll(() => shownText(page.getByTestId('selected-count'))).toContain('3 selected');
    await pane('collections');
    await page.getByTestId('new-collection').click();
    const form = page.getByTestId('create-collection');
    expect(await shownText(form)).toContain('(3 selected)');
    await page.getByTestId('create-submit').click();
    expect(await shownText(form.locator('.problem').first())).toBe('Give the collection a name.');
    await page.getByLabel('Name', { exact: true }).fill('Selected reef papers');
    await page.getByTestId('create-submit').click();
    const view = page.getByTestId('collection-view');
    await view.waitFor();
    expect(await shownText(view.getByRole('heading', { level: 2 }))).toBe('Selected reef papers');
    expect(await shownText(view)).toContain('Made from 3 DOIs of items selected in your library.');
    const counts = view.getByTestId('collection-counts');
    expect(await shownText(counts)).toMatch(/Matched DOIs\s*3\s*Unmatched DOIs\s*0\s*Total\s*3\s*In your library\s*3/);
    expect(await view.getByTestId('matched-dois').locator('li').count()).toBe(3);
    for (const doi of await shownTexts(view.getByTestId('matched-dois').locator('code')))
      expect(seeded).toContain(doi.trim());
    expect(await shownText(view.getByTestId('refresh-status'))).toBe('Up to date (no refresh running)');
    expect(await shownText(view.getByTestId('collection-import'))).toContain('All papers are in your library');
    expect(await page.getByTestId('collection-list').locator('li').count()).toBe(1);
    await shoot('from-selection');
  });

  it('checks a query before sending it, then makes a collection of the search and imports its papers, filed', async () => {
    await page.getByTestId('new-collection').click();
    await page.getByLabel('Name', { exact: true }).fill(`Papers on ${word}`);
    await page.getByLabel('A search query').check();
    await page.getByLabel('Published from').fill('yesterday');
    await page.getByLabel('Supporting from').fill('9');
    await page.getByLabel('Supporting to').fill('2');
    await page.getByTestId('create-submit').click();
    const form = page.getByTestId('create-collection');
    await expect.poll(() => shownText(form)).toContain('Published from: "yesterday" is not a date');
    expect(await shownText(form)).toContain('Supporting: the lower bound (9) is above the upper bound (2).');
    expect(await page.getByTestId('collection-list').locator('li').count()).toBe(1);
    await shoot('query-problems');

    await page.getByLabel('Published from').fill('');
    await page.getByLabel('Supporting from').fill('');
    await page.getByLabel('Supporting to').fill('');
    await page.getByLabel('Search term', { exact: true }).fill(word);
    await page.getByLabel('Retraction', { exact: true }).selectOption('no');
    await page.getByLabel('Papers to take').fill('6');
    await page.getByLabel('by journals').check();
    await page.getByTestId('create-submit').click();
    const view = page.getByTestId('collection-view');
    await expect.poll(() => shownText(view.getByRole('heading', { level: 2 }))).toBe(`Papers on ${word}`);
    expect(await shownText(view)).toContain(
      `Made from the search “${word}”, without retraction, first 6, aggregated by journals.`,
    );
    expect(await shownText(view.getByTestId('collection-counts'))).toMatch(/Matched DOIs\s*6\s*Unmatched DOIs\s*0/);
    const matched = (await shownTexts(view.getByTestId('matched-dois').locator('code'))).map((d) => d.trim());
    expect(matched).toHaveLength(6);
    // What the service holds for this query, asked of it directly: the same six DOIs.
    const direct = await fetch(
      `${service.url}/search?term=${encodeURIComponent(word)}&has_retraction=false&limit=6`,
    ).then((r) => r.json() as Promise<{ hits: { doi: string }[] }>);
    expect(new Set(matched)).toEqual(new Set(direct.hits.map((h) => h.doi)));

    const alreadyIn = matched.filter((d) => seeded.includes(d)).length;
    await view.getByTestId('collection-import').click();
    const report = view.getByTestId('collection-import-report');
    await report.waitFor({ timeout: 20_000 });
    expect(await shownText(report)).toContain(`Added ${6 - alreadyIn} papers`);
    expect(await shownText(report)).toContain(`filed in “Papers on ${word}”`);
    await expect.poll(() => shownText(view.getByTestId('collection-counts'))).toMatch(/In your library\s*6/);
    await shoot('imported');
    await pane('library');
    await page.getByTestId('view-library').click();
    await expect.poll(count).toBe(`${SEEDED + 6 - alreadyIn} items`);
    await page.locator('[data-collection]', { hasText: `Papers on ${word}` }).click();
    await expect.poll(count).toBe('6 items');
  });

  it('makes a collection from one of the library’s collections', async () => {
    await pane('collections');
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page.getByTestId('new-collection').click();
    await page.getByLabel('Name', { exact: true }).fill('From my library collection');
    await page.getByLabel('A collection of your library').check();
    await page.getByTestId('create-submit').click();
    await expect
      .poll(() => shownText(page.getByTestId('create-collection')))
      .toContain('Choose a collection of your library.');
    await page.getByLabel('Library collection').selectOption({ label: `Papers on ${word} (6)` });
    await page.getByTestId('create-submit').click();
    const view = page.getByTestId('collection-view');
    await expect.poll(() => shownText(view.getByRole('heading', { level: 2 }))).toBe('From my library collection');
    expect(await shownText(view)).toContain(`Made from 6 DOIs of your library collection “Papers on ${word}”.`);
    expect(await shownText(view.getByTestId('collection-counts'))).toMatch(
      /Matched DOIs\s*6\s*Unmatched DOIs\s*0\s*Total\s*6\s*In your library\s*6/,
    );
    expect(await page.getByTestId('collection-list').locator('li').count()).toBe(3);
  });

  it('tells a key without Collections access what is missing, and keeps nothing', async () => {
    const limitedDir = tempDir('citewise-collections-limited-');
    const limited = await launchApp({
      dataDir: limitedDir.path,
      env: { CITEWISE_SERVICE_URL: service.url, CITEWISE_API_KEY: limitedKey, DBUS_SESSION_BUS_ADDRESS: NO_BUS },
    });
    const { page: p2, problems: p2problems } = await newPage(
      await browser.newContext({ viewport: { width: 1360, height: 900 } }),
    );
    try {
      await p2.goto(`${limited.url.split('#')[0]}#/collections`);
      await p2.getByTestId('new-collection').click();
      await p2.getByLabel('Name', { exact: true }).fill('Not allowed');
      await p2.getByLabel('A search query').check();
      await p2.getByLabel('Search term', { exact: true }).fill(word);
      await p2.getByTestId('create-submit').click();
      const error = p2.getByTestId('collections-error');
      await error.waitFor({ timeout: 20_000 });
      expect(await shownText(error.locator('strong'))).toBe('Your API key does not include Collections access');
      expect(await shownText(error)).toContain('Collections need that access on both the key and the account');
      expect(await shownText(error)).toContain('Check access');
      expect(await p2.getByTestId('collection-list').count()).toBe(0);
      await screenshot(p2, 'collections-no-access-light');
      expect(await seriousViolations(p2)).toEqual([]);
      // Paper search needs no Collections access: it works with the same key.
      await p2.getByRole('tab', { name: 'Paper search' }).click();
      await p2.getByTestId('paper-search-input').fill(word);
      await p2.keyboard.press('Enter');
      await expect.poll(() => shownText(p2.getByTestId('search-summary')), { timeout: 20_000 }).toMatch(/^1–20 of/);
      // The failed request is reported in the page, not as a console error.
      expect(p2problems.errors.filter((e) => !/403/.test(e))).toEqual([]);
    } finally {
      await p2.close();
      await limited.stop();
      limitedDir.remove();
    }
  });

  it('searches the literature with filters, sorting and paging, shows tallies and notices, and adds a hit to the library', async () => {
    await pane('collections');
    await page.getByRole('tab', { name: 'Paper search' }).click();
    await page.getByText('Search the literature', { exact: true }).waitFor();
    await page.getByTestId('paper-search-input').fill(word);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const summary = page.getByTestId('search-summary');
    await expect.poll(() => shownText(summary), { timeout: 20_000 }).toMatch(/^1–20 of \d+ papers/);
    const total = Number(/of (\d+) papers/.exec((await shownText(summary))!)![1]);
    expect(total).toBeGreaterThan(20);
    const rows = page.getByTestId('paper-row');
    expect(await rows.count()).toBe(20);
    // Tallies as the service has them, and the search word highlighted through the allowlist (as <mark>).
    const firstDoi = (await rows.first().getAttribute('data-doi'))!;
    const tally = await fetch(`${service.url}/tallies/${firstDoi}`).then(
      (r) => r.json() as Promise<{ supporting: number; contradicting: number; mentioning: number }>,
    );
    expect(await shownText(rows.first().getByTestId('paper-tally'))).toMatch(
      new RegExp(
        `${tally.supporting.toLocaleString('en')} supporting,\\s*${tally.contradicting.toLocaleString('en')} contrasting,\\s*${tally.mentioning.toLocaleString('en')} mentioning`,
      ),
    );
    expect(await page.locator('[data-testid="paper-row"] mark').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="paper-row"] strong.highlight').count()).toBe(0);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => shownText(summary)).toMatch(new RegExp(`^21–${Math.min(40, total)} of ${total} papers`));
    await shoot('search');

    // Only papers with a retraction, newest first: each hit says it was retracted.
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.locator('#ps-hasRetraction').selectOption('yes');
    await page.getByLabel('Sort by').selectOption('date');
    await page.getByPlaceholder('Words, phrases, a question…').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => shownText(summary)).toContain('with retraction, sorted by date');
    const retractedCount = await rows.count();
    expect(retractedCount).toBeGreaterThan(0);
    for (let i = 0; i < retractedCount; i++)
      expect(await shownTexts(rows.nth(i).getByTestId('paper-notice'))).toContain('Retracted');
    expect(await shownText(page.getByTestId('search-notices'))).toMatch(/Retracted \d+/);

    // Adding a hit: it joins the library and is marked.
    const target = rows.filter({ hasNot: page.getByTestId('in-library') }).first();
    const doi = (await target.getAttribute('data-doi'))!;
    await target.getByRole('button', { name: /^Add to library/ }).click();
    await page
      .locator(`[data-testid="paper-row"][data-doi="${doi}"] [data-testid="in-library"]`)
      .waitFor({ timeout: 20_000 });
    expect(await shownText(page.getByTestId('add-report'))).toContain('Added 1 to your library');
    await shoot('search-filtered');
    await pane('library');
    await page.getByTestId('view-library').click();
    await page.getByRole('searchbox', { name: 'Search the library' }).fill(`doi:"${doi}"`);
    await expect.poll(count).toBe('1 item');
    expect(problems.errors).toEqual([]);
  });
  it('refreshes a collection, and opens the kept copy when the service cannot be reached', async () => {
    await pane('collections');
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page
      .getByTestId('collection-list')
      .getByRole('button', { name: /Selected reef papers/ })
      .click();
    const view = page.getByTestId('collection-view');
    await view.waitFor();
    const before = await shownText(view.getByTestId('fetched-at'));
    await page.waitForTimeout(1100);
    const asked = proxy.paths.length;
    await view.getByTestId('collection-refresh').click();
    await expect
      .poll(() => proxy.paths.slice(asked).some((p) => p.startsWith('/api_partner/collections/selected')))
      .toBe(true);
    expect(await view.getByTestId('collection-problem').count()).toBe(0);
    expect(before).toBeTruthy();

    await proxy.goOffline();
    await view.getByTestId('collection-refresh').click();
    await view.getByTestId('collection-problem').waitFor({ timeout: 30_000 });
    expect(await shownText(view.getByTestId('collection-problem'))).toContain('Showing the copy kept in your library');
    expect(await shownText(view.getByTestId('collection-counts'))).toMatch(/Matched DOIs\s*3/);
    // A new window, still offline: the collections are listed and open from the library.
    await page.reload();
    await pane('collections');
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page
      .getByTestId('collection-list')
      .getByRole('button', { name: /Papers on/ })
      .click();
    await expect
      .poll(() => shownText(page.getByTestId('collection-view').getByTestId('collection-counts')))
      .toMatch(/Matched DOIs\s*6/);
    await shoot('offline-copy');
  });
});
