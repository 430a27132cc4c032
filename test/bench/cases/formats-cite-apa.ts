// Formatting 1,000 references in APA: cold (a new formatter: worker start, engine creation, every entry
// rendered) and warm (the same references again, as when an export or preview is repeated), plus a warm
// run with one reference edited. The styles come from scripts/build-csl.mjs, run into the case's tmpDir.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { CslItem, CslItemType } from '../../../shared/model/csl';
import { createCiteFormatter, directoryAssets } from '../../../electron/core/formats/cite';
import { percentile, type BenchCase } from '../harness';

const FAMILIES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Dubois',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Lefebvre',
  'Michel',
  'Kowalski',
  'Nowak',
  'Wiśniewski',
  'Tanaka',
  'Suzuki',
  'Takahashi',
  'Watanabe',
  'Ito',
  'Yamamoto',
  'Nakamura',
  'Kim',
  'Park',
  'Choi',
  'Jung',
  'Kang',
  'Wang',
  'Li',
  'Zhang',
  'Liu',
  'Chen',
  'Yang',
  'Huang',
  'Zhao',
  'Wu',
  'Zhou',
  'Singh',
  'Kumar',
  'Sharma',
  'Patel',
  'Okafor',
  'Adeyemi',
  'Mensah',
  'Silva',
  'Santos',
  'Oliveira',
];
const GIVEN = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kai',
  'Lena',
  'Maya',
  'Noah',
  'Omar',
  'Priya',
];
const WORDS = [
  'citation',
  'evidence',
  'network',
  'analysis',
  'retraction',
  'impact',
  'open',
  'science',
  'review',
  'learning',
  'model',
  'data',
  'reproducibility',
  'metrics',
  'peer',
  'survey',
];
const JOURNALS = [
  'Scientometrics',
  'Journal of Informetrics',
  'PLOS ONE',
  'Nature',
  'Quantitative Science Studies',
  'Research Policy',
];
const TYPES: CslItemType[] = [
  'article-journal',
  'article-journal',
  'article-journal',
  'article-journal',
  'book',
  'chapter',
  'paper-conference',
  'report',
  'webpage',
  'thesis',
];

/** A deterministic library of n references with realistic variety (and so realistic disambiguation). */
export function library(n: number): CslItem[] {
  let seed = 42;
  const rnd = (k: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % k;
  };
  const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
  return Array.from({ length: n }, (_, i): CslItem => {
    const type = pick(TYPES);
    const authors = Array.from({ length: 1 + rnd(6) }, () => ({ family: pick(FAMILIES), given: pick(GIVEN) }));
    const title = Array.from({ length: 4 + rnd(6) }, () => pick(WORDS)).join(' ');
    return {
      id: `ref-${i}`,
      type,
      title: title[0]!.toUpperCase() + title.slice(1),
      author: authors,
      issued: { 'date-parts': [[1990 + rnd(35), 1 + rnd(12)]] },
      'container-title':
        type === 'article-journal' ? pick(JOURNALS) : type === 'chapter' ? 'Handbook of ' + pick(WORDS) : undefined,
      volume: String(1 + rnd(60)),
      issue: String(1 + rnd(12)),
      page: `${1 + rnd(300)}-${301 + rnd(300)}`,
      publisher: type === 'article-journal' ? undefined : 'Academic Press',
      DOI: `10.${1000 + rnd(9000)}/ref.${i}`,
    };
  });
}

const bench: BenchCase = {
  name: 'formats-cite-apa',
  description:
    'formatting 1,000 references in APA (text): cold (new formatter and worker) and warm (same references again; one edited)',
  async run({ root, tmpDir, quick, log }) {
    const n = quick ? 100 : 1000;
    const runs = quick ? 2 : 7;
    const cslDir = join(tmpDir, 'csl');
    execFileSync(process.execPath, [join(root, 'scripts/build-csl.mjs'), '--out', cslDir, '--quiet']);
    const items = library(n);
    const assets = directoryAssets(cslDir);

    const time = async (fn: () => Promise<unknown>): Promise<number> => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };

    const f = createCiteFormatter({ assets, workers: 2 });
    const cold = await time(() => f.formatBibliography(items, { style: 'apa' }));
    log(`cold (worker pool): ${cold.toFixed(0)} ms`);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push(await time(() => f.formatBibliography(items, { style: 'apa' })));
    warm.sort((a, b) => a - b);
    log(`warm (worker pool): ${warm.map((w) => w.toFixed(0)).join(', ')} ms`);
    const edited: number[] = [];
    for (let i = 0; i < runs; i++) {
      const changed = items.map((item, k) => (k === 500 % n ? { ...item, title: `${item.title} (edit ${i})` } : item));
      edited.push(await time(() => f.formatBibliography(changed, { style: 'apa' })));
    }
    edited.sort((a, b) => a - b);
    log(`one edited (worker pool): ${edited.map((w) => w.toFixed(0)).join(', ')} ms`);
    await f.close();

    // As the app would: the default style's worker and engine are warmed at start-up, before any export.
    const h = createCiteFormatter({ assets, workers: 2 });
    const warmUp = await time(() => h.warmUp({ style: 'apa' }));
    const firstAfterWarmUp = await time(() => h.formatBibliography(items, { style: 'apa' }));
    log(`warm-up ${warmUp.toFixed(0)} ms, then first ${n}: ${firstAfterWarmUp.toFixed(0)} ms`);
    await h.close();

    const g = createCiteFormatter({ assets, workers: 0 });
    const coldInProcess = await time(() => g.formatBibliography(items, { style: 'apa' }));
    const warmInProcess: number[] = [];
    for (let i = 0; i < runs; i++) warmInProcess.push(await time(() => g.formatBibliography(items, { style: 'apa' })));
    warmInProcess.sort((a, b) => a - b);
    log(
      `in-process: cold ${coldInProcess.toFixed(0)} ms, warm ${warmInProcess.map((w) => w.toFixed(0)).join(', ')} ms`,
    );
    await g.close();

    const warmMedian = percentile(warm, 50);
    return [
      {
        metric: `${n} references, cold (worker pool)`,
        value: cold / 1000,
        unit: 's',
        note: 'worker start, engine creation, all entries rendered',
      },
      {
        metric: `${n} references, first after warmUp()`,
        value: firstAfterWarmUp / 1000,
        unit: 's',
        note: `warm-up at start-up took ${(warmUp / 1000).toFixed(2)} s`,
      },
      {
        metric: `${n} references, warm (median)`,
        value: warmMedian / 1000,
        unit: 's',
        target: '≤ 0.5 s',
        pass: warmMedian <= 500,
        note: `${runs} runs, worst ${(warm.at(-1)! / 1000).toFixed(3)} s`,
      },
      {
        metric: `${n} references, one edited (median)`,
        value: percentile(edited, 50) / 1000,
        unit: 's',
        note: 'incremental engine update, one entry rendered',
      },
      { metric: `${n} references, cold (in-process)`, value: coldInProcess / 1000, unit: 's' },
      { metric: `${n} references, warm (in-process, median)`, value: percentile(warmInProcess, 50) / 1000, unit: 's' },
    ];
  },
};

export default bench;
