// Settings → PDFs, "copy into the library folder / link to the file where it is", through a real core
// (library worker, PDF worker, settings) in plain Node: Add → PDFs… in the desktop app (the open
// dialog is the DesktopShell's, here one that answers with the test's paths) and the watched folder.
// The service is unreachable: a PDF with a DOI becomes a placeholder, one with only a title waits as
// pending (and so is listed in Needs review), which is all these tests need of identification.
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core';
import type { DesktopShell, OpenDialogOptions } from '../../../electron/core/desktop';
import { createInProcessApi } from '../../../electron/core/in-process';
import { LibraryClient } from '../../../electron/core/library/client';
import { capturePdfs } from '../../../electron/core/pdf/capture';
import { PdfReader } from '../../../electron/core/pdf/run-in-worker';
import { silentLogger } from '../../../electron/core/log';
import type { CitewiseApi, PdfAddOutcome, PdfSelection } from '../../../shared/ipc';
import type { Attachment } from '../../../shared/model/library';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A desktop shell whose open dialog answers with `chosen` (null: the user cancelled). */
function fakeDesktop(chosen: () => string[] | null): DesktopShell & { asked: OpenDialogOptions[] } {
  const asked: OpenDialogOptions[] = [];
  return {
    asked,
    chooseSaveFile: async () => null,
    chooseOpenFiles: async (options) => {
      asked.push(options);
      return chosen();
    },
    openPath: async () => '',
  };
}

async function open(
  desktop?: DesktopShell,
  pdfWatch?: object,
): Promise<{ api: CitewiseApi; dataDir: string; files: string }> {
  const dir = tempDir('citewise-link-');
  const dataDir = join(dir.path, 'data');
  const files = join(dir.path, 'papers');
  mkdirSync(files);
  const core = await createCore({
    dataDir,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: 'http://127.0.0.1:9',
    apiKey: 'k',
    service: { maxAttempts: 1 },
    desktop,
    ...(pdfWatch ? { watchFolder: true, pdfWatch } : {}),
  });
  cleanup.push(() => dir.remove());
  cleanup.push(() => core.close());
  return { api: createInProcessApi(core), dataDir, files };
}

async function ok<T>(
  p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>,
): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function attachmentOf(api: CitewiseApi, outcome: PdfAddOutcome): Promise<Attachment> {
  if (outcome.status !== 'added' && outcome.status !== 'attached')
    throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  const item = await ok(api.invoke('library.item.get', { id: outcome.itemId }));
  expect(item.attachments).toHaveLength(1);
  return item.attachments[0]!;
}

/** Every file under a folder (none when it does not exist). */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe(
  'Add → PDFs… in the desktop app: chosen by path, copied or linked as Settings → PDFs says',
  { timeout: 60_000 },
  () => {
    it('links where the files are: nothing copied, the checksum kept, the same file twice is one item, a file gone is missing with its name and place', async () => {
      const withDoi = await makePdf({ title: 'Linked paper with a DOI', xmpDoi: '10.1000/linked' });
      const titleOnly = await makePdf({ title: 'A linked preprint that names no identifier', byline: 'Ada Lovelace' });
      let a = '';
      let b = '';
      let again = '';
      // The same path chosen twice is one file to capture.
      const desktop = fakeDesktop(() => [a, b, again, a]);
      const { api, dataDir, files } = await open(desktop);
      a = join(files, 'lovelace 2024.pdf');
      b = join(files, 'preprint.pdf');
      again = join(files, 'copy of lovelace.pdf');
      writeFileSync(a, withDoi);
      writeFileSync(b, titleOnly);
      copyFileSync(a, again);
      expect(await ok(api.invoke('settings.update', { pdfStorage: 'link' }))).toMatchObject({ pdfStorage: 'link' });

      const chosen = (await ok(api.invoke('pdfs.choose', {})))!;
      expect(desktop.asked).toEqual([
        { title: 'Add PDFs', filters: [{ name: 'PDF documents', extensions: ['pdf'] }], multiple: true },
      ]);
      // The renderer learns the names, never the paths.
      expect(chosen.names).toEqual(['lovelace 2024.pdf', 'preprint.pdf', 'copy of lovelace.pdf']);
      expect(JSON.stringify(chosen)).not.toContain(files);
      const outcomes = [];
      for (const index of [0, 1, 2])
        outcomes.push(await ok(api.invoke('pdfs.addChosen', { selection: chosen.selection, index })));
      expect(outcomes.map((o) => [o.name, o.status])).toEqual([
        ['lovelace 2024.pdf', 'added'],
        ['preprint.pdf', 'added'],
        ['copy of lovelace.pdf', 'duplicate'],
      ]);
      expect(outcomes[2]).toMatchObject({
        reason: 'checksum',
        itemId: outcomes[0]!.status === 'added' ? outcomes[0]!.itemId : -1,
      });

      const linked = await attachmentOf(api, outcomes[0]!);
      expect(linked).toMatchObject({
        path: a,
        stored: 'linked',
        originalName: 'lovelace 2024.pdf',
        sha256: sha256(withDoi),
        size: withDoi.byteLength,
      });
      expect(await attachmentOf(api, outcomes[1]!)).toMatchObject({
        path: b,
        stored: 'linked',
        sha256: sha256(titleOnly),
      });
      expect(filesUnder(join(dataDir, 'attachments'))).toEqual([]);
      expect(readdirSync(files).sort()).toEqual(['copy of lovelace.pdf', 'lovelace 2024.pdf', 'preprint.pdf']);

      // Needs review lists the pending one by the file's name.
      const review = await ok(api.invoke('pdfs.review', {}));
      expect(review.map((r) => r.fileName)).toEqual(['preprint.pdf']);

      // The linked file is moved away: the details say missing, what and where; Open says the same.
      rmSync(a);
      const itemId = outcomes[0]!.status === 'added' ? outcomes[0]!.itemId : -1;
      const [check] = await ok(api.invoke('library.attachments.check', { itemId }));
      expect(check).toEqual({
        id: linked.id,
        state: 'missing',
        message: `The linked file lovelace 2024.pdf is no longer at ${a} (moved, renamed or deleted?). Attach it again from where it is now.`,
      });
      const opened = await api.invoke('library.attachments.open', { itemId, id: linked.id });
      expect(opened).toEqual({
        ok: false,
        error: expect.objectContaining({ code: 'NOT_FOUND', message: check!.message }),
      });
      // The item and its checksum stay: the copy that is still there is the same file, not a new item.
      const third = (await ok(api.invoke('pdfs.choose', {})))!;
      expect(await ok(api.invoke('pdfs.addChosen', { selection: third.selection, index: 2 }))).toMatchObject({
        status: 'duplicate',
        reason: 'checksum',
        itemId,
      });
    });

    it('copies by default: into the library folder under the checksum, the file left where it was, its name kept for Needs review and a missing copy', async () => {
      const titleOnly = await makePdf({ title: 'A copied preprint that names no identifier', byline: 'Grace Hopper' });
      let file = '';
      const { api, dataDir, files } = await open(fakeDesktop(() => [file]));
      file = join(files, 'hopper-draft.pdf');
      writeFileSync(file, titleOnly);
      expect((await ok(api.invoke('settings.get', {}))).pdfStorage).toBe('copy');

      const chosen = (await ok(api.invoke('pdfs.choose', {})))!;
      const outcome = await ok(api.invoke('pdfs.addChosen', { selection: chosen.selection, index: 0 }));
      const sum = sha256(titleOnly);
      const copy = await attachmentOf(api, outcome);
      expect(copy).toMatchObject({
        path: join(dataDir, 'attachments', sum.slice(0, 2), `${sum}.pdf`),
        stored: 'copied',
        originalName: 'hopper-draft.pdf',
        sha256: sum,
      });
      expect(existsSync(file)).toBe(true);
      expect((await ok(api.invoke('pdfs.review', {}))).map((r) => r.fileName)).toEqual(['hopper-draft.pdf']);

      rmSync(copy.path);
      const itemId = outcome.status === 'added' ? outcome.itemId : -1;
      expect(await ok(api.invoke('library.attachments.check', { itemId }))).toEqual([
        {
          id: copy.id,
          state: 'missing',
          message: `The copy of hopper-draft.pdf that Citewise kept is no longer at ${copy.path} (deleted from the library folder?). Add the PDF again to restore it.`,
        },
      ]);
    });

    it('without a desktop (browser mode) there is no dialog to open; a cancelled dialog chooses nothing; an unknown selection is refused', async () => {
      const browser = await open();
      // The setting is checked in the core, like the others.
      expect(await browser.api.invoke('settings.update', { pdfStorage: 'move' } as never)).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining('must be "copy" (into the library folder) or "link"'),
        }),
      });
      expect(await browser.api.invoke('pdfs.choose', {})).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining('in the browser, Add → PDFs… uploads them'),
        }),
      });

      const desktop = await open(fakeDesktop(() => null));
      expect(await ok<PdfSelection | null>(desktop.api.invoke('pdfs.choose', {}))).toBeNull();
      expect(await desktop.api.invoke('pdfs.addChosen', { selection: 'not-a-selection', index: 0 })).toEqual({
        ok: false,
        error: expect.objectContaining({ code: 'NOT_FOUND', message: expect.stringContaining('choose them again') }),
      });
    });
  },
);

describe('the watched folder honours Settings → PDFs', { timeout: 60_000 }, () => {
  it('links a PDF that appears in the folder where it is when the setting says link', async () => {
    const { api, dataDir, files } = await open(undefined, { stableMs: 300, pollMs: 50, rescanMs: 300 });
    await ok(api.invoke('settings.update', { pdfStorage: 'link', watchFolder: files }));
    const bytes = await makePdf({ title: 'Watched and linked', xmpDoi: '10.1000/watched-linked' });
    const file = join(files, 'watched.pdf');
    writeFileSync(file, bytes);
    const end = Date.now() + 30_000;
    let captured: number | null = null;
    while (captured === null && Date.now() < end) {
      captured = (await ok(api.invoke('pdfWatch.status', {}))).lastCaptured?.itemId ?? null;
      if (captured === null) await new Promise((r) => setTimeout(r, 50));
    }
    expect(captured).not.toBeNull();
    const item = await ok(api.invoke('library.item.get', { id: captured! }));
    expect(item.attachments).toEqual([
      expect.objectContaining({ path: file, stored: 'linked', originalName: 'watched.pdf', sha256: sha256(bytes) }),
    ]);
    expect(filesUnder(join(dataDir, 'attachments'))).toEqual([]);
  });
});

describe('a copy is the file that was hashed', { timeout: 60_000 }, () => {
  it('keeps the copy of an unchanged file, and refuses one that changed while it was read, leaving nothing behind', async () => {
    const dir = tempDir('citewise-copy-check-');
    cleanup.push(() => dir.remove());
    const lib = await LibraryClient.start({ file: join(dir.path, 'lib.sqlite') });
    cleanup.push(() => lib.close());
    // A reader that, for one file, stands for a program still writing it while Citewise reads it.
    let touch: string | null = null;
    class TouchingReader extends PdfReader {
      override read(...args: Parameters<PdfReader['read']>) {
        if (touch) appendFileSync(touch, '\n% more bytes\n');
        return super.read(...args);
      }
    }
    const reader = new TouchingReader({ timeLimitMs: 30_000 });
    cleanup.push(() => reader.close());
    const storeDir = join(dir.path, 'store');
    const steady = join(dir.path, 'steady.pdf');
    const growing = join(dir.path, 'growing.pdf');
    writeFileSync(steady, await makePdf({ title: 'A file nobody touches', xmpDoi: '10.1000/steady' }));
    writeFileSync(growing, await makePdf({ title: 'A file still being written', xmpDoi: '10.1000/growing' }));

    const [kept] = await capturePdfs([steady], { library: lib, service: null, reader }, { mode: 'copy', storeDir });
    expect(kept).toMatchObject({ status: 'added' });
    expect(filesUnder(storeDir)).toHaveLength(1);

    touch = growing;
    const [refused] = await capturePdfs([growing], { library: lib, service: null, reader }, { mode: 'copy', storeDir });
    expect(refused).toEqual({
      file: growing,
      status: 'failed',
      code: 'INVALID_INPUT',
      message: 'growing.pdf was not added: it changed while it was being added; add it again once it is complete.',
    });
    expect(filesUnder(storeDir)).toHaveLength(1);
    expect(await lib.listing.list({ limit: 10 })).toMatchObject({
      rows: [expect.objectContaining({ title: 'A file nobody touches' })],
    });
  });
});
