/// <reference lib="dom" />
// A preprint and its published version in the Library, end to end in Chromium against the local
// service: a preprint added by DOI (its record links the published version), its details say "A
// published version exists" and name it from the service, one click adds it, one click merges the
// preprint into it (tags carried over, the toast's Undo brings the preprint back), and the published
// paper names its preprint. A linked title holding markup, from the service cache, stays text.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLibrary } from '../../electron/cli/library-session';
import { startService, type RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { openApp, type AppSession, type PageProblems } from './harness';
import { cli } from './seed';
import { shownText } from './text';

const HOSTILE_PRE = '10.1101/2021.02.02.000009';
const HOSTILE_PUB = '10.9999/hostile-published';
const HOSTILE_TITLE = 'Published <img src=x onerror="window.__pwned=1"> <b>twice</b>';

describe('Preprints and their published versions', () => {
  let service: RunningService;
  let session: AppSession;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let pair: { doi: string; published_doi: string; title: string; year: number; journal: string };

  const details = () => page.getByTestId('item-details');
  const notice = () => page.getByTestId('published-version');
  const search = async (query: string) => {
    await page.getByRole('searchbox', { name: 'Search the library' }).fill(query);
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('1 item');
    await page.locator('[role="row"][data-index="0"]').click();
    await page.getByTestId('details-title').waitFor();
  };

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 400, log: () => {} });
    pair = service.corpus.db
      .prepare(
        `SELECT p.doi, p.published_doi, q.title, q.year, j.name AS journal FROM papers p JOIN papers q ON q.doi = p.published_doi JOIN journals j ON j.id = q.journal_id
         WHERE p.published_doi IS NOT NULL ORDER BY p.id LIMIT 1`,
      )
      .get() as typeof pair;
    dataDir = tempDir('citewise-versions-');
    await cli(dataDir.path, service.url, 'add', pair.doi);
    // A second preprint whose published version the cache names with markup (as a hostile record would).
    await withLibrary(dataDir.path, async (client) => {
      await client.lib.addItem({
        id: 'x',
        type: 'article',
        title: 'A Preprint With a Hostile Sibling',
        DOI: HOSTILE_PRE,
        issued: { 'date-parts': [[2021]] },
      });
      await client.serviceCache.putPapers({
        found: {
          [HOSTILE_PRE]: { publicationLinks: [{ publishedDoi: HOSTILE_PUB }], preprintLinks: [] },
          [HOSTILE_PUB]: {
            title: HOSTILE_TITLE,
            journal: 'Journal <i>of</i> Tests',
            year: 2023,
            preprintLinks: [],
            publicationLinks: [],
          },
        },
      });
    });
    session = await openApp({
      service,
      dataDir: dataDir.path,
      context: { viewport: { width: 1360, height: 900 } },
      waitForShell: false,
    });
    ({ page, problems } = session);
    await page.getByTestId('item-count').filter({ hasText: '2 items' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await service?.close();
    dataDir?.remove();
  });

  it('says a published version exists on the preprint and names it from the service', async () => {
    await search(`doi:${pair.doi}`);
    await notice().waitFor();
    expect(await shownText(notice())).toContain('A published version exists');
    expect(await shownText(notice())).toContain(`doi:${pair.published_doi}`);
    // Known by its DOI only at first; the details column asks the service once and names it.
    await expect
      .poll(() => shownText(notice().getByTestId('version-label')), { timeout: 20_000 })
      .toBe(`${pair.title}. ${pair.journal}, ${pair.year}`);
    expect(await shownText(notice().getByTestId('add-published'))).toContain('Add it to the library');
    await shootThemes(page, 'versions-published-exists');
    // A tag on the preprint, to see it carried over by the merge.
    await page.getByLabel('New tag').fill('to-read');
    await page.getByLabel('New tag').press('Enter');
    await details().getByTestId('tags').filter({ hasText: 'to-read' }).waitFor();
  });

  it('adds the published version by DOI with one click, then offers the merge', async () => {
    await notice().getByTestId('add-published').click();
    await expect
      .poll(() => shownText(notice().getByTestId('versions-message')), { timeout: 20_000 })
      .toBe(`Added the published version (${pair.published_doi}) to the library.`);
    await notice().getByTestId('merge-into-published').waitFor();
    expect(await shownText(notice())).toMatch(/In your library as \S+\./);
    await notice().scrollIntoViewIfNeeded();
    await shootThemes(page, 'versions-merge-offered');
  });

  it("merges the preprint into the published version; the toast's Undo brings it back", async () => {
    await notice().getByTestId('merge-into-published').click();
    await expect
      .poll(() => shownText(page.getByTestId('toast')))
      .toContain('Merged the preprint into its published version');
    await page.getByTestId('toast-undo').click();
    await expect.poll(() => shownText(page.getByTestId('toast'))).toContain('Undid: Merge');
    // The preprint is back with its tag, and the merge is offered again.
    await search(`doi:${pair.doi}`);
    await notice().getByTestId('merge-into-published').waitFor();
    expect(await shownText(details().getByTestId('tags'))).toContain('to-read');
  });

  it('merges again: the published version is shown with the tag and names its preprint', async () => {
    await notice().getByTestId('merge-into-published').click();
    await expect
      .poll(() => shownText(page.getByTestId('toast')))
      .toContain('Merged the preprint into its published version');
    // The published version is selected and shown, with the preprint's tag and its preprint named.
    await page.getByTestId('preprint-versions').waitFor();
    expect(await shownText(page.getByTestId('preprint-versions'))).toContain(`Preprint: ${pair.title}`);
    expect(await shownText(page.getByTestId('preprint-versions'))).toContain(`doi:${pair.doi}`);
    expect(await notice().count()).toBe(0);
    expect(await shownText(details().getByTestId('tags'))).toContain('to-read');
    expect(await details().getByTestId('doi-link').getAttribute('href')).toBe(`https://doi.org/${pair.published_doi}`);
    await shootThemes(page, 'versions-merged');
    await page.getByRole('searchbox', { name: 'Search the library' }).fill('');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('2 items');
  });

  it('shows a linked title holding markup as text', async () => {
    await search(`doi:${HOSTILE_PRE}`);
    await notice().waitFor();
    await expect
      .poll(() => shownText(notice().getByTestId('version-label')))
      .toBe(`${HOSTILE_TITLE}. Journal <i>of</i> Tests, 2023`);
    expect(await notice().locator('img, b, i').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(problems.errors).toEqual([]);
  });
});
