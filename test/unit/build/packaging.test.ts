// The packaging guarantees that cannot be exercised without the Electron binary, pinned down as
// configuration: fuses, targets, and an Electron build of better-sqlite3 that never replaces the Node one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const config = parse(readFileSync('electron-builder.yml', 'utf8')) as Record<string, unknown>;

describe('packaging configuration', () => {
  it('sets the Electron fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
    });
    expect(config.asar).toBe(true);
  });

  it('targets AppImage and deb on Linux, dmg on macOS, NSIS on Windows', () => {
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.mac as { target: string }).target).toBe('dmg');
    expect((config.win as { target: string }).target).toBe('nsis');
  });

  it('ships the Electron build of better-sqlite3 where the main process loads it, and never rebuilds node_modules', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.extraResources).toEqual([
      { from: 'build/native/electron/better_sqlite3.node', to: 'native/better_sqlite3.node' },
      { from: 'out/native', to: 'native', filter: ['cw_rank.*'] },
    ]);
    const main = readFileSync('electron/main/index.ts', 'utf8');
    expect(main).toContain("join(process.resourcesPath, 'native', 'better_sqlite3.node')");
    expect(main).toContain("'../../build/native/electron/better_sqlite3.node'");
  });

  it('ships the search-ranking extension as a real file beside the app, outside the asar archive, where the main process passes it to the core', () => {
    expect(config.files).toContain('!out/native/**');
    const main = readFileSync('electron/main/index.ts', 'utf8');
    expect(main).toContain("join(process.resourcesPath, 'native', rankExtensionFile())");
    expect(main).toContain('sqliteRankExtension: rankExtension()');
  });
});

describe('native builds', () => {
  it('reports the ABI of each build, and the Node build matches this Node', () => {
    const report = JSON.parse(execFileSync(process.execPath, ['scripts/native-abi.mjs', '--json'], { encoding: 'utf8' })) as {
      nodeAbi: number;
      electron: { abi: number };
      builds: { build: string; found: string; verdict: string }[];
    };
    expect(report.nodeAbi).toBe(Number(process.versions.modules));
    const byName = Object.fromEntries(report.builds.map((b) => [b.build, b]));
    expect(byName['better-sqlite3 for Node']).toMatchObject({ found: `ABI ${process.versions.modules}`, verdict: 'ok' });
    expect(byName.keytar).toMatchObject({ found: expect.stringContaining('N-API'), verdict: 'ok' });
    expect(report.electron.abi).toBeGreaterThan(Number(process.versions.modules));
  });
});
