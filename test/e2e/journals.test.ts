/// <reference lib="dom" />
// Journals & Authors, in Chromium against the local service: a journal opened from an item's ISSN
// shows its index by year as a chart (and as a table) and its editorial notice totals, equal to the
// service's; a typed ISSN that is not one is refused; the journals the library cites come as a table
// with their notice totals, asked for in bulk; an author opened from an item's details shows the
// record with affiliations and pages through the papers (following nextPage), which can be added to
// the library; a name finds the author; and without the network, a journal opens from what was kept.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { startService, type RunningService } from '../service/server';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { startServiceProxy, type ServiceProxy } from './service-proxy';
import { shownText, shownTexts } from './text';

const NO_BUS = 'unix:path=/nonexistent/bus';
const NOTICE_LABELS: [string, string][] = [
  ['Retractions', 'totalRetractions'],
  ['Withdrawals', 'totalWithdrawals'],
  ['Expressions of concern', 'totalExpressionOfConcerns'],
  ['Corrections', 'totalCorrections'],
  ['Errata', 'totalErrata'],
];

interface Notices {
  issn: string;
  notices?: Record<string, number>;
}

describe('journals and authors', () => {
  let service: RunningService;
  let proxy: ServiceProxy;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let seeded: string[];
  let issn: string;
  let journalName: string;
  let author: { slug: string; name: string; papers: number; doi: string };
  let libraryIssns: string[];
  /** Items per ISSN, as the library should count them. */
  let itemsPerIssn: Map<string, number>;

  const pane = (id: string) => page.locator(`nav button[data-pane="${id}"]`).click();
  const count = () => shownText(page.getByTestId('item-count'));
  const search = () => page.getByRole('searchbox', { name: 'Search the library' });

  const shoot = (name: string): Promise<void> => shootThemes(page, `journals-${name}`);

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 900, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    const db = service.corpus.db;
    // An author with more papers than one page (25), and a paper of theirs for the library.
    const prolific = db
      .prepare(
        `SELECT a.id, a.slug, a.given || ' ' || a.family AS name, count(*) AS n FROM authors a JOIN paper_authors pa ON pa.author_id = a.id GROUP BY a.id HAVING n > 30 ORDER BY n DESC LIMIT 1`,
      )
      .get() as { id: number; slug: string; name: string; n: number };
    // The first paper on the service's first page of theirs, so the page shows it as in the library.
    const firstPage = await fetch(`${service.url}/authors/${prolific.slug}/papers?offset=0&limit=25`, {
      headers: { authorization: `Bearer ${fullKey}` },
    }).then((r) => r.json() as Promise<{ papers: { doi: string }[] }>);
    const theirs = firstPage.papers[0]!.doi;
    author = { slug: prolific.slug, name: prolific.name, papers: prolific.n, doi: theirs };
    // Papers of a journal with notices, and a few others.
    const journal = db
      .prepare(
        `SELECT j.id, j.name, j.issn_print FROM journals j JOIN papers p ON p.journal_id = j.id WHERE p.notice_flags != 0 GROUP BY j.id ORDER BY count(*) DESC LIMIT 1`,
      )
      .get() as { id: number; name: string; issn_print: string };
    issn = journal.issn_print;
    journalName = journal.name;
    const fromJournal = db
      .prepare('SELECT doi FROM papers WHERE journal_id = ? AND doi != ? ORDER BY id LIMIT 3')
      .pluck()
      .all(journal.id, theirs) as string[];
    const others = db
      .prepare('SELECT doi FROM papers WHERE journal_id != ? AND doi != ? ORDER BY id DESC LIMIT 5')
      .pluck()
      .all(journal.id, theirs) as string[];
    seeded = [theirs, ...fromJournal, ...others];
    dataDir = tempDir('citewise-journals-');
    await cli(dataDir.path, service.url, 'add', ...seeded);
    const perPaper = db
      .prepare(
        `SELECT j.issn_print FROM papers p JOIN journals j ON j.id = p.journal_id WHERE p.doi IN (${seeded.map(() => '?').join(',')})`,
      )
      .pluck()
      .all(...seeded) as string[];
    itemsPerIssn = new Map();
    for (const i of perPaper) itemsPerIssn.set(i, (itemsPerIssn.get(i) ?? 0) + 1);
    libraryIssns = [...itemsPerIssn.keys()];
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
      .filter({ hasText: `${seeded.length} items` })
      .waitFor({ timeout: 20_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.goOffline().catch(() => {});
    await service?.close();
    dataDir?.remove();
  });

  async function openItem(doi: string): Promise<void> {
    await pane('library');
    await search().fill(`doi:"${doi}"`);
    await expect.poll(count).toBe('1 item');
    await page.locator('[role="row"][data-index="0"]').click();
    await page.getByTestId('details-title').waitFor();
  }

  it('opens a journal from an item’s ISSN: its index by year as a chart and its notice totals, as the service has them', async () => {
    await pane('journals');
    await page.getByText('Look up a journal', { exact: true }).waitFor();
    await shoot('empty');
    await openItem(seeded[1]!);
    const links = page.getByTestId('journal-authors');
    await links.waitFor({ timeout: 20_000 });
    await links.scrollIntoViewIfNeeded();
    await shoot('item-links');
    await links.getByRole('button', { name: new RegExp(`ISSN ${issn}`) }).click();
    const view = page.getByTestId('journal-view');
    await view.waitFor({ timeout: 20_000 });
    expect(await shownText(view.getByRole('heading', { level: 2 }))).toBe(journalName);
    expect(await shownText(view)).toContain(`${itemsPerIssn.get(issn)} items in your library`);

    const index = await fetch(`${service.url}/issn-sji?issn=${issn}`).then(
      (r) => r.json() as Promise<{ relativeYear: string; sjiAllYears: number }[]>,
    );
    expect(index.length).toBeGreaterThan(3);
    const chart = view.getByTestId('journal-chart');
    // One line per window, one dot per year and window, each titled with its value.
    expect(await chart.locator('path.line').count()).toBe(3);
    for (const d of await chart.locator('path.line').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? '')))
      expect(d.split('L')).toHaveLength(index.length);
    expect(await chart.locator('circle.all').count()).toBe(index.length);
    expect(await chart.locator('svg').getAttribute('role')).toBe('img');
    expect(await shownText(chart.locator('desc'))).toContain(
      `Journal index of ${journalName} from ${[...index].sort((a, b) => Number(a.relativeYear) - Number(b.relativeYear))[0]!.relativeYear}`,
    );
    await chart.getByText('Show as a table').click();
    const latest = [...index].sort((a, b) => Number(b.relativeYear) - Number(a.relativeYear))[0]!;
    const row = chart.locator('tbody tr', { has: page.locator('th', { hasText: latest.relativeYear }) });
    expect(await shownText(row.locator('td').first())).toBe(
      new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(latest.sjiAllYears),
    );

    const [notices] = await fetch(`${service.url}/issn-editorial-notices?issn=${issn}`).then(
      (r) => r.json() as Promise<Notices[]>,
    );
    const stats = view.getByTestId('journal-notices');
    for (const [label, key] of NOTICE_LABELS) {
      expect(
        await shownText(stats.locator('div', { has: page.locator('dt', { hasText: label }) }).locator('dd')),
        label,
      ).toBe(String(notices!.notices![key]));
    }
    expect(Object.values(notices!.notices!).some((n) => n > 0)).toBe(true);
    await shoot('journal');
  });

  it('refuses a typed ISSN that is not one, and says so', async () => {
    await page.getByLabel('ISSN', { exact: true }).fill('1234-5678');
    await page.getByRole('button', { name: 'Show journal' }).click();
    await expect.poll(() => shownText(page.getByTestId('journal-error'))).toContain('“1234-5678” is not an ISSN.');
  });

  it('lists the journals the library cites with their notice totals, asked for in one bulk request each', async () => {
    const asked = proxy.paths.length;
    await page.getByRole('tab', { name: 'Journals you cite' }).click();
    const table = page.getByTestId('library-journals');
    await table.waitFor({ timeout: 20_000 });
    expect(await table.locator('tbody tr').count()).toBe(libraryIssns.length);
    const paths = proxy.paths.slice(asked);
    // The journal opened before is cached; the rest came in one request of each kind.
    expect(paths.filter((p) => p === '/issn-editorial-notices')).toHaveLength(1);
    expect(paths.filter((p) => p === '/issn-sji-bulk')).toHaveLength(1);
    expect(paths.filter((p) => p === '/issn-sji')).toHaveLength(0);
    // Most items first, each counted once.
    const itemCounts = (await shownTexts(table.locator('tbody tr td:nth-child(3)'))).map(Number);
    expect(itemCounts).toEqual([...itemsPerIssn.values()].sort((a, b) => b - a));
    for (const [i, n] of itemsPerIssn)
      expect(
        await shownText(
          table
            .locator('tbody tr', { has: page.locator('code', { hasText: i }) })
            .locator('td')
            .nth(2),
        ),
        i,
      ).toBe(String(n));
    const all = await fetch(`${service.url}/issn-editorial-notices?issn=${libraryIssns.join(',')}`).then(
      (r) => r.json() as Promise<Notices[]>,
    );
    for (const n of all) {
      const tr = table.locator('tbody tr', { has: page.locator('code', { hasText: n.issn }) });
      const cells = await shownTexts(tr.locator('td'));
      expect(cells[3], n.issn).toBe(n.notices ? String(n.notices.totalRetractions) : 'no data');
      expect(cells[6], n.issn).toBe(n.notices ? String(n.notices.totalCorrections) : 'no data');
    }
    // A refresh asks again for all of them, in bulk.
    const before = proxy.paths.length;
    await page.getByTestId('journals-refresh').click();
    await expect
      .poll(() => shownText(page.getByTestId('journals-requests')))
      .toBe(`Asked the service about ${libraryIssns.length} ISSNs in 1 notice request and 1 index request.`);
    expect(proxy.paths.slice(before).filter((p) => p === '/issn-editorial-notices')).toHaveLength(1);
    // Sorting by retractions puts the journals with most first.
    await table.getByRole('button', { name: 'Retractions' }).click();
    const retractions = (await shownTexts(table.locator('tbody tr td:nth-child(4)'))).map((t) =>
      t === 'no data' ? -1 : Number(t),
    );
    expect(retractions).toEqual([...retractions].sort((a, b) => b - a));
    await shoot('library-journals');
    await table.locator('tbody tr').first().getByRole('button').click();
    await page.getByTestId('journal-view').waitFor();
  });

  it('opens an author from an item’s details: affiliations, papers paged by nextPage, added to the library', async () => {
    await openItem(author.doi);
    const links = page.getByTestId('journal-authors');
    await links.waitFor({ timeout: 20_000 });
    await links.getByRole('button', { name: author.name, exact: true }).click();
    const view = page.getByTestId('author-view');
    await view.waitFor({ timeout: 20_000 });
    const record = await fetch(`${service.url}/authors/${author.slug}/papers?limit=1`, {
      headers: { authorization: `Bearer ${service.keys.find((k) => k.scopes.has('*'))!.token}` },
    }).then(
      (r) =>
        r.json() as Promise<{
          author: { displayName: string; affiliations: { affiliation: string; count: number }[] };
          totalPapers: number;
        }>,
    );
    expect(await shownText(view.getByRole('heading', { level: 2 }))).toBe(record.author.displayName);
    const affs = view.getByTestId('author-affiliations');
    expect(await affs.locator('li').count()).toBe(record.author.affiliations.length);
    expect(await shownText(affs)).toContain(record.author.affiliations[0]!.affiliation);
    expect(await shownText(view.getByTestId('author-paper-count'))).toBe(`(25 of ${record.totalPapers} shown)`);
    expect(await view.getByTestId('paper-row').count()).toBe(25);
    // The paper the library holds is marked.
    expect(
      await view.locator(`[data-testid="paper-row"][data-doi="${author.doi}"] [data-testid="in-library"]`).count(),
    ).toBe(1);
    await shoot('author');
    const asked = proxy.paths.length;
    await view.getByTestId('author-more').click();
    await expect.poll(() => view.getByTestId('paper-row').count()).toBe(Math.min(50, record.totalPapers));
    expect(proxy.paths.slice(asked)).toEqual([`/authors/${author.slug}/papers`]);
    const shown = await view
      .getByTestId('paper-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-doi')));
    expect(new Set(shown).size).toBe(shown.length);

    const target = view
      .getByTestId('paper-row')
      .filter({ hasNot: page.getByTestId('in-library') })
      .first();
    const doi = (await target.getAttribute('data-doi'))!;
    await target.getByRole('button', { name: /^Add to library/ }).click();
    await view
      .locator(`[data-testid="paper-row"][data-doi="${doi}"] [data-testid="in-library"]`)
      .waitFor({ timeout: 20_000 });
    expect(await shownText(view.getByTestId('author-add-report'))).toContain('Added 1 paper to your library');
    await pane('library');
    await search().fill(`doi:"${doi}"`);
    await expect.poll(count).toBe('1 item');
  });

  it('finds an author by name', async () => {
    await pane('journals');
    // The tabs follow the arrow keys, as tabs do.
    await page.getByRole('tab', { name: 'Journal', exact: true }).click();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Author', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-author');
    await page.getByRole('textbox', { name: 'Author', exact: true }).fill(author.name);
    await page.getByRole('button', { name: 'Find author' }).click();
    const candidates = page.getByTestId('author-candidates');
    const view = page.getByTestId('author-view');
    await Promise.race([
      candidates.waitFor({ timeout: 20_000 }),
      view.getByRole('heading', { name: author.name }).waitFor({ timeout: 20_000 }),
    ]);
    if (await candidates.isVisible())
      await candidates.locator('li', { hasText: author.slug }).getByRole('button').click();
    await expect.poll(() => shownText(view.locator('code').first())).toBe(author.slug);
  });

  it('opens a journal from what the library kept when the service cannot be reached', async () => {
    await proxy.goOffline();
    await page.getByRole('tab', { name: 'Journal', exact: true }).click();
    await page.getByLabel('ISSN', { exact: true }).fill(issn);
    await page.getByRole('button', { name: 'Show journal' }).click();
    const view = page.getByTestId('journal-view');
    await expect.poll(() => shownText(view.getByRole('heading', { level: 2 }))).toBe(journalName);
    await view.getByRole('button', { name: 'Refresh' }).click();
    await view.getByTestId('journal-problem').waitFor({ timeout: 30_000 });
    expect(await shownText(view.getByTestId('journal-problem'))).toContain('Showing what your library kept.');
    expect(await view.getByTestId('journal-chart').locator('circle.all').count()).toBeGreaterThan(3);
    await page.getByRole('tab', { name: 'Journals you cite' }).click();
    await page.getByTestId('library-journals').waitFor();
    await shoot('offline');
    expect(problems.errors).toEqual([]);
  });
});
