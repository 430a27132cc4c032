/// <reference lib="dom" />
// The Evidence pane end to end in Chromium against browser mode and the local service: a key without
// one dataset's scope gets an explanation naming it; then with full access, one search and one detail
// view per dataset (patents with a built filter, sort and paging; a trial's adverse events per group;
// a grant and a FAERS report from their detail endpoints; a 510(k) device with its summary pages;
// MAUDE with facet charts that filter), saving a trial and a patent to the library, and exporting
// them in apa.
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceScope } from '../../shared/service';
import { startService, type RunningService } from '../service/server';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText, shownTexts } from './text';

type Doc = Record<string, unknown>;
const FULL = 'e2e-evidence-full-key-0123456789';
const NO_FAERS = 'e2e-evidence-no-faers-key-0123456789';
/** Searches whose q holds this word get answers with hostile markup in every text value (see hostileProxy). */
const HOSTILE = 'zzhostile';
const PAYLOAD = 'Payload <img src=x onerror="window.__canary()"><script>window.__canary()</script>';

/** Appends the payload to every string of an answer: plain values and the highlighted markup alike. */
function poison(value: unknown): unknown {
  if (typeof value === 'string') return /^\d|^https?:/.test(value) ? value : `${value} ${PAYLOAD}`;
  if (Array.isArray(value)) return value.map(poison);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        ['id', 'slug', 'dataset', 'uid', 'familyId'].includes(k) ? v : poison(v),
      ]),
    );
  return value;
}

/** A pass-through to the local service that poisons the evidence answers to searches naming HOSTILE. */
async function hostileProxy(target: string): Promise<{ url: string; server: Server }> {
  const base = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const up = request(
        {
          host: base.hostname,
          port: base.port,
          path: req.url,
          method: req.method,
          headers: { ...headers, 'content-length': String(body.length) },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            let text = Buffer.concat(parts).toString('utf8');
            if (decodeURIComponent(req.url ?? '').includes(HOSTILE) && answer.statusCode === 200) {
              const json = JSON.parse(text) as { results?: unknown[] };
              text = JSON.stringify({ ...json, results: poison(json.results) });
            }
            const out = Object.fromEntries(
              Object.entries(answer.headers).filter(
                ([k]) => !['content-length', 'connection', 'transfer-encoding'].includes(k),
              ),
            ) as Record<string, string>;
            res.writeHead(answer.statusCode ?? 502, out);
            res.end(text);
          });
        },
      );
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}

describe('Evidence datasets', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  let proxy: { url: string; server: Server };
  let savedPatentTitle = '';

  /** A record of the local service's corpus, to choose search words the way a user would know them. */
  const docOf = (dataset: string, where = '1 = 1'): Doc =>
    JSON.parse(
      service.corpus.db
        .prepare(`SELECT doc FROM evidence WHERE dataset = ? AND ${where} ORDER BY seq LIMIT 1`)
        .pluck()
        .get(dataset) as string,
    ) as Doc;
  /** The longest word of a text: specific enough to search for. */
  const word = (text: string) =>
    text
      .split(/[^\p{L}]+/u)
      .sort((a, b) => b.length - a.length)[0]!
      .toLowerCase();

  const tab = (name: string) => page.getByRole('tab', { name });
  const searchBox = () => page.getByRole('searchbox');
  const results = () => page.getByTestId('evidence-results').locator('li');
  const detail = () => page.getByTestId('evidence-detail');

  const shoot = (name: string): Promise<void> => shootThemes(page, `evidence-${name}`);

  const goTo = (pane: string) =>
    page
      .getByRole('navigation', { name: 'Panes' })
      .getByRole('button', { name: new RegExp(`^${pane}`) })
      .click();

  async function saveKey(key: string): Promise<void> {
    await goTo('Settings');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => shownText(page.getByTestId('key-status'))).toContain('in use for this session');
    await goTo('Evidence');
    await page.getByRole('tablist', { name: 'Datasets' }).waitFor();
  }

  async function search(dataset: string, q: string, answer: 'results' | 'refusal' = 'results'): Promise<void> {
    await tab(dataset).click();
    await searchBox().fill(q);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The count says which search it counts: wait for this one's, not the previous answer's.
    if (answer === 'results')
      await expect.poll(() => page.getByTestId('evidence-count').getAttribute('data-query')).toBe(q.trim());
  }

  async function openFirst(): Promise<void> {
    await results().first().getByRole('button').first().click();
    await detail().waitFor();
  }

  beforeAll(async () => {
    const evidence: ServiceScope[] = [
      'public',
      'evidence-patents',
      'evidence-clinical-trials',
      'evidence-grants',
      'evidence-device510k',
      'evidence-maude',
    ];
    service = await startService({
      port: 0,
      papers: 300,
      log: () => {},
      keys: [
        { token: FULL, scopes: new Set(['*']) },
        { token: NO_FAERS, scopes: new Set(evidence) },
      ],
    });
    proxy = await hostileProxy(service.url);
    app = await launchApp({
      env: { CITEWISE_SERVICE_URL: proxy.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      colorScheme: 'light',
      acceptDownloads: true,
    });
    await context.addInitScript(() => {
      const w = window as unknown as { __canary: () => void; __canaryFired: number };
      w.__canaryFired = 0;
      w.__canary = () => void w.__canaryFired++;
    });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((r) => proxy?.server.close(r));
    await service?.close();
  });

  it('explains, naming the dataset, when the key lacks its Evidence scope', async () => {
    await saveKey(NO_FAERS);
    // The dataset tabs follow the arrow keys, as tabs do.
    await tab('Patents').focus();
    await page.keyboard.press('ArrowRight');
    expect(await tab('Clinical trials').getAttribute('aria-selected')).toBe('true');
    expect(await shownText(page.locator(':focus'))).toBe('Clinical trials');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await tab('MAUDE').getAttribute('aria-selected')).toBe('true');
    await search('FAERS', 'warfarin', 'refusal');
    const access = page.getByTestId('evidence-access');
    await access.waitFor();
    expect(await shownText(access)).toMatch(
      /No access to FAERS.*does not include access to the FAERS drug adverse-event evidence dataset.*own Evidence scope/s,
    );
    await shoot('no-access');
    // The datasets the key does cover still work.
    await search('Grants', '');
    expect(await page.getByTestId('evidence-access').count()).toBe(0);
    expect(await results().count()).toBe(10);
  });

  it('patents: q with highlights, a filter built from the schema, sort, paging, and the family in detail', async () => {
    await saveKey(FULL);
    const family = docOf('patents', `json_extract(doc, '$.patents[0].publications[0].pubRef.country') = 'US'`);
    const term = word(String((family.patents as Doc[])[0]!.title));
    await search('Patents', term);
    const first = results().first();
    expect(await shownText(first.locator('mark').first())).toMatch(new RegExp(`^${term}`, 'i'));
    // A filter from the schema's fields: the builder writes the field:"value" string.
    await page.getByLabel('Filter on').selectOption('country');
    await page.getByLabel('Value').fill('US');
    await page.getByRole('button', { name: 'Add filter' }).click();
    expect(await shownText(page.getByTestId('evidence-filter-string'))).toBe('country:"US"');
    await page.getByLabel('Sort by').selectOption('forwardCitationCount');
    await page.getByLabel('Sort direction').selectOption('desc');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('evidence-count').getAttribute('data-filter')).toBe('country:"US"');
    expect(await shownText(page.getByTestId('evidence-count'))).toMatch(/^1–\d+ of \d+ patent famil/);
    const facts = await shownTexts(page.getByTestId('evidence-results').locator('.facts'));
    expect(facts.every((f) => /^US\d+/.test(f))).toBe(true);
    const counts = facts.map((f) => Number(/(\d+) forward citations/.exec(f)?.[1] ?? -1));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const total = Number(/of (\d+)/.exec((await shownText(page.getByTestId('evidence-count')))!)![1]);
    if (total > 10) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByTestId('evidence-count').getAttribute('data-page')).toBe('2');
      expect(await shownText(page.getByTestId('evidence-count'))).toMatch(/^11–/);
      await page.getByRole('button', { name: 'Previous' }).click();
      await expect.poll(() => shownText(page.getByTestId('evidence-count'))).toMatch(/^1–/);
    }
    await openFirst();
    expect(await detail().getByTestId('patent-publications').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await detail().getByTestId('patent-cpc').locator('li').count()).toBeGreaterThan(0);
    expect(await detail().getByRole('heading', { name: 'Inventors' }).count()).toBe(1);
    expect(await shownText(detail().getByTestId('patent-facts'))).toMatch(
      /Family size\s*\d+\s*Forward citations\s*\d+/,
    );
    savedPatentTitle = await shownText(detail().locator('h2'));
    await detail().getByRole('button', { name: 'Save to library' }).click();
    await expect.poll(() => shownText(detail().getByTestId('evidence-saved'))).toMatch(/Saved to your library as \w+/);
    await shoot('patents');
  });

  it('clinical trials: the reported adverse events as a table per group, and saving the trial', async () => {
    const trial = docOf('clinical-trials', `json_extract(doc, '$.hasResults') = 'Yes'`);
    await tab('Clinical trials').click();
    await page.getByLabel('Filter on').selectOption('hasResults');
    await page.getByLabel('Value').fill('Yes');
    await page.getByRole('button', { name: 'Add filter' }).click();
    // The string can be edited as text too; a field the schema does not list is refused, nothing changes.
    await page.getByText('Edit the filter string').click();
    const asText = page.getByRole('textbox', { name: 'Filter string' });
    await expect.poll(() => asText.inputValue()).toBe('hasResults:"Yes"');
    await asText.fill('hasResults:"Yes" colour:"red"');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => shownText(page.locator('#evidence-filter-text-problem')))
      .toBe('"colour" is not one of this dataset\'s filterable fields.');
    expect(await shownText(page.getByTestId('evidence-filter-string'))).toBe('hasResults:"Yes"');
    await page.getByText('Edit the filter string').click();
    await searchBox().fill(word(String(trial.title)));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('evidence-count').getAttribute('data-filter')).toBe('hasResults:"Yes"');
    expect(await shownText(page.getByTestId('evidence-count'))).toMatch(/of \d+ clinical trials?/);
    await openFirst();
    const groups = detail().getByTestId('events-group');
    expect(await groups.count()).toBe(2);
    for (const g of await groups.all()) {
      expect(await shownTexts(g.locator('thead th'))).toEqual([
        'Event',
        'Type',
        'Organ system',
        'Affected / at risk',
        '%',
        'Events',
      ]);
      expect(await g.locator('tbody tr').count()).toBeGreaterThan(0);
      expect(await shownText(g.locator('tbody td.num').first())).toMatch(/^\d+ \/ \d+$/);
    }
    expect(await shownText(detail().getByTestId('trial-facts'))).toMatch(/Registry number\s*NCT\d+/);
    await detail().getByRole('button', { name: 'Save to library' }).click();
    await expect.poll(() => shownText(detail().getByTestId('evidence-saved'))).toMatch(/Saved to your library as \w+/);
    await shoot('trial');
    await groups.first().scrollIntoViewIfNeeded();
    await shoot('trial-events');
  });

  it('grants: the award from the grant detail endpoint', async () => {
    const grant = (docOf('grants').grants as Doc[])[0]!;
    await search('Grants', word(String(grant.title)));
    await openFirst();
    await expect
      .poll(() => shownText(detail().getByTestId('grant-facts')))
      .toMatch(/Award number\s*[A-Z]+-\d+.*Agency.*Principal investigator/s);
    expect(await shownText(detail().getByTestId('grant-facts'))).toMatch(/Award amount\s*\$[\d,]+/);
    await shoot('grant');
  });

  it('510(k): the device from its detail endpoint, its summary document and pages', async () => {
    await search('510(k)', 'pump OR monitor OR catheter OR system');
    await openFirst();
    await expect
      .poll(() => shownText(detail().getByTestId('device-facts')))
      .toMatch(/Device.+Applicant.+Decision\s*Substantially Equivalent/s);
    expect(await detail().getByTestId('device-documents').locator('li').count()).toBe(1);
    const pages = detail().getByTestId('device-pages');
    await expect.poll(() => shownText(pages)).toMatch(/Page 1 of \d+/);
    expect(await detail().getByTestId('device-page-text').textContent()).toMatch(/^510\(k\) Summary\. Submitter:/);
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => shownText(pages)).toMatch(/Page 2 of \d+/);
    expect(await detail().getByTestId('device-page-text').textContent()).not.toMatch(/^510\(k\) Summary/);
    await shoot('device510k');
  });

  it('FAERS: the report from its detail endpoint, with drugs and reactions', async () => {
    const report = docOf('faers');
    const drug = String((report.drugs as Doc[])[0]!.medicinal_product);
    await search('FAERS', drug);
    await openFirst();
    await expect.poll(() => detail().getByTestId('faers-drugs').locator('tbody tr').count()).toBeGreaterThan(0);
    expect((await shownText(detail().getByTestId('faers-drugs'))).toLowerCase()).toContain(drug.toLowerCase());
    expect(await detail().getByTestId('faers-reactions').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await shownText(detail().getByTestId('faers-facts'))).toMatch(/Report\s*\d+\s*Received\s*\d{4}-\d\d-\d\d/);
    await shoot('faers');
  });

  it('MAUDE: facet counts as charts for the query, a bar filters by its value, and a report in detail', async () => {
    await search('MAUDE', 'reported');
    const charts = page.getByTestId('facet-chart');
    await expect.poll(() => charts.count()).toBeGreaterThan(1);
    const eventType = page.locator('[data-testid="facet-chart"][data-field="event_type"]');
    const bars = eventType.getByRole('button');
    expect(await bars.count()).toBeGreaterThan(0);
    expect(await eventType.locator('svg rect').count()).toBe(await bars.count());
    const label = (await bars.first().getAttribute('aria-label'))!;
    const [, value, n] = /^(.+): ([\d,]+) reports?\./.exec(label)!;
    await shoot('maude-facets');
    await bars.first().click();
    await expect.poll(() => shownText(page.getByTestId('evidence-filter-string'))).toBe(`event_type:"${value}"`);
    await expect
      .poll(() => shownText(page.getByTestId('evidence-count')))
      .toMatch(new RegExp(`of ${n!.replace(/,/g, ',?')} MAUDE reports?`));
    // After filtering, the chart of event types holds only that value.
    await expect.poll(() => eventType.getByRole('button').count()).toBe(1);
    await openFirst();
    expect(await shownText(detail().getByTestId('maude-facts'))).toMatch(new RegExp(`Event type\\s*${value}`));
  });

  it('shows hostile text from the service as text, and its markup only through the allowlist', async () => {
    const canary = () => page.evaluate(() => (window as unknown as { __canaryFired: number }).__canaryFired);
    const family = docOf('patents', `json_extract(doc, '$.patents[0].publications[0].pubRef.country') = 'US'`);
    await search('Patents', `${HOSTILE} OR ${word(String((family.patents as Doc[])[0]!.title))}`);
    const list = page.getByTestId('evidence-results');
    // Plain values (facts) show the markup as the text it is; highlighted markup loses the tags the allowlist lacks.
    expect(await shownText(list.locator('.facts').first())).toContain('Payload <img src=x onerror=');
    expect(await shownText(list.locator('li').first().getByRole('button').first())).toContain('Payload');
    expect(await list.locator('img, script').count()).toBe(0);
    await openFirst();
    await expect
      .poll(() => shownText(detail().getByTestId('patent-facts')))
      .toContain('<script>window.__canary()</script>');
    await shoot('hostile');
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await canary()).toBe(0);
  });

  it('exports the saved trial and patent in apa from the library', async () => {
    await goTo('Library');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('2 items');
    await page.getByTestId('export-button').click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    await page.getByTestId('export-format').selectOption('text');
    await page.getByTestId('export-style').selectOption('apa');
    const preview = page.getByTestId('export-bibliography');
    await expect.poll(() => preview.locator('.csl-entry').count(), { timeout: 20_000 }).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Save to file…' }).click(),
    ]);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(text).toMatch(
      /^.+\. \(\d{4}\)\. .+ \(U\.S\. Patent No\. \d{1,3}(,\d{3})+\)\. U\.S\. Patent and Trademark Office\. https:\/\/patents\.example\.org\/patent\/US\d+[AB]\d$/m,
    );
    expect(text).toMatch(
      /^.+\. \(\d{4}\)\. .+ \(Clinical Trial Registration No\. NCT\d+\)\. ClinicalTrials\.gov\. https:\/\/clinicaltrials\.gov\/study\/NCT\d+$/m,
    );
    await screenshot(page, 'evidence-export-apa-light');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // In a new session the pane finds the patent in the library when it is opened, and offers no second copy.
    await page.reload();
    await goTo('Evidence');
    await search('Patents', `"${savedPatentTitle}"`);
    await openFirst();
    await expect
      .poll(() => shownText(detail().getByTestId('evidence-saved')))
      .toMatch(/^\s*Already in your library as \w+\./);
    expect(await detail().getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __canaryFired: number }).__canaryFired)).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
