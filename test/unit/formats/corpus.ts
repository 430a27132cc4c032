// A deterministic generator of realistic BibTeX libraries (journal articles, conference papers, books,
// chapters, theses, reports, software, data sets, web pages) for the parser tests and the benchmark.
// The mix follows an exported researcher library: mostly articles, accented names, braced acronyms,
// abstracts on a third of the entries, DOIs and URLs, some @string macros and crossrefs.

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GIVEN = [
  'John',
  'Maria',
  'Wei',
  'Aïsha',
  'Jürgen',
  'François',
  'Søren',
  'Hiroshi',
  'Ana',
  'Olga',
  'Pierre-Louis',
  'Chidi',
  'Priya',
  'Łukasz',
  'Zoë',
  'Mats',
  'Nuño',
  'Ilse',
];
const FAMILY = [
  'Smith',
  'García',
  'Wang',
  'Müller',
  'Nakamura',
  'Okafor',
  'Kowalski',
  'Petrov',
  'Dubois',
  'Andersen',
  'Rossi',
  'Kim',
  'Singh',
  'Ångström',
  'Schrödinger',
  'Brontë',
  'Núñez',
  'Çelik',
];
const LATEX_FAMILY = [
  'M{\\"u}ller',
  "Garc{\\'i}a",
  '{\\AA}ngstr{\\"o}m',
  'Schr{\\"o}dinger',
  "Dvo{\\v{r}}{\\'a}k",
  'Erd{\\H{o}}s',
  'Gau{\\ss}',
  'S{\\o}rensen',
];
const PARTICLES = ['van der', 'de la', 'von', 'di', 'van'];
const WORDS = [
  'learning',
  'protein',
  'dynamics',
  'network',
  'quantum',
  'climate',
  'cell',
  'model',
  'analysis',
  'evidence',
  'structure',
  'graph',
  'signal',
  'response',
  'inference',
  'synthesis',
  'transport',
  'memory',
  'energy',
  'population',
];
const ACRONYMS = ['{DNA}', '{RNA}', '{CRISPR}', '{COVID-19}', '{GPU}', '{MRI}', '{BERT}', '{IEEE}'];
const JOURNALS = [
  'Nature',
  'Science',
  'Physical Review Letters',
  'Journal of Machine Learning Research',
  'The Lancet',
  'Cell',
  'PLOS ONE',
  'Proceedings of the National Academy of Sciences',
  'Annals of Mathematics',
  'Journal of the ACM',
];
const PUBLISHERS = [
  'Springer',
  'Elsevier',
  'MIT Press',
  'Cambridge University Press',
  'Oxford University Press',
  'Wiley',
  'ACM',
  'IEEE',
];
const PLACES = ['Berlin', 'Cambridge, MA', 'New York', 'London', 'Amsterdam', 'Tokyo'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export interface CorpusOptions {
  entries: number;
  seed?: number;
  /** Share of entries with an abstract (0–1). */
  abstracts?: number;
}

/** A BibTeX file of `entries` entries (plus a few @string and @preamble). */
export function generateBibtex({ entries, seed = 42, abstracts = 0.3 }: CorpusOptions): string {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const out: string[] = [
    '% Generated for Citewise tests and benchmarks',
    '@preamble{"\\newcommand{\\noopsort}[1]{}"}',
    '@string{jmlr = "Journal of Machine Learning Research"}',
    '@string{pub-acm = {ACM Press}}',
    '',
  ];
  const name = () => {
    const x = r();
    if (x < 0.04)
      return `{${pick(['World Health Organization', 'The CMS Collaboration', 'OpenAI', 'European Space Agency'])}}`;
    const family = x < 0.2 ? pick(LATEX_FAMILY) : pick(FAMILY);
    const particle = x > 0.93 ? `${pick(PARTICLES)} ` : '';
    const suffix = x > 0.985 ? ', Jr.' : '';
    return r() < 0.7
      ? `${particle}${family}${suffix}, ${pick(GIVEN)}${r() < 0.4 ? ` ${String.fromCharCode(65 + Math.floor(r() * 26))}.` : ''}`
      : `${pick(GIVEN)} ${particle}${family}`;
  };
  const names = (max: number) => {
    const n = 1 + Math.floor(r() * max);
    const list = Array.from({ length: n }, name);
    if (r() < 0.03) list.push('others');
    return list.join(' and ');
  };
  const title = () => {
    const n = 5 + Math.floor(r() * 9);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(r() < 0.08 ? pick(ACRONYMS) : pick(WORDS));
    if (r() < 0.1) words.push('in \\emph{Escherichia coli}');
    if (r() < 0.05) words.push('with $\\alpha$-helices');
    const t = words.join(' ');
    return t[0]!.toUpperCase() + t.slice(1);
  };
  const abstract = () => {
    const n = 60 + Math.floor(r() * 120);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(pick(WORDS));
    return `${words.join(' ')}. We report a 35\\% improvement (p < 0.01).`;
  };
  for (let i = 0; i < entries; i++) {
    const x = r();
    const year = 1960 + Math.floor(r() * 65);
    const key = `${
      pick(FAMILY)
        .replace(/[^A-Za-z]/g, '')
        .toLowerCase() || 'anon'
    }${year}${i.toString(36)}`;
    const doi = `10.${1000 + Math.floor(r() * 9000)}/${pick(['j', 's', 'nature', 'acm'])}.${year}.${Math.floor(r() * 1e6)}`;
    const f: string[] = [];
    let type: string;
    if (x < 0.55) {
      type = 'article';
      f.push(
        `author = {${names(8)}}`,
        `title = {${title()}}`,
        r() < 0.1 ? 'journal = jmlr' : `journal = {${pick(JOURNALS)}}`,
        `year = {${year}}`,
        `volume = {${1 + Math.floor(r() * 300)}}`,
        `number = {${1 + Math.floor(r() * 12)}}`,
        `pages = {${100 + Math.floor(r() * 900)}--${1000 + Math.floor(r() * 100)}}`,
      );
      if (r() < 0.5) f.push(`month = ${pick(MONTHS)}`);
      if (r() < 0.8) f.push(`doi = {${doi}}`);
    } else if (x < 0.75) {
      type = 'inproceedings';
      f.push(
        `author = {${names(6)}}`,
        `title = {${title()}}`,
        `booktitle = {Proceedings of the ${year} Conference on ${pick(ACRONYMS).slice(1, -1)} ${pick(WORDS)}}`,
        `year = ${year}`,
        `pages = {${1 + Math.floor(r() * 500)}--${501 + Math.floor(r() * 500)}}`,
        `publisher = pub-acm`,
        `address = {${pick(PLACES)}}`,
      );
      if (r() < 0.6) f.push(`doi = {${doi}}`);
    } else if (x < 0.85) {
      type = r() < 0.5 ? 'book' : 'incollection';
      f.push(
        `author = {${names(3)}}`,
        `title = {${title()}}`,
        `publisher = {${pick(PUBLISHERS)}}`,
        `address = {${pick(PLACES)}}`,
        `year = {${year}}`,
        `isbn = {978-${Math.floor(r() * 1e9)}}`,
      );
      if (type === 'incollection')
        f.push(
          `booktitle = {${title()}}`,
          `editor = {${names(3)}}`,
          `pages = {${1 + Math.floor(r() * 300)}--${301 + Math.floor(r() * 30)}}`,
        );
      if (r() < 0.3) f.push(`edition = {${2 + Math.floor(r() * 4)}}`, `series = {Lecture Notes in ${pick(WORDS)}}`);
    } else if (x < 0.9) {
      type = r() < 0.6 ? 'phdthesis' : 'mastersthesis';
      f.push(
        `author = {${name()}}`,
        `title = {${title()}}`,
        `school = {${pick(['MIT', 'ETH Z{\\"u}rich', 'University of Oxford', "Universit{\\'e} Paris-Saclay"])}}`,
        `year = {${year}}`,
      );
    } else if (x < 0.94) {
      type = 'techreport';
      f.push(
        `author = {${names(4)}}`,
        `title = {${title()}}`,
        `institution = {${pick(['NASA', 'CERN', 'Microsoft Research', 'RAND Corporation'])}}`,
        `number = {TR-${Math.floor(r() * 9999)}}`,
        `year = {${year}}`,
      );
    } else if (x < 0.97) {
      type = pick(['software', 'dataset', 'online']);
      f.push(
        `author = {${names(4)}}`,
        `title = {${title()}}`,
        `date = {${year}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}}`,
        `url = {https://example.org/${pick(WORDS)}/${i}?v=1&x=${Math.floor(r() * 100)}}`,
        `urldate = {2024-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}}`,
      );
      if (type === 'software') f.push(`version = {${1 + Math.floor(r() * 9)}.${Math.floor(r() * 20)}}`);
    } else {
      type = 'misc';
      f.push(
        `author = {${names(3)}}`,
        `title = {${title()}}`,
        `howpublished = {\\url{https://arxiv.org/abs/${2000 + Math.floor(r() * 400)}.${Math.floor(r() * 99999)}}}`,
        `year = {${year}}`,
        `eprint = {${Math.floor(r() * 99999)}}`,
        `archiveprefix = {arXiv}`,
      );
    }
    if (r() < abstracts) f.push(`abstract = {${abstract()}}`);
    if (r() < 0.4) f.push(`keywords = {${pick(WORDS)}, ${pick(WORDS)}, ${pick(WORDS)}}`);
    if (r() < 0.15) f.push(`file = {:pdfs/${key}.pdf:PDF}`, `timestamp = {2023.0${1 + Math.floor(r() * 9)}.12}`);
    out.push(`@${type}{${key},\n  ${f.join(',\n  ')}\n}\n`);
  }
  return out.join('\n');
}
