// `npm run package [-- --linux|--mac|--win] [--x64|--arm64]`: build the app, build better-sqlite3 for Electron's ABI
// (beside, never over, the Node build) and package with electron-builder. On a machine that cannot
// download Electron or its headers, it says what is missing and packages nothing.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildElectronSqlite } from './native-electron.mjs';
import { electronInfo, ROOT } from './native.mjs';
import { checkNativeTargets, parseTargets } from './native-target.mjs';

const targets = process.argv.slice(2);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });

// The native files are built for this machine only. A package for another platform or CPU would ship
// ones its Electron cannot load, so it is refused unless matching files are already in place (checked
// by their headers, before building anything; this machine's own target is checked after building).
const wanted = parseTargets(targets);
const refuse = (problems, warnings) => {
  for (const w of warnings)
    process.stderr.write(`Note: ${w}; search ranks with FTS5's bm25 there (same order, slower).\n`);
  if (problems.length === 0) return;
  process.stderr.write(
    `Packaging stopped: the native builds do not fit the target.\n${problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  process.stderr.write(
    'Package on a machine of that platform and CPU (npm run package there), or put builds for it in those places. Nothing was packaged.\n',
  );
  process.exit(1);
};
const host = parseTargets([])[0];
const foreign = wanted.filter((t) => t.platform !== host.platform || t.arch !== host.arch);
if (foreign.length > 0) refuse(checkNativeTargets(foreign).problems, []);

if (run('npm', ['run', '--silent', 'build']).status !== 0) {
  process.stderr.write('Packaging stopped: the build failed.\n');
  process.exit(1);
}
const sqlite = buildElectronSqlite();
if (!sqlite.ok) {
  process.stderr.write(`Packaging stopped: ${sqlite.reason}. Nothing was packaged.\n`);
  process.exit(1);
}
const checked = checkNativeTargets(wanted);
refuse(checked.problems, checked.warnings);
const electron = electronInfo();
process.stdout.write(`better-sqlite3 for Electron ${electron.version}: ABI ${sqlite.abi}\n`);
const builder = join(ROOT, 'node_modules', 'electron-builder', 'cli.js');
const result = run(process.execPath, [builder, '--publish', 'never', ...targets]);
if (result.status !== 0) {
  process.stderr.write(
    'Packaging failed in electron-builder (output above). Electron and its packaging tools are downloaded on first use; this needs network access.\n',
  );
  process.exit(1);
}
