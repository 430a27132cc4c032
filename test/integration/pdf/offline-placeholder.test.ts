// A PDF whose DOI was found while the service could not be reached: it is added at once, titled from
// its first page (or its file name) rather than "(untitled)", that title marked provisional, and
// completed from the service by itself once the service answers again (the core's probe brings it
// back online, and coming back online resumes the queued enrichment).
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import type { PdfAddOutcome, PdfReviewEntry } from '../../../shared/ipc';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { serviceProxy } from '../enrich/helpers';
import { service } from '../service-client/helpers';
import { quickProbeCore, until, value } from './offline-helpers';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a DOI found offline', () => {
  it('is titled from the PDF and waits, then is completed from the service when it is back', async () => {
    const svc = await service();
    cleanup.push(() => svc.close());
    const proxy = await serviceProxy(() => svc.url);
    cleanup.push(() => proxy.close());
    const dir = tempDir('citewise-offline-pdf-');
    cleanup.push(() => dir.remove());
    const { core, api } = await quickProbeCore(dir.path, proxy.url, svc.fullKey);
    cleanup.push(() => core.close());
    const row = svc.corpus.db.prepare('SELECT * FROM papers ORDER BY id LIMIT 1').get() as Parameters<
      typeof svc.corpus.paper
    >[0];
    const paper = svc.corpus.paper(row);

    proxy.offline = true;
    const withTitle = await makePdf({ title: 'What the first page says', pages: [[`doi:${paper.doi}`]] });
    const outcome = await value<PdfAddOutcome>(api, 'pdfs.add', {
      name: 'smith-2020.pdf',
      base64: Buffer.from(withTitle).toString('base64'),
    });
    expect(outcome).toMatchObject({
      status: 'added',
      state: 'identified',
      doi: paper.doi.toLowerCase(),
      title: 'What the first page says',
    });
    if (outcome.status !== 'added') throw new Error('not added');
    const waiting = await core.library.lib.getItem(outcome.itemId);
    expect(waiting.csl).toMatchObject({
      title: 'What the first page says',
      DOI: paper.doi.toLowerCase(),
      custom: { citewise: { pendingMetadata: true, provisional: ['title'] } },
    });
    const [listed] = (await core.library.listing.list({ limit: 10 })).rows;
    expect(listed).toMatchObject({
      id: outcome.itemId,
      title: 'What the first page says',
      evidence: { state: 'not-fetched' },
    });

    // Back online: nobody asks for anything; the probe notices, and the enrichment left queued runs.
    proxy.offline = false;
    await until(async () => (await core.library.lib.getItem(outcome.itemId)).csl.title === paper.title);
    const done = await core.library.lib.getItem(outcome.itemId);
    expect(done.csl.custom).toBeUndefined();
    expect(done.csl.author?.[0]?.family).toBe(paper.authors[0]?.family);
    expect(await value<PdfReviewEntry[]>(api, 'pdfs.review', {})).toEqual([]);
    expect((await core.library.listing.list({ limit: 10 })).rows[0]).toMatchObject({
      title: paper.title,
      evidence: { state: 'found' },
    });
  }, 90_000);

  it('without a title on its first page, the file name stands in', async () => {
    const dir = tempDir('citewise-offline-pdf-');
    cleanup.push(() => dir.remove());
    // Nothing listens on the discard port: the service cannot be asked at all.
    const core = await createCore({
      dataDir: dir.path,
      mode: 'test',
      logger: silentLogger,
      serviceUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      service: { maxAttempts: 1 },
    });
    cleanup.push(() => core.close());
    const api = createInProcessApi(core);
    const bytes = await makePdf({ xmpDoi: '10.5555/no-title.1', blankPages: 1 });
    const outcome = await value<PdfAddOutcome>(api, 'pdfs.add', {
      name: 'Jones 2019 survey.pdf',
      base64: Buffer.from(bytes).toString('base64'),
    });
    expect(outcome).toMatchObject({
      status: 'added',
      state: 'identified',
      doi: '10.5555/no-title.1',
      title: 'Jones 2019 survey',
    });
  }, 60_000);
});
