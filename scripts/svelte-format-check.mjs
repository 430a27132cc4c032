// `node scripts/svelte-format-check.mjs [REV]`: what formatting the Svelte components changed in what
// they render. Compiles every renderer/**/*.svelte file as it is now and as it was at REV (default
// HEAD) and compares the compiled code. Prettier re-wraps text (a line break and indentation where a
// space was): the browser shows that the same except under white-space: pre*, so those files are
// listed with the re-wrapped lines, to be checked against the elements styled so. Any other
// difference (whitespace added where there was none, code that changed) is printed and exits 1.
// Used when the formatting commit is made again (see .prettierignore).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compile } from 'svelte/compiler';

const rev = process.argv[2] ?? 'HEAD';
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 << 20 });

// Comments and the CSS scope hash (derived from the CSS text) are not what the user sees.
function compiled(source, filename) {
  const out = compile(source, { filename, generate: 'client', css: 'external', cssHash: () => 'svelte-h' });
  const js = out.js.code.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  return `${js}\n${(out.css?.code ?? '').replace(/\s+/g, ' ')}`;
}

// One space for every whitespace run, escaped newlines in string literals included, and none just
// inside brackets, where the compiler's own printer breaks lines by their length.
const folded = (code) =>
  code
    .replace(/\\n/g, ' ')
    .replace(/[ \t\n\r\f]+/g, ' ')
    .replace(/([([]) | (?=[)\]])|,(?= ?[)\]])/g, '$1');

const lines = (code) => new Set(code.split('\n').map((l) => l.trim()));

let rewrapped = 0;
let changed = 0;
const files = git('ls-files', 'renderer/**/*.svelte').split('\n').filter(Boolean);
for (const file of files) {
  let before;
  try {
    before = git('show', `${rev}:${file}`);
  } catch {
    continue; // new since REV: nothing to compare with
  }
  const a = compiled(before, file);
  const b = compiled(readFileSync(file, 'utf8'), file);
  if (a === b) continue;
  if (folded(a) !== folded(b)) {
    changed++;
    const x = folded(a);
    const y = folded(b);
    let i = 0;
    while (x[i] === y[i]) i++;
    console.log(
      `${file}: changed beyond whitespace near\n  - …${x.slice(i - 100, i + 100)}…\n  + …${y.slice(i - 100, i + 100)}…`,
    );
    continue;
  }
  rewrapped++;
  const old = lines(a);
  const now = [...lines(b)].filter((l) => !old.has(l) && l);
  console.log(`${file}: text re-wrapped\n${now.map((l) => `  + ${l.slice(0, 160)}`).join('\n')}`);
}
console.log(`${files.length} components: ${rewrapped} with text re-wrapped, ${changed} changed beyond whitespace`);
process.exitCode = changed ? 1 : 0;
