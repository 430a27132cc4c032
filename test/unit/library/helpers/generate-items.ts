// Realistic CSL items for tests and benchmarks: a deterministic mix of item types, multi-author
// names with diacritics, titles and abstracts from a research vocabulary, DOIs on most articles.
import type { CslItem, CslItemType } from '../../../../shared/model/csl';
import type { EvidenceCounts } from '../../../../shared/model/evidence';

class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0 || 1;
  }
  next(): number {
    // mulberry32
    let t = (this.#s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
}

const FAMILIES = [
  'Smith',
  'Müller',
  'Muller',
  'García',
  'Nguyen',
  'Kowalski',
  'Øster',
  'Dubois',
  'Rossi',
  'Tanaka',
  'Ivanov',
  'Schäfer',
  'Łukasz',
  'Andersson',
  'Brown',
  'Wang',
  'Li',
  'Zhang',
  'Kim',
  'Patel',
  'Singh',
  'Johnson',
  'Williams',
  'Jones',
  'Lopez',
  'Martínez',
  'Hernández',
  'Silva',
  'Santos',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Neumann',
  'Schwarz',
  'Zimmermann',
  'Krüger',
  'Hartmann',
  'Lange',
  'Werner',
  'Lehmann',
  'Köhler',
  'Maier',
  'Dupont',
  'Lefèvre',
  'Moreau',
  'Laurent',
  'Fournier',
  'Girard',
  'Bonnet',
  'Ødegaard',
  'Virtanen',
  'Korhonen',
  'Nieminen',
  'Mäkinen',
  'Hämäläinen',
  'Yılmaz',
  'Kaya',
  'Demir',
  'Şahin',
  'Çelik',
  'Novák',
  'Dvořák',
  'Černý',
  'Procházka',
];
const GIVEN = [
  'Anna',
  'José',
  'Zoë',
  'Björn',
  'Chloé',
  'Jürgen',
  'Ana',
  'Wei',
  'Hiroshi',
  'Olga',
  'Pierre',
  'Maria',
  'John',
  'Sofia',
  'Amir',
  'Priya',
  'Lars',
  'Inés',
  'Tomás',
  'Élodie',
];
const WORDS = (
  'learning neural network deep model analysis data climate change protein structure gene expression cell signalling cancer therapy ' +
  'quantum computing algorithm optimisation graph theory bayesian inference causal effect randomized trial cohort study meta-analysis ' +
  'systematic review evidence retrieval language model transformer attention reinforcement policy robot control dynamics fluid turbulence ' +
  'material synthesis catalyst reaction energy storage battery solar cell semiconductor microbiome infection vaccine immune response ' +
  'population genetics evolution species ecosystem biodiversity ocean temperature carbon emission policy economic growth inequality labour market ' +
  'education outcome social network behaviour cognition memory attention brain imaging'
).split(' ');
const JOURNALS = [
  'Nature',
  'Science',
  'Cell',
  'The Lancet',
  'PLOS ONE',
  'Physical Review Letters',
  'Journal of Machine Learning Research',
  'Nature Communications',
  'Proceedings of the National Academy of Sciences',
  'Ecology Letters',
  'Journal of Economic Perspectives',
  'NeuroImage',
  'Bioinformatics',
  'Annals of Statistics',
  'Zeitschrift für Naturforschung',
  'Revue française de sociologie',
  'Journal of Chemical Physics',
  'Psychological Science',
];
const TYPES: [CslItemType, number][] = [
  ['article-journal', 60],
  ['book', 6],
  ['chapter', 7],
  ['paper-conference', 10],
  ['thesis', 3],
  ['report', 4],
  ['dataset', 2],
  ['article', 4],
  ['webpage', 2],
  ['patent', 1],
  ['software', 1],
];
const TAGS = [
  'review',
  'to-read',
  'important',
  'methods',
  'theory',
  'replication',
  'dataset',
  'teaching',
  'grant',
  'thesis-ch2',
];

function weightedType(rng: Rng): CslItemType {
  let r = rng.int(1, 100);
  for (const [t, w] of TYPES) {
    if ((r -= w) <= 0) return t;
  }
  return 'article-journal';
}

// A research vocabulary has thousands of words with a Zipf-like spread: a few very common, most rare.
// The topical words above are the common end; syllable-built words make up the long tail.
const SYLLABLES =
  'ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu za ze zi zo'.split(
    ' ',
  );
const TAIL: string[] = [];
{
  const r = new Rng(4242);
  const seen = new Set<string>();
  while (TAIL.length < 6000) {
    const w =
      Array.from({ length: r.int(2, 4) }, () => r.pick(SYLLABLES)).join('') +
      r.pick(['', 'tion', 'ic', 'al', 'ism', 'ase', 'ide', 'ogy']);
    if (!seen.has(w)) {
      seen.add(w);
      TAIL.push(w);
    }
  }
}
// Topical words sit at ranks 200–300: each is in a few percent of abstracts, as real subject terms are.
const VOCAB = [...TAIL.slice(0, 200), ...WORDS, ...TAIL.slice(200)];
// Zipf: rank r drawn with probability ∝ 1/r, by inverting the harmonic CDF approximately.
function zipfWord(rng: Rng): string {
  const n = VOCAB.length;
  const r = Math.floor(Math.exp(rng.next() * Math.log(n + 1))) - 1;
  return VOCAB[Math.min(n - 1, Math.max(0, r))]!;
}

function sentence(rng: Rng, min: number, max: number): string {
  const n = rng.int(min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(zipfWord(rng));
  return words.join(' ');
}

/** Titles lean on topical words more than abstracts do. */
function titleWords(rng: Rng, min: number, max: number): string {
  const n = rng.int(min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.next() < 0.4 ? rng.pick(WORDS) : zipfWord(rng));
  return words.join(' ');
}

const title = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** `count` items, deterministic for a seed; item i has DOI 10.5555/gen.{seed}.{i} when it has one. */
export function generateItems(count: number, seed = 1, offset = 0): CslItem[] {
  const rng = new Rng(seed * 7919 + offset);
  const out: CslItem[] = [];
  for (let i = offset; i < offset + count; i++) {
    const type = weightedType(rng);
    const authors = Array.from({ length: rng.int(1, 6) }, () => ({
      family: rng.pick(FAMILIES),
      given: rng.pick(GIVEN),
    }));
    const item: CslItem = {
      id: `gen-${seed}-${i}`,
      type,
      title: `${title(titleWords(rng, 4, 12))} ${i}`,
      author: authors,
      issued: { 'date-parts': [[rng.int(1950, 2025), rng.int(1, 12)]] },
    };
    if (type === 'article-journal' || type === 'paper-conference' || type === 'article') {
      item['container-title'] =
        type === 'paper-conference'
          ? `Proceedings of the ${rng.int(1, 40)}th Conference on ${title(rng.pick(WORDS))}`
          : rng.pick(JOURNALS);
      item.volume = String(rng.int(1, 300));
      item.issue = String(rng.int(1, 12));
      item.page = `${rng.int(1, 900)}-${rng.int(901, 1200)}`;
    }
    if (type === 'book' || type === 'chapter' || type === 'report' || type === 'thesis')
      item.publisher = `${rng.pick(FAMILIES)} Press`;
    if (type === 'chapter') {
      item['container-title'] = title(sentence(rng, 3, 6));
      item.editor = [{ family: rng.pick(FAMILIES), given: rng.pick(GIVEN) }];
    }
    if (rng.next() < 0.8 && type !== 'webpage' && type !== 'patent') item.DOI = `10.5555/gen.${seed}.${i}`;
    if (rng.next() < 0.6) item.abstract = `${title(sentence(rng, 60, 160))}.`;
    if (rng.next() < 0.4) item.keyword = [rng.pick(TAGS), rng.pick(TAGS)].join(', ');
    if (type === 'webpage') item.URL = `https://example.org/${i}`;
    out.push(item);
  }
  return out;
}

/**
 * Citation counts for every other DOI of the first `count` generated items (seed 1), so the evidence
 * columns show counts, zeros, "?" and "—"; the benches' big libraries store them as fetched.
 */
export function generatedTallies(count: number): Record<string, EvidenceCounts> {
  const found: Record<string, EvidenceCounts> = {};
  for (let i = 0; i < count; i += 2)
    found[`10.5555/gen.1.${i}`] = {
      total: i % 60,
      supporting: i % 17,
      contrasting: i % 5,
      mentioning: i % 43,
      unclassified: 0,
      citingPublications: i % 11,
    };
  return found;
}
