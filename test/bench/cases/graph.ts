/// <reference lib="dom" />
// The citation graph pane in Chromium (browser mode, --disable-gpu: software WebGL):
// - a saved graph of 5,000 papers and 50,000 citation links (built beforehand in the library's graph
//   store, as expansions would) opened from the library: time to the layout worker finishing, and
//   how long the worker computed;
// - panning (mouse drags) and zooming (wheel) on it, frames drawn per second from a Chromium trace
//   (probes/frame-trace.ts);
// - expanding, against the local service, a paper with more than 3,000 citation statements and
//   loading every page: the longest main-thread task meanwhile (from the same kind of trace).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { LibraryClient } from '../../../electron/core/library/client';
import type { StatementInput } from '../../../electron/core/library/graph-store';
import { launchApp, launchBrowser } from '../../e2e/harness';
import { startService } from '../../service/server';
import type { BenchCase, BenchMetric } from '../harness';
import { splitText, traceFrames } from '../probes/frame-trace';

const TYPES = [
  'mentioning',
  'mentioning',
  'mentioning',
  'mentioning',
  'mentioning',
  'mentioning',
  'supporting',
  'supporting',
  'contrasting',
  'mentioning',
];
const SECTIONS = ['introduction', 'methods', 'results', 'discussion', 'other'];
const JOURNALS = [
  'Journal of Graphs',
  'Network Letters',
  'Citation Review',
  'Applied Bibliometrics',
  'Science of Science',
  'Open Data Journal',
  'Scholarly Metrics',
  'Research Policy Notes',
  'Information Quarterly',
  'Knowledge Maps',
];

/** A small deterministic generator, so every run builds the same graph. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const doiOf = (i: number): string => `10.5555/graph.${i}`;

/** 5,000 papers and 50,000 distinct citing → cited pairs (later papers cite earlier ones, popular ones more). */
export async function buildGraph(dataDir: string, papers: number, links: number): Promise<void> {
  const rand = rng(7);
  const byTarget = new Map<number, StatementInput[]>();
  const seen = new Set<number>();
  let made = 0;
  while (made < links) {
    const source = 1 + Math.floor(rand() * (papers - 1));
    const target = Math.floor(Math.pow(rand(), 2.2) * source);
    const key = source * papers + target;
    if (seen.has(key)) continue;
    seen.add(key);
    made++;
    const list = byTarget.get(target) ?? [];
    list.push({
      source: doiOf(source),
      target: doiOf(target),
      id: made,
      type: TYPES[Math.floor(rand() * TYPES.length)],
      section: SECTIONS[Math.floor(rand() * SECTIONS.length)],
      selfCite: rand() < 0.05,
    });
    byTarget.set(target, list);
  }
  const paper = (i: number) => ({
    doi: doiOf(i),
    id: i,
    title: `Generated paper ${i} on citation networks`,
    slug: `p${i}`,
    authors: [
      {
        authorName: `Author ${i % 97}`,
        family: `Author${i % 97}`,
        given: 'A.',
        authorSequenceNumber: 1,
        authorSlug: `a${i % 97}`,
      },
    ],
    journal: JOURNALS[i % JOURNALS.length]!,
    journalSlug: `j${i % JOURNALS.length}`,
    publisher: 'Bench',
    memberId: 1,
    issns: [],
    volume: '1',
    year: 1970 + Math.floor((i / papers) * 55),
    type: 'journal-article',
    normalizedTypes: ['article'],
    editorialNotices: [],
    preprintLinks: [],
    publicationLinks: [],
    retracted: i % 499 === 0,
  });
  const client = await LibraryClient.start({ file: join(dataDir, 'citewise.sqlite') });
  try {
    const now = Date.now();
    for (let t = 0; t < papers; t++) {
      const statements = byTarget.get(t) ?? [];
      const papersOfPage: Record<string, ReturnType<typeof paper>> = { [doiOf(t)]: paper(t) };
      for (const s of statements) papersOfPage[s.source] = paper(Number(s.source.split('.').pop()));
      const tally = {
        total: statements.length * 3,
        supporting: statements.length,
        contrasting: Math.floor(statements.length / 4),
        mentioning: statements.length,
        unclassified: 0,
        citingPublications: statements.length * 2,
      };
      await client.graph.putPage({
        doi: doiOf(t),
        direction: 'citing',
        offset: 0,
        total: statements.length,
        statements,
        papers: papersOfPage as never,
        tallies: { [doiOf(t)]: tally },
        histogram: null,
        fetchedAt: now,
      });
    }
    const dois = Array.from({ length: papers }, (_, i) => doiOf(i));
    await client.graph.saveGraph({
      name: 'Bench graph',
      seed: { kind: 'dois', dois: [doiOf(0)] },
      seedDois: [doiOf(0)],
      dois,
    });
  } finally {
    await client.close();
  }
}

/** The longest task on the page's main thread between two user-timing marks (Chromium trace, category toplevel). */
async function longestTask(
  context: BrowserContext,
  page: Page,
  marks: { start: string; end: string },
  run: () => Promise<void>,
): Promise<{ longest: number; over50: number; windowMs: number; longestOwn: number; longestCommit: number }> {
  const cdp = await context.newCDPSession(page);
  type Ev = {
    name: string;
    cat: string;
    ph: string;
    pid: number;
    tid: number;
    ts: number;
    dur?: number;
    args?: { name?: string };
  };
  const events: Ev[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as Ev[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: [
        'toplevel',
        'blink.user_timing',
        '__metadata',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
      ],
      recordMode: 'recordAsMuchAsPossible',
    },
    transferMode: 'ReportEvents',
  });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  const start = events.find((e) => e.name === marks.start);
  const end = events.find((e) => e.name === marks.end);
  if (!start || !end) throw new Error('the trace lacks the paging marks');
  const main =
    events.find(
      (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === start.pid && e.args?.name === 'CrRendererMain',
    )?.tid ?? start.tid;
  const tasks = events.filter(
    (e) =>
      e.ph === 'X' &&
      e.pid === start.pid &&
      e.tid === main &&
      (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') &&
      e.ts >= start.ts &&
      e.ts <= end.ts,
  );
  const durations = tasks.map((e) => (e.dur ?? 0) / 1000);
  // The same tasks without the compositor's commits: with software WebGL (--disable-gpu) each commit
  // reads the WebGL canvas back, waiting for the software rasteriser to finish the frame. What is
  // left is the page's own work (script, style, layout).
  const commits = events.filter((e) => e.ph === 'X' && e.pid === start.pid && e.tid === main && e.name === 'Commit');
  const own = tasks.map((t) => {
    const inside = commits
      .filter((c) => c.ts >= t.ts && c.ts + (c.dur ?? 0) <= t.ts + (t.dur ?? 0))
      .reduce((n, c) => n + (c.dur ?? 0), 0);
    return ((t.dur ?? 0) - inside) / 1000;
  });
  const commitMs = commits.filter((c) => c.ts >= start.ts && c.ts <= end.ts).map((c) => (c.dur ?? 0) / 1000);
  return {
    longest: Math.max(0, ...durations),
    over50: durations.filter((d) => d > 50).length,
    windowMs: (end.ts - start.ts) / 1000,
    longestOwn: Math.max(0, ...own),
    longestCommit: Math.max(0, ...commitMs),
  };
}

const bench: BenchCase = {
  name: 'graph',
  description:
    'Citation graph pane in Chromium: 5,000-paper/50,000-link layout, pan and zoom fps, paging a paper with more than 3,000 statements',
  async run({ tmpDir, quick, log }) {
    const papers = quick ? 1000 : 5000;
    const links = quick ? 10_000 : 50_000;
    const dataDir = join(tmpDir, 'data');
    mkdirSync(dataDir, { recursive: true });
    const t0 = Date.now();
    await buildGraph(dataDir, papers, links);
    log(
      `graph of ${papers.toLocaleString('en')} papers and ${links.toLocaleString('en')} links stored in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const service = await startService({ port: 0, papers: 3000, log: () => {} });
    const key = service.keys.find((k) => k.scopes.has('*'))!.token;
    const landmark = service.corpus.db
      .prepare(
        'SELECT p.doi AS doi, count(*) AS n FROM citations c JOIN papers p ON p.id = c.target GROUP BY c.target ORDER BY n DESC LIMIT 1',
      )
      .get() as { doi: string; n: number };
    const app = await launchApp({
      dataDir,
      env: {
        CITEWISE_SERVICE_URL: service.url,
        CITEWISE_API_KEY: key,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    const browser = await launchBrowser();
    const metrics: BenchMetric[] = [];
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
      await context.addInitScript('window.__name = (f) => f');
      const page = await context.newPage();
      await page.goto(app.url);
      await page.locator('nav button[data-pane="graph"]').click();
      await page.getByTestId('open-saved').waitFor();

      // ── Open the saved graph; the layout runs in the worker ──
      const status = page.getByTestId('graph-status');
      const opened = Date.now();
      await page.getByTestId('open-saved').selectOption({ label: `Bench graph (${papers.toLocaleString('en')})` });
      await status.and(page.locator('[data-layout-running="true"]')).waitFor({ timeout: 60_000 });
      const shownAt = Date.now() - opened;
      await status.and(page.locator('[data-layout-running="false"]')).waitFor({ timeout: 120_000 });
      const wall = Date.now() - opened;
      const workerMs = Number(await status.getAttribute('data-layout-ms'));
      const iterations = Number(await status.getAttribute('data-layout-iterations'));
      const text = (await status.textContent()) ?? '';
      log(
        `opened: ${text.trim()}; drawn after ${shownAt} ms, layout finished ${wall} ms after the click, worker computed ${workerMs} ms for ${iterations} ForceAtlas2 iterations`,
      );
      metrics.push(
        {
          metric: `layout of ${papers.toLocaleString('en')} papers and ${links.toLocaleString('en')} links (worker, ForceAtlas2)`,
          value: workerMs / 1000,
          unit: 's',
          target: '≤ 5 s',
          pass: workerMs <= 5000,
          note: `${iterations} iterations, Barnes-Hut; the UI stays responsive meanwhile`,
        },
        {
          metric: 'open a saved graph → drawn, then → laid out (wall)',
          value: wall / 1000,
          unit: 's',
          note: `first drawn after ${(shownAt / 1000).toFixed(1)} s (read from the library, sent to the renderer, added to the view)`,
        },
      );

      // ── Pan and zoom ──
      const box = (await page.getByTestId('graph-canvas').boundingBox())!;
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      const ms = quick ? 1500 : 4000;
      for (const gesture of ['pan', 'zoom'] as const) {
        const marks = { start: `bench:${gesture}:start`, end: `bench:${gesture}:end` };
        const trace = await traceFrames(context, page, marks, async () => {
          await page.evaluate((m) => performance.mark(m), marks.start);
          const until = Date.now() + ms;
          if (gesture === 'pan') {
            await page.mouse.move(cx, cy);
            await page.mouse.down();
            let a = 0;
            while (Date.now() < until) {
              a += 0.15;
              await page.mouse.move(cx + Math.cos(a) * 200, cy + Math.sin(a) * 150);
            }
            await page.mouse.up();
          } else {
            await page.mouse.move(cx, cy);
            let i = 0;
            while (Date.now() < until) {
              await page.mouse.wheel(0, i++ % 20 < 10 ? -120 : 120);
              await page.waitForTimeout(16);
            }
          }
          await page.evaluate((m) => performance.mark(m), marks.end);
        });
        log(
          `${gesture}: ${trace.framesDrawn} frames drawn of ${trace.framesOffered} offered in ${trace.windowMs.toFixed(0)} ms = ${trace.fps.toFixed(1)} fps; frame interval p50 ${trace.frameIntervalP50.toFixed(1)} / p95 ${trace.frameIntervalP95.toFixed(1)} ms; main thread per frame ${trace.mainCpuPerFrame.toFixed(1)} ms CPU (${splitText(trace.split)})`,
        );
        metrics.push({
          metric: `${gesture === 'pan' ? 'panning (mouse drag)' : 'zooming (mouse wheel)'} the ${papers.toLocaleString('en')}-paper graph, frames drawn`,
          value: trace.fps,
          unit: 'fps',
          target: '≥ 30 fps',
          pass: trace.fps >= 30,
          note: `DrawFrame events in a Chromium trace, ${trace.framesDrawn} in ${(trace.windowMs / 1000).toFixed(1)} s; frame interval p95 ${trace.frameIntervalP95.toFixed(1)} ms; software WebGL (--disable-gpu)`,
        });
      }

      // ── Paging through more than 3,000 statements ──
      await page.getByRole('button', { name: 'New graph' }).click();
      await page.getByRole('textbox', { name: 'DOIs to start from' }).fill(landmark.doi);
      await page.getByRole('button', { name: 'From DOIs' }).click();
      await page.getByTestId('expand-citing').waitFor();
      const marks = { start: 'bench:paging:start', end: 'bench:paging:end' };
      const progress = page.getByTestId('citing-progress');
      const paging = await longestTask(context, page, marks, async () => {
        await page.evaluate((m) => performance.mark(m), marks.start);
        await page.getByTestId('expand-citing').click();
        await progress.waitFor();
        await page.getByRole('button', { name: 'Load all' }).click();
        await progress
          .getByText(
            `${landmark.n.toLocaleString('en')} of ${landmark.n.toLocaleString('en')} citation statements loaded`,
          )
          .waitFor({ timeout: 120_000 });
        await page.evaluate((m) => performance.mark(m), marks.end);
      });
      const pages = Math.ceil(landmark.n / 1000);
      log(
        `paging: ${landmark.n} statements in ${pages} pages in ${paging.windowMs.toFixed(0)} ms; longest main-thread task ${paging.longest.toFixed(1)} ms (${paging.longestOwn.toFixed(1)} ms without commits; longest commit ${paging.longestCommit.toFixed(0)} ms); ${paging.over50} tasks over 50 ms; ${(await status.textContent())?.trim()}`,
      );
      metrics.push({
        metric: `expanding a paper with ${landmark.n.toLocaleString('en')} citation statements, every page: longest main-thread task`,
        value: paging.longest,
        unit: 'ms',
        target: '≤ 100 ms',
        pass: paging.longest <= 100,
        note: `${pages} pages of 1,000 in ${(paging.windowMs / 1000).toFixed(1)} s against the local service; ${paging.over50} tasks over 50 ms; the longest compositor commit (software WebGL read-back) ${paging.longestCommit.toFixed(0)} ms`,
      });
      metrics.push({
        metric: 'the same, longest main-thread task without the compositor commits (the page’s own work)',
        value: paging.longestOwn,
        unit: 'ms',
        target: '≤ 100 ms',
        pass: paging.longestOwn <= 100,
        note: 'script, style and layout of each page: merging it, filters, rankings, the side lists, the view processing it',
      });
      await context.close();
    } finally {
      await browser.close();
      await app.stop();
      await service.close();
    }
    return metrics;
  },
};

export default bench;
