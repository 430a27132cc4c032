// `npm run native:check`: which runtime each native build is for. Exits 1 when the Node build of
// better-sqlite3 does not match this Node (tests, the CLI and host mode would fail to load it),
// or when an Electron build exists but was built for the wrong ABI (the ~/.npmrc nodedir trap).
import { describeAbi, electronInfo, ELECTRON_SQLITE, KEYTAR, NODE_SQLITE, readAbi } from './native.mjs';

const nodeAbi = Number(process.versions.modules);
const electron = electronInfo();
const rows = [
  { build: 'better-sqlite3 for Node', file: NODE_SQLITE, want: nodeAbi, runtime: `Node ${process.versions.node}` },
  {
    build: 'better-sqlite3 for Electron',
    file: ELECTRON_SQLITE,
    want: electron.abi,
    runtime: `Electron ${electron.version}`,
    optional: true,
  },
  { build: 'keytar', file: KEYTAR, want: 'napi', runtime: 'any' },
];

let failed = false;
const report = rows.map((row) => {
  const found = readAbi(row.file);
  let verdict;
  if (found.kind === 'missing') verdict = row.optional ? 'not built (npm run package builds it)' : 'MISSING';
  else if (row.want === 'napi') verdict = found.kind === 'napi' ? 'ok' : 'WRONG: expected N-API';
  else verdict = found.kind === 'abi' && found.abi === row.want ? 'ok' : `WRONG: ${row.runtime} needs ABI ${row.want}`;
  if (verdict === 'MISSING' || verdict.startsWith('WRONG')) failed = true;
  return { ...row, found: describeAbi(found), verdict };
});

if (process.argv.includes('--json')) {
  process.stdout.write(
    `${JSON.stringify({ nodeAbi, electron: { version: electron.version, abi: electron.abi, binary: electron.binary !== null }, builds: report }, null, 2)}\n`,
  );
} else {
  for (const r of report)
    process.stdout.write(`${r.build.padEnd(30)} ${r.found.padEnd(42)} for ${r.runtime.padEnd(16)} ${r.verdict}\n`);
}
process.exitCode = failed ? 1 : 0;
