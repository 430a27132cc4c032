// Which platform and CPU each native file of the package is for, read from its header (ELF, Mach-O,
// PE), and whether the targets asked of `npm run package` can have them. The native builds are made
// for this machine only; packaging for another platform or CPU would ship a better_sqlite3.node or
// keytar.node the app cannot load, so such a target is refused unless matching files are in place.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { ELECTRON_SQLITE, KEYTAR, ROOT } from './native.mjs';

const ELF_MACHINES = { 3: 'ia32', 40: 'armv7l', 62: 'x64', 183: 'arm64' };
const MACHO_CPUS = { 7: 'ia32', 0x01000007: 'x64', 12: 'armv7l', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x14c: 'ia32', 0x8664: 'x64', 0x1c4: 'armv7l', 0xaa64: 'arm64' };
const FORMAT_OF = { linux: 'ELF', mac: 'Mach-O', win: 'PE' };
const PLATFORM_NAMES = { linux: 'Linux', mac: 'macOS', win: 'Windows' };

function readHead(file, length = 4096) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const n = readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** { format: 'ELF' | 'Mach-O' | 'PE' | 'unknown' | 'missing', archs: string[] } of a shared library. */
export function describeBinary(file) {
  if (!existsSync(file)) return { format: 'missing', archs: [] };
  const b = readHead(file);
  const arch = (table, n) => table[n] ?? `machine 0x${n.toString(16)}`;
  if (b.length >= 20 && b[0] === 0x7f && b.toString('latin1', 1, 4) === 'ELF') {
    const machine = b[5] === 2 ? b.readUInt16BE(18) : b.readUInt16LE(18);
    return { format: 'ELF', archs: [arch(ELF_MACHINES, machine)] };
  }
  if (b.length >= 8 && (b.readUInt32LE(0) === 0xfeedfacf || b.readUInt32LE(0) === 0xfeedface)) {
    return { format: 'Mach-O', archs: [arch(MACHO_CPUS, b.readInt32LE(4))] };
  }
  if (b.length >= 8 && b.readUInt32BE(0) === 0xcafebabe) {
    const count = b.readUInt32BE(4);
    const archs = [];
    for (let i = 0; i < count && 8 + i * 20 + 4 <= b.length; i++)
      archs.push(arch(MACHO_CPUS, b.readInt32BE(8 + i * 20)));
    return { format: 'Mach-O', archs };
  }
  if (b.length >= 0x40 && b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    if (pe + 6 <= b.length && b.toString('latin1', pe, pe + 4) === 'PE\0\0')
      return { format: 'PE', archs: [arch(PE_MACHINES, b.readUInt16LE(pe + 4))] };
  }
  return { format: 'unknown', archs: [] };
}

/**
 * The platform/CPU pairs an electron-builder command line asks for (its flags: --linux/-l, --mac/-m,
 * --win/-w, also combined as -mwl; --x64, --arm64, --ia32, --armv7l, --universal); without a platform,
 * this machine's; without a CPU, this machine's.
 */
export function parseTargets(argv, platform = process.platform, arch = process.arch) {
  const platforms = new Set();
  const archs = new Set();
  for (const arg of argv) {
    if (arg === '--linux') platforms.add('linux');
    else if (arg === '--mac' || arg === '--macos' || arg === '-o') platforms.add('mac');
    else if (arg === '--win' || arg === '--windows') platforms.add('win');
    else if (/^-[mwl]+$/.test(arg)) for (const c of arg.slice(1)) platforms.add({ m: 'mac', w: 'win', l: 'linux' }[c]);
    else if (['--x64', '--arm64', '--ia32', '--armv7l', '--universal'].includes(arg)) archs.add(arg.slice(2));
  }
  if (platforms.size === 0) platforms.add(platform === 'darwin' ? 'mac' : platform === 'win32' ? 'win' : 'linux');
  if (archs.size === 0) archs.add(arch);
  return [...platforms].flatMap((p) => [...archs].map((a) => ({ platform: p, arch: a })));
}

const rankFile = (platform) =>
  join(ROOT, 'out', 'native', platform === 'win' ? 'cw_rank.dll' : platform === 'mac' ? 'cw_rank.dylib' : 'cw_rank.so');

/** The native files a package for `platform` ships; `required: false` ones have a fallback in the app. */
export function nativeFiles(platform, { sqlite = ELECTRON_SQLITE, keytar = KEYTAR, rank = rankFile(platform) } = {}) {
  return [
    { name: 'better-sqlite3 for Electron', file: sqlite, required: true },
    { name: 'keytar', file: keytar, required: true },
    { name: 'the search-ranking extension', file: rank, required: false },
  ];
}

function fits(described, target) {
  if (described.format !== FORMAT_OF[target.platform]) return false;
  const wanted = target.arch === 'universal' ? ['x64', 'arm64'] : [target.arch];
  return wanted.every((a) => described.archs.includes(a));
}

const describe = (d) =>
  d.format === 'missing'
    ? 'not built'
    : d.format === 'unknown'
      ? 'not a shared library'
      : `${d.format} ${d.archs.join('+')}`;
export const targetName = (t) => `${PLATFORM_NAMES[t.platform]} ${t.arch}`;

/**
 * What stops packaging for `targets`: a required file missing or for another platform or CPU (a
 * problem), an optional one likewise (a warning: the app falls back). Paths can be replaced for tests.
 */
export function checkNativeTargets(targets, files = nativeFiles) {
  const problems = [];
  const warnings = [];
  for (const target of targets) {
    for (const { name, file, required } of files(target.platform)) {
      const found = describeBinary(file);
      if (fits(found, target)) continue;
      const line = `${targetName(target)} needs ${name} as ${FORMAT_OF[target.platform]} ${target.arch}, but ${file} is ${describe(found)}`;
      (required ? problems : warnings).push(line);
    }
  }
  return { problems, warnings };
}
