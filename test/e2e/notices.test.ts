/// <reference lib="dom" />
// Editorial notices in the Library table (issue 17): each kind the service reports (retraction,
// withdrawal, expression of concern, correction, erratum) flags its row with its own badge and a
// tooltip naming the notice; the evidence columns' marks are explained (tooltip and legend: ? = not
// known to the service, — = no DOI). Screenshots in both themes, checked with axe.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { openApp, type AppSession, type PageProblems } from './harness';
import { cli } from './seed';
import { shownText } from './text';

/** Each notice status the service reports, the badge it gets, and what its tooltip starts with. */
const KINDS = [
  { status: 'Retracted', badge: 'RETRACTED', tooltip: /^Retraction notice: / },
  { status: 'Withdrawn', badge: 'WITHDRAWN', tooltip: /^Withdrawal notice: / },
  { status: 'Has expression of concern', badge: 'CONCERN', tooltip: /^Expression of concern: / },
  { status: 'Has correction', badge: 'CORRECTED', tooltip: /^Correction notice: / },
  { status: 'Has erratum', badge: 'ERRATUM', tooltip: /^Erratum: / },
] as const;
const UNKNOWN_DOI = '10.5555/not-known-to-the-service';

describe('Notices and evidence marks in the Library table', () => {
  let service: RunningService;
  let dataDir: ReturnType<typeof tempDir>;
  let session: AppSession;
  let page: Page;
  let problems: PageProblems;
  /** The title of the paper chosen for each notice status. */
  const titles = new Map<string, string>();

  const rowTitled = (title: string) => page.locator('[role="row"][data-id]').filter({ hasText: title.slice(0, 40) });

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 300, log: () => {} });
    const db = service.corpus.db;
    const items: Record<string, unknown>[] = [];
    for (const k of KINDS) {
      // A paper whose only kind of notice is this one, so its row shows exactly one badge.
      const p = db
        .prepare(
          `SELECT p.doi, p.title FROM papers p WHERE EXISTS (SELECT 1 FROM notices n WHERE n.paper_id = p.id AND n.status = ?)
             AND NOT EXISTS (SELECT 1 FROM notices n WHERE n.paper_id = p.id AND n.status <> ?) AND p.retracted = ? ORDER BY p.id LIMIT 1`,
        )
        .get(k.status, k.status, k.status === 'Retracted' ? 1 : 0) as { doi: string; title: string } | undefined;
      if (!p) throw new Error(`the corpus has no paper with only a "${k.status}" notice; raise its size`);
      titles.set(k.status, p.title);
      items.push({
        id: k.status,
        type: 'article-journal',
        title: p.title,
        DOI: p.doi,
        issued: { 'date-parts': [[2015]] },
      });
    }
    items.push({
      id: 'unknown',
      type: 'article-journal',
      title: 'A paper the service does not know',
      DOI: UNKNOWN_DOI,
      issued: { 'date-parts': [[2016]] },
    });
    items.push({ id: 'nodoi', type: 'book', title: 'A book without a DOI', issued: { 'date-parts': [[2001]] } });
    dataDir = tempDir('citewise-notices-');
    const file = join(dataDir.path, 'notices.json');
    writeFileSync(file, JSON.stringify(items));
    await cli(dataDir.path, service.url, 'import', file);
    await cli(dataDir.path, service.url, 'enrich');
    session = await openApp({ service, dataDir: dataDir.path, context: { viewport: { width: 1360, height: 820 } } });
    ({ page, problems } = session);
  });

  afterAll(async () => {
    await session?.close();
    await service?.close();
    dataDir?.remove();
  });

  it('flags every kind of notice with its own badge and a tooltip naming the notice', async () => {
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('7 items');
    for (const k of KINDS) {
      const badges = rowTitled(titles.get(k.status)!).locator('.badge');
      await expect.poll(() => badges.allInnerTexts(), { message: k.status }).toEqual([k.badge]);
      expect(await badges.first().getAttribute('title')).toMatch(k.tooltip);
    }
    expect(await rowTitled('A paper the service does not know').locator('.badge').count()).toBe(0);
    expect(await rowTitled('A book without a DOI').locator('.badge').count()).toBe(0);
    // Retracted & notices lists all five.
    await page.getByTestId('view-notices').click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('5 items');
    await shootThemes(page, 'library-notice-badges');
    await page.getByTestId('view-library').click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('7 items');
  });

  it('explains ? and — in the evidence columns with a tooltip and a legend', async () => {
    const cell = (title: string) => rowTitled(title).locator('[data-col="supporting"]');
    await expect.poll(() => shownText(cell('A paper the service does not know'))).toBe('?');
    await cell('A paper the service does not know').hover();
    expect(await cell('A paper the service does not know').getAttribute('title')).toMatch(
      /^Unknown to the citation service: it has no citation data for this DOI \(checked /,
    );
    expect(await shownText(cell('A book without a DOI'))).toBe('—');
    await cell('A book without a DOI').hover();
    expect(await cell('A book without a DOI').getAttribute('title')).toBe(
      'No DOI: the citation service can only be asked about items with a DOI',
    );
    const counted = cell(titles.get('Has correction')!);
    expect(await shownText(counted)).toMatch(/^[\d,]+$/);

    // Counts are shown whole (11,123 was cut to "11,1…"), and the legend is on screen under the
    // notification banner (the banner used to push the table's footline out of the window).
    const clipped = await page
      .locator('[role="row"][data-id] .cell.ev')
      .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
    expect(clipped).toEqual([]);
    expect(await page.getByRole('grid').evaluate((g) => g.scrollWidth - g.clientWidth)).toBeLessThanOrEqual(0);
    await expect.poll(() => page.getByTestId('status-notification').count()).toBe(1);
    const legend = page.getByTestId('evidence-legend');
    expect(await legend.innerText()).toMatch(
      /\?\s*not known to the citation service.*—\s*no DOI.*…\s*not fetched yet/s,
    );
    const box = (await legend.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await shootThemes(page, 'library-evidence-legend');
    expect(problems.errors).toEqual([]);
  });
});
