// `npm run bench [-- NAME… --quick --no-readme]`: runs the cases in test/bench/cases, writes one JSON
// file per case to bench-results/, prints a table and rewrites the README's benchmark section from
// every JSON file there (so running one case updates only its rows). --quick (used by CI) checks that
// the cases run at small sizes and leaves the results and the README alone.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchCase, BenchMetric } from './harness';

const ROOT = resolve(import.meta.dirname, '../..');
const RESULTS = join(ROOT, 'bench-results');
const README = join(ROOT, 'README.md');
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
const only = args.filter((a) => !a.startsWith('--'));

function format(m: BenchMetric): string {
  const v = Math.abs(m.value) >= 100 ? m.value.toFixed(0) : Math.abs(m.value) >= 10 ? m.value.toFixed(1) : m.value.toFixed(2);
  return `${v} ${m.unit}`;
}

function table(rows: Stored[]): string {
  const lines = ['| case | metric | result | target | |', '|---|---|---|---|---|'];
  for (const r of rows) {
    for (const m of r.metrics) {
      const verdict = m.pass === undefined ? '' : m.pass ? 'met' : '**not met**';
      lines.push(`| ${r.case} | ${m.metric}${m.note ? ` (${m.note})` : ''} | ${format(m)} | ${m.target ?? ''} | ${verdict} |`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const dir = join(import.meta.dirname, 'cases');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts')).sort();
  const cases: BenchCase[] = [];
  for (const f of files) cases.push(((await import(pathToFileURL(join(dir, f)).href)) as { default: BenchCase }).default);
  const selected = only.length ? cases.filter((c) => only.includes(c.name)) : cases;
  if (only.length && selected.length !== only.length) {
    throw new Error(`unknown case(s): ${only.filter((n) => !cases.some((c) => c.name === n)).join(', ')}; known: ${cases.map((c) => c.name).join(', ')}`);
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
      const stored: Stored = { case: c.name, description: c.description, date: new Date().toISOString(), machine, metrics };
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
    const readme = readFileSync(README, 'utf8');
    const a = readme.indexOf(START);
    const b = readme.indexOf(END);
    if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} section`);
    const dates = all.map((r) => r.date.slice(0, 10)).sort();
    const body = `${START}\nMeasured on ${all[0]?.machine ?? machine}; ${dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`}. Raw results: \`bench-results/*.json\`.\n\n${table(all)}\n${END}`;
    writeFileSync(README, readme.slice(0, a) + body + readme.slice(b + END.length));
    process.stdout.write('README.md benchmark table updated.\n');
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
