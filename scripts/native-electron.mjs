// Builds better-sqlite3 for Electron's ABI into build/native/electron, from a copy of its sources,
// so the Node build in node_modules (used by tests, the CLI and host mode) is never overwritten.
// The ABI of the result is checked, not assumed: a nodedir setting in ~/.npmrc can make node-gyp
// "succeed" while building against Node's headers.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ELECTRON_SQLITE, ELECTRON_SQLITE_DIR, electronInfo, readAbi, ROOT } from './native.mjs';

export function buildElectronSqlite({ quiet = false } = {}) {
  const electron = electronInfo();
  const existing = readAbi(ELECTRON_SQLITE);
  if (existing.kind === 'abi' && existing.abi === electron.abi) return { ok: true, built: false, abi: existing.abi };

  const src = join(ROOT, 'build', 'native', 'better-sqlite3-src');
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  const pkg = join(ROOT, 'node_modules', 'better-sqlite3');
  for (const entry of ['binding.gyp', 'src', 'deps', 'package.json'])
    cpSync(join(pkg, entry), join(src, entry), { recursive: true });

  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(key)) delete env[key];
  const gyp = join(ROOT, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const result = spawnSync(
    process.execPath,
    [
      gyp,
      'rebuild',
      '--release',
      `--target=${electron.version}`,
      '--runtime=electron',
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
      '--build-from-source',
    ],
    { cwd: src, env, encoding: 'utf8', stdio: 'pipe' },
  );
  if (result.status !== 0) {
    const log = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo|fetch failed|network connectivity/i.test(
      log,
    );
    if (!quiet && !offline) process.stderr.write(log);
    return {
      ok: false,
      reason: offline
        ? `could not download the Electron ${electron.version} headers that building better-sqlite3 for Electron needs (no network access)`
        : `node-gyp failed to build better-sqlite3 for Electron ${electron.version} (exit ${result.status})`,
    };
  }
  const built = join(src, 'build', 'Release', 'better_sqlite3.node');
  const abi = readAbi(built);
  if (abi.kind !== 'abi' || abi.abi !== electron.abi) {
    return {
      ok: false,
      reason: `the build came out for ${abi.kind === 'abi' ? `ABI ${abi.abi}` : 'an unknown ABI'}, but Electron ${electron.version} needs ABI ${electron.abi}; check nodedir in ~/.npmrc`,
    };
  }
  mkdirSync(ELECTRON_SQLITE_DIR, { recursive: true });
  copyFileSync(built, ELECTRON_SQLITE);
  writeFileSync(
    join(ELECTRON_SQLITE_DIR, 'build.json'),
    `${JSON.stringify({ electron: electron.version, abi: electron.abi, builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  return { ok: true, built: true, abi: electron.abi };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = buildElectronSqlite();
  if (result.ok) {
    process.stdout.write(
      `better-sqlite3 for Electron: ABI ${result.abi} (${result.built ? 'built' : 'already built'}) at ${ELECTRON_SQLITE}\n`,
    );
  } else {
    process.stderr.write(`Could not build better-sqlite3 for Electron: ${result.reason}.\n`);
    process.exitCode = 1;
  }
  if (existsSync(join(ROOT, 'build', 'native', 'better-sqlite3-src')))
    rmSync(join(ROOT, 'build', 'native', 'better-sqlite3-src'), { recursive: true, force: true });
}
