// The Zotero Connector saving into Citewise, as the researcher sees it in the Library: the toast with
// the item and the collection, Undo, both themes, axe. First its requests replayed over HTTP (as the
// extension sends them: see test/integration/api/zotero-connector.test.ts); then, when a Connector
// built from its public source is at hand (CITEWISE_ZOTERO_CONNECTOR: the build/manifestv3 folder;
// CITEWISE_ZOTERO_TRANSLATORS: a checkout of zotero/translators), the real extension in Chromium
// saving a local article page with its PDF. CI cannot fetch the Connector: that part skips there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core';
import { silentLogger } from '../../electron/core/log';
import { freePort } from '../helpers/free-port';
import { makePdf } from '../helpers/pdfs';
import { tempDir } from '../helpers/tmp';
import { send } from '../integration/api/helpers';
import { seriousViolations } from './axe';
import { CHROMIUM, launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { shownText } from './text';

/** What Chrome's background page sends with every Connector call. */
const CONNECTOR = {
  'Content-Type': 'application/json',
  'X-Zotero-Version': '5.0.213',
  'X-Zotero-Connector-API-Version': '3',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  Origin: 'chrome-extension://ekhagklcjbdpajgpjgmbionohlpdbjgc',
};

const ARTICLE = {
  itemType: 'journalArticle',
  title: 'Quorum sensing in mixed biofilms',
  creators: [
    { firstName: 'Rosalind', lastName: 'Franklin', creatorType: 'author' },
    { firstName: 'Maurice', lastName: 'Wilkins', creatorType: 'author' },
  ],
  date: '2023-05-17',
  publicationTitle: 'Journal of Microbial Studies',
  volume: '41',
  issue: '2',
  pages: '233-251',
  DOI: '10.5555/jms.2023.41.233',
  url: 'https://journal.example/articles/41/233',
  accessDate: 'CURRENT_TIMESTAMP',
  tags: [],
  notes: [],
  attachments: [],
  id: 'KGtHe5e1',
};

interface Setup {
  dir: ReturnType<typeof tempDir>;
  app: RunningApp;
  port: number;
  reading: number;
}

/** The app with its editor API (which answers the Connector) on a free port, and a "Reading" collection. */
async function startApp(): Promise<Setup> {
  const dir = tempDir('citewise-connector-e2e-');
  const dataDir = join(dir.path, 'data');
  // Not 23119: this machine runs other tests (and perhaps Zotero) at the same time.
  const port = await freePort();
  const core = await createCore({ dataDir, mode: 'test', logger: silentLogger });
  await core.invoke('settings.update', { editorApiPort: port });
  const made = await core.invoke('library.collections.create', { name: 'Reading', parentId: null });
  // A library with a paper in it already (an empty one shows the first-run page, not the collections).
  const seeded = await core.invoke('library.import', {
    text: '@book{darwin1859,\n  author = {Darwin, Charles},\n  title = {On the Origin of Species},\n  year = {1859}\n}\n',
    fileName: 'seed.bib',
  });
  await core.close();
  if (!made.ok || !seeded.ok) throw new Error('the library was not set up');
  const app = await launchApp({ dataDir, env: { CITEWISE_EDITOR_API: '1' } });
  return { dir, app, port, reading: (made.value as { id: number }).id };
}

/** Shows the collection in the Library: the Connector saves into what the Library shows. */
async function showCollection(page: Page, id: number): Promise<void> {
  await page.locator('nav button[data-pane="library"]').click();
  await page.locator(`[data-collection="${id}"]`).click();
  await page.locator(`[data-collection="${id}"][aria-current="page"]`).waitFor();
}

const toastText = (page: Page) => shownText(page.getByTestId('toast'));

describe('a Connector save in the Library (replayed over HTTP)', () => {
  let s: Setup;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  const call = (method: string, body: string, headers: Record<string, string> = {}, query = '') =>
    send(s.port, 'POST', `/connector/${method}${query}`, { ...CONNECTOR, ...headers }, body);

  beforeAll(async () => {
    s = await startApp();
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext({ viewport: { width: 1360, height: 860 } })));
    await page.goto(s.app.url);
    await showCollection(page, s.reading);
  });

  afterAll(async () => {
    await browser?.close();
    await s?.app.stop();
    s?.dir.remove();
  });

  it('shows the saved item and its collection, with Undo that takes the save back', async () => {
    const r = await call('saveItems', JSON.stringify({ sessionID: 'e2e-1', uri: ARTICLE.url, items: [ARTICLE] }));
    expect(r.status).toBe(201);
    await expect
      .poll(() => toastText(page))
      .toContain('Saved “Quorum sensing in mixed biofilms” from the browser to Reading');
    // The pointer on it keeps it up past its time (6 s), so a reader can read it and reach Undo.
    await page.getByTestId('toast').locator('.toast').hover();
    await expect.poll(() => page.getByRole('row', { name: /Quorum sensing in mixed biofilms/ }).count()).toBe(1);
    await screenshot(page, 'connector-save-toast-light');
    expect(await seriousViolations(page), 'axe, the toast in light').toEqual([]);
    await page.waitForTimeout(7000);
    expect(await toastText(page)).toContain('Quorum sensing in mixed biofilms');
    await page.getByTestId('toast-undo').click();
    await expect.poll(() => page.getByRole('row', { name: /Quorum sensing in mixed biofilms/ }).count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  it('announces a BibTeX file a page links to (/connector/import) the same way, in the dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bib = `@article{hooke1665,\n  author = {Hooke, Robert},\n  title = {Micrographia},\n  journal = {Royal Society},\n  year = {1665}\n}\n`;
    const r = await call('import', bib, { 'Content-Type': 'application/x-bibtex' }, '?session=e2e-imp');
    expect(r.status).toBe(201);
    // The keyboard's focus on its Undo keeps it up as the pointer does.
    await page.getByTestId('toast-undo').focus();
    await expect.poll(() => page.getByRole('row', { name: /Micrographia/ }).count()).toBe(1);
    await screenshot(page, 'connector-import-toast-dark');
    expect(await seriousViolations(page), 'axe, the toast in dark').toEqual([]);
    await page.waitForTimeout(7000);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('row', { name: /Micrographia/ }).count()).toBe(0);
    // Neither pointer nor focus on it: it goes after its time.
    await page.mouse.move(5, 5);
    await page.locator('[data-collection]').first().focus();
    await expect.poll(() => toastText(page), { timeout: 20_000 }).toBe('');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems.errors).toEqual([]);
  });
});

/** The Connector's configuration: a `const` of its service worker's global scope, not a property of it. */
declare const ZOTERO_CONFIG: { REPOSITORY_URL: string };

const EXTENSION = process.env.CITEWISE_ZOTERO_CONNECTOR ?? '';
const TRANSLATORS = process.env.CITEWISE_ZOTERO_TRANSLATORS ?? '';
const built = existsSync(join(EXTENSION, 'manifest.json')) && existsSync(TRANSLATORS);
if (!built)
  console.warn(
    'Skipped: the real Zotero Connector test needs CITEWISE_ZOTERO_CONNECTOR (a build/manifestv3 folder built from zotero/zotero-connectors) and CITEWISE_ZOTERO_TRANSLATORS (a zotero/translators checkout); see docs/browser.md.',
  );

describe.skipIf(!built)('the real Zotero Connector in Chromium (built from source)', () => {
  let s: Setup;
  let web: Server;
  let webPort: number;
  const served: string[] = [];

  beforeAll(async () => {
    s = await startApp();
    // The translators, as repo.zotero.org serves them (metadata, then each one's code).
    const meta: object[] = [];
    const code = new Map<string, string>();
    for (const f of readdirSync(TRANSLATORS).filter((n) => n.endsWith('.js'))) {
      const text = readFileSync(join(TRANSLATORS, f), 'utf8');
      const m = /^\s*{[\S\s]*?}\s*?[\r\n]/.exec(text);
      if (!m) continue;
      const header = JSON.parse(m[0]) as { translatorID: string };
      meta.push(header);
      code.set(header.translatorID, text);
    }
    const pdf = Buffer.from(
      await makePdf({ title: 'Quorum sensing in mixed biofilms', byline: 'Rosalind Franklin, Maurice Wilkins' }),
    );
    web = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      served.push(path);
      if (path === '/repo/metadata') {
        res.writeHead(200, { 'content-type': 'application/json', date: new Date().toUTCString() });
        return res.end(JSON.stringify(meta));
      }
      if (path.startsWith('/repo/code/')) {
        const c = code.get(path.slice('/repo/code/'.length));
        res.writeHead(c ? 200 : 404, { 'content-type': 'application/javascript' });
        return res.end(c ?? '');
      }
      if (path === '/articles/41/233') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Quorum sensing in mixed biofilms | Journal of Microbial Studies</title>
<meta name="citation_title" content="Quorum sensing in mixed biofilms">
<meta name="citation_author" content="Franklin, Rosalind"><meta name="citation_author" content="Wilkins, Maurice">
<meta name="citation_publication_date" content="2023/05/17">
<meta name="citation_journal_title" content="Journal of Microbial Studies">
<meta name="citation_volume" content="41"><meta name="citation_issue" content="2">
<meta name="citation_firstpage" content="233"><meta name="citation_lastpage" content="251">
<meta name="citation_doi" content="10.5555/jms.2023.41.233">
<meta name="citation_pdf_url" content="http://127.0.0.1:${webPort}/articles/41/233.pdf">
</head><body><h1>Quorum sensing in mixed biofilms</h1><p>Rosalind Franklin, Maurice Wilkins</p>
<p><a href="233.pdf">PDF</a></p></body></html>`);
      }
      if (path === '/articles/41/233.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
        return res.end(pdf);
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as { port: number }).port;
  });

  afterAll(async () => {
    web?.close();
    await s?.app.stop();
    s?.dir.remove();
  });

  it('saves a local article page: the item, its PDF and its collection, with the toast in the app', async () => {
    const profile = tempDir('citewise-connector-profile-');
    const ctx = await chromium.launchPersistentContext(profile.path, {
      executablePath: CHROMIUM,
      headless: true,
      ignoreDefaultArgs: ['--disable-extensions'],
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        `--disable-extensions-except=${EXTENSION}`,
        `--load-extension=${EXTENSION}`,
        // Chromium 137 and later ignore --load-extension without this.
        '--disable-features=DisableLoadExtensionCommandLineSwitch',
      ],
    });
    try {
      const app = await ctx.newPage();
      await app.goto(s.app.url);
      await showCollection(app, s.reading);
      const worker = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker'));
      // The Connector's own settings: Citewise's port for Zotero's, the local stand-in for its repository.
      const setup = await worker.evaluate(
        async ({ apiPort, webPort }) => {
          const g = globalThis as unknown as {
            Zotero: {
              initDeferred: { promise: Promise<void> };
              Prefs: { set(k: string, v: unknown): Promise<void>; get(k: string): unknown[] };
              Translators: { updateFromRemote(reset: boolean): Promise<void> };
              Connector: { checkIsOnline(): Promise<boolean> };
            };
          };
          await g.Zotero.initDeferred.promise;
          ZOTERO_CONFIG.REPOSITORY_URL = `http://127.0.0.1:${webPort}/repo/`;
          await g.Zotero.Prefs.set('connector.url', `http://127.0.0.1:${apiPort}/`);
          await g.Zotero.Prefs.set('firstUse', false);
          await g.Zotero.Translators.updateFromRemote(true);
          const chrome = (globalThis as unknown as { chrome: { runtime: { getManifest(): { version: string } } } })
            .chrome;
          return { online: await g.Zotero.Connector.checkIsOnline(), version: chrome.runtime.getManifest().version };
        },
        { apiPort: s.port, webPort },
      );
      expect(setup.online, 'the Connector sees Citewise as Zotero').toBe(true);
      console.info(`Zotero Connector ${setup.version}`);
      const article = await ctx.newPage();
      const url = `http://127.0.0.1:${webPort}/articles/41/233`;
      await article.goto(url);
      // Its toolbar button: once Embedded Metadata has recognised the page, the same call a click makes.
      const evaluateTab = (click: boolean) =>
        worker.evaluate(
          async ({ url, click }) => {
            type Tab = { id?: number };
            const g = globalThis as unknown as {
              chrome: { tabs: { query(q: { url: string }): Promise<Tab[]> } };
              Zotero: {
                Connector_Browser: {
                  getTabInfo(id: number): { translators?: { label: string }[] } | undefined;
                  onZoteroButtonElementClick(tab: Tab): Promise<void>;
                };
              };
            };
            const [tab] = await g.chrome.tabs.query({ url });
            if (!tab?.id) return [];
            const found = (g.Zotero.Connector_Browser.getTabInfo(tab.id)?.translators ?? []).map((t) => t.label);
            if (click && found.length > 0) await g.Zotero.Connector_Browser.onZoteroButtonElementClick(tab);
            return found;
          },
          { url, click },
        );
      await expect.poll(() => evaluateTab(false), { timeout: 30_000 }).toContain('Embedded Metadata');
      await evaluateTab(true);
      // The item and its PDF, as Zotero's local API lists them.
      const items = async () => {
        const r = await send(s.port, 'GET', '/api/users/0/items', {});
        return r.status === 200 ? (JSON.parse(r.body) as { data: Record<string, unknown> }[]).map((i) => i.data) : [];
      };
      await expect
        .poll(async () => (await items()).map((d) => d.itemType).sort(), { timeout: 60_000 })
        .toEqual(['attachment', 'book', 'journalArticle']);
      const all = await items();
      const saved = all.find((d) => d.itemType === 'journalArticle')!;
      expect(saved).toMatchObject({
        title: 'Quorum sensing in mixed biofilms',
        DOI: '10.5555/jms.2023.41.233',
        publicationTitle: 'Journal of Microbial Studies',
        volume: '41',
        pages: '233-251',
        url,
        creators: [
          { creatorType: 'author', firstName: 'Rosalind', lastName: 'Franklin' },
          { creatorType: 'author', firstName: 'Maurice', lastName: 'Wilkins' },
        ],
      });
      expect(saved.accessDate).toMatch(/^\d{4}-\d\d-\d\d/);
      expect((saved.collections as string[]).length).toBe(1);
      expect(all.find((d) => d.itemType === 'attachment')).toMatchObject({
        parentItem: saved.key,
        contentType: 'application/pdf',
      });
      expect(served).toContain('/articles/41/233.pdf');
      // The app shows it as it happens (the toast names the item; the PDF's save comes last), in Reading.
      await expect.poll(() => toastText(app)).toContain('“Quorum sensing in mixed biofilms”');
      await expect.poll(() => app.getByRole('row', { name: /Quorum sensing in mixed biofilms/ }).count()).toBe(1);
      await screenshot(app, 'connector-real-save-light');
    } finally {
      await ctx.close();
      profile.remove();
    }
  });
});
