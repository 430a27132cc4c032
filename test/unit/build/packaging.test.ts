// The packaging guarantees that cannot be exercised without the Electron binary, pinned down as
// configuration: fuses, targets, and an Electron build of better-sqlite3 that never replaces the Node one.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNativeTargets, describeBinary, parseTargets } from '../../../scripts/native-target.mjs';
import { tempDir } from '../../helpers/tmp';

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
    const report = JSON.parse(
      execFileSync(process.execPath, ['scripts/native-abi.mjs', '--json'], { encoding: 'utf8' }),
    ) as {
      nodeAbi: number;
      electron: { abi: number };
      builds: { build: string; found: string; verdict: string }[];
    };
    expect(report.nodeAbi).toBe(Number(process.versions.modules));
    const byName = Object.fromEntries(report.builds.map((b) => [b.build, b]));
    expect(byName['better-sqlite3 for Node']).toMatchObject({
      found: `ABI ${process.versions.modules}`,
      verdict: 'ok',
    });
    expect(byName.keytar).toMatchObject({ found: expect.stringContaining('N-API'), verdict: 'ok' });
    expect(report.electron.abi).toBeGreaterThan(Number(process.versions.modules));
  });
});

const KEYTAR = join('node_modules', 'keytar', 'build', 'Release', 'keytar.node');

describe('native files for the target platform and CPU', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  const elf = (machine: number, bigEndian = false) => {
    const b = Buffer.alloc(64);
    b.write('\x7fELF', 0, 'latin1');
    b[4] = 2;
    b[5] = bigEndian ? 2 : 1;
    if (bigEndian) b.writeUInt16BE(machine, 18);
    else b.writeUInt16LE(machine, 18);
    return b;
  };
  const macho = (cpu: number) => {
    const b = Buffer.alloc(32);
    b.writeUInt32LE(0xfeedfacf, 0);
    b.writeInt32LE(cpu, 4);
    return b;
  };
  const fat = (...cpus: number[]) => {
    const b = Buffer.alloc(8 + cpus.length * 20);
    b.writeUInt32BE(0xcafebabe, 0);
    b.writeUInt32BE(cpus.length, 4);
    cpus.forEach((cpu, i) => b.writeInt32BE(cpu, 8 + i * 20));
    return b;
  };
  const pe = (machine: number) => {
    const b = Buffer.alloc(0x100);
    b.write('MZ', 0, 'latin1');
    b.writeUInt32LE(0x80, 0x3c);
    b.write('PE\0\0', 0x80, 'latin1');
    b.writeUInt16LE(machine, 0x84);
    return b;
  };
  const file = (name: string, bytes: Buffer | string) => {
    const path = join(dir.path, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('reads the platform and CPU from the header, not the name', () => {
    expect(describeBinary(file('a.node', elf(62)))).toEqual({ format: 'ELF', archs: ['x64'] });
    expect(describeBinary(file('b.node', elf(183)))).toEqual({ format: 'ELF', archs: ['arm64'] });
    expect(describeBinary(file('c.node', elf(183, true)))).toEqual({ format: 'ELF', archs: ['arm64'] });
    expect(describeBinary(file('d.node', macho(0x01000007)))).toEqual({ format: 'Mach-O', archs: ['x64'] });
    expect(describeBinary(file('e.node', macho(0x0100000c)))).toEqual({ format: 'Mach-O', archs: ['arm64'] });
    expect(describeBinary(file('f.node', fat(0x01000007, 0x0100000c)))).toEqual({
      format: 'Mach-O',
      archs: ['x64', 'arm64'],
    });
    expect(describeBinary(file('g.node', pe(0x8664)))).toEqual({ format: 'PE', archs: ['x64'] });
    expect(describeBinary(file('h.node', pe(0xaa64)))).toEqual({ format: 'PE', archs: ['arm64'] });
    expect(describeBinary(file('i.node', elf(0x1234)))).toEqual({ format: 'ELF', archs: ['machine 0x1234'] });
    expect(describeBinary(file('j.dll', 'MZ but no PE header here, only text padding it out to some length.'))).toEqual(
      { format: 'unknown', archs: [] },
    );
    expect(describeBinary(file('k.node', 'not a library'))).toEqual({ format: 'unknown', archs: [] });
    expect(describeBinary(join(dir.path, 'missing.node'))).toEqual({ format: 'missing', archs: [] });
    // The real builds of this machine.
    if (process.platform === 'linux') expect(describeBinary(KEYTAR)).toEqual({ format: 'ELF', archs: [process.arch] });
  });

  it("reads electron-builder's platform and CPU flags", () => {
    expect(parseTargets([], 'linux', 'x64')).toEqual([{ platform: 'linux', arch: 'x64' }]);
    expect(parseTargets([], 'darwin', 'arm64')).toEqual([{ platform: 'mac', arch: 'arm64' }]);
    expect(parseTargets(['--win'], 'linux', 'x64')).toEqual([{ platform: 'win', arch: 'x64' }]);
    expect(parseTargets(['--linux', 'deb', '--arm64'], 'linux', 'x64')).toEqual([{ platform: 'linux', arch: 'arm64' }]);
    expect(parseTargets(['-mwl', '--x64', '--arm64'], 'linux', 'x64')).toHaveLength(6);
    expect(parseTargets(['--mac', '--universal'], 'linux', 'x64')).toEqual([{ platform: 'mac', arch: 'universal' }]);
    expect(parseTargets(['--publish', 'never', '--dir'], 'linux', 'x64')).toEqual([{ platform: 'linux', arch: 'x64' }]);
  });

  it('accepts a target only when every required native file is built for it; a missing ranking extension is a warning', () => {
    const files = (kinds: Record<string, string>) => () => [
      { name: 'better-sqlite3 for Electron', file: kinds.sqlite!, required: true },
      { name: 'keytar', file: kinds.keytar!, required: true },
      { name: 'the search-ranking extension', file: kinds.rank!, required: false },
    ];
    const linux = files({
      sqlite: file('s.node', elf(62)),
      keytar: file('k.node', elf(62)),
      rank: file('r.so', elf(62)),
    });
    expect(checkNativeTargets([{ platform: 'linux', arch: 'x64' }], linux)).toEqual({ problems: [], warnings: [] });
    const arm = checkNativeTargets([{ platform: 'linux', arch: 'arm64' }], linux);
    expect(arm.problems).toEqual([
      expect.stringMatching(/^Linux arm64 needs better-sqlite3 for Electron as ELF arm64, but .*s\.node is ELF x64$/),
      expect.stringMatching(/keytar as ELF arm64/),
    ]);
    expect(arm.warnings).toEqual([expect.stringMatching(/search-ranking extension as ELF arm64/)]);
    expect(checkNativeTargets([{ platform: 'mac', arch: 'x64' }], linux).problems).toHaveLength(2);
    expect(checkNativeTargets([{ platform: 'win', arch: 'x64' }], linux).problems).toHaveLength(2);

    const mac = files({
      sqlite: file('ms.node', fat(0x01000007, 0x0100000c)),
      keytar: file('mk.node', macho(0x0100000c)),
      rank: join(dir.path, 'none.dylib'),
    });
    expect(checkNativeTargets([{ platform: 'mac', arch: 'arm64' }], mac)).toEqual({
      problems: [],
      warnings: [expect.stringContaining('is not built')],
    });
    // A universal package needs both CPUs in each file: keytar here has one.
    expect(checkNativeTargets([{ platform: 'mac', arch: 'universal' }], mac).problems).toEqual([
      expect.stringMatching(/keytar as Mach-O universal, but .* is Mach-O arm64$/),
    ]);
    const win = files({
      sqlite: file('ws.node', pe(0x8664)),
      keytar: file('wk.node', pe(0x8664)),
      rank: file('wr.dll', pe(0x8664)),
    });
    expect(checkNativeTargets([{ platform: 'win', arch: 'x64' }], win)).toEqual({ problems: [], warnings: [] });
    expect(checkNativeTargets([{ platform: 'win', arch: 'arm64' }], win).problems).toHaveLength(2);
  });

  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'npm run package refuses another platform or CPU at once, before building anything',
    () => {
      for (const args of [['--win'], ['--mac'], ['--linux', '--arm64'], ['-mwl']]) {
        const result = spawnSync(process.execPath, ['scripts/package.mjs', ...args], {
          encoding: 'utf8',
          timeout: 30_000,
        });
        expect(result.status, args.join(' ')).toBe(1);
        expect(result.stderr).toContain('Packaging stopped: the native builds do not fit the target.');
        expect(result.stderr).toMatch(/keytar as (PE|Mach-O|ELF) (x64|arm64), but .*keytar\.node is ELF x64/);
        expect(result.stdout).toBe('');
      }
    },
  );
});
