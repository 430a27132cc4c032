// The Electron shell, for real: the built main process (out/main/index.js from `npm run build`) runs in
// plain Node with the stand-in `electron` of fake-electron/, which records what the shell asks for and
// plays Electron's part (the quit sequence, the app:// protocol, permission requests, IPC senders).
// What this cannot show (Chromium enforcing the CSP, the sandbox, the GPU, the real keychain prompt)
// is listed in docs/desktop-shell.md with the one smoke run to do on a machine that has Electron.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCsp } from '../../../electron/core/csp';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { launchShell, MAIN, type Shell } from './harness';

const built = existsSync(MAIN) && readFileSync(MAIN, 'utf8').includes('registerSchemesAsPrivileged');
const DEAD_SERVICE = 'http://127.0.0.1:9';
const csp = buildCsp();
const OURS = 'app://citewise/index.html';

interface Served {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  failed?: string;
}

const bib = (key: string, title: string) =>
  `@article{${key},\n  title = {${title}},\n  author = {Franklin, Rosalind},\n  journal = {Nature},\n  year = {1953}\n}\n`;

describe.skipIf(!built)(`the Electron main process in Node${built ? '' : ' (skipped: run `npm run build`)'}`, () => {
  describe('one running app', { timeout: 60_000 }, () => {
    let scratch: ReturnType<typeof tempDir>;
    let app: Shell;
    beforeAll(async () => {
      scratch = tempDir('citewise-shell-');
      app = launchShell({
        scratch: scratch.path,
        args: ['--data-dir', join(scratch.path, 'data'), '--service-url', DEAD_SERVICE],
      });
      await app.waitFor('BrowserWindow.show');
    }, 90_000);
    afterAll(async () => {
      await app.stop();
      scratch.remove();
    });

    it('registers app:// and the sandbox before ready, then opens one window with the locked-down webPreferences', () => {
      const kinds = app.records().map((r) => r.kind);
      expect(kinds.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(kinds.indexOf('app.ready'));
      expect(kinds.indexOf('app.enableSandbox')).toBeLessThan(kinds.indexOf('app.ready'));
      expect(app.records('protocol.registerSchemesAsPrivileged')[0]!.schemes).toEqual([
        { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
      ]);
      const windows = app.records('BrowserWindow.new');
      expect(windows).toHaveLength(1);
      const options = windows[0]!.options as { show: boolean; webPreferences: Record<string, unknown> };
      expect(options.show).toBe(false);
      expect(options.webPreferences).toEqual({
        preload: join(dirname(MAIN), '..', 'preload', 'index.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: true,
      });
      expect(existsSync(options.webPreferences.preload as string)).toBe(true);
      expect(app.records('webContents.loadURL').map((r) => r.url)).toEqual([OURS]);
      // The packaged app's menu has no reload and no developer tools.
      const menu = JSON.stringify(app.records('Menu.setApplicationMenu')[0]!.template);
      expect(menu).toContain('editMenu');
      expect(menu).not.toMatch(/toggleDevTools|"reload"/);
    });

    it('serves the built renderer with the CSP and nosniff on every app:// response, missing files included', async () => {
      const index = await app.send<Served>('request', { url: OURS });
      expect(index).toMatchObject({
        status: 200,
        headers: { 'content-security-policy': csp, 'x-content-type-options': 'nosniff' },
      });
      expect(index.body).toContain('<div id="app">');
      const assets = [...index.body!.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThanOrEqual(3);
      for (const asset of assets) {
        const served = await app.send<Served>('request', { url: `app://citewise/${asset}` });
        expect(served, asset).toMatchObject({
          status: 200,
          headers: { 'content-security-policy': csp, 'x-content-type-options': 'nosniff' },
        });
      }
      expect(await app.send<Served>('request', { url: 'app://citewise/' })).toMatchObject({
        status: 200,
        body: index.body,
      });
      // A file that is not there is a 404 with the policy, not a failed request.
      for (const url of ['app://citewise/assets/missing.js', 'app://citewise/nothing-here.html']) {
        expect(await app.send<Served>('request', { url }), url).toEqual({
          status: 404,
          headers: expect.objectContaining({ 'content-security-policy': csp, 'x-content-type-options': 'nosniff' }),
          body: 'Not found',
        });
      }
    });

    it('serves nothing outside out/renderer: no other host, no escape, no directory listing, no malformed path', async () => {
      const mainCode = readFileSync(MAIN, 'utf8').slice(0, 200);
      for (const url of [
        'app://evil/index.html',
        'app://citewise.evil/index.html',
        'app://citewise/%2e%2e/main/index.js',
        'app://citewise/..%2Fmain%2Findex.js',
        'app://citewise/%2e%2e%2f%2e%2e%2fpackage.json',
        'app://citewise/assets/..%2F..%2Fpreload%2Findex.cjs',
        'app://citewise/assets',
        'app://citewise/assets/',
        'app://citewise/%E0%A4%A',
        'app://citewise/index.html%00.js',
      ]) {
        const served = await app.send<Served>('request', { url });
        expect(served, url).toMatchObject({ status: 404, headers: { 'content-security-policy': csp } });
        expect(served.body).not.toContain(mainCode);
      }
    });

    it('refuses navigation, redirects, webviews and new windows; web links go to the OS browser', async () => {
      for (const window of [0, 'stray'] as const) {
        for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://citewise/other.html']) {
          expect(await app.send('contentsEvent', { event: 'will-navigate', url, window }), `${window} ${url}`).toEqual({
            prevented: true,
          });
        }
        expect(
          await app.send('contentsEvent', { event: 'will-redirect', url: 'https://evil.example/', window }),
        ).toEqual({ prevented: true });
        expect(
          await app.send('contentsEvent', { event: 'will-attach-webview', url: 'https://evil.example/', window }),
        ).toEqual({ prevented: true });
      }
      // A reload of the page itself is not a navigation elsewhere.
      expect(await app.send('contentsEvent', { event: 'will-navigate', url: OURS, window: 0 })).toEqual({
        prevented: false,
      });

      for (const url of [
        'https://doi.org/10.1038/171737a0',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'smb://host/share',
        'app://citewise/index.html',
      ]) {
        expect(await app.send('windowOpen', { url, window: 0 }), url).toEqual({ handler: true, action: 'deny' });
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(app.records('shell.openExternal').map((r) => r.url)).toEqual(['https://doi.org/10.1038/171737a0']);
    });

    it('grants the clipboard write that copying citations needs to our window, and nothing else to anyone', async () => {
      const ask = (permission: string, window: number | 'stray', requestingUrl: string, isMainFrame = true) =>
        Promise.all([
          app.send<{ granted: boolean; handler: boolean }>('permissionRequest', {
            permission,
            window,
            requestingUrl,
            isMainFrame,
          }),
          app.send<{ granted: boolean; handler: boolean }>('permissionCheck', {
            permission,
            window,
            requestingOrigin:
              new URL(requestingUrl).protocol === 'app:' ? 'app://citewise' : new URL(requestingUrl).origin,
            requestingUrl,
            isMainFrame,
          }),
        ]);
      expect(await ask('clipboard-sanitized-write', 0, 'app://citewise/index.html#/library')).toEqual([
        { granted: true, handler: true },
        { granted: true, handler: true },
      ]);
      const refused = [
        await ask('clipboard-sanitized-write', 0, 'app://citewise/index.html', false),
        await ask('clipboard-sanitized-write', 0, 'https://evil.example/'),
        await ask('clipboard-sanitized-write', 'stray', 'app://citewise/index.html'),
        ...(await Promise.all(
          [
            'clipboard-read',
            'media',
            'geolocation',
            'notifications',
            'midiSysex',
            'openExternal',
            'fullscreen',
            'pointerLock',
            'hid',
            'serial',
            'usb',
            'storage-access',
            'display-capture',
          ].map((p) => ask(p, 0, 'app://citewise/index.html')),
        )),
      ];
      for (const answer of refused)
        expect(answer).toEqual([
          { granted: false, handler: true },
          { granted: false, handler: true },
        ]);
      // A check with no webContents (a service worker, say) is refused as well.
      expect(
        await app.send('permissionCheck', {
          permission: 'clipboard-sanitized-write',
          window: null,
          requestingOrigin: 'app://citewise',
          requestingUrl: OURS,
          isMainFrame: true,
        }),
      ).toEqual({
        granted: false,
        handler: true,
      });
    });

    it('answers IPC from our window only, and sends events to our window only', async () => {
      const call = (sender: object) =>
        app.send<{ ok: boolean; error?: { code: string } }>('invoke', {
          channel: 'citewise:invoke',
          args: ['app.info', {}],
          ...sender,
        });
      expect(await call({ window: 0 })).toMatchObject({ ok: true, value: { name: 'Citewise', mode: 'electron' } });
      const forbidden = { ok: false, error: { code: 'FORBIDDEN', message: 'This window may not call Citewise.' } };
      expect(await call({ window: 0, frame: 'sub' })).toEqual(forbidden);
      expect(await call({ window: 0, frame: 'none' })).toEqual(forbidden);
      expect(await call({ window: 'stray', frameUrl: OURS })).toEqual(forbidden);
      expect(await call({ window: 0, frameUrl: 'https://evil.example/' })).toEqual(forbidden);
      expect(await call({ window: 0, frameUrl: OURS })).toMatchObject({ ok: true });

      const [win] = await app.send<{ webContentsId: number }[]>('windows');
      const update = await app.send<{ ok: boolean }>('invoke', {
        channel: 'citewise:invoke',
        args: ['settings.update', { theme: 'dark' }],
        window: 0,
      });
      expect(update).toMatchObject({ ok: true });
      const sent = app.records('webContents.send').filter((r) => (r.args as unknown[])[0] === 'settings.changed');
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.every((r) => r.id === win!.webContentsId && r.channel === 'citewise:event')).toBe(true);
    });

    it('Add → PDFs…: the main process opens the native dialog (several PDFs) and the core captures the chosen files by path, as Settings → PDFs says', async () => {
      const papers = join(scratch.path, 'papers');
      mkdirSync(papers, { recursive: true });
      const copied = join(papers, 'franklin 1953.pdf');
      const linked = join(papers, 'wilkins 1953.pdf');
      writeFileSync(
        copied,
        await makePdf({ title: 'Molecular configuration in sodium thymonucleate', xmpDoi: '10.1038/171740a0' }),
      );
      writeFileSync(
        linked,
        await makePdf({ title: 'Molecular structure of deoxypentose nucleic acids', xmpDoi: '10.1038/171738a0' }),
      );
      const invoke = <T>(channel: string, input: object) =>
        app.send<{ ok: boolean; value: T }>('invoke', {
          channel: 'citewise:invoke',
          args: [channel, input],
          window: 0,
        });
      const before = app.records('dialog.showOpenDialog').length;

      // Cancelled: nothing chosen, nothing added.
      expect(await invoke('pdfs.choose', {})).toEqual({ ok: true, value: null });
      await app.send('queueOpenDialog', { filePaths: [copied] });
      const first = await invoke<{ selection: string; names: string[] }>('pdfs.choose', {});
      expect(first).toMatchObject({ ok: true, value: { names: ['franklin 1953.pdf'] } });
      // The renderer's answer names the file; its folder stays in the main process.
      expect(JSON.stringify(first)).not.toContain(papers);
      const dialogs = app.records('dialog.showOpenDialog').slice(before);
      expect(dialogs.map((d) => d.options)).toEqual(
        Array(2).fill({
          title: 'Add PDFs',
          filters: [{ name: 'PDF documents', extensions: ['pdf'] }],
          properties: ['openFile', 'multiSelections'],
        }),
      );
      const added = await invoke<{ status: string; itemId: number }>('pdfs.addChosen', {
        selection: first.value.selection,
        index: 0,
      });
      expect(added).toMatchObject({ ok: true, value: { name: 'franklin 1953.pdf', status: 'added' } });
      const copy = await invoke<{ attachments: { path: string; stored: string; originalName: string }[] }>(
        'library.item.get',
        { id: added.value.itemId },
      );
      expect(copy.value.attachments).toEqual([
        expect.objectContaining({
          stored: 'copied',
          originalName: 'franklin 1953.pdf',
          path: expect.stringContaining(join(scratch.path, 'data', 'attachments')),
        }),
      ]);

      expect(await invoke('settings.update', { pdfStorage: 'link' })).toMatchObject({ ok: true });
      await app.send('queueOpenDialog', { filePaths: [linked] });
      const second = await invoke<{ selection: string }>('pdfs.choose', {});
      const link = await invoke<{ status: string; itemId: number }>('pdfs.addChosen', {
        selection: second.value.selection,
        index: 0,
      });
      expect(link).toMatchObject({ ok: true, value: { status: 'added' } });
      const item = await invoke<{ attachments: { path: string; stored: string }[] }>('library.item.get', {
        id: link.value.itemId,
      });
      expect(item.value.attachments).toEqual([expect.objectContaining({ path: linked, stored: 'linked' })]);

      // A drop: the preload's channel with the dropped files' paths, from our window only.
      const dropped = join(papers, 'watson 1953.pdf');
      writeFileSync(
        dropped,
        await makePdf({ title: 'A structure for deoxyribose nucleic acid', xmpDoi: '10.1038/171737a0' }),
      );
      const drop = (window: number | 'stray') =>
        app.send<{ ok: boolean; value: { selection: string; names: string[] } }>('invoke', {
          channel: 'citewise:dropped-pdfs',
          args: [[dropped]],
          window,
        });
      expect(await drop('stray')).toEqual({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'This window may not call Citewise.' },
      });
      const selection = await drop(0);
      expect(selection).toMatchObject({ ok: true, value: { names: ['watson 1953.pdf'] } });
      expect(await invoke('pdfs.addChosen', { selection: selection.value.selection, index: 0 })).toMatchObject({
        ok: true,
        value: { status: 'added' },
      });
    });

    it('keeps Linux spell-check from downloading dictionaries: the download URL is a refused loopback port, set before any window', () => {
      const kinds = app.records().map((r) => r.kind);
      const set = app.records('session.setSpellCheckerDictionaryDownloadURL');
      expect(set).toHaveLength(1);
      const url = new URL(set[0]!.url as string);
      expect(url.hostname).toBe('127.0.0.1');
      // Port 9 is on Chromium's list of restricted ports: the loader refuses it without connecting.
      expect(url.port).toBe('9');
      expect(kinds.indexOf('session.setSpellCheckerDictionaryDownloadURL')).toBeLessThan(
        kinds.indexOf('BrowserWindow.new'),
      );
    });
  });

  // Every launch loads the bundle and starts a core (seconds on a loaded machine): room for several.
  describe('launches', { timeout: 90_000 }, () => {
    let scratch: ReturnType<typeof tempDir>;
    const apps: Shell[] = [];
    beforeEach(() => {
      scratch = tempDir('citewise-shell-');
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.stop()));
      scratch.remove();
    });
    const launch = (name: string, args: string[], env?: NodeJS.ProcessEnv) => {
      const app = launchShell({ scratch: scratch.path, name, args: [...args, '--service-url', DEAD_SERVICE], env });
      apps.push(app);
      return app;
    };

    it('remembers the window: size and place are saved while it moves and when it closes, and restored at the next start', async () => {
      const data = join(scratch.path, 'data');
      const first = launch('first', ['--data-dir', data]);
      await first.waitFor('BrowserWindow.show');
      await first.send('setBounds', { bounds: { x: 120, y: 80, width: 1100, height: 760 } });
      const file = join(data, 'window-state.json');
      await expect
        .poll(() => existsSync(file) && JSON.parse(readFileSync(file, 'utf8')), { timeout: 15_000 })
        .toEqual({ x: 120, y: 80, width: 1100, height: 760, maximized: false });
      await first.send('setBounds', { bounds: { x: 300, y: 90 } });
      await first.send('closeWindow');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        x: 300,
        y: 90,
        width: 1100,
        height: 760,
        maximized: false,
      });

      const second = launch('second', ['--data-dir', data]);
      await second.waitFor('BrowserWindow.show');
      expect(second.records('BrowserWindow.new')[0]!.options).toMatchObject({
        x: 300,
        y: 90,
        width: 1100,
        height: 760,
      });
    });

    it('on quit waits for the core, so the auto-export file holds the last edit', async () => {
      const data = join(scratch.path, 'data');
      const synced = join(scratch.path, 'synced.bib');
      const app = launch('quit', ['--data-dir', data]);
      await app.waitFor('BrowserWindow.show');
      const invoke = (channel: string, input: object) =>
        app.send<{ ok: boolean; value?: unknown }>('invoke', {
          channel: 'citewise:invoke',
          args: [channel, input],
          window: 0,
        });
      expect(
        await invoke('library.import', {
          text: bib('franklin1953', 'Molecular configuration in sodium thymonucleate'),
        }),
      ).toMatchObject({ ok: true });
      expect(await invoke('autoExport.add', { path: synced, format: 'bibtex' })).toMatchObject({ ok: true });
      await expect
        .poll(() => existsSync(synced) && readFileSync(synced, 'utf8').includes('franklin1953'), { timeout: 30_000 })
        .toBe(true);

      // The edit, then the user closes the window at once: the export's debounce has not fired yet.
      expect(
        await invoke('library.import', {
          text: bib('wilkins1953', 'Molecular structure of deoxypentose nucleic acids'),
        }),
      ).toMatchObject({ ok: true });
      await app.send('closeWindow');
      expect(await app.exited).toEqual({ code: 0, signal: null });
      expect(readFileSync(synced, 'utf8')).toContain('wilkins1953');
      const kinds = app.records().map((r) => r.kind);
      expect(app.records('app.will-quit')[0]).toMatchObject({ prevented: true });
      expect(kinds.indexOf('ipcMain.removeHandler')).toBeGreaterThan(kinds.indexOf('app.quit'));
      expect(kinds.indexOf('ipcMain.removeHandler')).toBeLessThan(kinds.indexOf('process.end'));
      expect(app.records('process.end')).toEqual([expect.objectContaining({ code: 0, via: 'exit' })]);
    });

    it('shows a start-up error in a dialog and exits with 1 when the core cannot start', async () => {
      const bad = launch('bad-url', ['--data-dir', join(scratch.path, 'data'), '--service-url', 'ftp://example.org']);
      expect(await bad.exited).toEqual({ code: 1, signal: null });
      expect(bad.records('dialog.showErrorBox')).toEqual([
        expect.objectContaining({ title: 'Citewise cannot start', content: expect.stringContaining('service URL') }),
      ]);
      expect(bad.records('BrowserWindow.new')).toEqual([]);

      const empty = join(scratch.path, 'no-native');
      const noNative = launchShell({
        scratch: scratch.path,
        name: 'no-native',
        resources: empty,
        args: ['--data-dir', join(scratch.path, 'data2')],
      });
      apps.push(noNative);
      expect(await noNative.exited).toEqual({ code: 1, signal: null });
      expect(noNative.records('dialog.showErrorBox')).toEqual([
        expect.objectContaining({
          title: 'Citewise cannot start',
          content: expect.stringContaining(join(empty, 'native', 'better_sqlite3.node')),
        }),
      ]);
    });

    it('locks each data folder on its own: two libraries run at once, the same library twice focuses the first', async () => {
      const one = launch('one', ['--data-dir', join(scratch.path, 'one')]);
      await one.waitFor('BrowserWindow.show');
      const two = launch('two', ['--data-dir', join(scratch.path, 'two')]);
      await two.waitFor('BrowserWindow.show');
      expect(two.child.exitCode).toBe(null);

      const again = launch('again', [`--data-dir=${join(scratch.path, 'one')}`]);
      expect(await again.exited).toEqual({ code: 0, signal: null });
      expect(again.records('BrowserWindow.new')).toEqual([]);
      await one.waitFor('BrowserWindow.focus');
      expect(two.records('BrowserWindow.focus')).toEqual([]);
      // The library itself was never opened by the refused instance.
      expect(readdirSync(join(scratch.path, 'one')).filter((f) => f.startsWith('citewise.sqlite'))).not.toHaveLength(0);
    });
  });
});
