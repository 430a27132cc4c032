// Each bundle of `npm run build` formats a bibliography of 150 items, above the formatter's worker
// threshold (100), so the bundle's own code has to find and start its citation worker:
// - the Electron main bundle (out/main), run in Node with the shell tests' stand-in `electron`
//   (test/integration/shell/harness.ts), asked over its IPC handler as the window would ask;
// - browser mode (out/cli `serve`), asked over its WebSocket with the launch token;
// - the CLI (out/cli `export --format text --style apa`).
// The library is seeded with the built CLI. Skipped, with the reason, when out/ is missing.
import { execFile, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bibliographyProblems, manyItems } from '../../helpers/many-items';
import { launchShell } from '../shell/harness';
import { tempDir } from '../../helpers/tmp';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'bin', 'citewise.mjs');
const MAIN = join(ROOT, 'out', 'main', 'index.js');
const built = existsSync(join(ROOT, 'out', 'cli', 'index.js')) && existsSync(MAIN);
const COUNT = 150;
const exec = promisify(execFile);
const ENV = {
  ...process.env,
  CITEWISE_DATA_DIR: '',
  CITEWISE_SERVICE_URL: 'http://127.0.0.1:9',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
};

interface ExportOk {
  ok: true;
  value: { content: string; items: number };
}

describe.skipIf(!built)(
  `every bundle formats ${COUNT} items through its citation worker${built ? '' : ' (skipped: out/ is missing; run `npm run build`)'}`,
  () => {
    let data: ReturnType<typeof tempDir>;

    beforeAll(async () => {
      data = tempDir('citewise-bundles-');
      const file = join(data.path, 'items.json');
      writeFileSync(file, JSON.stringify(manyItems(COUNT)));
      const { stdout } = await exec(
        process.execPath,
        [CLI, '--data-dir', join(data.path, 'lib'), 'import', file, '--json'],
        { env: ENV, timeout: 60_000 },
      );
      expect((JSON.parse(stdout) as { added: number }).added).toBe(COUNT);
    });
    afterAll(() => data?.remove());

    it('the CLI: export --format text --style apa', async () => {
      const { stdout, stderr } = await exec(
        process.execPath,
        [CLI, '--data-dir', join(data.path, 'lib'), 'export', '--format', 'text', '--style', 'apa'],
        { env: ENV, timeout: 60_000 },
      );
      expect(stderr).toBe('');
      expect(bibliographyProblems(stdout, COUNT, 'apa')).toEqual([]);
      expect(stdout).toMatch(
        /^Qaaaa, M\. \(1990\)\. Observations on specimen 00000\. Journal of Repeated Measures, 1\(2\), 10–20\.$/m,
      );
    });

    it('browser mode: library.export over the host WebSocket', async () => {
      const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', join(data.path, 'lib')], {
        env: { ...ENV, DISPLAY: '', WAYLAND_DISPLAY: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      try {
        const url = await new Promise<URL>((ok, fail) => {
          const timer = setTimeout(() => fail(new Error(`serve printed no URL:\n${output}`)), 20_000);
          child.stdout.on('data', () => {
            const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
            if (m) {
              clearTimeout(timer);
              ok(new URL(m[1]!));
            }
          });
        });
        const ws = new WebSocket(`ws://${url.host}/ipc?token=${url.searchParams.get('token')}`);
        await new Promise((ok, fail) => ws.once('open', ok).once('error', fail));
        const result = await new Promise<unknown>((ok) => {
          ws.on('message', (data) => {
            const m = JSON.parse(String(data)) as { type: string; id?: number; result?: unknown };
            if (m.type === 'result' && m.id === 1) ok(m.result);
          });
          ws.send(
            JSON.stringify({
              type: 'invoke',
              id: 1,
              channel: 'library.export',
              input: { scope: { kind: 'library' }, format: 'text', style: 'apa' },
            }),
          );
        });
        ws.close();
        expect(result, output).toMatchObject({ ok: true });
        const { value } = result as ExportOk;
        expect(value.items).toBe(COUNT);
        expect(bibliographyProblems(value.content, COUNT, 'apa')).toEqual([]);
      } finally {
        child.kill('SIGTERM');
      }
    });

    it('the Electron main bundle: library.export over its IPC handler', async () => {
      // The built main process in Node with the stand-in electron of the shell tests, asked as the window asks.
      const app = launchShell({
        scratch: data.path,
        name: 'bundle',
        args: ['--data-dir', join(data.path, 'lib'), '--service-url', 'http://127.0.0.1:9'],
        env: ENV,
      });
      try {
        await app.waitFor('BrowserWindow.show', 60_000);
        const result = await app.send<ExportOk>('invoke', {
          channel: 'citewise:invoke',
          args: ['library.export', { scope: { kind: 'library' }, format: 'text', style: 'apa' }],
          window: 0,
        });
        expect(result, app.output()).toMatchObject({ ok: true });
        expect(result.value.items).toBe(COUNT);
        expect(bibliographyProblems(result.value.content, COUNT, 'apa')).toEqual([]);
      } finally {
        await app.stop();
      }
    });
  },
);
