// The retraction watch against a private corpus of the local service whose notices change between two
// runs of the service (a paper is retracted), and rate limiting pausing a run.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Enricher } from '../../../electron/core/jobs/enrich';
import { RetractionWatch } from '../../../electron/core/jobs/retraction-watch';
import type { StatusChange } from '../../../electron/core/library/enrichment-store';
import { ServiceClient } from '../../../electron/core/service';
import { tempDir } from '../../helpers/tmp';
import { startService, type RunningService } from '../../service/server';
import { bareItems, fastClient, libraryDir } from './helpers';

const DAY = 24 * 60 * 60_000;
const CORPUS = { papers: 400, seed: 4242 };

let corpusDir: ReturnType<typeof tempDir>;
let svc: RunningService;
let dbPath: string;

beforeAll(async () => {
  corpusDir = tempDir('citewise-corpus-');
  dbPath = join(corpusDir.path, 'corpus.db');
  svc = await startService({ port: 0, ...CORPUS, dbPath });
});
afterAll(async () => {
  await svc?.close();
  corpusDir?.remove();
});

describe('retraction watch', () => {
  it('flags items with notices, and reports a status change once, when it happens', async () => {
    const flaggedRow = svc.corpus.db
      .prepare('SELECT id, doi, retracted, notice_flags FROM papers WHERE notice_flags <> 0 ORDER BY id LIMIT 1')
      .get() as { id: number; doi: string; notice_flags: number };
    const clean = svc.corpus.db
      .prepare('SELECT id, doi FROM papers WHERE notice_flags = 0 AND retracted = 0 ORDER BY id LIMIT 1')
      .get() as { id: number; doi: string };
    expect(flaggedRow).toBeDefined();
    const dir = libraryDir();
    let lib = await dir.open();
    let url = svc.url;
    const client = fastClient(() => url, null);
    try {
      const [flaggedId, cleanId] = (await lib.importItems(bareItems([flaggedRow.doi, clean.doi]))).ids as [
        number,
        number,
      ];
      let now = Date.UTC(2026, 0, 1);
      const enricher = new Enricher({ library: lib.enrichment, service: client, now: () => now });
      const watch = new RetractionWatch({ library: lib.enrichment, enricher });
      const heard: StatusChange[][] = [];
      const off = watch.onStatusChange((c) => heard.push(c));

      // First enrichment: the paper that already has notices is news; the clean one is not.
      const first = await enricher.enrich({ kind: 'library' });
      expect(first.outcome!.changes.map((c) => [c.doi, c.previous, c.current])).toEqual([
        [flaggedRow.doi, null, expect.not.stringMatching(/^none$/)],
      ]);
      expect(heard).toHaveLength(1);
      const flagged = await watch.flagged();
      expect(flagged.map((f) => f.id)).toEqual([flaggedId]);
      expect(flagged[0]!.notices.length).toBeGreaterThan(0);
      expect(await watch.markSeen()).toBe(1);
      expect(await watch.changes()).toEqual([]);

      // The service learns of a retraction (it is restarted on the changed corpus).
      await svc.close();
      const corpus = new Database(dbPath);
      corpus
        .prepare(
          "INSERT INTO notices (paper_id, status, date, notice_doi) VALUES (?, 'Retracted', '2026-01-05', '10.5555/retraction.notice.1')",
        )
        .run(clean.id);
      corpus.prepare('UPDATE papers SET retracted = 1, notice_flags = notice_flags | 8 WHERE id = ?').run(clean.id);
      corpus.close();
      svc = await startService({ port: 0, ...CORPUS, dbPath });
      url = svc.url;

      // Within a day the notices are fresh: a check asks nothing and finds nothing new.
      now += 2 * 60 * 60_000;
      const early = await watch.check();
      expect(early.refreshed).toBeNull();
      expect(early.changes).toEqual([]);

      now += 2 * DAY;
      const result = await watch.check();
      expect(result.refreshed!.run).toMatchObject({ total: 2, done: 2, reason: 'refresh' });
      expect(result.changes).toEqual([
        expect.objectContaining({
          doi: clean.doi,
          previous: 'none',
          current: 'retracted',
          items: [expect.objectContaining({ id: cleanId })],
        }),
      ]);
      expect(heard).toHaveLength(2);
      expect(heard[1]!.map((c) => c.doi)).toEqual([clean.doi]);
      expect((await watch.flagged())[0]).toMatchObject({ id: cleanId, status: 'retracted', notices: ['retracted'] });
      // Tallies were not stale: the check fetched papers (notices) only.
      expect((await lib.serviceCache.getTallies([clean.doi]))[clean.doi]).toMatchObject({
        fetchedAt: Date.UTC(2026, 0, 1),
      });

      // Told once: checking again (after the notices went stale again) records nothing new.
      now += 2 * DAY;
      const again = await watch.check();
      expect(again.refreshed!.run.done).toBe(2);
      expect(again.changes.map((c) => c.doi)).toEqual([clean.doi]);
      expect(heard).toHaveLength(2);
      expect(await watch.markSeen(again.changes.map((c) => c.id))).toBe(1);
      expect(await watch.changes()).toEqual([]);
      expect((await watch.changes({ unseenOnly: false })).map((c) => c.current)).toEqual([
        'retracted',
        expect.any(String),
      ]);

      // The status survives a restart, and the list shows the item as retracted.
      off();
      watch.dispose();
      await lib.close();
      lib = await dir.open();
      const row = (await lib.listing.list({ query: `doi:${clean.doi}` })).rows[0]!;
      expect(row.retracted).toBe(true);
      expect((await lib.enrichment.flaggedItems()).map((f) => f.id)).toContain(cleanId);
    } finally {
      client.close();
      await lib.close();
      dir.remove();
    }
  });

  it('pauses a run when the service rate-limits it, keeping its DOIs queued', async () => {
    const limited = await startService({ port: 0, ...CORPUS, dbPath, faults: { rates: { '429': 1 } } });
    const dir = libraryDir();
    const lib = await dir.open();
    const client = new ServiceClient({
      baseUrl: () => limited.url,
      getKey: async () => null,
      maxAttempts: 1,
      maxRetryAfterMs: 0,
    });
    try {
      const dois = (
        limited.corpus.db.prepare('SELECT doi FROM papers ORDER BY id LIMIT 30').all() as { doi: string }[]
      ).map((r) => r.doi);
      await lib.importItems(bareItems(dois));
      const { outcome } = await new Enricher({ library: lib.enrichment, service: client }).enrich({ kind: 'library' });
      expect(outcome!.paused?.code).toBe('RATE_LIMITED');
      expect(outcome!.run).toMatchObject({ state: 'paused', done: 0, remaining: 30, failed: 0 });
      expect(outcome!.run.message).toMatch(/wait/);
    } finally {
      client.close();
      await lib.close();
      dir.remove();
      await limited.close();
    }
  });
});
