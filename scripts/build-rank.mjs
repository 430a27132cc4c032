// Builds the search-ranking SQLite extension (electron/core/library/cw_rank.c; see rank.ts) into
// out/native, against the SQLite headers better-sqlite3 ships, with the system's C compiler. The
// library uses it when present and FTS5's own bm25 (same order, slower) when not, so a machine
// without a compiler still builds and runs Citewise: this script then says so and exits 0.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const headers = join(dirname(require.resolve('better-sqlite3/package.json')), 'deps', 'sqlite3');
const source = join(root, 'electron/core/library/cw_rank.c');
const outDir = join(root, 'out/native');
mkdirSync(outDir, { recursive: true });

const file =
  process.platform === 'win32' ? 'cw_rank.dll' : process.platform === 'darwin' ? 'cw_rank.dylib' : 'cw_rank.so';
const out = join(outDir, file);
const compilers = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
const flags = process.platform === 'darwin' ? ['-dynamiclib', '-undefined', 'dynamic_lookup'] : ['-shared', '-fPIC'];

let done = false;
const tried = [];
for (const cc of compilers) {
  const r = spawnSync(cc, ['-O2', '-Wall', '-Werror', ...flags, '-I', headers, source, '-o', out, '-lm'], {
    encoding: 'utf8',
  });
  if (r.error) {
    tried.push(`${cc}: ${r.error.code === 'ENOENT' ? 'not found' : r.error.message}`);
    continue;
  }
  if (r.status !== 0) {
    // A compiler that ran and failed is a real error in the source: stop the build.
    process.stderr.write(r.stderr);
    process.stderr.write(`build-rank: ${cc} could not compile ${source}\n`);
    process.exit(1);
  }
  done = true;
  break;
}
if (!done) {
  process.stdout.write(
    `build-rank: no C compiler (${tried.join('; ')}); search ranks with FTS5's bm25, which gives the same order more slowly.\n`,
  );
}
