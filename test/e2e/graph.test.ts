/// <reference lib="dom" />
// The citation graph as a researcher uses it, in Chromium against the local service: seed a graph from
// a library item (its details' "Citation graph" button), expand it twice, filter to contrasting edges,
// add a paper of the graph to the library, save the graph, then reopen it with the service gone.
// Screenshots in light and dark are saved to test-results/ and checked with axe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, RESULTS_DIR, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText } from './text';

describe('the citation graph', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let seed: { doi: string; title: string };
  let citer: { doi: string; title: string };
  let serviceClosed = false;

  const status = () => shownText(page.getByTestId('graph-status'));
  const shown = async (): Promise<{ papers: number; links: number }> => {
    const m = /([\d,]+) papers · ([\d,]+) citation links/.exec((await status()) ?? '');
    return { papers: Number((m?.[1] ?? '0').replace(/,/g, '')), links: Number((m?.[2] ?? '0').replace(/,/g, '')) };
  };

  /** The layout as exported in GraphML: x and y by DOI. */
  const graphmlPositions = async (download: Download): Promise<Record<string, [number, number]>> => {
    const xml = readFileSync(await download.path(), 'utf8');
    const out: Record<string, [number, number]> = {};
    for (const m of xml.matchAll(
      /<node id="([^"]+)">[\s\S]*?<data key="n_x">([^<]+)<\/data>\s*<data key="n_y">([^<]+)<\/data>/g,
    ))
      out[m[1]!] = [Number(m[2]), Number(m[3])];
    return out;
  };
  const exportGraphml = async (): Promise<Download> => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-graph').selectOption('graphml'),
    ]);
    return download;
  };

  /** The label boxes drawn, and the toolbar's and the canvas's rects, in the canvas's pixels. */
  const labelLayout = async () => {
    const canvas = (await page.getByTestId('graph-canvas').boundingBox())!;
    const bar = (await page.getByRole('toolbar', { name: 'Graph view' }).boundingBox())!;
    const boxes = JSON.parse((await page.getByTestId('graph-labels').getAttribute('data-label-boxes')) ?? '[]') as [
      number,
      number,
      number,
      number,
    ][];
    return {
      boxes,
      width: canvas.width,
      height: canvas.height,
      toolbar: {
        x0: bar.x - canvas.x,
        y0: bar.y - canvas.y,
        x1: bar.x - canvas.x + bar.width,
        y1: bar.y - canvas.y + bar.height,
      },
    };
  };
  const expectLabelsClear = async (): Promise<void> => {
    const { boxes, width, height, toolbar } = await labelLayout();
    expect(boxes.length).toBeGreaterThan(0);
    for (const [x0, y0, x1, y1] of boxes) {
      expect(
        x0 < toolbar.x1 && x1 > toolbar.x0 && y0 < toolbar.y1 && y1 > toolbar.y0,
        `label ${[x0, y0, x1, y1].join(',')} under the toolbar`,
      ).toBe(false);
      expect(
        x0 >= 0 && y0 >= 0 && x1 <= width && y1 <= height,
        `label ${[x0, y0, x1, y1].join(',')} off the canvas (${width}×${height})`,
      ).toBe(true);
    }
  };

  /**
   * Clicks Fit and checks where every paper landed (sigma's graphToViewport, left on the view as
   * data-fit-points once the camera stopped): inside the canvas, none under the toolbar or the legend.
   */
  const expectFitClear = async (): Promise<number> => {
    await page.getByRole('button', { name: 'Fit' }).click();
    const view = page.getByTestId('graph-canvas');
    await expect.poll(() => view.getAttribute('data-fit-points'), { timeout: 10_000 }).not.toBeNull();
    const points = JSON.parse((await view.getAttribute('data-fit-points'))!) as [number, number][];
    const canvas = (await view.boundingBox())!;
    const inCanvas = (b: { x: number; y: number; width: number; height: number }) => ({
      x0: b.x - canvas.x,
      y0: b.y - canvas.y,
      x1: b.x - canvas.x + b.width,
      y1: b.y - canvas.y + b.height,
    });
    const toolbar = inCanvas((await page.getByRole('toolbar', { name: 'Graph view' }).boundingBox())!);
    const legend = inCanvas((await page.getByTestId('graph-legend').boundingBox())!);
    expect(points.length).toBeGreaterThan(10);
    for (const [x, y] of points) {
      expect(
        x >= 0 && y >= 0 && x <= canvas.width && y <= canvas.height,
        `paper at ${x},${y} off the canvas (${canvas.width}×${canvas.height})`,
      ).toBe(true);
      for (const [name, b] of [
        ['toolbar', toolbar],
        ['legend', legend],
      ] as const)
        expect(
          x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1,
          `paper at ${x},${y} under the ${name} ${JSON.stringify(b)}`,
        ).toBe(false);
    }
    return points.length;
  };
  const shoot = (name: string): Promise<void> => shootThemes(page, `graph-${name}`, { settleMs: 400 });

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 600, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    const db = service.corpus.db;
    // A paper cited 15–80 times, with contrasting statements among them, and one of its citing papers
    // that is itself cited a few times (the second expansion).
    const row = db
      .prepare(
        `SELECT p.id, p.doi, p.title FROM papers p
          WHERE p.retracted = 0
            AND (SELECT count(*) FROM citations c WHERE c.target = p.id) BETWEEN 15 AND 80
            AND (SELECT count(*) FROM citations c WHERE c.target = p.id AND (c.kind & 3) = 2) >= 2
            AND EXISTS (SELECT 1 FROM citations c JOIN papers s ON s.id = c.source WHERE c.target = p.id AND (SELECT count(*) FROM citations d WHERE d.target = s.id) >= 3)
          ORDER BY p.id LIMIT 1`,
      )
      .get() as { id: number; doi: string; title: string };
    expect(row).toBeTruthy();
    seed = { doi: row.doi, title: row.title };
    citer = db
      .prepare(
        `SELECT s.doi, s.title FROM citations c JOIN papers s ON s.id = c.source WHERE c.target = ? AND (SELECT count(*) FROM citations d WHERE d.target = s.id) >= 3 ORDER BY s.id LIMIT 1`,
      )
      .get(row.id) as { doi: string; title: string };
    dataDir = tempDir('citewise-graph-');
    await cli(dataDir.path, service.url, 'add', seed.doi);
    app = await launchApp({
      dataDir: dataDir.path,
      env: {
        CITEWISE_SERVICE_URL: service.url,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      colorScheme: 'light',
      acceptDownloads: true,
    });
    ({ page, problems } = await newPage(context));
    const response = await page.goto(app.url);
    // Web Workers only from the app itself: the layout worker is a file of the app, never a blob.
    expect(response?.headers()['content-security-policy']).toMatch(/worker-src 'self'(;|$)/);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (!serviceClosed) await service?.close();
    dataDir?.remove();
  });

  it('seeds from a library item, expands twice, filters to contrasting edges, adds a paper, and reopens offline', async () => {
    // The item's details offer the graph.
    const row = page.locator('[role="row"][data-index="0"]');
    await row.waitFor();
    await row.click();
    await page.keyboard.press('Enter');
    await page.getByTestId('details-title').waitFor();
    await page.getByTestId('item-details').getByRole('button', { name: 'Citation graph' }).click();
    await page.getByTestId('graph-details').waitFor();
    await expect.poll(shown).toEqual({ papers: 1, links: 0 });

    // First expansion: the papers citing the seed, drawn with WebGL and laid out by the worker.
    await page.getByTestId('expand-citing').click();
    await expect.poll(async () => (await shown()).papers).toBeGreaterThan(10);
    const first = await shown();
    expect(first.links).toBe(first.papers - 1);
    await expect
      .poll(() => shownText(page.getByTestId('citing-progress')))
      .toMatch(/of \d+ citation statements loaded/);
    await expect.poll(() => shownText(page.getByTestId('graph-status'))).not.toMatch(/laying out/);
    expect(await page.getByTestId('year-chart').count()).toBe(1);
    expect(await page.getByTestId('contrasting-list').locator('li').count()).toBeGreaterThanOrEqual(1);
    // The WebGL view drew something: the canvas is not blank.
    const drawn = await page.getByTestId('graph-canvas').evaluate((el) => el.querySelectorAll('canvas').length);
    expect(drawn).toBeGreaterThan(0);
    await expectLabelsClear();
    // The legend says which papers are labelled (the rule of labels.ts) and what is drawn larger.
    expect(await shownText(page.getByTestId('legend-labels'))).toBe(
      'Labels: selected papers and search matches, then up to 30 of the largest papers in view, where they fit',
    );
    expect(await shownText(page.getByTestId('graph-legend'))).toContain('Larger: in your library');
    await shoot('expanded');
    // Zoomed in, papers sit at every edge and under the toolbar: their labels stay clear of both.
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.waitForTimeout(600);
    await expectLabelsClear();
    await shoot('zoomed');
    // Fit puts every paper in the part of the view the toolbar and the legend leave free, at two window sizes.
    await expectFitClear();
    await expectLabelsClear();
    await shoot('fit');
    await page.setViewportSize({ width: 1024, height: 640 });
    await expectFitClear();
    await expectLabelsClear();
    await shoot('fit-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await expectFitClear();

    // Second expansion: find a citing paper by its title, select it, expand its citations.
    const words = citer.title.split(/\s+/).slice(0, 4).join(' ');
    await page.getByTestId('graph-search').fill(words);
    await expect.poll(() => shownText(page.getByTestId('graph-matches'))).toMatch(/^[1-9]\d* found$/);
    await page.getByTestId('graph-search').press('Enter');
    await expect
      .poll(() => shownText(page.getByTestId('graph-details').locator('h2')))
      .toContain(citer.title.slice(0, 30));
    await page.getByTestId('graph-search').fill('');
    await page.getByTestId('expand-citing').click();
    await expect.poll(async () => (await shown()).papers).toBeGreaterThan(first.papers);
    const second = await shown();
    expect(second.links).toBeGreaterThan(first.links);

    // Only contrasting edges: fewer links, at least the seed's contrasting ones.
    await page.getByRole('checkbox', { name: 'Supporting', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'Mentioning', exact: true }).uncheck();
    await expect.poll(async () => (await shown()).links).toBeLessThan(second.links);
    const contrasting = await shown();
    expect(contrasting.links).toBeGreaterThanOrEqual(2);
    await shoot('contrasting');

    // Add the selected citing paper to the library: it is enriched and gets a citation key.
    await page.getByTestId('add-to-library').click();
    await expect.poll(() => shownText(page.getByTestId('graph-notice'))).toMatch(/Added “[^”]+” to the library/);
    await expect.poll(() => shownText(page.getByTestId('graph-details'))).toContain('In your library');

    // Save it under a name, once laid out.
    await expect
      .poll(() => page.getByTestId('graph-status').getAttribute('data-layout-running'), { timeout: 30_000 })
      .toBe('false');
    await page.getByTestId('save-graph').click();
    await page.getByRole('textbox', { name: 'Name of the graph' }).fill('Seed and its critics');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => shownText(page.getByTestId('graph-notice')))
      .toMatch(/Saved as “Seed and its critics” \([\d,]+ papers\)/);

    // Exports: GraphML of what is shown, as a download.
    const download = await exportGraphml();
    expect(download.suggestedFilename()).toBe('Seed-and-its-critics.graphml');
    const savedLayout = await graphmlPositions(download);
    expect(Object.keys(savedLayout).length).toBeGreaterThan(10);
    // The picture carries the legend: the PNG (drawn at 2×) is taller than the 1600 × 1000 graph alone,
    // and the SVG has the legend's words.
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-graph').selectOption('png'),
    ]);
    await png.saveAs(join(RESULTS_DIR, 'graph-export-light.png'));
    const bytes = readFileSync(await png.path());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(3200);
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(2000);
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-graph').selectOption('svg'),
    ]);
    const svgText = readFileSync(await svg.path(), 'utf8');
    for (const words of [
      'Supporting',
      'Contrasting',
      'Mentioning',
      'Retracted',
      'Labels: papers in your library, selected papers and search matches',
    ])
      expect(svgText).toContain(words);

    // The service goes away; the app reloads; the saved graph opens from the library alone.
    await service.close();
    serviceClosed = true;
    await page.reload();
    await page.locator('nav button[data-pane="graph"]').click();
    await page
      .getByTestId('open-saved')
      .selectOption({ label: `Seed and its critics (${second.papers.toLocaleString('en')})` });
    await expect
      .poll(() => shownText(page.getByTestId('graph-notice')))
      .toMatch(/Opened “Seed and its critics”: [\d,]+ papers and [\d,]+ citation links, from the library/);
    await expect.poll(shown).toEqual(second);
    await expect
      .poll(() => page.getByTestId('graph-status').getAttribute('data-layout-running'), { timeout: 30_000 })
      .toBe('false');
    // It reopens with the layout it was saved with: every paper where it was, no layout run.
    expect(await page.getByTestId('graph-status').getAttribute('data-layout-iterations')).toBe('0');
    const reopened = await graphmlPositions(await exportGraphml());
    expect(Object.keys(reopened).sort()).toEqual(Object.keys(savedLayout).sort());
    expect(reopened).toEqual(savedLayout);
    await page.getByTestId('graph-search').fill(seed.title.split(/\s+/).slice(0, 5).join(' '));
    await page.getByTestId('graph-search').press('Enter');
    await page.getByTestId('graph-search').fill('');
    await expect
      .poll(() => shownText(page.getByTestId('graph-details').locator('h2')))
      .toContain(seed.title.slice(0, 30));
    await shoot('offline');

    // Back to the start: the saved graph is listed there, and can be deleted (after a confirmation).
    await page.getByRole('button', { name: 'New graph' }).click();
    await expect.poll(() => shownText(page.getByTestId('saved-graphs'))).toContain('Seed and its critics');
    await shoot('start');
    await page.getByRole('button', { name: 'Delete the saved graph Seed and its critics' }).click();
    await page.getByRole('button', { name: 'Delete “Seed and its critics”' }).click();
    await expect.poll(() => page.getByTestId('saved-graphs').count()).toBe(0);
    expect(
      problems.errors.filter(
        (e) => !/WebGL|GPU stall|GroupMarkerNotSet|net::ERR_CONNECTION_REFUSED|Failed to load resource/i.test(e),
      ),
    ).toEqual([]);
  });
});
