// `npm run bench [-- NAME… --quick --no-readme --tables-only]`: runs the cases in test/bench/cases, writes one JSON
// file per case to bench-results/, prints a table, and rewrites docs/benchmarks.md (every result, from
// every JSON file there, so running one case updates only its rows) and the README's short summary
// of it. --quick (used by CI) checks that the cases run at small sizes and leaves the results, the
// docs and the README alone; --tables-only runs nothing and rewrites the docs and the README from
// bench-results/.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchCase, BenchMetric } from './harness';

const ROOT = resolve(import.meta.dirname, '../..');
const RESULTS = join(ROOT, 'bench-results');
const README = join(ROOT, 'README.md');
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

interface Stored {
  case: string;
  description: string;
  date: string;
  machine: string;
  metrics: BenchMetric[];
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const writeReadme = !quick && !args.includes('--no-readme');
const tablesOnly = args.includes('--tables-only');
const only = args.filter((a) => !a.startsWith('--'));
const OPTIONS = ['--quick', '--no-readme', '--tables-only', '--help'];
const unknown = args.filter((a) => a.startsWith('-') && !OPTIONS.includes(a));
if (args.includes('--help') || args.includes('-h') || unknown.length) {
  // A mistyped option must not start a full-size run (which takes many minutes and rewrites the docs).
  const cases = readdirSync(join(import.meta.dirname, 'cases'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
  const usage = `usage: npm run bench [-- NAME… ${OPTIONS.slice(0, 3).join(' ')}]\n  cases: ${cases.sort().join(', ')}`;
  if (unknown.length && !args.includes('--help')) {
    console.error(`unknown option(s): ${unknown.join(', ')}\n${usage}`);
    process.exit(2);
  }
  console.log(usage);
  process.exit(0);
}

function format(m: BenchMetric): string {
  const v =
    Math.abs(m.value) >= 100 ? m.value.toFixed(0) : Math.abs(m.value) >= 10 ? m.value.toFixed(1) : m.value.toFixed(2);
  return `${v} ${m.unit}`;
}

function table(rows: Stored[]): string {
  const lines = ['| case | metric | result | target | |', '|---|---|---|---|---|'];
  for (const r of rows) {
    for (const m of r.metrics) {
      const verdict = m.pass === undefined ? '' : m.pass ? 'met' : '**not met**';
      lines.push(
        `| ${r.case} | ${m.metric}${m.note ? ` (${m.note})` : ''} | ${format(m)} | ${m.target ?? ''} | ${verdict} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Puts `body` between the START and END markers of `file`. */
function replaceSection(file: string, body: string): void {
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${file} has no ${START} … ${END} section`);
  writeFileSync(file, `${text.slice(0, a)}${START}\n${body}\n${END}${text.slice(b + END.length)}`);
}

/** The README's few lines: how many targets are met, which are not, and where the rest is. */
function summary(rows: Stored[], when: string): string {
  const targets = rows.flatMap((r) => r.metrics.filter((m) => m.pass !== undefined).map((m) => ({ r, m })));
  const missed = targets.filter((t) => !t.m.pass);
  const lines = [
    `${when} ${targets.length - missed.length} of ${targets.length} targets met, in ${rows.length} benchmark cases.`,
    missed.length
      ? `Not met: ${missed.map((t) => `${t.r.case} ${t.m.metric} (${format(t.m)}, target ${t.m.target})`).join('; ')}.`
      : 'Every target is met.',
    'Every result, with the comparisons measured in the same run: [docs/benchmarks.md](docs/benchmarks.md).',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const dir = join(import.meta.dirname, 'cases');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const cases: BenchCase[] = [];
  for (const f of files)
    cases.push(((await import(pathToFileURL(join(dir, f)).href)) as { default: BenchCase }).default);
  const selected = tablesOnly ? [] : only.length ? cases.filter((c) => only.includes(c.name)) : cases;
  if (only.length && selected.length !== only.length) {
    throw new Error(
      `unknown case(s): ${only.filter((n) => !cases.some((c) => c.name === n)).join(', ')}; known: ${cases.map((c) => c.name).join(', ')}`,
    );
  }
  mkdirSync(RESULTS, { recursive: true });
  const machine = `${cpus().length} cores, Node ${process.versions.node}, ${process.platform}`;
  const ran: Stored[] = [];
  let failures = 0;
  for (const c of selected) {
    const tmpDir = mkdtempSync(join(tmpdir(), `citewise-bench-${c.name}-`));
    process.stdout.write(`\n▶ ${c.name}: ${c.description}${quick ? ' (quick)' : ''}\n`);
    const started = Date.now();
    try {
      const metrics = await c.run({ root: ROOT, tmpDir, quick, log: (m) => process.stdout.write(`  ${m}\n`) });
      const stored: Stored = {
        case: c.name,
        description: c.description,
        date: new Date().toISOString(),
        machine,
        metrics,
      };
      ran.push(stored);
      if (!quick) writeFileSync(join(RESULTS, `${c.name}.json`), `${JSON.stringify(stored, null, 2)}\n`);
      process.stdout.write(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    } catch (err) {
      failures++;
      process.stderr.write(`  FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    } finally {
      rmSync(tmpDir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`\n${table(ran)}\n`);
  if (writeReadme) {
    const all = readdirSync(RESULTS)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(RESULTS, f), 'utf8')) as Stored);
    const dates = all.map((r) => r.date.slice(0, 10)).sort();
    const when = `Measured on ${all[0]?.machine ?? machine}; ${dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`}.`;
    replaceSection(DOC, `${when} Raw results: \`bench-results/*.json\`.\n\n${table(all)}`);
    replaceSection(README, summary(all, when));
    process.stdout.write('docs/benchmarks.md and the README summary updated.\n');
  }
  if (failures) process.exitCode = 1;
}

// Exit once every case has finished and its results are written: a case that leaves a handle open
// (a worker, a child's pipe) must not keep CI waiting.
void main()
  .catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
