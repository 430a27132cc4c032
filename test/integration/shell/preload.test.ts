// The built preload (out/preload/index.cjs) as a sandboxed renderer runs it: a script given only the
// small `require` Electron's sandbox provides ('electron' with its renderer modules, and a few
// built-ins). It must bundle everything else, and expose exactly `invoke` and `on` as window.citewise.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ROOT } from './harness';

const PRELOAD = join(ROOT, 'out', 'preload', 'index.cjs');
// What `require` answers in a sandboxed preload (Electron's docs, "Process Sandboxing").
const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url', 'node:events', 'node:timers', 'node:url']);

class FakeFile {
  constructor(readonly path: string) {}
}

function runPreload() {
  const exposed = new Map<string, unknown>();
  const invoked: unknown[][] = [];
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  const asked: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: (...args: unknown[]) => {
        invoked.push(args);
        return Promise.resolve({ ok: true, value: 'answer' });
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => listeners.set(channel, listener),
    },
    // Electron's: a File's path, '' for one made in JavaScript, and a TypeError for anything else.
    webUtils: {
      getPathForFile: (file: unknown) => {
        if (!(file instanceof FakeFile))
          throw new TypeError('Error processing argument at index 0, conversion failure');
        return file.path;
      },
    },
  };
  const sandboxRequire = (name: string) => {
    asked.push(name);
    if (!SANDBOX_MODULES.has(name)) throw new Error(`module not found: ${name} (a sandboxed preload cannot load it)`);
    if (name === 'electron') return electron;
    throw new Error(`unexpected module ${name}`);
  };
  const module = { exports: {} };
  runInNewContext(
    `(function (require, module, exports) {${readFileSync(PRELOAD, 'utf8')}\n})`,
    {},
    { filename: PRELOAD },
  )(sandboxRequire, module, module.exports);
  return { exposed, invoked, listeners, asked };
}

describe.skipIf(!existsSync(PRELOAD))('the built preload in a sandbox', () => {
  it('loads with nothing but the sandbox require and exposes exactly invoke and on as citewise', async () => {
    const { exposed, invoked, listeners, asked } = runPreload();
    expect(asked).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['citewise']);
    const api = exposed.get('citewise') as {
      invoke(c: string, i: unknown): Promise<unknown>;
      on(n: string, l: (p: unknown) => void): () => void;
    };
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(await api.invoke('app.info', {})).toEqual({ ok: true, value: 'answer' });
    expect(invoked).toEqual([['citewise:invoke', 'app.info', {}]]);

    const heard: unknown[] = [];
    const off = api.on('settings.changed', (p) => heard.push(p));
    const deliver = listeners.get('citewise:event')!;
    deliver({}, 'settings.changed', { theme: 'dark' });
    deliver({}, 'library.changed', { kind: 'all' });
    off();
    deliver({}, 'settings.changed', { theme: 'light' });
    expect(heard).toEqual([{ theme: 'dark' }]);
  });

  it("answers pdfs.chooseDropped itself: the dropped files' paths go to the main process on their own channel, or nothing when one has none", async () => {
    const { exposed, invoked } = runPreload();
    const api = exposed.get('citewise') as { invoke(c: string, i: unknown): Promise<unknown> };
    expect(
      await api.invoke('pdfs.chooseDropped', { files: [new FakeFile('/papers/a.pdf'), new FakeFile('/papers/b.pdf')] }),
    ).toEqual({ ok: true, value: 'answer' });
    expect(invoked).toEqual([['citewise:dropped-pdfs', ['/papers/a.pdf', '/papers/b.pdf']]]);
    // A File made by the page has no path, and a made-up object is no File: the page uploads the bytes.
    for (const files of [[new FakeFile('/papers/a.pdf'), new FakeFile('')], [{ path: '/etc/passwd' }], [], 'x']) {
      expect(await api.invoke('pdfs.chooseDropped', { files })).toEqual({ ok: true, value: null });
    }
    expect(invoked).toHaveLength(1);
  });
});
