// The AutoExporter against a real library in its worker: debounced change notifications, which
// definitions run, jobs and status events, errors.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/ipc';
import { CoreError } from '../../../electron/core/errors';
import { AutoExporter, type AutoExportStatusEvent } from '../../../electron/core/jobs/auto-export';
import { JobRegistry } from '../../../electron/core/jobs/registry';
import { manualClock } from '../../helpers/manual-clock';
import { LibraryClient } from '../../../electron/core/library/client';
import { tempDir } from '../../helpers/tmp';
import { article } from '../library/helpers/lib';

describe('AutoExporter', () => {
  let dir: ReturnType<typeof tempDir>;
  // The user's own folder: exports never go into the library's folder (its guard refuses that).
  let out: ReturnType<typeof tempDir>;
  let client: LibraryClient;
  let clock: ReturnType<typeof manualClock>;
  let jobs: JobRegistry;
  let jobLists: JobInfo[][];
  let events: AutoExportStatusEvent[];
  let exporter: AutoExporter;
  let ids: number[];

  beforeEach(async () => {
    dir = tempDir('citewise-autoexport-');
    out = tempDir('citewise-autoexport-out-');
    client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite') });
    ids = (await client.importItems(Array.from({ length: 8 }, (_, i) => article(`Title ${i}`, `Author${i}`, 2000 + i))))
      .ids;
    clock = manualClock();
    jobLists = [];
    jobs = new JobRegistry({ onChange: (l) => jobLists.push(l), throttleMs: 0 });
    events = [];
    exporter = new AutoExporter({
      library: client,
      jobs,
      clock,
      debounceMs: 1000,
      maxWaitMs: 5000,
      onStatus: (s) => events.push(s),
    });
  });
  afterEach(async () => {
    await exporter.close();
    await client.close();
    dir.remove();
    out.remove();
  });

  it('writes a new definition at once, as a job, and reports its status', async () => {
    const file = join(out.path, 'lib.bib');
    const def = await exporter.add({ path: file, format: 'bibtex' });
    expect(def.status).toBe('pending');
    await exporter.idle();
    expect(readFileSync(file, 'utf8').match(/^@article\{/gm)).toHaveLength(8);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      definition: { id: def.id, status: 'written', itemCount: 8 },
      run: { status: 'written', rendered: 8 },
    });
    expect(jobs.list()).toMatchObject([
      { kind: 'auto-export', label: 'Auto-export to lib.bib', state: 'done', done: 8, total: 8 },
    ]);
  });

  it('debounces a burst of changes into one run of each affected file', async () => {
    const col = await client.lib.createCollection('Reading');
    await client.lib.addToCollection(col, [ids[0]!, ids[1]!]);
    const quiet = new AutoExporter({
      library: client,
      jobs,
      clock,
      runOnChange: false,
      onStatus: (s) => events.push(s),
    });
    const all = await quiet.add({ path: join(out.path, 'all.bib'), format: 'bibtex' });
    const reading = await quiet.add({
      path: join(out.path, 'reading.json'),
      format: 'csljson',
      scope: { kind: 'collection', collectionId: col, subcollections: true },
    });
    await quiet.runNow(all.id);
    await quiet.runNow(reading.id);
    events.length = 0;

    for (const n of [5, 6]) {
      const item = await client.lib.getItem(ids[n]!);
      await client.lib.updateItem(ids[n]!, { ...item.csl, title: `Edited ${n}` });
      quiet.libraryChanged([ids[n]!]);
      clock.advance(500);
    }
    expect(events).toHaveLength(0);
    clock.advance(999);
    expect(events).toHaveLength(0);
    clock.advance(1);
    await quiet.idle();
    // Items 5 and 6 are not in "Reading": only the library-wide file ran, once, re-rendering two entries.
    expect(events.map((e) => [e.definition.id, e.run?.status, e.run?.rendered])).toEqual([[all.id, 'written', 2]]);
    expect(readFileSync(join(out.path, 'all.bib'), 'utf8')).toContain('Edited 6');

    // Trashing an item of the collection: both files drop it.
    events.length = 0;
    await client.lib.trashItems([ids[0]!]);
    quiet.libraryChanged([ids[0]!]);
    clock.advance(1000);
    await quiet.idle();
    expect(events.map((e) => [e.definition.id, e.run?.itemCount, e.run?.removed])).toEqual([
      [all.id, 7, 1],
      [reading.id, 1, 1],
    ]);
    expect(JSON.parse(readFileSync(join(out.path, 'reading.json'), 'utf8'))).toHaveLength(1);

    // A change without item ids (a collection moved) checks every file; nothing changed, nothing written.
    events.length = 0;
    quiet.libraryChanged();
    clock.advance(1000);
    await quiet.idle();
    expect(events.map((e) => e.run?.status)).toEqual(['unchanged', 'unchanged']);
    await quiet.close();
  });

  it('writes at the latest maxWait after the first change while changes keep coming', async () => {
    const def = await exporter.add({ path: join(out.path, 'busy.bib'), format: 'biblatex' });
    await exporter.idle();
    events.length = 0;
    // A change every 700 ms never leaves the 1 s of quiet a plain debounce waits for.
    for (let t = 0; t < 5600; t += 700) {
      exporter.libraryChanged([ids[2]!]);
      clock.advance(700);
    }
    await exporter.idle();
    expect(events.map((e) => e.definition.id)).toEqual([def.id]);
    expect(clock.pending()).toBe(0);
  });

  it('a failed run fails its job with the reason, and the status says what and where', async () => {
    const sub = join(out.path, 'gone');
    mkdirSync(sub);
    const file = join(sub, 'refs.ris');
    const def = await exporter.add({ path: file, format: 'ris' });
    await exporter.idle();
    const old = readFileSync(file, 'utf8');
    rmSync(sub, { recursive: true });
    const run = await exporter.runNow(def.id);
    expect(run).toMatchObject({ status: 'error', errorCode: 'NOT_FOUND' });
    expect(run.error).toContain(`the folder ${sub} does not exist`);
    expect(jobs.list().at(-1)).toMatchObject({ kind: 'auto-export', state: 'failed', message: run.error });
    expect(events.at(-1)).toMatchObject({ definition: { id: def.id, status: 'error', error: run.error } });
    expect((await exporter.list())[0]).toMatchObject({ status: 'error' });

    mkdirSync(sub);
    expect(await exporter.runNow(def.id)).toMatchObject({ status: 'written' });
    expect(readFileSync(file, 'utf8')).toBe(old);
    await expect(exporter.runNow(999)).rejects.toThrow(/no auto-export with id 999/);
  });

  it('force rewrites an unchanged file; update re-renders; remove keeps the file; disposed listeners hear nothing', async () => {
    const file = join(out.path, 'f.bib');
    const def = await exporter.add({ path: file, format: 'bibtex' });
    await exporter.idle();
    expect((await exporter.runNow(def.id)).status).toBe('unchanged');
    expect((await exporter.runNow(def.id, { force: true })).status).toBe('written');
    const heard: number[] = [];
    const dispose = exporter.onStatus((s) => heard.push(s.run?.rendered ?? -1));
    await exporter.update(def.id, { format: 'biblatex' });
    await exporter.idle();
    expect(heard).toEqual([8]);
    dispose();
    await exporter.runNow(def.id, { force: true });
    expect(heard).toEqual([8]);
    await exporter.remove(def.id);
    expect(await exporter.list()).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });

  it('an unexpected failure fails the job, still sends a status (run null) and rejects runNow', async () => {
    const def = await exporter.add({ path: join(out.path, 'u.bib'), format: 'bibtex' });
    await exporter.idle();
    const autoExports = new Proxy(client.autoExports, {
      get: (target, method: keyof typeof client.autoExports) =>
        method === 'run'
          ? () => Promise.reject(new CoreError('INTERNAL', 'Auto-export to u.bib failed: exporter bug.'))
          : target[method],
    });
    const heard: AutoExportStatusEvent[] = [];
    const broken = new AutoExporter({ library: { autoExports }, jobs, clock, onStatus: (s) => heard.push(s) });
    await expect(broken.runNow(def.id)).rejects.toThrow('exporter bug');
    expect(heard).toMatchObject([{ definition: { id: def.id }, run: null }]);
    expect(jobs.list().at(-1)).toMatchObject({
      kind: 'auto-export',
      state: 'failed',
      message: 'Auto-export to u.bib failed: exporter bug.',
    });
    await broken.close();
  });

  it('close writes what pending changes affect; after close, changes are ignored and no timer is left', async () => {
    const file = join(out.path, 'c.bib');
    await exporter.add({ path: file, format: 'bibtex' });
    await exporter.idle();
    const item = await client.lib.getItem(ids[3]!);
    await client.lib.updateItem(ids[3]!, { ...item.csl, title: 'Edited just before quitting' });
    exporter.libraryChanged([ids[3]!]);
    await exporter.close();
    expect(readFileSync(file, 'utf8')).toContain('Edited just before quitting');
    exporter.libraryChanged([ids[0]!]);
    expect(clock.pending()).toBe(0);
  });
});
