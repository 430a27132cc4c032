// The Electron shell's decisions, tested without Electron: whom IPC trusts, where links may go,
// and the remembered window size.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { notFound, rendererFile } from '../../../electron/main/app-protocol';
import { bridgeIpc, isTrustedSender, type SenderInfo } from '../../../electron/main/ipc-bridge';
import { decideExternal } from '../../../electron/main/navigation';
import { allowPermission } from '../../../electron/main/permissions';
import { holdQuitUntilClosed } from '../../../electron/main/quit';
import { DEFAULT_BOUNDS, loadWindowState, saveWindowState } from '../../../electron/main/window-state';
import { tempDir } from '../../helpers/tmp';

const ours: SenderInfo = { senderId: 3, frameUrl: 'app://citewise/index.html#/library', isMainFrame: true };

describe('IPC sender validation', () => {
  it('trusts our own top frame', () => {
    expect(isTrustedSender(ours, ['app://citewise'], [3])).toBe(true);
  });

  it.each([
    ['another origin', { ...ours, frameUrl: 'https://evil.example/' }],
    ['a look-alike app host', { ...ours, frameUrl: 'app://citewise.evil/index.html' }],
    ['a file URL', { ...ours, frameUrl: 'file:///tmp/x.html' }],
    ['an iframe inside our window', { ...ours, isMainFrame: false }],
    ['a destroyed frame', { ...ours, frameUrl: null }],
    ['a webContents that is not one of our windows', { ...ours, senderId: 99 }],
    ['an unparsable URL', { ...ours, frameUrl: 'not a url' }],
  ])('refuses %s', (_what, info) => {
    expect(isTrustedSender(info as SenderInfo, ['app://citewise'], [3])).toBe(false);
  });

  describe('the bridge', () => {
    let dir: ReturnType<typeof tempDir>;
    let core: Core;
    beforeEach(async () => {
      dir = tempDir();
      core = await createCore({ dataDir: dir.path, mode: 'test', logger: silentLogger });
    });
    afterEach(async () => {
      await core.close();
      dir.remove();
    });

    it('answers an untrusted sender with FORBIDDEN without running the handler, and reports it', async () => {
      const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
      const refused = vi.fn();
      const invoke = vi.spyOn(core, 'invoke');
      const select = vi.spyOn(core, 'selectDroppedPdfs');
      bridgeIpc({
        ipcMain: { handle: (c, h) => void handlers.set(c, h), removeHandler: () => {} },
        core,
        describeSender: (e) => e as SenderInfo,
        trustedOrigins: ['app://citewise'],
        trustedSenderIds: () => [3],
        broadcast: () => {},
        onRefused: refused,
      });
      const handler = handlers.get('citewise:invoke')!;
      const evil = { ...ours, frameUrl: 'https://evil.example/' };
      const forbidden = { ok: false, error: { code: 'FORBIDDEN', message: 'This window may not call Citewise.' } };
      expect(await handler(evil, 'settings.update', { theme: 'dark' })).toEqual(forbidden);
      expect(invoke).not.toHaveBeenCalled();
      expect(refused).toHaveBeenCalledWith(evil);
      expect(await handler(ours, 'app.info', {})).toMatchObject({ ok: true });
      // The preload's channel for dropped PDFs' paths: the same check, then a selection of full paths only.
      const dropped = handlers.get('citewise:dropped-pdfs')!;
      expect(await dropped(evil, ['/papers/a.pdf'])).toEqual(forbidden);
      expect(select).not.toHaveBeenCalled();
      expect(await dropped(ours, ['/papers/a.pdf', '/papers/b.pdf'])).toEqual({
        ok: true,
        value: { selection: expect.any(String), names: ['a.pdf', 'b.pdf'] },
      });
      for (const bad of [
        ['relative/a.pdf'],
        [42],
        'not a list',
        Array.from({ length: 1001 }, (_, i) => `/p/${i}.pdf`),
      ]) {
        expect(await dropped(ours, bad), JSON.stringify(bad).slice(0, 40)).toMatchObject({
          ok: false,
          error: { code: 'INVALID_INPUT' },
        });
      }
      expect(
        await dropped(
          ours,
          Array.from({ length: 1000 }, (_, i) => `/p/${i}.pdf`),
        ),
      ).toMatchObject({ ok: true });
      expect(await dropped(ours, [])).toEqual({ ok: true, value: null });
    });

    it('forwards core events to windows and stops when disposed', async () => {
      const sent: unknown[] = [];
      // The core listens to itself too (the undo watcher); the bridge must leave only those behind.
      const before = core.events.listenerCount();
      const dispose = bridgeIpc({
        ipcMain: { handle: () => {}, removeHandler: () => {} },
        core,
        describeSender: () => ours,
        trustedOrigins: ['app://citewise'],
        trustedSenderIds: () => [3],
        broadcast: (...args) => sent.push(args),
      });
      const dark = {
        theme: 'dark',
        citationStyle: 'apa',
        locale: 'en-US',
        editorApi: true,
        editorApiPort: 23119,
        pdfStorage: 'copy',
        sentenceCase: 'protected',
      } as const;
      core.events.emit('settings.changed', dark);
      expect(sent).toEqual([['citewise:event', 'settings.changed', dark]]);
      dispose();
      core.events.emit('settings.changed', { ...dark, theme: 'light' });
      expect(sent).toHaveLength(1);
      expect(core.events.listenerCount()).toBe(before);
    });
  });
});

describe('navigation', () => {
  it.each([
    ['https://doi.org/10.1000/xyz', 'open-external'],
    ['http://example.org/paper', 'open-external'],
    ['file:///etc/passwd', 'refuse'],
    ['javascript:alert(1)', 'refuse'],
    ['smb://host/share', 'refuse'],
    ['mailto:someone@example.org', 'refuse'],
    ['not a url', 'refuse'],
  ])('%s → %s', (url, decision) => {
    expect(decideExternal(url)).toBe(decision);
  });
});

describe('window state', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());
  const visible = () => true;

  it('remembers size, position and maximised state', () => {
    saveWindowState(dir.path, { x: 40, y: 60, width: 1500, height: 900, maximized: true });
    expect(loadWindowState(dir.path, visible)).toEqual({ x: 40, y: 60, width: 1500, height: 900, maximized: true });
  });

  it('starts with the default size when nothing is stored or the file is damaged', () => {
    expect(loadWindowState(dir.path, visible)).toEqual(DEFAULT_BOUNDS);
    writeFileSync(join(dir.path, 'window-state.json'), '{"width": "huge"');
    expect(loadWindowState(dir.path, visible)).toEqual(DEFAULT_BOUNDS);
    writeFileSync(join(dir.path, 'window-state.json'), JSON.stringify({ width: 10, height: 10 }));
    expect(loadWindowState(dir.path, visible)).toEqual(DEFAULT_BOUNDS);
  });

  it('keeps the size but drops a position that is on no display any more', () => {
    saveWindowState(dir.path, { x: 5000, y: 5000, width: 1100, height: 700, maximized: false });
    expect(loadWindowState(dir.path, () => false)).toEqual({ width: 1100, height: 700, maximized: false });
  });

  it('writes atomically, leaving no temporary file', () => {
    saveWindowState(dir.path, { width: 1000, height: 700, maximized: false });
    saveWindowState(dir.path, { width: 1200, height: 700, maximized: false });
    expect(JSON.parse(readFileSync(join(dir.path, 'window-state.json'), 'utf8'))).toMatchObject({ width: 1200 });
    expect(readdirSync(dir.path)).toEqual(['window-state.json']);
  });
});

describe('the app:// protocol', () => {
  const dir = join('/srv', 'out', 'renderer');

  it.each([
    ['app://citewise/', join(dir, 'index.html')],
    ['app://citewise/index.html', join(dir, 'index.html')],
    ['app://citewise/assets/index-1.js', join(dir, 'assets', 'index-1.js')],
    ['app://citewise/assets/my%20file.css', join(dir, 'assets', 'my file.css')],
    ['app://citewise/assets/../index.html', join(dir, 'index.html')],
    // Encoded dot segments cannot climb out: the path is resolved from the renderer folder's root.
    ['app://citewise/%2e%2e/main/index.js', join(dir, 'main', 'index.js')],
    ['app://citewise/..%2F..%2Fpackage.json', join(dir, 'package.json')],
  ])('%s names %s', (url, file) => {
    expect(rendererFile(url, dir)).toBe(file);
  });

  it.each([
    'app://evil/index.html',
    'app://citewise.evil/index.html',
    'app://citewise/%E0%A4%A',
    'app://citewise/index.html%00.js',
    'not a url',
  ])('%s names no file', (url) => {
    expect(rendererFile(url, dir)).toBe(null);
  });

  it('answers a 404 with the policy headers', async () => {
    const response = notFound("default-src 'none'");
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('Not found');
  });
});

describe('the permission policy', () => {
  const trusted = ['app://citewise'];
  const ours = {
    permission: 'clipboard-sanitized-write',
    ourWindow: true,
    isMainFrame: true,
    url: 'app://citewise/index.html',
  };

  it('grants a clipboard write to our window top frame', () => {
    expect(allowPermission(ours, trusted)).toBe(true);
    expect(allowPermission({ ...ours, url: 'app://citewise' }, trusted)).toBe(true);
  });

  it.each([
    ['another permission', { ...ours, permission: 'clipboard-read' }],
    ['notifications', { ...ours, permission: 'notifications' }],
    ['media', { ...ours, permission: 'media' }],
    ['another webContents', { ...ours, ourWindow: false }],
    ['an iframe', { ...ours, isMainFrame: false }],
    ['another origin', { ...ours, url: 'https://evil.example/' }],
    ['a look-alike host', { ...ours, url: 'app://citewise.evil/' }],
    ['no URL', { ...ours, url: undefined }],
    ['an unparsable URL', { ...ours, url: 'not a url' }],
  ])('refuses %s', (_what, ask) => {
    expect(allowPermission(ask, trusted)).toBe(false);
  });
});

describe('quitting', () => {
  afterEach(() => vi.useRealTimers());
  const setup = (close: () => Promise<void>) => {
    const exit = vi.fn();
    const onError = vi.fn();
    const handler = holdQuitUntilClosed({ close, exit, timeoutMs: 1000, onError });
    const event = { preventDefault: vi.fn() };
    return { exit, onError, handler, event };
  };

  it('holds the quit until the core has closed, then exits with 0, once', async () => {
    let release!: () => void;
    const close = vi.fn(() => new Promise<void>((r) => (release = r)));
    const { exit, handler, event } = setup(close);
    handler(event);
    handler(event);
    expect(event.preventDefault).toHaveBeenCalledTimes(2);
    await Promise.resolve();
    expect(close).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    release();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('exits with 1 and says why when closing fails', async () => {
    const { exit, onError, handler, event } = setup(() => Promise.reject(new Error('disk gone')));
    handler(event);
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(1));
    expect(onError).toHaveBeenCalledWith(
      'closing the library failed',
      expect.objectContaining({ message: 'disk gone' }),
    );
  });

  it('exits with 1 when closing never ends, at the time limit and not before', async () => {
    vi.useFakeTimers();
    const { exit, onError, handler, event } = setup(() => new Promise<void>(() => {}));
    handler(event);
    await vi.advanceTimersByTimeAsync(999);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledWith(1);
    expect(onError).toHaveBeenCalledWith(expect.stringContaining('took longer than 1 s'));
  });
});
