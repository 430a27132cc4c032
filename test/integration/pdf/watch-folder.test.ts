// The watched folder end to end in plain Node: a real core (library worker, PDF worker, settings)
// watching a real temporary folder, with PDFs written by pdf-lib, some in chunks, some renamed from a
// partial download, some removed before they could be read; a restart; the folder taken away and
// brought back. The service is unreachable (nothing listens on the discard port): capture then keeps
// the DOI as a placeholder, which is enough to see what was captured.
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { isWatchedName } from '../../../electron/core/jobs/pdf-watch';
import { silentLogger } from '../../../electron/core/log';
import type { CitewiseApi, PdfWatchStatus } from '../../../shared/ipc';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const WATCH = { stableMs: 400, pollMs: 50, rescanMs: 300 };

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Opened {
  core: Core;
  api: CitewiseApi;
  statuses: PdfWatchStatus[];
  close(): Promise<void>;
}

async function open(dataDir: string): Promise<Opened> {
  const core = await createCore({
    dataDir,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: 'http://127.0.0.1:9',
    apiKey: 'k',
    service: { maxAttempts: 1 },
    pdfWatch: WATCH,
  });
  const api = createInProcessApi(core);
  const statuses: PdfWatchStatus[] = [];
  const off = api.on('pdfWatch.changed', (s) => statuses.push(s));
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    off();
    await core.close();
  };
  cleanup.push(close);
  return { core, api, statuses, close };
}

async function status(api: CitewiseApi): Promise<PdfWatchStatus> {
  const r = await api.invoke('pdfWatch.status', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function setFolder(api: CitewiseApi, folder: string | null) {
  return api.invoke('settings.update', { watchFolder: folder });
}

async function titles(core: Core): Promise<string[]> {
  const page = await core.library.listing.list({ limit: 100 });
  return page.rows.map((r) => r.title ?? '').sort();
}

function dirs() {
  const data = tempDir('citewise-watch-data-');
  const inbox = tempDir('citewise-watch-inbox-');
  cleanup.push(
    () => data.remove(),
    () => inbox.remove(),
  );
  return { data: data.path, inbox: inbox.path };
}

describe('file names the watcher takes', () => {
  it('visible .pdf files only, not partial downloads or hidden files', () => {
    expect(['a.pdf', 'B.PDF', 'with space.Pdf'].every(isWatchedName)).toBe(true);
    expect(
      [
        'a.pdf.crdownload',
        'a.pdf.part',
        'a.pdf.tmp',
        'a.pdf.download',
        '.a.pdf',
        '~$a.pdf',
        'a.txt',
        'a.pdfx',
        'pdf',
      ].some(isWatchedName),
    ).toBe(false);
  });
});

describe('the watched folder', () => {
  it('captures what is there when chosen, then what arrives; a restart adds nothing again', async () => {
    const { data, inbox } = dirs();
    writeFileSync(join(inbox, 'before.pdf'), await makePdf({ title: 'Already there', xmpDoi: '10.5555/watch.1' }));
    let app = await open(data);
    expect(await status(app.api)).toMatchObject({ folder: null, state: 'off' });
    expect(await setFolder(app.api, inbox)).toMatchObject({ ok: true, value: { watchFolder: inbox } });
    await until(async () => (await titles(app.core)).length === 1, 'the file already there');
    expect(await titles(app.core)).toEqual(['Already there']);

    writeFileSync(
      join(inbox, 'after.pdf'),
      await makePdf({ title: 'Dropped later', pages: [['no identifier on this one']] }),
    );
    await until(async () => (await titles(app.core)).length === 2, 'the new file');
    expect(await titles(app.core)).toEqual(['Already there', 'Dropped later']);
    await until(async () => (await status(app.api)).captured === 2, 'the count');
    expect(await status(app.api)).toMatchObject({
      folder: inbox,
      state: 'watching',
      captured: 2,
      failed: 0,
      waiting: 0,
      lastError: null,
      lastCaptured: { file: join(inbox, 'after.pdf') },
    });
    expect(app.statuses.at(-1)).toMatchObject({ captured: 2 });
    // Copied into the library folder (no attachment choice exists in the app: copy).
    const item = (await app.core.library.listing.list({ limit: 10 })).rows.find((r) => r.title === 'Dropped later')!;
    expect(
      (await app.core.library.lib.getItem(item.id)).attachments[0]!.path.startsWith(join(data, 'attachments')),
    ).toBe(true);
    await app.close();

    // Restart: the setting stands, both files are known, nothing is read again.
    app = await open(data);
    await until(async () => (await status(app.api)).state === 'watching', 'watching after the restart');
    await sleep(WATCH.stableMs * 3);
    expect(await status(app.api)).toMatchObject({ folder: inbox, captured: 2, waiting: 0 });
    expect(await app.core.library.listing.count()).toBe(2);
    const jobs = await app.api.invoke('jobs.list', {});
    expect(jobs.ok && jobs.value.filter((j) => j.kind === 'pdfs.add')).toEqual([]);

    // The same file under another name (a second download of it): recognised by its checksum, not captured again.
    copyFileSync(join(inbox, 'before.pdf'), join(inbox, 'before (1).pdf'));
    await sleep(WATCH.stableMs * 3);
    await until(async () => (await status(app.api)).waiting === 0, 'the copy to be looked at');
    expect(await app.core.library.listing.count()).toBe(2);
  }, 120_000);

  it('waits for a file written in chunks to be complete, and ignores partial downloads until renamed', async () => {
    const { data, inbox } = dirs();
    const app = await open(data);
    await setFolder(app.api, inbox);
    const bytes = await makePdf({
      title: 'Written slowly',
      pages: [['doi:10.5555/slow.7'], ['page two'], ['page three']],
    });
    const path = join(inbox, 'slow.pdf');
    const fd = openSync(path, 'w');
    const step = Math.ceil(bytes.byteLength / 5);
    for (let at = 0; at < bytes.byteLength; at += step) {
      writeSync(fd, bytes, at, Math.min(step, bytes.byteLength - at));
      // Each pause is shorter than stableMs: the file never holds still long enough while it grows.
      await sleep(WATCH.stableMs / 2);
      expect(await app.core.library.listing.count()).toBe(0);
    }
    closeSync(fd);
    await until(async () => (await app.core.library.listing.count()) === 1, 'the finished file');
    const [row] = (await app.core.library.listing.list({ limit: 10 })).rows;
    expect(row).toMatchObject({ title: 'Written slowly', doi: '10.5555/slow.7' });
    expect((await app.core.library.lib.getItem(row!.id)).attachments[0]!.size).toBe(bytes.byteLength);

    // A browser's partial download, hidden files and other files are left alone…
    const partial = join(inbox, 'download.pdf.crdownload');
    writeFileSync(partial, await makePdf({ title: 'Downloaded', xmpDoi: '10.5555/dl.1' }));
    writeFileSync(join(inbox, '.hidden.pdf'), await makePdf({ title: 'Hidden', xmpDoi: '10.5555/hidden.1' }));
    writeFileSync(join(inbox, 'notes.txt'), 'plain notes');
    mkdirSync(join(inbox, 'sub'));
    writeFileSync(join(inbox, 'sub', 'nested.pdf'), await makePdf({ title: 'Nested', xmpDoi: '10.5555/nested.1' }));
    await sleep(WATCH.stableMs * 3);
    expect(await app.core.library.listing.count()).toBe(1);
    // …until the download is done and renamed.
    renameSync(partial, join(inbox, 'download.pdf'));
    await until(async () => (await status(app.api)).captured === 2, 'the renamed download');
    expect(await titles(app.core)).toEqual(['Downloaded', 'Written slowly']);
    expect(await status(app.api)).toMatchObject({ captured: 2, failed: 0, lastError: null });
  }, 120_000);

  it('forgets a file removed before it was read, and reports a file that fails once, with why', async () => {
    const { data, inbox } = dirs();
    let app = await open(data);
    await setFolder(app.api, inbox);
    const gone = join(inbox, 'gone.pdf');
    writeFileSync(gone, await makePdf({ title: 'Gone', xmpDoi: '10.5555/gone.1' }));
    await sleep(WATCH.stableMs / 4);
    rmSync(gone);
    writeFileSync(join(inbox, 'broken.pdf'), 'This is not a PDF, whatever its name says.\n');
    await until(async () => (await status(app.api)).failed === 1, 'the broken file');
    await sleep(WATCH.stableMs * 3);
    const s = await status(app.api);
    expect(s).toMatchObject({
      captured: 0,
      failed: 1,
      waiting: 0,
      lastError: {
        file: join(inbox, 'broken.pdf'),
        message: 'broken.pdf was not added: it is not a PDF (it does not start with a PDF header).',
      },
    });
    expect(app.statuses.filter((x) => x.failed > 0).every((x) => x.failed === 1)).toBe(true);
    expect(await app.core.library.listing.count()).toBe(0);
    await app.close();
    // Not retried after a restart either, but still counted.
    app = await open(data);
    await until(async () => (await status(app.api)).state === 'watching', 'watching');
    await sleep(WATCH.stableMs * 3);
    expect(await status(app.api)).toMatchObject({ failed: 1, lastError: null });
    const jobs = await app.api.invoke('jobs.list', {});
    expect(jobs.ok && jobs.value.filter((j) => j.kind === 'pdfs.add')).toEqual([]);
  }, 120_000);

  it('says so when the folder disappears, and picks up again when it is back', async () => {
    const { data, inbox } = dirs();
    const app = await open(data);
    await setFolder(app.api, inbox);
    await until(async () => (await status(app.api)).state === 'watching', 'watching');
    rmSync(inbox, { recursive: true });
    await until(async () => (await status(app.api)).state === 'error', 'the folder to be missed');
    expect((await status(app.api)).lastError).toMatchObject({
      file: null,
      message: `The folder ${inbox} is not there any more (was it moved, deleted or unmounted?); watching resumes when it is back.`,
    });
    mkdirSync(inbox);
    writeFileSync(join(inbox, 'back.pdf'), await makePdf({ title: 'After the return', xmpDoi: '10.5555/back.1' }));
    await until(async () => (await status(app.api)).captured === 1, 'the file in the returned folder');
    expect(await status(app.api)).toMatchObject({ state: 'watching', captured: 1, lastError: null });
    // A file added later is seen too (the watcher listens to the new folder).
    writeFileSync(join(inbox, 'later.pdf'), await makePdf({ title: 'Later still', xmpDoi: '10.5555/back.2' }));
    await until(async () => (await app.core.library.listing.count()) === 2, 'the later file');
  }, 120_000);

  it('checks the folder when it is set, and stops when it is cleared', async () => {
    const { data, inbox } = dirs();
    const app = await open(data);
    const file = join(inbox, 'a-file.pdf');
    writeFileSync(file, 'x');
    expect(await setFolder(app.api, join(inbox, 'missing'))).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: `The folder ${join(inbox, 'missing')} does not exist.` },
    });
    expect(await setFolder(app.api, file)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: `${file} is a file, not a folder.` },
    });
    expect(await setFolder(app.api, 'papers/inbox')).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/must be a full path/) },
    });
    mkdirSync(join(data, 'attachments'), { recursive: true });
    expect(await setFolder(app.api, join(data, 'attachments'))).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/inside Citewise's own data folder/) },
    });
    if (process.getuid?.() !== 0) {
      const locked = join(inbox, 'locked');
      mkdirSync(locked, { mode: 0o000 });
      expect(await setFolder(app.api, locked)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(await status(app.api)).toMatchObject({ folder: null, state: 'off' });
    // Trailing separators and dots are normalised.
    expect(await setFolder(app.api, `${inbox}/./`)).toMatchObject({ ok: true, value: { watchFolder: inbox } });
    await until(async () => (await status(app.api)).state === 'watching', 'watching');
    expect(await setFolder(app.api, null)).toMatchObject({ ok: true, value: { watchFolder: null } });
    await until(async () => (await status(app.api)).state === 'off', 'off');
    writeFileSync(join(inbox, 'ignored.pdf'), await makePdf({ title: 'After clearing', xmpDoi: '10.5555/off.1' }));
    await sleep(WATCH.stableMs * 3);
    expect(await app.core.library.listing.count()).toBe(0);
    expect(statSync(inbox).isDirectory()).toBe(true);
  }, 60_000);
});
