// Facts about the native addons (better-sqlite3, keytar) and the Electron binary, shared by the
// start, package and ABI-check scripts. Plain Node ESM, no dependencies.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));

/** Where the Electron-ABI build of better-sqlite3 lives; it never replaces the Node build in node_modules. */
export const ELECTRON_SQLITE_DIR = join(ROOT, 'build', 'native', 'electron');
export const ELECTRON_SQLITE = join(ELECTRON_SQLITE_DIR, 'better_sqlite3.node');
export const NODE_SQLITE = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
export const KEYTAR = join(ROOT, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node');

/**
 * Reads which ABI a native addon was built for, without loading it: V8-API addons export
 * node_register_module_v<ABI>; N-API addons export napi_register_module_v1 and load in any runtime.
 */
export function readAbi(file) {
  if (!existsSync(file)) return { kind: 'missing' };
  const text = readFileSync(file).toString('latin1');
  const v8 = /node_register_module_v(\d+)/.exec(text);
  if (v8) return { kind: 'abi', abi: Number(v8[1]) };
  if (text.includes('napi_register_module_v')) return { kind: 'napi' };
  return { kind: 'unknown' };
}

export function electronInfo() {
  const dir = dirname(require.resolve('electron/package.json'));
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const abi = Number(readFileSync(join(dir, 'abi_version'), 'utf8').trim());
  const pathFile = join(dir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  let binary = null;
  if (existsSync(pathFile)) {
    const relative = readFileSync(pathFile, 'utf8').trim();
    binary = override ? join(override, relative) : join(dir, 'dist', relative);
  } else if (override) {
    binary = join(override, 'electron');
  }
  return { dir, version, abi, binary: binary && existsSync(binary) ? binary : null };
}

export function describeAbi(result) {
  switch (result.kind) {
    case 'missing':
      return 'not built';
    case 'napi':
      return 'N-API (loads in Node and Electron alike)';
    case 'abi':
      return `ABI ${result.abi}`;
    default:
      return 'unrecognised binary';
  }
}
