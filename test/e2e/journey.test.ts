/// <reference lib="dom" />
// A researcher's first session, end to end in Chromium against browser mode and the local service
// (behind a pass-through that can slow the network, cut it, or make one DOI's answers hostile):
// importing a .bib of a few hundred papers and watching their citation tallies arrive, with
// progress, equal to what the service holds; a retracted paper among them announced and bannered;
// a duplicate pair compared side by side and merged with fields from each, then undone; the
// bibliography exported in each of the eight styles and copied; hostile service answers, notes and
// tags shown as text; and the library still usable, and saying so, when the network goes.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { pickDois } from './seed';
import { startServiceProxy, type ServiceProxy } from './service-proxy';
import { shownText, shownTexts } from './text';

const KNOWN = 240;
const UNKNOWN_DOI = '10.5555/not-known-to-the-service.1';
const CANARY = 'Payload <img src=x onerror="window.__canary()"><script>window.__canary()</script>';
const NUMBER = new Intl.NumberFormat('en');

/**
 * The two papers to cite, as each style must write them: APA (initials, year in parentheses after the
 * names, "&", sentence-case title unquoted, DOI as a URL), IEEE (numbered in citation order, initials
 * first, title in double quotes, "vol."/"no."/"pp."), MLA (full first name, "et al." past two authors,
 * title-case title in quotes, year after the issue), AMA (numbered, no full stops in initials, year;
 * volume(issue):pages), Chicago author-date (year after the names, title-case in quotes, "12 (3):"),
 * Harvard (year in parentheses, title quoted as the language quotes, "Available at:"), Vancouver (numbered,
 * "Lagos: Riverside Press; 2015") and BibTeX (entries keyed by the citation key, pages as "--").
 */
const STYLES: Record<string, { opening: string; forms: RegExp[] }> = {
  apa: {
    opening: 'Abara, T. (2015). Groundwater',
    forms: [
      /^Abara, T\. \(2015\)\. Groundwater and the city\. Riverside Press\.\nOkafor, N\. A\., Lindqvist, E\., & Chen, W\. \(2020\)\. Soil microbiome responses to drought\. Journal of Soil Ecology, 12\(3\), 45–67\. https:\/\/doi\.org\/10\.5555\/soil\.2020\.045\n?$/,
    ],
  },
  ieee: {
    opening: 'N. A. Okafor, E. Lindqvist, and W. Chen, “Soil',
    forms: [
      /^\[1\] N\. A\. Okafor, E\. Lindqvist, and W\. Chen, “Soil microbiome responses to drought,” Journal of Soil Ecology, vol\. 12, no\. 3, pp\. 45–67, 2020, doi: 10\.5555\/soil\.2020\.045\.\n\[2\] T\. Abara, Groundwater and the city\. Lagos: Riverside Press, 2015\.\n?$/,
    ],
  },
  mla: {
    opening: 'Abara, Tunde. Groundwater and the City. Riverside',
    forms: [
      /^Abara, Tunde\. Groundwater and the City\. Riverside Press, 2015\.\nOkafor, Ngozi A\., et al\. “Soil Microbiome Responses to Drought\.” Journal of Soil Ecology, vol\. 12, no\. 3, 2020, pp\. 45–67, https:\/\/doi\.org\/10\.5555\/soil\.2020\.045\.\n?$/,
    ],
  },
  ama: {
    opening: 'Journal of Soil Ecology. 2020;12(3):45-67',
    forms: [
      /^1\. Okafor NA, Lindqvist E, Chen W\. Soil microbiome responses to drought\. Journal of Soil Ecology\. 2020;12\(3\):45-67\. doi:10\.5555\/soil\.2020\.045\n2\. Abara T\. Groundwater and the City\. Riverside Press; 2015\.\n?$/,
    ],
  },
  chicago: {
    opening: 'Abara, Tunde. 2015. Groundwater',
    forms: [
      /^Abara, Tunde\. 2015\. Groundwater and the City\. Lagos: Riverside Press\.\nOkafor, Ngozi A\., Erik Lindqvist, and Wei Chen\. 2020\. “Soil Microbiome Responses to Drought\.” Journal of Soil Ecology 12 \(3\): 45–67\. https:\/\/doi\.org\/10\.5555\/soil\.2020\.045\.\n?$/,
    ],
  },
  harvard: {
    opening: 'Abara, T. (2015) Groundwater',
    forms: [
      /^Abara, T\. \(2015\) Groundwater and the city\. Lagos: Riverside Press\.\nOkafor, N\.A\., Lindqvist, E\. and Chen, W\. \(2020\) “Soil microbiome responses to drought,” Journal of Soil Ecology, 12\(3\), pp\. 45–67\. Available at: https:\/\/doi\.org\/10\.5555\/soil\.2020\.045\.\n?$/,
    ],
  },
  vancouver: {
    opening: 'Journal of Soil Ecology. 2020;12(3):45–67.',
    forms: [
      /^1\. Okafor NA, Lindqvist E, Chen W\. Soil microbiome responses to drought\. Journal of Soil Ecology\. 2020;12\(3\):45–67\.\n2\. Abara T\. Groundwater and the city\. Lagos: Riverside Press; 2015\.\n?$/,
    ],
  },
  bibtex: {
    opening: 'okafor2020soil',
    forms: [
      /^@article\{okafor2020soil,\n(?:[^@]*\n)? {2}author = \{Okafor, Ngozi A\. and Lindqvist, Erik and Chen, Wei\},\n/,
      /^@article\{okafor2020soil,\n(?:[^@]*\n)? {2}pages = \{45--67\},\n/,
      /^@article\{okafor2020soil,\n(?:[^@]*\n)? {2}title = \{Soil microbiome responses to drought\},\n/,
      /^@article\{okafor2020soil,\n(?:[^@]*\n)? {2}doi = \{10\.5555\/soil\.2020\.045\},\n/,
      /\n@book\{abara2015ground,\n(?:[^@]*\n)? {2}publisher = \{Riverside Press\},\n[^@]*\}\n?$/,
    ],
  },
};

interface Tally {
  supporting: number;
  contradicting: number;
  mentioning: number;
  citingPublications?: number;
}

const pad = (i: number) => String(i).padStart(3, '0');

/** The .bib a researcher brings: KNOWN papers the service knows, one it does not, one retracted, a duplicate pair, two to cite. */
function makeBib(dois: string[], retracted: string): string {
  const entries = dois.map(
    (doi, i) =>
      `@article{ev${pad(i)},\n  title = {Evidence check ${pad(i)}},\n  author = {Tester, Tess},\n  journal = {Journal of Checks},\n  year = {2015},\n  doi = {${doi}}\n}\n`,
  );
  entries.push(
    `@article{unknown1,\n  title = {Unknown to the service},\n  author = {Nobody, Ned},\n  year = {2011},\n  doi = {${UNKNOWN_DOI}}\n}\n`,
    `@article{retracted1,\n  title = {A paper that was retracted},\n  author = {Former, Fay},\n  year = {2012},\n  doi = {${retracted}}\n}\n`,
    // The same paper twice, as two databases exported it: no DOI, the details differ.
    `@article{reefA,\n  title = {Coral reef resilience under warming},\n  author = {Moreau, Claire and Ito, Ken},\n  journal = {Marine Letters},\n  year = {2018},\n  volume = {4},\n  pages = {10--20},\n  keywords = {reefs, to-read}\n}\n`,
    `@article{reefB,\n  title = {Coral Reef Resilience under Warming},\n  author = {Moreau, C. and Ito, K.},\n  journal = {Marine Letters Quarterly},\n  year = {2018},\n  volume = {5},\n  number = {2},\n  pages = {11--21},\n  keywords = {climate}\n}\n`,
    // Two items to cite, in the order they were added: Okafor first, Abara second.
    `@article{okafor2020soil,\n  author = {Okafor, Ngozi A. and Lindqvist, Erik and Chen, Wei},\n  title = {Soil microbiome responses to drought},\n  journal = {Journal of Soil Ecology},\n  year = {2020},\n  volume = {12},\n  number = {3},\n  pages = {45--67},\n  doi = {10.5555/soil.2020.045},\n  keywords = {cite-me}\n}\n`,
    `@book{abara2015ground,\n  author = {Abara, Tunde},\n  title = {Groundwater and the city},\n  publisher = {Riverside Press},\n  address = {Lagos},\n  year = {2015},\n  keywords = {cite-me}\n}\n`,
  );
  return entries.join('\n');
}

describe('a researcher’s first session', () => {
  let service: RunningService;
  let proxy: ServiceProxy;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  let dois: string[];
  let retracted: string;
  let hostileDoi: string;
  const tallies: Record<string, Tally> = {};
  const TOTAL = KNOWN + 6;

  const count = () => shownText(page.getByTestId('item-count'));
  const search = () => page.getByRole('searchbox', { name: 'Search the library' });
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);
  const cell = (i: number, col: string) => rowAt(i).locator(`.cell.${col}`);
  const jobs = () => page.getByTestId('jobs');
  const canaryFired = () => page.evaluate(() => (window as unknown as { __canaryFired?: number }).__canaryFired ?? 0);

  const shoot = (name: string, dark = true): Promise<void> => shootThemes(page, `journey-${name}`, { dark });

  async function find(query: string, expected: number): Promise<void> {
    await search().fill(query);
    await expect.poll(count).toBe(`${expected} item${expected === 1 ? '' : 's'}`);
  }

  async function openDetails(row: ReturnType<typeof rowAt>): Promise<void> {
    await row.click();
    await page.keyboard.press('Enter');
    await page.getByTestId('details-title').waitFor();
  }

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 600, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    retracted = pickDois(service).retracted;
    const db = service.corpus.db;
    dois = db
      .prepare(`SELECT doi FROM papers WHERE retracted = 0 AND notice_flags = 0 ORDER BY id LIMIT ?`)
      .pluck()
      .all(KNOWN) as string[];
    hostileDoi = db
      .prepare(
        `SELECT doi FROM papers p WHERE retracted = 0 AND notice_flags = 0 AND abstract IS NOT NULL AND (SELECT count(*) FROM citations c WHERE c.target = p.id) >= 3 ORDER BY id DESC LIMIT 1`,
      )
      .pluck()
      .get() as string;
    expect(dois).toHaveLength(KNOWN);
    expect(dois).not.toContain(hostileDoi);
    // What the service holds for these DOIs, asked of the service itself (not through the app).
    const res = await fetch(`${service.url}/tallies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(dois),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { tallies: Record<string, Tally> };
    for (const [doi, t] of Object.entries(body.tallies)) tallies[doi.toLowerCase()] = t;
    expect(Object.keys(tallies)).toHaveLength(KNOWN);

    proxy = await startServiceProxy(service.url, { doi: hostileDoi, payload: CANARY });
    app = await launchApp({
      env: {
        CITEWISE_SERVICE_URL: proxy.url,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1360, height: 860 },
      colorScheme: 'light',
      acceptDownloads: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    // The canary: any markup from a title, an abstract, a note, a tag or a service answer that ran
    // as code would call it. Installed before the app's own scripts.
    await context.addInitScript(() => {
      const w = window as unknown as { __canary: () => void; __canaryFired: number };
      w.__canaryFired = 0;
      w.__canary = () => void w.__canaryFired++;
    });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByTestId('first-run').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.goOffline().catch(() => {});
    await service?.close();
  });

  it('imports a .bib of a few hundred papers and watches their tallies arrive, with progress, equal to the service’s', async () => {
    // A slow network, so the user sees the library before the evidence.
    proxy.latencyMs = 4000;
    await page.getByTestId('import-file').setInputFiles({
      name: 'papers.bib',
      mimeType: 'application/x-bibtex',
      buffer: Buffer.from(makeBib(dois, retracted)),
    });
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-summary').waitFor();
    await dialog.getByRole('button', { name: `Import ${TOTAL} entries` }).click();
    await dialog.getByTestId('import-report').waitFor();
    expect(await shownText(dialog.getByTestId('import-report'))).toContain(`Added ${TOTAL} items`);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(count).toBe(`${TOTAL} items`);

    // Not fetched yet: an ellipsis (a dash means no DOI), not a zero; the enrichment job shows its progress in the status bar.
    await find('title:"Evidence check"', KNOWN);
    await page.getByRole('columnheader', { name: 'Title' }).getByRole('button').click();
    await expect.poll(() => shownText(cell(0, 'title'))).toContain('Evidence check 000');
    for (const col of ['supporting', 'contrasting', 'mentioning', 'citing'])
      expect(await shownText(cell(0, col))).toBe('…');
    const progress = jobs().locator('progress');
    await progress.waitFor({ timeout: 10_000 });
    // Counted in DOIs: the duplicate pair and the book have none to look up.
    expect(await shownText(jobs())).toMatch(
      new RegExp(`Enrich ${TOTAL} items \\(${KNOWN + 3} DOIs\\)\\s*\\d+ / ${KNOWN + 3}`),
    );
    await shoot('enrichment-running', false);

    // Then numbers, equal to the service's, in every visible row.
    await expect.poll(() => shownText(cell(0, 'supporting')), { timeout: 60_000 }).not.toBe('…');
    proxy.latencyMs = 0;
    const visible = await page.locator('[role="row"][data-index]').count();
    expect(visible).toBeGreaterThan(10);
    for (let i = 0; i < Math.min(visible, 20); i++) {
      const index = Number(/Evidence check (\d+)/.exec(await shownText(cell(i, 'title')))![1]);
      const t = tallies[dois[index]!.toLowerCase()]!;
      expect(await shownText(cell(i, 'supporting')), `supporting of ${dois[index]}`).toBe(NUMBER.format(t.supporting));
      expect(await shownText(cell(i, 'contrasting')), `contrasting of ${dois[index]}`).toBe(
        NUMBER.format(t.contradicting),
      );
      expect(await shownText(cell(i, 'mentioning')), `mentioning of ${dois[index]}`).toBe(NUMBER.format(t.mentioning));
      expect(await shownText(cell(i, 'citing')), `citing of ${dois[index]}`).toBe(
        NUMBER.format(t.citingPublications ?? 0),
      );
    }
    // All of them arrived: sorted by supporting statements, the top and bottom rows are the service's extremes.
    const supporting = Object.values(tallies).map((t) => t.supporting);
    await page.getByRole('columnheader', { name: 'Supporting' }).getByRole('button').click();
    await expect.poll(() => shownText(cell(0, 'supporting'))).toBe(NUMBER.format(Math.max(...supporting)));
    await page.getByRole('columnheader', { name: 'Supporting' }).getByRole('button').click();
    await expect.poll(() => shownText(cell(0, 'supporting'))).toBe(NUMBER.format(Math.min(...supporting)));
    await expect.poll(() => jobs().locator('progress').count()).toBe(0);
    expect(await shownText(jobs())).toMatch(/done/);
    await shoot('enrichment-done');

    // A DOI the service does not know reads "?", not zero.
    await find('title:"Unknown to the service"', 1);
    for (const col of ['supporting', 'contrasting', 'mentioning', 'citing'])
      expect(await shownText(cell(0, col))).toBe('?');
    expect(await cell(0, 'supporting').getAttribute('class')).toContain('unknown');
    await search().fill('');
  });

  it('tells the user about the retracted paper, shows it in Retracted & notices, and bannered in its details', async () => {
    const note = page.getByTestId('status-notification');
    await note.waitFor({ timeout: 20_000 });
    await expect.poll(() => shownText(note)).toMatch(/1 item in your library (has been|was) retracted|1 retracted/);
    await shoot('retraction-notification', false);
    await note.getByRole('button', { name: 'Show them' }).click();
    await note.waitFor({ state: 'detached' });
    await expect.poll(count).toBe('1 item');
    expect(await shownText(cell(0, 'title'))).toContain('Retracted');
    expect(await shownText(cell(0, 'title'))).toContain('A paper that was retracted');
    await openDetails(rowAt(0));
    await expect.poll(() => shownText(page.getByTestId('notice-banner'))).toMatch(/retracted/i);
    await shoot('retracted-details');
    await page.keyboard.press('Escape');
    await page.getByTestId('view-library').click();
    await expect.poll(count).toBe(`${TOTAL} items`);
  });

  it('merges a duplicate pair, choosing fields from each side, keeping every tag, note and collection; undo brings both back', async () => {
    // Each copy gets its own note and collection, the way a user files things before noticing.
    const reefB = () => page.locator('[role="row"][data-index]', { hasText: 'Marine Letters Quarterly' });
    const reefA = () =>
      page.locator('[role="row"][data-index]', { hasText: 'Marine Letters', hasNotText: 'Quarterly' });
    await find('title:"coral reef resilience"', 2);
    for (const [row, note] of [
      [reefA, 'Note on the first copy <img src=n onerror="window.__canary()">'],
      [reefB, 'Note on the second copy'],
    ] as const) {
      await openDetails(row());
      await page.getByLabel('New note').fill(note);
      await page.getByRole('button', { name: 'Add note' }).click();
      await expect.poll(() => page.getByTestId('notes').textContent()).toContain(note);
    }
    expect(await page.locator('main img').count()).toBe(0);
    for (const [name, row] of [
      ['Reefs', reefA],
      ['Climate', reefB],
    ] as const) {
      await page.getByRole('button', { name: 'New collection' }).click();
      await page.getByRole('textbox', { name: 'New collection name' }).fill(name);
      await page.keyboard.press('Enter');
      await page.getByTestId('view-library').click();
      await find('title:"coral reef resilience"', 2);
      await row().click();
      await row().dragTo(page.locator('[data-collection]', { hasText: name }));
      await expect.poll(() => shownText(page.getByTestId('toast'))).toContain(`Added 1 item to “${name}”`);
    }

    await search().fill('');
    await page.getByTestId('view-duplicates').click();
    const dups = page.getByTestId('duplicates');
    await expect.poll(() => shownText(dups)).toContain('1 group');
    expect(await shownText(dups)).toContain('Same title, first creator and year');
    // "Not duplicates" takes the pair out of the view (kept in the library); Undo offers it again.
    await dups.getByRole('button', { name: 'Not duplicates' }).click();
    await expect.poll(() => shownText(dups)).toContain('No duplicates');
    expect(await shownText(page.getByTestId('not-duplicates-status'))).toContain('Marked 2 items as not duplicates');
    await page.getByTestId('view-library').click();
    await page.getByTestId('view-duplicates').click();
    await expect.poll(() => shownText(dups)).toContain('No duplicates');
    await shootThemes(page, 'journey-not-duplicates');
    await page.getByTestId('not-duplicates-status').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => shownText(dups)).toContain('1 group');
    expect(await page.getByTestId('not-duplicates-status').count()).toBe(0);
    await dups.getByRole('button', { name: 'Compare and merge…' }).click();
    const chooser = page.getByTestId('merge-chooser');
    await chooser.waitFor();
    expect(await shownText(chooser)).toContain('The 3 tags, 2 notes and 2 collections of these items are all kept');
    const field = (key: string) => chooser.locator(`tr[data-field="${key}"]`);
    expect(await shownTexts(field('title').locator('td'))).toEqual([
      expect.stringContaining('Coral reef resilience under warming'),
      expect.stringContaining('Coral Reef Resilience under Warming'),
    ]);
    expect(await shownTexts(field('issue').locator('td'))).toEqual([
      expect.stringContaining('(empty)'),
      expect.stringContaining('2'),
    ]);
    // Kept: the first copy (its key); the title, journal and pages from the second; its own volume and names.
    expect(await chooser.getByRole('radio', { name: 'Keep reefA' }).isChecked()).toBe(true);
    await field('title').getByRole('radio').nth(1).check();
    await field('container-title').getByRole('radio').nth(1).check();
    await field('page').getByRole('radio').nth(1).check();
    // The issue only the second copy has starts chosen from it.
    expect(await field('issue').getByRole('radio').nth(1).isChecked()).toBe(true);
    expect(await field('volume').getByRole('radio').nth(0).isChecked()).toBe(true);
    await shoot('merge-chooser');
    await chooser.getByRole('button', { name: 'Merge 2 items' }).click();
    await expect.poll(() => shownText(page.getByTestId('toast'))).toContain('Merged 2 items into one');
    await expect.poll(() => shownText(dups)).toContain('No duplicates');

    await page.getByTestId('view-library').click();
    await expect.poll(count).toBe(`${TOTAL - 1} items`);
    await find('title:"coral reef resilience"', 1);
    await openDetails(rowAt(0));
    expect(await shownText(page.getByTestId('details-title'))).toBe('Coral Reef Resilience under Warming');
    expect(await page.getByLabel('Journal', { exact: true }).inputValue()).toBe('Marine Letters Quarterly');
    expect(await page.getByLabel('Volume', { exact: true }).inputValue()).toBe('4');
    expect(await page.getByLabel('Issue', { exact: true }).inputValue()).toBe('2');
    expect(await page.getByLabel('Pages', { exact: true }).inputValue()).toMatch(/^11[-–]21$/);
    expect(await page.getByLabel('Given name').first().inputValue()).toBe('Claire');
    expect(await page.getByRole('textbox', { name: 'Citation key' }).inputValue()).toBe('reefA');
    expect((await shownTexts(page.getByTestId('tags').locator('li > span'))).sort()).toEqual([
      'climate',
      'reefs',
      'to-read',
    ]);
    const notes = await page.getByTestId('notes').textContent();
    expect(notes).toContain('Note on the first copy <img src=n onerror="window.__canary()">');
    expect(notes).toContain('Note on the second copy');
    for (const name of ['Reefs', 'Climate']) {
      await page.locator('[data-collection]', { hasText: name }).click();
      await expect.poll(count).toBe('1 item');
      expect(await shownText(cell(0, 'title'))).toContain('Coral Reef Resilience under Warming');
    }

    // Undo, from the keyboard: both copies back, each as it was, with its own note and collection.
    await page.getByTestId('view-library').click();
    await search().fill('');
    await expect.poll(count).toBe(`${TOTAL - 1} items`);
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => shownText(page.getByTestId('toast'))).toContain('Undid: Merge 2 items');
    await expect.poll(count).toBe(`${TOTAL} items`);
    await find('title:"coral reef resilience"', 2);
    await openDetails(reefA());
    expect(await shownText(page.getByTestId('details-title'))).toBe('Coral reef resilience under warming');
    expect(await page.getByLabel('Journal', { exact: true }).inputValue()).toBe('Marine Letters');
    expect(await page.getByLabel('Issue', { exact: true }).inputValue()).toBe('');
    expect((await shownTexts(page.getByTestId('tags').locator('li > span'))).sort()).toEqual(['reefs', 'to-read']);
    expect(await page.getByTestId('notes').textContent()).not.toContain('second copy');
    await openDetails(reefB());
    expect(await page.getByLabel('Volume', { exact: true }).inputValue()).toBe('5');
    expect(await shownTexts(page.getByTestId('tags').locator('li > span'))).toEqual(['climate']);
    expect(await page.getByTestId('notes').textContent()).toContain('Note on the second copy');
    await page.locator('[data-collection]', { hasText: 'Climate' }).click();
    await expect.poll(count).toBe('1 item');
    expect(await shownText(cell(0, 'container'))).toBe('Marine Letters Quarterly');
    await page.getByTestId('view-duplicates').click();
    await expect.poll(() => shownText(dups)).toContain('1 group');
    await page.getByTestId('view-library').click();
    await search().fill('');
    expect(await canaryFired()).toBe(0);
  });

  it('exports the papers to cite in each of the eight styles as files, and copies one as rich and plain text', async () => {
    await page.getByRole('button', { name: /^cite-me \d+/ }).click();
    await expect.poll(count).toBe('2 items');
    await page.getByTestId('export-button').click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    // A search with nothing selected exports what the user sees, not the whole library.
    expect(await shownText(dialog.locator('#export-scope'))).toBe('Search results');
    await page.getByTestId('export-format').selectOption('text');
    const preview = page.getByTestId('export-bibliography');
    for (const [style, { opening, forms }] of Object.entries(STYLES)) {
      await page.getByTestId('export-style').selectOption(style);
      // The preview follows the style (its first entry's opening), then the file is saved.
      await expect.poll(() => shownText(preview), { timeout: 20_000 }).toContain(opening);
      if (style === 'mla') await shoot('export-dialog');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Save to file…' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('Search results.txt');
      const text = readFileSync((await download.path())!, 'utf8');
      for (const form of forms) expect(text, `${style} export`).toMatch(form);
      await expect
        .poll(() => shownText(page.getByTestId('export-message')))
        .toContain('Saved 2 entries as Search results.txt');
    }

    // The language decides the punctuation: Harvard in British English quotes singly, the comma outside.
    await page.getByTestId('export-style').selectOption('harvard');
    await page.getByTestId('export-locale').selectOption('en-GB');
    await expect
      .poll(() => shownText(preview), { timeout: 10_000 })
      .toContain('‘Soil microbiome responses to drought’,');
    const [british] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Save to file…' }).click(),
    ]);
    expect(readFileSync((await british.path())!, 'utf8')).toContain(
      'Okafor, N.A., Lindqvist, E. and Chen, W. (2020) ‘Soil microbiome responses to drought’, Journal of Soil Ecology, 12(3), pp. 45–67.',
    );
    await page.getByTestId('export-locale').selectOption('en-US');

    // Copied in APA: the plain text is the file's, the rich text italicises the journal and the book.
    await page.getByTestId('export-style').selectOption('apa');
    await expect.poll(() => shownText(preview), { timeout: 10_000 }).toMatch(/^\s*Abara, T\./);
    await dialog.getByRole('button', { name: 'Copy to clipboard' }).click();
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
    expect(copied.text.trim()).toMatch(STYLES.apa!.forms[0]!);
    expect(copied.html).toMatch(/<i>Groundwater and the city<\/i>/);
    expect(copied.html).toMatch(/<i>Journal of Soil Ecology<\/i>, <i>12<\/i>\(3\)/);
    // Copying disabled the button for a moment, so focus left the dialog: Escape must still close it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Remove tag filter cite-me' }).click();
    await expect.poll(count).toBe(`${TOTAL} items`);
  });

  it('shows a hostile service answer, its citing papers, a note and a tag as text: the canary never fires', async () => {
    await page.getByTestId('add-button').click();
    await page.getByRole('button', { name: 'By identifier…' }).click();
    const dialog = page.getByTestId('identifier-dialog');
    await dialog.locator('textarea').fill(hostileDoi);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => shownText(dialog.getByTestId('identifier-report')), { timeout: 20_000 })
      .toContain('Added 1 item');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await find(`doi:${hostileDoi}`, 1);
    // The table shows the title as the service sent it, markup and all, as text.
    expect(await shownText(cell(0, 'title'))).toContain(CANARY);
    await openDetails(rowAt(0));
    expect(await shownText(page.getByTestId('details-title'))).toMatch(/Payload/);
    expect(await shownText(page.getByTestId('abstract'))).toMatch(/Payload/);
    await expect.poll(() => page.getByTestId('statement').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await shownText(page.getByTestId('statements'))).toContain('Payload');
    await page.getByLabel('New tag').fill('<img src=t onerror="window.__canary()">');
    await page.getByLabel('New tag').press('Enter');
    await expect.poll(() => shownText(page.getByTestId('tags'))).toContain('<img src=t onerror="window.__canary()">');
    await page.getByLabel('New note').fill('<script>window.__canary()</script><svg onload="window.__canary()"></svg>');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => page.getByTestId('notes').textContent()).toContain('<script>window.__canary()</script>');
    await page.waitForTimeout(500);
    expect(await page.locator('main img, main script, main iframe, main svg:not([aria-hidden])').count()).toBe(0);
    expect(await canaryFired()).toBe(0);
    await shoot('hostile-details', false);
    await search().fill('');
  });

  it('keeps the library usable when the network goes, and says so', async () => {
    await proxy.goOffline();
    await find('title:"Evidence check 001"', 1);
    const expected = tallies[dois[1]!.toLowerCase()]!;
    await openDetails(rowAt(0));
    // Refreshing the evidence is what meets the outage; after a few failures the app says it is offline.
    const connectivity = page.getByTestId('connectivity');
    for (let i = 0; i < 10 && !/Offline/.test(await shownText(connectivity)); i++) {
      await page.getByTestId('refresh').click();
      await page.waitForTimeout(1500);
    }
    await expect.poll(() => shownText(connectivity), { timeout: 30_000 }).toContain('Offline');
    await expect
      .poll(() => shownText(page.getByTestId('service-message')), { timeout: 30_000 })
      .toMatch(/Offline|Could not load/);
    // What was fetched stays: the tally in the column and the table.
    expect(await page.getByTestId('tally').getAttribute('data-state')).toBe('found');
    expect(await shownText(cell(0, 'supporting'))).toBe(NUMBER.format(expected.supporting));
    await shoot('offline');

    // Searching, editing and exporting need no network.
    await page.getByLabel('New note').fill('Written offline');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => page.getByTestId('notes').textContent()).toContain('Written offline');
    await find('author:okafor', 1);
    await page.getByTestId('export-button').click();
    await page.getByTestId('export-format').selectOption('text');
    await expect
      .poll(() => shownText(page.getByTestId('export-bibliography')), { timeout: 20_000 })
      .toContain('Okafor');
    await page.keyboard.press('Escape');
    await search().fill('');
    await expect.poll(count).toBe(`${TOTAL + 1} items`);
  });

  it('ran no injected script and logged no console errors', async () => {
    expect(await canaryFired()).toBe(0);
    // Going offline makes the browser log nothing of its own (the core fetches); nothing else may appear.
    expect(problems.errors).toEqual([]);
  });
});
