// `npm start`: build, then run the Electron app. Where the Electron binary is not available (a machine
// that could not download it), say so in one line and run the same app in browser mode instead.
// `npm run dev` does the same with electron-vite's dev server and hot reload.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildElectronSqlite } from './native-electron.mjs';
import { electronInfo, ROOT } from './native.mjs';

const args = process.argv.slice(2);
const dev = args.includes('--dev');
const passThrough = args.filter((a) => a !== '--dev');

function run(command, commandArgs, options = {}) {
  return spawnSync(command, commandArgs, {
    cwd: ROOT,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    ...options,
  });
}

function build() {
  process.stdout.write('Building Citewise…\n');
  const result = run('npm', ['run', '--silent', 'build'], { stdio: 'pipe' });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}\nCitewise: the build failed (output above).\n`);
    process.exit(1);
  }
}

/** The Electron binary, fetching it once if it is missing (Electron downloads it on first run). */
function electronBinary() {
  let info = electronInfo();
  if (info.binary) return { info };
  const download = run(process.execPath, [join(info.dir, 'install.js')], { stdio: 'pipe', timeout: 5 * 60_000 });
  info = electronInfo();
  if (info.binary) return { info };
  const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|fetch failed|getaddrinfo/i.test(
    `${download.stdout}${download.stderr}`,
  );
  return {
    info,
    reason: `the Electron ${info.version} binary is not available on this machine${offline ? ' (it could not be downloaded: no network access)' : ' (its download failed)'}`,
  };
}

function forward(child) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
}

function browserMode(reason) {
  process.stdout.write(`Citewise: ${reason}, so it starts in browser mode instead.\n`);
  forward(
    spawn(process.execPath, [join(ROOT, 'bin', 'citewise.mjs'), 'serve', '--open', ...passThrough], {
      cwd: ROOT,
      stdio: 'inherit',
    }),
  );
}

try {
  const { info, reason } = electronBinary();
  if (reason) {
    build();
    browserMode(reason);
  } else {
    const sqlite = buildElectronSqlite({ quiet: true });
    if (!sqlite.ok) {
      build();
      browserMode(`the database engine could not be built for Electron (${sqlite.reason})`);
    } else if (dev) {
      forward(
        spawn(
          process.execPath,
          [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'dev', '--', ...passThrough],
          { cwd: ROOT, stdio: 'inherit' },
        ),
      );
    } else {
      build();
      forward(spawn(info.binary, [ROOT, ...passThrough], { cwd: ROOT, stdio: 'inherit' }));
    }
  }
} catch (err) {
  process.stderr.write(`Citewise could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
