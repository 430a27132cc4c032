// `npm run package [-- --linux|--mac|--win]`: build the app, build better-sqlite3 for Electron's ABI
// (beside, never over, the Node build) and package with electron-builder. On a machine that cannot
// download Electron or its headers, it says what is missing and packages nothing.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildElectronSqlite } from './native-electron.mjs';
import { electronInfo, ROOT } from './native.mjs';

const targets = process.argv.slice(2);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });

if (run('npm', ['run', '--silent', 'build']).status !== 0) {
  process.stderr.write('Packaging stopped: the build failed.\n');
  process.exit(1);
}
const sqlite = buildElectronSqlite();
if (!sqlite.ok) {
  process.stderr.write(`Packaging stopped: ${sqlite.reason}. Nothing was packaged.\n`);
  process.exit(1);
}
const electron = electronInfo();
process.stdout.write(`better-sqlite3 for Electron ${electron.version}: ABI ${sqlite.abi}\n`);
const builder = join(ROOT, 'node_modules', 'electron-builder', 'cli.js');
const result = run(process.execPath, [builder, '--publish', 'never', ...targets]);
if (result.status !== 0) {
  process.stderr.write('Packaging failed in electron-builder (output above). Electron and its packaging tools are downloaded on first use; this needs network access.\n');
  process.exit(1);
}
