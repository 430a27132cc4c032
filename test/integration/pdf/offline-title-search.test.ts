// A PDF with no DOI or arXiv id, captured while the service could not be reached, waits as "pending"
// for the third step of identification (its first page's title and byline through the paper search).
// When the service answers again (the core's probe brings it back online, nobody asks for anything),
// the search runs and the capture ends exactly as an online capture of the same PDF does (in the
// same service, in another library): identified with the service's record, or in Needs review with
// the same evidence. What the user changed on the item meanwhile stays as they left it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../electron/core';
import type { CitewiseApi, PdfAddOutcome } from '../../../shared/ipc';
import type { CslItem } from '../../../shared/model/csl';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { serviceProxy } from '../enrich/helpers';
import { service } from '../service-client/helpers';
import { quickProbeCore, until, value } from './offline-helpers';
import { storedCaptures } from '../../helpers/captures';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function add(
  api: CitewiseApi,
  name: string,
  bytes: Uint8Array,
): Promise<Extract<PdfAddOutcome, { status: 'added' | 'attached' }>> {
  const outcome = await value<PdfAddOutcome>(api, 'pdfs.add', { name, base64: Buffer.from(bytes).toString('base64') });
  if (outcome.status !== 'added') throw new Error(`${name} was not added: ${JSON.stringify(outcome)}`);
  return outcome;
}

async function startCore(url: string, key: string, dir: string): Promise<{ core: Core; api: CitewiseApi }> {
  const started = await quickProbeCore(dir, url, key);
  cleanup.push(() => started.core.close());
  return started;
}

/** What identification decided, without the library's ids and times. */
async function captured(core: Core, itemId: number) {
  const [c] = storedCaptures(core.info, itemId);
  if (!c) throw new Error(`item ${itemId} has no capture`);
  const { method, state, confidence, evidence, candidates } = c;
  return { method, state, confidence, evidence, candidates };
}

/** The item as the library keeps it, without its id (each library numbers its own). */
async function entry(core: Core, itemId: number) {
  const item = await core.library.lib.getItem(itemId);
  const { id: _id, ...csl } = item.csl as CslItem & { id: string };
  return { csl, citationKey: item.citationKey, doi: item.doi, tags: item.tags };
}

describe('a PDF without an identifier, captured offline', () => {
  it('is searched by its title when the service is back, and ends as an online capture would', async () => {
    const svc = await service();
    cleanup.push(() => svc.close());
    const proxy = await serviceProxy(() => svc.url);
    cleanup.push(() => proxy.close());
    const offlineDir = tempDir('citewise-pending-title-');
    cleanup.push(() => offlineDir.remove());
    const onlineDir = tempDir('citewise-pending-title-online-');
    cleanup.push(() => onlineDir.remove());
    const rows = svc.corpus.db.prepare('SELECT * FROM papers ORDER BY id LIMIT 2').all() as Parameters<
      typeof svc.corpus.paper
    >[0][];
    const [one, two] = rows.map((r) => svc.corpus.paper(r));
    const pdf = (p: typeof one) =>
      makePdf({
        title: p!.title,
        byline: `A. ${p!.authors[0]?.family ?? 'Nobody'}, B. Nobody`,
        pages: [['Introduction. No identifier is printed on this paper.']],
      });
    const files = {
      untouched: await pdf(one),
      edited: await pdf(two),
      nothing: await makePdf({
        title: 'Quixotic zephyr vellum marmalade',
        byline: 'Q. Nobody',
        pages: [['No identifier here either.']],
      }),
    };

    const { core, api } = await startCore(proxy.url, svc.fullKey, offlineDir.path);
    proxy.offline = true;
    const waiting = {
      untouched: await add(api, 'untouched.pdf', files.untouched),
      edited: await add(api, 'edited.pdf', files.edited),
      nothing: await add(api, 'nothing.pdf', files.nothing),
    };
    for (const w of Object.values(waiting)) expect(w).toMatchObject({ state: 'pending', method: 'none', doi: null });
    // Nothing happens while the service cannot be reached; a run then says why it did nothing.
    await new Promise((r) => setTimeout(r, 600));
    expect(await core.pendingCaptures.resume()).toEqual({ settled: 0, identified: 0, waiting: 3, failed: 0 });
    expect(core.jobs.list().filter((j) => j.kind === 'pdfs.pending')).toMatchObject([
      {
        state: 'failed',
        label: 'Looking up the titles of 3 PDFs captured offline',
        message: 'Waiting until the citation service can be reached: 3 of 3 PDFs keep waiting for their title search.',
      },
    ]);
    expect((await core.library.lib.unsettledCaptures()).map((c) => c.state)).toEqual(['pending', 'pending', 'pending']);
    expect((await core.library.listing.list({ limit: 10 })).rows.map((r) => r.waiting)).toEqual([
      { for: 'title-search', title: 'Quixotic zephyr vellum marmalade' },
      { for: 'title-search', title: two!.title },
      { for: 'title-search', title: one!.title },
    ]);

    // Meanwhile the user edits one of them: its title, a tag, a note.
    const before = await core.library.lib.getItem(waiting.edited.itemId);
    await value(api, 'library.item.update', {
      id: waiting.edited.itemId,
      csl: { ...before.csl, title: 'My own title for this one' },
    });
    await value(api, 'library.tags.add', { ids: [waiting.edited.itemId], tags: ['to-read'] });
    await value(api, 'library.notes.add', { itemId: waiting.edited.itemId, body: 'Read section 3 first.' });

    // Back online: the probe notices; the waiting title searches run, and the enrichment they start.
    proxy.offline = false;
    await until(async () => (await core.library.lib.unsettledCaptures()).every((c) => c.state !== 'pending'), 45_000);
    await until(async () => {
      const items = await Promise.all(
        [waiting.untouched, waiting.edited].map((w) => core.library.lib.getItem(w.itemId)),
      );
      return items.every((i) => i.csl.custom === undefined && i.evidence.state === 'found');
    }, 45_000);

    // The same PDFs captured online, in another library.
    const online = await startCore(svc.url, svc.fullKey, onlineDir.path);
    const direct = {
      untouched: await add(online.api, 'untouched.pdf', files.untouched),
      edited: await add(online.api, 'edited.pdf', files.edited),
      nothing: await add(online.api, 'nothing.pdf', files.nothing),
    };
    expect(direct.untouched).toMatchObject({
      state: 'identified',
      method: 'title-search',
      doi: one!.doi.toLowerCase(),
    });
    expect(direct.nothing).toMatchObject({ state: 'needs-review', method: 'none' });

    for (const k of ['untouched', 'edited', 'nothing'] as const) {
      expect(await captured(core, waiting[k].itemId), k).toEqual(await captured(online.core, direct[k].itemId));
    }
    // Identified: the entry an online capture makes (its metadata, key and tags from the service).
    expect(await entry(core, waiting.untouched.itemId)).toEqual(await entry(online.core, direct.untouched.itemId));
    // Not identified: the item stays as the page made it, in Needs review with the search's evidence.
    expect(await entry(core, waiting.nothing.itemId)).toEqual(await entry(online.core, direct.nothing.itemId));
    const review = await value<{ itemId: number; state: string; evidence: { detail?: string }[] }[]>(
      api,
      'pdfs.review',
      {},
    );
    expect(review).toMatchObject([
      {
        itemId: waiting.nothing.itemId,
        state: 'needs-review',
        evidence: [{ detail: 'the paper search found nothing' }],
      },
    ]);

    // Edited meanwhile: identified and filled, but the user's title, tag and note stand.
    const edited = await core.library.lib.getItem(waiting.edited.itemId);
    const reference = await online.core.library.lib.getItem(direct.edited.itemId);
    expect(edited.doi).toBe(two!.doi.toLowerCase());
    expect(edited.csl.title).toBe('My own title for this one');
    expect(edited.csl.author).toEqual(reference.csl.author);
    expect(edited.csl['container-title']).toEqual(reference.csl['container-title']);
    expect(edited.tags).toContain('to-read');
    expect(edited.notes.map((n) => n.text)).toEqual(['Read section 3 first.']);
    expect(
      core.jobs
        .list()
        .filter((j) => j.kind === 'pdfs.pending')
        .at(-1),
    ).toMatchObject({ state: 'done', done: 3, total: 3 });
    // The list no longer marks anything as waiting.
    expect((await core.library.listing.list({ limit: 10 })).rows.map((r) => r.waiting)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  }, 120_000);
});
