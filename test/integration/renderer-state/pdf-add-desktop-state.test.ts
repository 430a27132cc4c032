// Add → PDFs… in the desktop app, from the renderer's side (renderer/src/lib/state/pdf-add.svelte.ts)
// in Node against a real in-process core whose DesktopShell answers the open dialog with the test's
// paths: the flow sends no bytes (no pdfs.add), learns only names, and ends with the same summary an
// upload gives. A cancelled dialog leaves the flow idle.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import { bridgeIpc, type IpcMainLike } from '../../../electron/main/ipc-bridge';
import { createPreloadApi, type IpcRendererLike } from '../../../electron/preload/api';
import { PdfAddFlow } from '../../../renderer/src/lib/state/pdf-add.svelte';
import { AttachmentsState } from '../../../renderer/src/panes/library/details/attachments.svelte';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { coreForTests, offlineCore } from './helpers';

let chosen: string[] | null = null;
const calls: { channel: string; input: unknown }[] = [];
const env = coreForTests(() =>
  offlineCore('pdf-add-state', {
    desktop: { chooseSaveFile: async () => null, chooseOpenFiles: async () => chosen, openPath: async () => '' },
  }),
);
/** The in-process api, recording what the renderer sends. */
let api: CitewiseApi;
/** Where the user's PDFs are, outside the data folder. */
let dir: ReturnType<typeof tempDir>;

beforeAll(() => {
  dir = tempDir('citewise-pdf-add-files-');
  const inner = env.t.api;
  api = {
    invoke: ((channel: string, input: unknown) => {
      calls.push({ channel, input });
      return inner.invoke(channel as never, input as never);
    }) as CitewiseApi['invoke'],
    on: inner.on,
  };
});

afterAll(() => {
  dir?.remove();
});

describe('PdfAddFlow.choose (the desktop app)', { timeout: 60_000 }, () => {
  it('captures the chosen files by path, one request each, and sums them up as an upload would', async () => {
    const paper = join(dir.path, 'rosalind.pdf');
    const notes = join(dir.path, 'notes.pdf');
    writeFileSync(paper, await makePdf({ title: 'Photo 51 revisited', xmpDoi: '10.5555/state.1' }));
    writeFileSync(notes, 'not a PDF at all\n');
    chosen = [paper, notes];
    const flow = new PdfAddFlow(api);
    await flow.choose();
    const state = flow.state;
    expect(state.step).toBe('summary');
    if (state.step !== 'summary') return;
    expect(state.total).toBe(2);
    expect(state.outcomes.map((o) => [o.name, o.status])).toEqual([
      ['rosalind.pdf', 'added'],
      ['notes.pdf', 'failed'],
    ]);
    expect(calls.map((c) => c.channel)).toEqual(['pdfs.choose', 'pdfs.addChosen', 'pdfs.addChosen']);
    // What the renderer sent holds no path and no bytes.
    expect(JSON.stringify(calls)).not.toContain(dir.path);
    flow.close();

    // Opened from the details, the copy is named as the user knows it, not by its checksum.
    const added = state.outcomes[0]!;
    if (added.status !== 'added') throw new Error('not added');
    const item = await api.invoke('library.item.get', { id: added.itemId });
    if (!item.ok) throw new Error(item.error.message);
    const [copy] = item.value.attachments;
    expect(copy!.path).toMatch(/[0-9a-f]{64}\.pdf$/);
    const details = new AttachmentsState(api);
    await details.open(added.itemId, copy!.id, copy!.originalName ?? undefined);
    expect(details.notice).toBe('Opened rosalind.pdf.');
    expect(flow.state.step).toBe('idle');
  });

  it('stays idle when the dialog is cancelled', async () => {
    chosen = null;
    calls.length = 0;
    const flow = new PdfAddFlow(api);
    await flow.choose();
    expect(flow.state).toEqual({ step: 'idle' });
    expect(flow.busy).toBe(false);
    expect(calls.map((c) => c.channel)).toEqual(['pdfs.choose']);
  });
});

describe('PdfAddFlow.drop', { timeout: 60_000 }, () => {
  /** The desktop app's way from a drop to the core: the preload (with a webUtils stand-in that knows the test's files), the IPC bridge, the core. */
  function electronApi(pathOf: Map<unknown, string>) {
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const sent: string[] = [];
    const ipcMain: IpcMainLike = {
      handle: (c, h) => void handlers.set(c, h),
      removeHandler: (c) => void handlers.delete(c),
    };
    const dispose = bridgeIpc({
      ipcMain,
      core: env.t.core,
      describeSender: () => ({ senderId: 1, frameUrl: 'app://citewise/index.html', isMainFrame: true }),
      trustedOrigins: ['app://citewise'],
      trustedSenderIds: () => [1],
      broadcast: () => {},
    });
    const ipcRenderer: IpcRendererLike = {
      invoke: async (channel, ...args) => {
        sent.push(channel === 'citewise:invoke' ? String(args[0]) : channel);
        return structuredClone(await handlers.get(channel)!({}, ...structuredClone(args)));
      },
      on: () => {},
    };
    const pathForFile = (f: unknown) => {
      if (!pathOf.has(f)) throw new TypeError('not a File');
      return pathOf.get(f)!;
    };
    return { api: createPreloadApi(ipcRenderer, pathForFile).api, sent, dispose };
  }

  it('in the desktop app captures dropped files where they are, by path; a file without a path is uploaded', async () => {
    const bytes = await makePdf({ title: 'Dropped by path', xmpDoi: '10.5555/state.dropped' });
    const where = join(dir.path, 'dropped.pdf');
    writeFileSync(where, bytes);
    const onDisk = new File([Buffer.from(bytes)], 'dropped.pdf', { type: 'application/pdf' });
    const made = new File(
      [Buffer.from(await makePdf({ title: 'Made in the page', xmpDoi: '10.5555/state.made' }))],
      'made.pdf',
      { type: 'application/pdf' },
    );
    const e = electronApi(
      new Map<unknown, string>([
        [onDisk, where],
        [made, ''],
      ]),
    );
    try {
      const flow = new PdfAddFlow(e.api);
      await flow.drop([onDisk], true);
      expect(flow.state).toMatchObject({ step: 'summary', outcomes: [{ name: 'dropped.pdf', status: 'added' }] });
      expect(e.sent).toEqual(['citewise:dropped-pdfs', 'pdfs.addChosen']);
      flow.close();

      e.sent.length = 0;
      await flow.drop([made], true);
      expect(flow.state).toMatchObject({ step: 'summary', outcomes: [{ name: 'made.pdf', status: 'added' }] });
      expect(e.sent).toEqual(['pdfs.add']);
    } finally {
      e.dispose();
    }
  });

  it('in browser mode uploads, and the core refuses a by-path drop it is asked for directly', async () => {
    calls.length = 0;
    const flow = new PdfAddFlow(api);
    await flow.drop(
      [
        new File(
          [Buffer.from(await makePdf({ title: 'Uploaded from the browser', xmpDoi: '10.5555/state.browser' }))],
          'browser.pdf',
          { type: 'application/pdf' },
        ),
      ],
      false,
    );
    expect(flow.state).toMatchObject({ step: 'summary', outcomes: [{ name: 'browser.pdf', status: 'added' }] });
    expect(calls.map((c) => c.channel)).toEqual(['pdfs.add']);
    expect(await api.invoke('pdfs.chooseDropped', { files: [{}] })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'INVALID_INPUT' }),
    });
  });
});
