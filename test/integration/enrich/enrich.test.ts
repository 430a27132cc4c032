// Enrichment against the local citation service and a real library (through its worker): what is
// filled and what is kept, what is cached, and how a run survives going offline, cancel and a crash.
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ENRICH_POLICY, Enricher } from '../../../electron/core/jobs/enrich';
import { JobRegistry } from '../../../electron/core/jobs/registry';
import type { LibraryClient } from '../../../electron/core/library/client';
import type { EnrichRun } from '../../../electron/core/library/enrichment-store';
import type { ServiceClient } from '../../../electron/core/service';
import type { CslItem } from '../../../shared/model/csl';
import { quoteTitle } from '../../../electron/core/library/undo-labels';
import { sampleDois, service } from '../service-client/helpers';
import { bareItems, fastClient, libraryDir, serviceProxy, type ServiceProxy, type TestLibraryDir } from './helpers';

const DAY = 24 * 60 * 60_000;

let svc: Awaited<ReturnType<typeof service>>;
let proxy: ServiceProxy;
let client: ServiceClient;
let dir: TestLibraryDir;
let lib: LibraryClient;

beforeAll(async () => {
  svc = await service();
  proxy = await serviceProxy(() => svc.url);
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});
beforeEach(async () => {
  proxy.bulk.length = 0;
  proxy.offline = false;
  proxy.delayMs = 0;
  client = fastClient(() => proxy.url, svc.fullKey);
  dir = libraryDir();
  lib = await dir.open();
});
afterEach(async () => {
  client.close();
  await lib.close();
  dir.remove();
});

async function importDois(dois: readonly string[], extra: CslItem[] = []): Promise<number[]> {
  const result = await lib.importItems([...bareItems(dois), ...extra]);
  return result.ids;
}

describe('enrichment', () => {
  it('fills missing fields, keeps the ones the user edited, and caches papers, tallies and notices', async () => {
    const [a, b] = sampleDois(svc, 2) as [string, string];
    const [idA, idB, idC] = await importDois([a, b], [{ id: 'no-doi', type: 'book', title: 'A book without DOI' }]);
    const before = await lib.lib.getItem(idA!);
    await lib.lib.updateItem(idA!, { ...before.csl, title: 'My own title' });
    expect(await lib.enrichment.editedFields(idA!)).toEqual(['title']);

    const enricher = new Enricher({ library: lib.enrichment, service: client });
    const heard: number[] = [];
    const off = enricher.onProgress((run) => heard.push(run.done));
    const { queued, outcome } = await enricher.enrich({ kind: 'library' });
    expect(queued.withoutDoi).toBe(1);
    expect(heard).toEqual([0, 2]);
    off();
    expect(outcome!.run).toMatchObject({ state: 'done', total: 2, done: 2, failed: 0, remaining: 0, filled: 2 });

    const paper = svc.corpus.paper(svc.corpus.paperByDoi(a)!);
    const itemA = await lib.lib.getItem(idA!);
    expect(itemA.title).toBe('My own title');
    expect(itemA.csl['container-title']).toBe(paper.journal);
    expect(itemA.csl.volume).toBe(paper.volume);
    expect(itemA.creatorsList.length).toBe(paper.authors.length);
    expect((await lib.lib.getItem(idB!)).title).toBe('Imported title 1');
    expect((await lib.lib.getItem(idC!)).csl).toEqual({
      id: 'no-doi',
      type: 'book',
      title: 'A book without DOI',
      'citation-key': expect.any(String),
    });
    // Zero counts are counts: every known DOI has a found tally, as the service reports it.
    const tallies = await lib.serviceCache.getTallies([a, b]);
    expect(tallies[a]).toMatchObject({
      state: 'found',
      supporting: paper.tally!.supporting,
      contrasting: paper.tally!.contradicting,
    });
    // The paper's notices are cached with it, as the service sent them (items and filters read the row).
    const notices = new Database(dir.file, { readonly: true });
    try {
      const row = notices.prepare('SELECT found, data FROM service_notices WHERE doi = ?').get(a) as {
        found: number;
        data: string;
      };
      expect(row.found).toBe(1);
      expect(JSON.parse(row.data)).toMatchObject(paper.editorialNotices);
    } finally {
      notices.close();
    }
    expect(await lib.serviceCache.getPaper(b)).toMatchObject({ state: 'found' });
    // Filling is not a user edit: no undo entry, no edit record.
    expect((await lib.lib.undoHistory()).undo.map((e) => e.label)).toEqual([
      `Edit title of ${quoteTitle(before.title!)}`,
    ]);
    expect(await lib.enrichment.editedFields(idB!)).toEqual([]);

    // The user removes a filled field; enriching again must not put it back.
    const filled = await lib.lib.getItem(idA!);
    const { volume, ...withoutVolume } = filled.csl;
    expect(volume).toBeTruthy();
    await lib.lib.updateItem(idA!, withoutVolume as CslItem);
    const again = await enricher.enrich({ kind: 'items', ids: [idA!] });
    expect(again.outcome!.run).toMatchObject({ state: 'done', done: 1, filled: 0 });
    expect(heard).toEqual([0, 2]);
    const after = await lib.lib.getItem(idA!);
    expect(after.csl.volume).toBeUndefined();
    expect(after.title).toBe('My own title');
  });

  it('reports DOIs the service does not know as unknown, not as zero tallies', async () => {
    const [a] = sampleDois(svc, 1) as [string];
    await importDois([a, '10.9999/not-in-the-corpus']);
    const enricher = new Enricher({ library: lib.enrichment, service: client });
    const { outcome } = await enricher.enrich({ kind: 'library' });
    expect(outcome!.run).toMatchObject({ state: 'done', done: 2 });
    const t = await lib.serviceCache.getTallies(['10.9999/not-in-the-corpus']);
    expect(t['10.9999/not-in-the-corpus']!.state).toBe('unknown');
    expect((await lib.serviceCache.getPaper('10.9999/not-in-the-corpus')).state).toBe('unknown');
  });

  it('pauses when the service goes offline mid-run and resumes without fetching finished DOIs again', async () => {
    const dois = sampleDois(svc, 1200);
    await importDois(dois);
    const enricher = new Enricher({ library: lib.enrichment, service: client });
    const seen: EnrichRun[] = [];
    const first = await enricher.enrich(
      { kind: 'library' },
      {
        onProgress: (run) => {
          seen.push(run);
          if (run.done >= 500) proxy.offline = true;
        },
      },
    );
    const paused = first.outcome!;
    expect(paused.paused?.code).toBe('OFFLINE');
    expect(paused.run).toMatchObject({ state: 'paused', total: 1200, done: 500, remaining: 700 });
    expect(paused.run.message).toMatch(/^Paused: /);
    // Start, the first batch stored in slices of 100 (one transaction each), then the pause: the failed
    // batch changed no count, so it is not reported as progress.
    expect(seen.map((r) => r.done)).toEqual([0, 100, 200, 300, 400, 500, 500]);
    expect(seen.at(-1)!.state).toBe('paused');
    expect(await lib.enrichment.openRuns()).toHaveLength(1);

    proxy.offline = false;
    const resumed = await enricher.resume();
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.run).toMatchObject({ id: paused.run.id, state: 'done', done: 1200, remaining: 0 });
    for (const path of ['/papers', '/tallies'] as const) {
      const counts = proxy.counts(path);
      expect(counts.size).toBe(1200);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    }
    expect(Object.values(await lib.serviceCache.getTallies(dois)).every((t) => t.state === 'found')).toBe(true);
    expect(await lib.enrichment.openRuns()).toEqual([]);
  });

  it('runs as a job with progress counts; cancelling drops the rest of the run and keeps what was stored', async () => {
    const dois = sampleDois(svc, 600);
    await importDois(dois);
    const snapshots: { done: number; total: number | null; state: string }[] = [];
    const jobs = new JobRegistry({
      onChange: (list) => snapshots.push(...list.map((j) => ({ done: j.done, total: j.total, state: j.state }))),
      throttleMs: 0,
    });
    const enricher = new Enricher({ library: lib.enrichment, service: client, jobs, policy: { batchSize: 100 } });
    let jobId = '';
    const off = enricher.onProgress((run) => {
      if (run.done >= 200 && run.state === 'running') jobs.cancel(jobId);
    });
    const started = await enricher.startJob({ kind: 'library' }, { label: 'Enrich the test library' });
    jobId = started.jobId!;
    const outcome = (await started.done)!;
    off();
    expect(outcome.run).toMatchObject({ state: 'cancelled', total: 600, done: 200, remaining: 0 });
    expect(jobs.list()[0]).toMatchObject({ kind: 'enrich', label: 'Enrich the test library', state: 'cancelled' });
    expect(snapshots.some((s) => s.state === 'running' && s.done === 100 && s.total === 600)).toBe(true);
    const states = Object.values(await lib.serviceCache.getTallies(dois)).map((t) => t.state);
    expect(states.filter((s) => s === 'found')).toHaveLength(200);
    expect(proxy.counts('/papers').size).toBe(200);
    expect(await lib.enrichment.openRuns()).toEqual([]);
  });

  it('continues after a crash: a new Enricher on the reopened library finishes the run without refetching', async () => {
    const dois = sampleDois(svc, 1100);
    await importDois(dois);
    const crashing = new Enricher({ library: lib.enrichment, service: client });
    // The library worker stops between two batches, as it does when the app is killed.
    const died = crashing.enrich({ kind: 'library' }, { onProgress: (run) => void (run.done >= 500 && lib.close()) });
    await expect(died).rejects.toThrow(/closed|stopped/);
    lib = await dir.open();
    const [open] = await lib.enrichment.openRuns();
    expect(open).toMatchObject({ state: 'running', total: 1100, done: 500, remaining: 600 });

    const fresh = new Enricher({ library: lib.enrichment, service: client });
    const [outcome] = await fresh.resume();
    expect(outcome!.run).toMatchObject({ id: open!.id, state: 'done', done: 1100 });
    expect([...proxy.counts('/papers').values()].every((n) => n === 1)).toBe(true);
    expect(proxy.counts('/papers').size).toBe(1100);
  });

  it('a progress or status listener that throws is reported, and the run still finishes', async () => {
    const dois = sampleDois(svc, 300);
    await importDois(dois);
    const reported: unknown[] = [];
    const enricher = new Enricher({
      library: lib.enrichment,
      service: client,
      policy: { batchSize: 100 },
      report: (err) => reported.push(err),
    });
    const heard: number[] = [];
    enricher.onProgress(() => {
      throw new Error('a closed window');
    });
    enricher.onProgress((run) => heard.push(run.done));
    enricher.onStatusChange(() => {
      throw new Error('a closed window');
    });
    const { outcome } = await enricher.enrich({ kind: 'library' });
    expect(outcome?.run).toMatchObject({ state: 'done', done: 300, failed: 0 });
    expect(heard.at(-1)).toBe(300);
    expect(reported.length).toBeGreaterThanOrEqual(heard.length);
    expect(reported.every((e) => (e as Error).message === 'a closed window')).toBe(true);
  });

  it('a job whose library closes mid-run fails in the job list, not as an unhandled rejection', async () => {
    const dois = sampleDois(svc, 600);
    await importDois(dois);
    const jobs = new JobRegistry({ onChange: () => {}, throttleMs: 0 });
    const enricher = new Enricher({ library: lib.enrichment, service: client, jobs, policy: { batchSize: 100 } });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const off = enricher.onProgress((run) => void (run.done >= 200 && lib.close()));
      // As the core's onAdded does: start the job and drop `done`.
      const started = await enricher.startJob({ kind: 'library' }, { reason: 'import' });
      await vi.waitFor(() => expect(jobs.list()[0]?.state).toBe('failed'), { timeout: 10_000 });
      off();
      // Unhandled rejections are reported after the microtask queue drains.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(jobs.list()[0]?.message).toMatch(/closed|stopped/);
      await expect(started.done).rejects.toThrow(/closed|stopped/);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      lib = await dir.open();
    }
  });

  it('closing the Enricher mid-run leaves the run queued for the next start', async () => {
    const dois = sampleDois(svc, 300);
    await importDois(dois);
    const enricher = new Enricher({ library: lib.enrichment, service: client, policy: { batchSize: 100 } });
    let closing: Promise<void> | null = null;
    const run = enricher.enrich(
      { kind: 'library' },
      { onProgress: (r) => void (r.done === 100 && (closing ??= enricher.close())) },
    );
    const { outcome } = await run;
    await closing;
    expect(outcome!.run).toMatchObject({ state: 'paused', done: 100, remaining: 200 });
    const next = new Enricher({ library: lib.enrichment, service: client });
    expect((await next.resume())[0]!.run).toMatchObject({ state: 'done', done: 300 });
  });

  it('refreshes in the background: unfinished runs first, then one bounded batch of stale data, until stopped', async () => {
    const dois = sampleDois(svc, 12);
    await importDois(dois);
    let now = Date.UTC(2026, 0, 1);
    const enricher = new Enricher({
      library: lib.enrichment,
      service: client,
      now: () => now,
      policy: { refreshLimit: 5 },
    });
    // An interrupted run (offline), and nothing else fetched yet.
    proxy.offline = true;
    const { outcome } = await enricher.enrich({ kind: 'items', ids: [1, 2] });
    expect(outcome!.run.state).toBe('paused');
    proxy.offline = false;
    const finished: EnrichRun[] = [];
    enricher.onProgress((run) => run.state !== 'running' && finished.push(run));
    const stop = enricher.startBackground({ initialDelayMs: 1, intervalMs: 20 });
    await vi.waitFor(
      () => expect(finished.filter((r) => r.reason === 'refresh' && r.state === 'done')).toHaveLength(2),
      { timeout: 10_000 },
    );
    stop();
    const runs = finished.filter((r) => r.state === 'done');
    // The paused run went first; then never-fetched DOIs, at most five per tick.
    expect(runs[0]).toMatchObject({ id: outcome!.run.id, reason: 'demand', done: 2 });
    expect(runs.slice(1, 3).map((r) => r.total)).toEqual([5, 5]);
    const ticks = finished.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(finished.length).toBe(ticks);
    // A day later only the notices are stale: the background asks for papers, never for tallies.
    proxy.bulk.length = 0;
    now += 2 * DAY;
    const again = enricher.startBackground({ initialDelayMs: 1, intervalMs: 60_000 });
    await vi.waitFor(() => expect(proxy.bulk.length).toBeGreaterThan(0), { timeout: 10_000 });
    again();
    await enricher.close();
    expect(proxy.bulk.every((r) => r.path === '/papers')).toBe(true);
  });

  it('pauses when the key is refused, and the key reaches neither the library file nor the run message', async () => {
    const dois = sampleDois(svc, 5);
    await importDois(dois);
    const secret = 'citewise-test-secret-key-5f1e0c';
    const refused = fastClient(() => proxy.url, secret);
    try {
      const { outcome } = await new Enricher({ library: lib.enrichment, service: refused }).enrich({ kind: 'library' });
      expect(outcome!.paused?.code).toBe('UNAUTHORIZED');
      expect(outcome!.run).toMatchObject({ state: 'paused', remaining: 5 });
      expect(JSON.stringify(outcome)).not.toContain(secret);
    } finally {
      refused.close();
    }
    await lib.close();
    for (const suffix of ['', '-wal']) {
      const path = dir.file + suffix;
      if (existsSync(path)) expect(readFileSync(path).includes(secret)).toBe(false);
    }
    lib = await dir.open();
    expect((await lib.enrichment.openRuns())[0]!.message).toMatch(/^Paused: /);
  });

  it('refreshes only what is stale, oldest first and bounded, and nothing when all is fresh', async () => {
    const dois = sampleDois(svc, 20);
    const ids = await importDois(dois);
    let now = Date.UTC(2026, 0, 1);
    const enricher = new Enricher({ library: lib.enrichment, service: client, now: () => now });
    await enricher.enrich({ kind: 'library' });
    proxy.bulk.length = 0;
    expect(await enricher.refreshStale()).toBeNull();
    expect(proxy.bulk).toEqual([]);
    now += 3 * DAY;
    await enricher.enrich({ kind: 'items', ids: ids.slice(10) });
    proxy.bulk.length = 0;

    // Day 8: tallies of the first ten are past 7 days; notices of all twenty are past 1 day; metadata is fresh.
    now += 5 * DAY;
    expect(DEFAULT_ENRICH_POLICY.maxAge.tallies).toBe(7 * DAY);
    const bounded = await enricher.refreshStale({ limit: 5 });
    expect(bounded!.run).toMatchObject({ reason: 'refresh', total: 5, done: 5 });
    expect(proxy.bulk.map((r) => r.path).sort()).toEqual(['/papers', '/tallies']);
    expect(proxy.bulk.every((r) => r.dois.every((d) => dois.slice(0, 10).includes(d)))).toBe(true);
    proxy.bulk.length = 0;
    const rest = await enricher.refreshStale();
    expect(rest!.run.total).toBe(15);
    expect(proxy.counts('/tallies').size).toBe(5);
    expect(proxy.counts('/papers').size).toBe(15);
    for (const d of dois.slice(10)) expect(proxy.counts('/tallies').has(d)).toBe(false);
    expect(await enricher.refreshStale()).toBeNull();
  });
});
