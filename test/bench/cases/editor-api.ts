// The editor API as an editor meets it (the built CLI, `citewise api`), each figure beside its
// comparison in the same run:
// - time to ready: process start to the first `probe=1` answered, on the big library and on 1,000
//   items (alternated), and a plain Node loopback HTTP server started the same way, the floor;
// - `item.search` (JSON-RPC, what VS Code's and Obsidian's pickers send as one types) p95 on the big
//   library against the same requests on 1,000 items;
// - a CAYW `probe=1` round trip on the big library against the plain server's round trip.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { percentile, type BenchCase, type BenchMetric } from '../harness';
import { importGenerated } from '../library-setup';

function run(root: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(root, 'bin/citewise.mjs'), ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`citewise ${args.join(' ')} exited with ${code}: ${err.slice(-1000)}`)),
    );
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** One request on a fresh connection (as curl and the editors' plugins make them). */
function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Host: `127.0.0.1:${port}`, 'User-Agent': 'curl/8.5.0' };
    if (body !== undefined)
      Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    const req = request({ host: '127.0.0.1', port, path, method, headers, setHost: false, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The floor: Node itself starting and answering on loopback, nothing else. */
const PLAIN_SERVER = `require('node:http').createServer((q, s) => s.end('ready')).listen(Number(process.argv[1]), '127.0.0.1')`;

interface Started {
  child: ChildProcess;
  port: number;
  /** Process start to the first probe answered, ms. */
  readyMs: number;
}

async function startAndProbe(root: string, kind: 'citewise' | 'plain', dataDir?: string): Promise<Started> {
  const port = await freePort();
  const args =
    kind === 'plain'
      ? ['-e', PLAIN_SERVER, String(port)]
      : [join(root, 'bin/citewise.mjs'), 'api', '--port', String(port), '--no-open', '--data-dir', dataDir!];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CITEWISE_SERVICE_URL: 'http://127.0.0.1:9' },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${kind} exited with ${child.exitCode} before answering: ${err.slice(-1000)}`);
    try {
      const r = await call(port, 'GET', '/better-bibtex/cayw?probe=1');
      if (r.body === 'ready') return { child, port, readyMs: performance.now() - started };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 2));
    if (performance.now() - started > 120_000)
      throw new Error(`${kind} did not answer within 120 s: ${err.slice(-1000)}`);
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    95,
  );
const fmt = (n: number) => n.toLocaleString('en');

/** What people type into a citation picker, keystroke by keystroke: prefixes, authors, years, title words. */
const TYPED = [
  's',
  'sm',
  'smi',
  'smit',
  'smith',
  'smith 20',
  'smith 2019',
  'gar',
  'garcia',
  'wang',
  'wang 2015',
  'prot',
  'protein',
  'protein dyn',
  'quantum',
  'quantum net',
  'clim',
  'climate 2010',
  'learning',
  'müller',
  'nakamura cell',
];

async function searchTimes(port: number, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const terms of TYPED) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'item.search', params: [terms] });
      const t = performance.now();
      const res = await call(port, 'POST', '/better-bibtex/json-rpc', body);
      times.push(performance.now() - t);
      if (res.status !== 200 || !res.body.includes('"result"'))
        throw new Error(`item.search "${terms}" failed: ${res.body.slice(0, 300)}`);
    }
  }
  return times;
}

async function probeTimes(port: number, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(port, 'GET', '/better-bibtex/cayw?probe=1');
    times.push(performance.now() - t);
  }
  return times;
}

const bench: BenchCase = {
  name: 'editor-api',
  description:
    '`citewise api` time to ready, item.search p95 and probe latency on a big library, beside 1,000 items and a plain loopback server (built CLI)',
  async run({ root, tmpDir, quick, log }) {
    if (!existsSync(join(root, 'out/cli/index.js')))
      throw new Error('out/cli is missing: run `npm run build` first (npm run bench does)');
    const small = 1_000;
    const big = quick ? 5_000 : 100_000;
    const dirs: Record<number, string> = {};
    for (const n of [small, big]) {
      dirs[n] = join(tmpDir, `data-${n}`);
      await importGenerated(n, tmpDir, dirs[n]!, (file, dataDir) => run(root, ['import', file, '--data-dir', dataDir]));
    }
    const metrics: BenchMetric[] = [];

    // Time to ready, alternated so that the machine's load falls on all three alike.
    const rounds = quick ? 2 : 7;
    const ready: Record<string, number[]> = { big: [], small: [], plain: [] };
    for (let i = 0; i < rounds; i++) {
      const order: ('big' | 'small' | 'plain')[] = i % 2 ? ['plain', 'big', 'small'] : ['small', 'big', 'plain'];
      for (const which of order) {
        const s = await startAndProbe(
          root,
          which === 'plain' ? 'plain' : 'citewise',
          which === 'big' ? dirs[big] : dirs[small],
        );
        ready[which]!.push(s.readyMs);
        // Let the library finish opening (its worker) before the next start, so runs do not overlap.
        if (which !== 'plain')
          await call(
            s.port,
            'POST',
            '/better-bibtex/json-rpc',
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'item.search', params: ['x'] }),
          );
        await stop(s.child);
      }
    }
    const [rBig, rSmall, rPlain] = [median(ready.big!), median(ready.small!), median(ready.plain!)];
    log(
      `time to ready: ${fmt(big)} items ${rBig.toFixed(0)} ms, ${fmt(small)} items ${rSmall.toFixed(0)} ms, plain Node server ${rPlain.toFixed(0)} ms (medians of ${rounds})`,
    );
    const runs = (xs: number[]) => `runs ${xs.map((t) => t.toFixed(0)).join(', ')} ms`;
    metrics.push(
      {
        metric: `citewise api, ${fmt(big)} items: start to first probe answered (median of ${rounds})`,
        value: rBig,
        unit: 'ms',
        note: runs(ready.big!),
        ...(quick ? {} : { target: '≤ 500', pass: rBig <= 500 }),
      },
      {
        metric: `citewise api, ${fmt(small)} items: start to first probe answered (median of ${rounds})`,
        value: rSmall,
        unit: 'ms',
        note: runs(ready.small!),
      },
      {
        metric: `a plain Node loopback HTTP server: start to first answer (median of ${rounds})`,
        value: rPlain,
        unit: 'ms',
        note: runs(ready.plain!),
      },
      { metric: `time to ready: ${fmt(big)} items / ${fmt(small)} items`, value: rBig / rSmall, unit: 'ratio' },
      {
        metric: `time to ready: citewise api (${fmt(big)} items) / plain Node server`,
        value: rBig / rPlain,
        unit: 'ratio',
      },
    );

    // Searching as one types, and probing, against both libraries and the plain server at once.
    const [apiBig, apiSmall, plain] = [
      await startAndProbe(root, 'citewise', dirs[big]),
      await startAndProbe(root, 'citewise', dirs[small]),
      await startAndProbe(root, 'plain'),
    ];
    try {
      const searchRounds = quick ? 2 : 10;
      // A first pass warms both (SQLite's page cache, the JIT), as an editor session is warm after its first search.
      await searchTimes(apiBig.port, 1);
      await searchTimes(apiSmall.port, 1);
      const sBig: number[] = [];
      const sSmall: number[] = [];
      for (let i = 0; i < searchRounds; i++) {
        sBig.push(...(await searchTimes(apiBig.port, 1)));
        sSmall.push(...(await searchTimes(apiSmall.port, 1)));
      }
      const [qBig, qSmall] = [p95(sBig), p95(sSmall)];
      log(
        `item.search p95: ${fmt(big)} items ${qBig.toFixed(1)} ms, ${fmt(small)} items ${qSmall.toFixed(1)} ms (${sBig.length} requests each)`,
      );
      metrics.push(
        {
          metric: `item.search, ${fmt(big)} items: p95 of ${sBig.length} requests`,
          value: qBig,
          unit: 'ms',
          note: `median ${median(sBig).toFixed(1)} ms; ${TYPED.length} typed queries`,
          ...(quick ? {} : { target: '≤ 30', pass: qBig <= 30 }),
        },
        {
          metric: `item.search, ${fmt(small)} items: p95 of ${sSmall.length} requests`,
          value: qSmall,
          unit: 'ms',
          note: `median ${median(sSmall).toFixed(1)} ms`,
        },
        { metric: `item.search p95: ${fmt(big)} items / ${fmt(small)} items`, value: qBig / qSmall, unit: 'ratio' },
      );

      const n = quick ? 50 : 500;
      const pApi: number[] = [];
      const pPlain: number[] = [];
      for (let i = 0; i < n; i += 10) {
        pApi.push(...(await probeTimes(apiBig.port, 10)));
        pPlain.push(...(await probeTimes(plain.port, 10)));
      }
      const [aP95, fP95] = [p95(pApi), p95(pPlain)];
      log(`probe p95: citewise api ${aP95.toFixed(2)} ms, plain Node server ${fP95.toFixed(2)} ms (${n} each)`);
      metrics.push(
        {
          metric: `CAYW probe=1, ${fmt(big)} items: p95 of ${n}`,
          value: aP95,
          unit: 'ms',
          note: `median ${median(pApi).toFixed(2)} ms`,
          ...(quick ? {} : { target: '≤ 5', pass: aP95 <= 5 }),
        },
        {
          metric: `a plain Node loopback server's round trip: p95 of ${n}`,
          value: fP95,
          unit: 'ms',
          note: `median ${median(pPlain).toFixed(2)} ms`,
        },
        { metric: 'probe p95: citewise api / plain Node server', value: aP95 / fP95, unit: 'ratio' },
      );
    } finally {
      await Promise.all([stop(apiBig.child), stop(apiSmall.child), stop(plain.child)]);
    }
    return metrics;
  },
};

export default bench;
