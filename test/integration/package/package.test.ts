// The package, for real: electron-builder builds the Linux `dir` target from electron-builder.yml
// around a stand-in Electron (electronDist: a directory with an `electron` file that carries the fuse
// wire, since the real binary cannot be downloaded here). Then the package's contents are checked, and
// its main process runs from the extracted app.asar with the stand-in `electron` module, loading its
// dependencies, workers, styles and native files from the package, not from the repository.
// Two things differ from `npm run package`, both because the stand-in runtime is Node, not Electron:
// resources/native/better_sqlite3.node is the Node build (the Electron-ABI one is made and checked by
// scripts/native-electron.mjs), and no real Electron starts (docs/desktop-shell.md has the smoke run).
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractAll, listPackage } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { Arch, build, Platform } from 'electron-builder';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBinary } from '../../../scripts/native-target.mjs';
import { tempDir } from '../../helpers/tmp';
import { launchShell, MAIN, NODE_SQLITE, ROOT } from '../shell/harness';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's own defaults on the wire (fuse version 1, 8 fuses): RunAsNode on, cookie encryption off,
// NODE_OPTIONS on, --inspect on, asar integrity off, only-asar off, browser snapshot off, file:// privileges on.
const STOCK_WIRE = '10110001';
const built = existsSync(MAIN) && readFileSync(MAIN, 'utf8').includes('registerSchemesAsPrivileged');
const here = process.platform === 'linux' && process.arch === 'x64';

interface Lock {
  packages: Record<string, { dev?: boolean; version?: string }>;
}

const bibtex = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `@article{entry${i},\n  title = {Helical structure number ${i} of nucleic acids},\n  author = {Author${i}, Alice and Watson, James},\n  journal = {Nature},\n  year = {${1900 + (i % 120)}},\n  volume = {${i + 1}},\n  pages = {1--${i + 2}}\n}\n`,
  ).join('\n');

describe.skipIf(!built || !here)(
  `the Linux package built around a stand-in Electron${built ? '' : ' (skipped: run `npm run build`)'}${here ? '' : ' (skipped: Linux x64 only)'}`,
  () => {
    let scratch: ReturnType<typeof tempDir>;
    let appOut: string;
    let resources: string;
    let extracted: string;
    let archive: Set<string>;

    beforeAll(async () => {
      scratch = tempDir('citewise-package-');
      const dist = join(scratch.path, 'electron-dist');
      mkdirSync(join(dist, 'resources'), { recursive: true });
      writeFileSync(
        join(dist, 'electron'),
        Buffer.concat([
          Buffer.from(
            `#!/bin/sh\necho 'A stand-in for Electron: the real binary could not be downloaded.' >&2\nexit 1\n# ${SENTINEL}`,
          ),
          Buffer.from([1, 8]),
          Buffer.from(`${STOCK_WIRE}\n`),
        ]),
      );
      chmodSync(join(dist, 'electron'), 0o755);
      const nodeSqlite = join(scratch.path, 'node-native', 'better_sqlite3.node');
      mkdirSync(join(scratch.path, 'node-native'));
      copyFileSync(NODE_SQLITE, nodeSqlite);

      // The project's configuration, with only the Electron distribution, the output folder and the
      // better-sqlite3 build (for the stand-in's runtime) replaced.
      const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
        extraResources: { from: string }[];
        directories: object;
      };
      const sqliteEntry = config.extraResources.find((r) => r.from === 'build/native/electron/better_sqlite3.node');
      expect(sqliteEntry).toBeDefined();
      sqliteEntry!.from = nodeSqlite;
      config.electronDist = dist;
      config.directories = { ...config.directories, output: join(scratch.path, 'dist') };
      const configFile = join(scratch.path, 'electron-builder.yml');
      writeFileSync(configFile, stringify(config));
      await build({
        projectDir: ROOT,
        config: configFile,
        targets: Platform.LINUX.createTarget('dir', Arch.x64),
        publish: 'never',
      });

      appOut = join(scratch.path, 'dist', 'linux-unpacked');
      resources = join(appOut, 'resources');
      archive = new Set(listPackage(join(resources, 'app.asar'), { isPack: false }));
      extracted = join(scratch.path, 'app');
      extractAll(join(resources, 'app.asar'), extracted);
    }, 300_000);
    afterAll(() => scratch?.remove());

    it('holds out/{main,preload,renderer,csl} and package.json, and no CLI, native build or source map', () => {
      const built = (dir: string): string[] =>
        readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile() && !e.name.endsWith('.map'))
          .map((e) => `/${join(e.parentPath, e.name).slice(ROOT.length + 1)}`);
      const wanted = ['out/main', 'out/preload', 'out/renderer', 'out/csl'].flatMap(built);
      expect(wanted.length).toBeGreaterThan(20);
      expect(wanted.filter((f) => !archive.has(f))).toEqual([]);
      expect(archive.has('/package.json')).toBe(true);
      const ours = [...archive].filter((f) => !f.startsWith('/node_modules/'));
      expect(ours.filter((f) => /^\/out\/(cli|native)\//.test(f) || f.endsWith('.map'))).toEqual([]);
    });

    it('holds every production dependency, transitive ones included, and no development one', () => {
      const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
      const installed = Object.entries(lock.packages).filter(
        ([path]) => path.startsWith('node_modules/') && existsSync(join(ROOT, path, 'package.json')),
      );
      const production = installed.filter(([, p]) => !p.dev).map(([path]) => path);
      const development = installed.filter(([, p]) => p.dev).map(([path]) => path);
      expect(production).toEqual(
        expect.arrayContaining([
          'node_modules/zod',
          'node_modules/better-sqlite3',
          'node_modules/keytar',
          'node_modules/citeproc',
          'node_modules/bindings',
        ]),
      );
      expect(production.filter((path) => !archive.has(`/${path}/package.json`))).toEqual([]);
      expect(development.filter((path) => archive.has(`/${path}/package.json`))).toEqual([]);
      // better-sqlite3's own (Node) build and its sources stay out; the app loads resources/native's.
      expect([...archive].filter((f) => /^\/node_modules\/better-sqlite3\/(build|deps|src)\//.test(f))).toEqual([]);
    });

    it('unpacks keytar.node from the archive and puts the native builds beside it, each an x64 ELF', () => {
      const keytar = join(resources, 'app.asar.unpacked', 'node_modules', 'keytar', 'build', 'Release', 'keytar.node');
      for (const file of [
        keytar,
        join(resources, 'native', 'better_sqlite3.node'),
        join(resources, 'native', 'cw_rank.so'),
      ]) {
        expect(describeBinary(file), file).toEqual({ format: 'ELF', archs: ['x64'] });
      }
      expect(existsSync(join(appOut, 'citewise'))).toBe(true);
    });

    it("flips Electron's fuses as electron-builder.yml sets them", async () => {
      const wire = await getCurrentFuseWire(join(appOut, 'citewise'));
      const [off, on] = [48, 49];
      // RunAsNode, cookie encryption, NODE_OPTIONS, --inspect, asar integrity, only asar, (snapshot), file:// privileges.
      expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => (wire as unknown as Record<number, number>)[i])).toEqual([
        off,
        on,
        off,
        off,
        on,
        on,
        '0'.charCodeAt(0),
        off,
      ]);
    });

    it(
      'runs from the extracted app: library, formats and citation workers, ranking, styles and keytar all load from the package',
      { timeout: 180_000 },
      async () => {
        const main = join(extracted, 'out', 'main', 'index.js');
        const env = { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(scratch.path, 'no-bus')}` };
        const app = launchShell({
          main,
          scratch: scratch.path,
          name: 'packaged',
          resources,
          args: ['--data-dir', join(scratch.path, 'data'), '--service-url', 'http://127.0.0.1:9'],
          env,
        });
        try {
          await app.waitFor('BrowserWindow.show', 60_000);
          const invoke = async <T>(channel: string, input: object): Promise<T> => {
            const result = await app.send<{ ok: boolean; value: T; error?: unknown }>('invoke', {
              channel: 'citewise:invoke',
              args: [channel, input],
              window: 0,
            });
            expect(result, channel).toMatchObject({ ok: true });
            return result.value;
          };
          const imported = await invoke<{ added: number; ids: number[] }>('library.import', {
            text: bibtex(150),
            fileName: 'library.bib',
          });
          expect(imported.added).toBe(150);
          const found = await invoke<{ rows: { citationKey: string }[] }>('library.list', { query: 'author:author42' });
          expect(found.rows.map((r) => r.citationKey)).toEqual(['entry42']);
          const cited = await invoke<{ text: string }>('library.cite', {
            ids: imported.ids,
            style: 'apa',
            kind: 'bibliography',
          });
          expect(cited.text.match(/Helical structure number \d+ of nucleic acids/g)).toHaveLength(150);
          const exported = await invoke<{ text?: string; content?: string }>('library.export', {
            scope: { kind: 'library' },
            format: 'text',
            style: 'vancouver',
          });
          expect(JSON.stringify(exported).match(/Helical structure number \d+ of nucleic acids/g)).toHaveLength(150);
          const styles = await invoke<{ id: string }[]>('library.styles.list', {});
          expect(styles.map((s) => s.id)).toEqual(
            expect.arrayContaining(['apa', 'ieee', 'mla', 'ama', 'chicago', 'harvard', 'vancouver', 'bibtex']),
          );
          // keytar loaded from app.asar.unpacked and reached for the session bus (there is none here).
          const key = await invoke<{ keychainAvailable: boolean; reason?: string }>('service.key.status', {});
          expect(key.reason).toContain('no Secret Service is running');
          await app.send('closeWindow');
          expect(await app.exited).toEqual({ code: 0, signal: null });
          // The ranking extension from resources/native loaded: no fallback to bm25 was reported.
          expect(app.output()).not.toContain("search ranks with FTS5's bm25");
        } finally {
          await app.stop();
        }

        // The other side: without the extension in resources/native the same app says it falls back.
        const bare = join(scratch.path, 'bare-resources');
        mkdirSync(join(bare, 'native'), { recursive: true });
        copyFileSync(join(resources, 'native', 'better_sqlite3.node'), join(bare, 'native', 'better_sqlite3.node'));
        const fallback = launchShell({
          main,
          scratch: scratch.path,
          name: 'bare',
          resources: bare,
          args: ['--data-dir', join(scratch.path, 'data-bare'), '--service-url', 'http://127.0.0.1:9'],
          env,
        });
        try {
          await fallback.waitFor('BrowserWindow.show', 60_000);
          expect(fallback.output()).toContain("search ranks with FTS5's bm25");
        } finally {
          await fallback.stop();
        }
      },
    );
  },
);
