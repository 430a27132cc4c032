// The local service at scale: generating a 1,000,000-paper corpus, starting on it, and the latency of
// GET /papers/{doi} and of POST /papers with 500 DOIs against it (quick mode: 20,000 papers).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { percentile, type BenchCase } from '../harness';
import { generateCorpus } from '../../service/corpus/generate';
import { spawnService, timedRequest, encodeDoi } from '../../service/bench/client';
import { Rng } from '../../service/corpus/rng';

const bench: BenchCase = {
  name: 'service-scale',
  description:
    'local service on a 1,000,000-paper corpus: generation, start-up, GET /papers/{doi} and POST /papers (500 DOIs) latency',
  async run({ root, tmpDir, quick, log }) {
    const papers = quick ? 20_000 : 1_000_000;
    const db = join(tmpDir, `corpus-${papers}.db`);
    const t0 = performance.now();
    generateCorpus(db, { papers, seed: 1, log: (m) => log(`generate: ${m}`) });
    const generationS = (performance.now() - t0) / 1000;
    log(`generated ${papers} papers in ${generationS.toFixed(1)} s`);

    const reader = new Database(db, { readonly: true });
    const rng = new Rng(99, 1);
    const sampleDois = (n: number): string[] => {
      const ids = Array.from({ length: n }, () => rng.int(1, papers));
      return ids.map((id) => reader.prepare('SELECT doi FROM papers WHERE id = ?').pluck().get(id) as string);
    };
    const gets = quick ? 500 : 5000;
    const posts = quick ? 30 : 200;
    const getDois = sampleDois(gets + 200);
    const postBodies = Array.from({ length: posts + 10 }, () => JSON.stringify(sampleDois(500)));
    reader.close();

    // The corpus is generated with seed 1 and this size, so the service reuses it as is.
    const service = await spawnService(root, ['--db', db, '--papers', String(papers), '--seed', '1', '--quiet']);
    log(`service on ${papers} papers ready in ${Math.round(service.readyMs)} ms`);
    const getMs: number[] = [];
    const postMs: number[] = [];
    try {
      for (let i = 0; i < getDois.length; i++) {
        const r = await timedRequest(`${service.url}/papers/${encodeDoi(getDois[i]!)}`, 'GET', service.token);
        if (r.status !== 200) throw new Error(`GET /papers answered ${r.status}`);
        if (i >= 200) getMs.push(r.ms);
      }
      for (let i = 0; i < postBodies.length; i++) {
        const r = await timedRequest(`${service.url}/papers`, 'POST', service.token, postBodies[i]);
        if (r.status !== 200) throw new Error(`POST /papers answered ${r.status}`);
        if (i >= 10) postMs.push(r.ms);
      }
    } finally {
      await service.stop();
    }
    getMs.sort((a, b) => a - b);
    postMs.sort((a, b) => a - b);
    const size = quick ? '20,000' : '1,000,000';
    return [
      {
        metric: `generate a ${size}-paper corpus`,
        value: generationS,
        unit: 's',
        target: quick ? undefined : '< 600 s',
        pass: quick ? undefined : generationS < 600,
      },
      { metric: `service start-up on ${size} papers (cached corpus)`, value: service.readyMs / 1000, unit: 's' },
      {
        metric: `GET /papers/{doi} p99 (${size} papers)`,
        value: percentile(getMs, 99),
        unit: 'ms',
        target: '< 5 ms',
        pass: percentile(getMs, 99) < 5,
        note: `p50 ${percentile(getMs, 50).toFixed(2)} ms, ${getMs.length} requests`,
      },
      {
        metric: `POST /papers, 500 DOIs, p99 (${size} papers)`,
        value: percentile(postMs, 99),
        unit: 'ms',
        target: '< 100 ms',
        pass: percentile(postMs, 99) < 100,
        note: `p50 ${percentile(postMs, 50).toFixed(1)} ms, ${postMs.length} requests`,
      },
    ];
  },
};

export default bench;
