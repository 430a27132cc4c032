// The desktop app serves the editor API (Settings → Editors, on by default): the built main process
// runs under the fake-electron stand-in (harness.ts) and an editor's CAYW request to the app's port
// opens the picker as a small always-on-top window; the picker page's answer comes back to the
// editor. A taken port is said plainly, with a free port offered, and taking the offer serves there.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { send, type Reply } from '../api/helpers';
import { tempDir } from '../../helpers/tmp';
import { launchShell, MAIN, type Shell } from './harness';

const built = existsSync(MAIN) && readFileSync(MAIN, 'utf8').includes('registerSchemesAsPrivileged');
const DEAD_SERVICE = 'http://127.0.0.1:9';
const BIB = `@article{franklin1953,
  title = {Molecular configuration in sodium thymonucleate},
  author = {Franklin, Rosalind and Gosling, Raymond},
  journal = {Nature},
  year = {1953}
}
`;

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const s = await listen();
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** A library with one item and Settings → Editors on `port`, written before the app starts. */
async function seedLibrary(dataDir: string, port: number): Promise<void> {
  const core = await createCore({ dataDir, mode: 'test', logger: silentLogger });
  try {
    expect(await core.invoke('library.import', { text: BIB, fileName: 'refs.bib' })).toMatchObject({ ok: true });
    expect(await core.invoke('settings.update', { editorApiPort: port })).toMatchObject({ ok: true });
  } finally {
    await core.close();
  }
}

const CURL = { 'User-Agent': 'curl/8.5.0', Accept: '*/*' };

async function probe(port: number): Promise<string> {
  try {
    return (await send(port, 'GET', '/better-bibtex/cayw?probe=1', CURL)).body;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
}

interface WindowRecord {
  webContentsId: number;
  options: Record<string, unknown> & { webPreferences: Record<string, unknown> };
}

describe.skipIf(!built)(
  `the desktop app's editor API${built ? '' : ' (skipped: run `npm run build`)'}`,
  { timeout: 90_000 },
  () => {
    let scratch: ReturnType<typeof tempDir>;
    const apps: Shell[] = [];
    const blockers: Server[] = [];
    beforeEach(() => {
      scratch = tempDir('citewise-shell-api-');
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.stop()));
      for (const b of blockers.splice(0)) b.close();
      scratch.remove();
    });
    const launch = (name: string, dataDir: string) => {
      const app = launchShell({
        scratch: scratch.path,
        name,
        args: ['--data-dir', dataDir, '--service-url', DEAD_SERVICE],
        env: { CITEWISE_EDITOR_API: '' },
      });
      apps.push(app);
      return app;
    };
    const pickerWindows = (app: Shell) => (app.records('BrowserWindow.new') as unknown as WindowRecord[]).slice(1);

    it('a CAYW request opens the picker as an always-on-top sandboxed window; its answer goes back to the editor', async () => {
      const data = join(scratch.path, 'data');
      const port = await freePort();
      await seedLibrary(data, port);
      const app = launch('picker', data);
      await app.waitFor('BrowserWindow.show');
      await expect.poll(() => probe(port), { timeout: 30_000 }).toBe('ready');

      const answer: Promise<Reply> = send(port, 'GET', '/better-bibtex/cayw?format=pandoc&brackets=1', CURL);
      await expect.poll(() => pickerWindows(app).length, { timeout: 15_000 }).toBe(1);
      const [picker] = pickerWindows(app);
      expect(picker!.options).toMatchObject({
        alwaysOnTop: true,
        show: false,
        width: 600,
        height: 440,
        minimizable: false,
        maximizable: false,
      });
      // The page has no preload (no IPC at all) and runs under the same locked-down preferences as the app.
      expect(picker!.options.webPreferences).toEqual({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: false,
      });
      const loaded = app.records('webContents.loadURL').find((r) => r.id === picker!.webContentsId);
      const url = new URL(loaded!.url as string);
      expect(url.origin).toBe(`http://127.0.0.1:${port}`);
      expect(url.pathname).toMatch(/^\/citewise\/picker\/[\w-]+$/);
      await expect
        .poll(() => app.records('BrowserWindow.show').some((r) => r.webContentsId === picker!.webContentsId))
        .toBe(true);
      expect(app.records('app.focus')).toEqual([expect.objectContaining({ options: { steal: true } })]);
      // The shell's guards hold for the picker: it goes nowhere, opens nothing, calls no IPC.
      expect(
        await app.send('contentsEvent', { event: 'will-navigate', url: 'https://evil.example/', window: 1 }),
      ).toEqual({ prevented: true });
      expect(await app.send('windowOpen', { url: 'https://evil.example/', window: 1 })).toEqual({
        handler: true,
        action: 'deny',
      });
      expect(await app.send('invoke', { channel: 'citewise:invoke', args: ['app.info', {}], window: 1 })).toMatchObject(
        { ok: false, error: { code: 'FORBIDDEN' } },
      );

      // What the page does: search with its token, then send the pick.
      const id = url.pathname.split('/').pop()!;
      const token = url.hash.slice(1);
      const page = {
        'X-Citewise-Picker': token,
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
        Origin: `http://127.0.0.1:${port}`,
      };
      const hits = await send(port, 'GET', `/citewise/picker/${id}/search?q=franklin`, page);
      expect(JSON.parse(hits.body).hits.map((h: { citationKey: string }) => h.citationKey)).toEqual(['franklin1953']);
      const body = JSON.stringify({ picks: [{ citationKey: 'franklin1953', locator: '12' }] });
      expect(
        (
          await send(
            port,
            'POST',
            `/citewise/picker/${id}/done`,
            { ...page, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
            body,
          )
        ).status,
      ).toBe(200);
      expect(await answer).toMatchObject({ status: 200, body: '[@franklin1953, p. 12]' });
      // Answered: the window goes away.
      await expect
        .poll(() => app.records('BrowserWindow.closed').some((r) => r.webContentsId === picker!.webContentsId))
        .toBe(true);

      // Closing the picker by hand is a cancel: the editor gets the empty answer.
      const cancelled = send(port, 'GET', '/better-bibtex/cayw?format=pandoc', CURL);
      await expect.poll(() => pickerWindows(app).length, { timeout: 15_000 }).toBe(2);
      await app.send('closeWindow', { window: 1 });
      expect(await cancelled).toMatchObject({ status: 200, body: '' });

      // selected=1: what the Library pane reported, without a picker.
      expect((await send(port, 'GET', '/better-bibtex/cayw?format=pandoc&selected=1', CURL)).body).toBe('');
      const ids = await app.send<{ ok: boolean; value: { rows: { id: number }[] } }>('invoke', {
        channel: 'citewise:invoke',
        args: ['library.list', {}],
        window: 0,
      });
      const reported = await app.send('invoke', {
        channel: 'citewise:invoke',
        args: ['library.selection.set', { selection: { kind: 'items', ids: [ids.value.rows[0]!.id] } }],
        window: 0,
      });
      expect(reported).toEqual({ ok: true, value: null });
      expect((await send(port, 'GET', '/better-bibtex/cayw?format=pandoc&selected=1', CURL)).body).toBe(
        '@franklin1953',
      );
      expect(pickerWindows(app)).toHaveLength(2);
    });

    it('a taken port: the plain message, another port offered, and taking it serves there', async () => {
      const data = join(scratch.path, 'data');
      const blocker = await listen();
      blockers.push(blocker);
      const taken = (blocker.address() as { port: number }).port;
      await seedLibrary(data, taken);
      const app = launch('taken', data);
      const box = await app.waitFor('dialog.showMessageBox', 30_000);
      const options = box.options as { detail: string; buttons: string[]; defaultId: number };
      const offered = Number(/^Use port (\d+)$/.exec(options.buttons[0]!)?.[1]);
      expect(offered).toBeGreaterThan(taken);
      expect(options).toMatchObject({
        type: 'warning',
        message: 'Editors cannot reach Citewise on this port',
        detail: `Port ${taken} is in use; run \`citewise api --port ${offered}\` or choose another port in Settings → Editors.`,
        buttons: [`Use port ${offered}`, 'Not now'],
        defaultId: 0,
      });
      expect(await probe(offered)).toBe('ECONNREFUSED');
      await app.send('answerMessageBox', { response: 0 });
      await expect.poll(() => probe(offered), { timeout: 30_000 }).toBe('ready');
      const settings = await app.send<{ ok: boolean; value: { editorApiPort: number } }>('invoke', {
        channel: 'citewise:invoke',
        args: ['settings.get', {}],
        window: 0,
      });
      expect(settings.value.editorApiPort).toBe(offered);
    });

    it('stays off with CITEWISE_EDITOR_API=0, as in browser mode', async () => {
      const data = join(scratch.path, 'data');
      const port = await freePort();
      await seedLibrary(data, port);
      const app = launchShell({
        scratch: scratch.path,
        name: 'off',
        args: ['--data-dir', data, '--service-url', DEAD_SERVICE],
      });
      apps.push(app);
      await app.waitFor('BrowserWindow.show');
      await new Promise((r) => setTimeout(r, 500));
      expect(await probe(port)).toBe('ECONNREFUSED');
    });
  },
);
