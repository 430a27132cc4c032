// The app (a core in browser mode) looks up the PDFs captured offline that wait for their title
// search 30 s after it starts and then hourly, on the core's clock: a manual one here, moved to each
// side of each interval. Nothing else asks the service meanwhile (its probe is far off), so only the
// schedule can settle them.
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { FIRST_LOOK_MS, RETRY_EVERY_MS } from '../../../electron/core/pdf/pending-captures';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import type { PdfAddOutcome } from '../../../shared/ipc';
import { manualClock } from '../../helpers/manual-clock';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { serviceProxy } from '../enrich/helpers';
import { service } from '../service-client/helpers';
import { until, value } from './offline-helpers';
import { storedCaptures } from '../../helpers/captures';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe("the app's look for PDFs waiting for their title search", () => {
  it('comes 30 s after start, then every hour, and not a millisecond sooner', async () => {
    const svc = await service();
    cleanup.push(() => svc.close());
    const proxy = await serviceProxy(() => svc.url);
    cleanup.push(() => proxy.close());
    const dir = tempDir('citewise-pending-retry-');
    cleanup.push(() => dir.remove());
    const clock = manualClock();
    const core = await createCore({
      dataDir: dir.path,
      mode: 'browser',
      logger: silentLogger,
      serviceUrl: proxy.url,
      apiKey: svc.fullKey,
      secrets: createMemorySecretStore(),
      watchFolder: false,
      backupIntervalMs: 0,
      clock,
      service: { maxAttempts: 1, breakerFailures: 100, probeAfterMs: 600_000, attemptTimeoutMs: 2000 },
    });
    cleanup.push(() => core.close());
    const api = createInProcessApi(core);
    const [one, two] = (
      svc.corpus.db.prepare('SELECT * FROM papers WHERE retracted = 0 ORDER BY id LIMIT 2').all() as Parameters<
        typeof svc.corpus.paper
      >[0][]
    ).map((r) => svc.corpus.paper(r));

    /** Captures a PDF of `paper` while the service cannot be reached; then the service is back. */
    const captureOffline = async (paper: typeof one, name: string): Promise<number> => {
      proxy.offline = true;
      const bytes = await makePdf({
        title: paper!.title,
        byline: `A. ${paper!.authors[0]?.family ?? 'Nobody'}`,
        pages: [['No identifier is printed on this paper.']],
      });
      const added = await value<PdfAddOutcome>(api, 'pdfs.add', {
        name,
        base64: Buffer.from(bytes).toString('base64'),
      });
      expect(added).toMatchObject({ status: 'added', state: 'pending' });
      proxy.offline = false;
      return (added as Extract<PdfAddOutcome, { status: 'added' | 'attached' }>).itemId;
    };
    const stateOf = async (itemId: number) => storedCaptures(core.info, itemId)[0]!.state;
    /** Still pending after the core had time to act on what the clock did. */
    const staysPending = async (itemId: number) => {
      await new Promise((r) => setTimeout(r, 800));
      expect(await stateOf(itemId)).toBe('pending');
      expect(core.jobs.list().filter((j) => j.kind === 'pdfs.pending')).toHaveLength(runs);
    };
    let runs = 0;

    // The first look 30 s after start, the next an hour after it: each side of each mark.
    for (const [paper, name, wait] of [
      [one, 'first.pdf', FIRST_LOOK_MS],
      [two, 'second.pdf', RETRY_EVERY_MS],
    ] as const) {
      const itemId = await captureOffline(paper, name);
      clock.advance(wait - 1);
      await staysPending(itemId);
      clock.advance(1);
      runs++;
      await until(async () => (await stateOf(itemId)) !== 'pending');
      expect(await stateOf(itemId), name).toBe('identified');
    }
    expect(
      core.jobs
        .list()
        .filter((j) => j.kind === 'pdfs.pending')
        .map((j) => j.state),
    ).toEqual(['done', 'done']);
  }, 120_000);
});
