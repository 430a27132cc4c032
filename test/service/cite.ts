// Bibliography entries in the eight styles the assistant supports, for the reference list it appends.
import type { CitationStyle } from '../../shared/service/index';
import type { Corpus, PaperRow } from './store';

interface Person {
  given: string;
  family: string;
}

const initials = (given: string, dots = true): string =>
  given
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((g) => (dots ? `${g[0]!.toUpperCase()}.` : g[0]!.toUpperCase()))
    .join(dots ? ' ' : '');

function names(list: readonly Person[], style: CitationStyle): string {
  const fmt = (p: Person, i: number): string => {
    switch (style) {
      case 'apa':
      case 'harvard':
        return `${p.family}, ${initials(p.given)}`;
      case 'ieee':
        return `${initials(p.given)} ${p.family}`;
      case 'vancouver':
      case 'ama':
        return `${p.family} ${initials(p.given, false)}`;
      case 'mla':
      case 'chicago':
        return i === 0 ? `${p.family}, ${p.given}` : `${p.given} ${p.family}`;
      default:
        return `${p.family}, ${p.given}`;
    }
  };
  const max = style === 'vancouver' || style === 'ama' ? 6 : style === 'mla' ? 2 : 20;
  const shown = list.slice(0, max).map(fmt);
  const more = list.length > max;
  if (style === 'mla' && list.length > 2) return `${shown[0]}, et al.`;
  if (more) return `${shown.join(', ')}, et al.`;
  if (shown.length <= 1) return shown.join('');
  const last = shown.pop()!;
  const joiner =
    style === 'apa' ? ', & ' : style === 'vancouver' || style === 'ama' ? ', ' : style === 'ieee' ? ', and ' : ', and ';
  return `${shown.join(', ')}${joiner}${last}`;
}

export function formatReference(corpus: Corpus, row: PaperRow, style: CitationStyle): string {
  const authors: Person[] = corpus.authorsOf(row);
  const j = corpus.journal(row);
  const pages = row.page;
  const issue = row.issue ? `(${row.issue})` : '';
  const doi = `https://doi.org/${row.doi}`;
  switch (style) {
    case 'apa':
      return `${names(authors, style)} (${row.year}). ${row.title}. ${j.name}, ${row.volume}${issue}, ${pages}. ${doi}`;
    case 'harvard':
      return `${names(authors, style)} (${row.year}) '${row.title}', ${j.name}, ${row.volume}${issue}, pp. ${pages}. doi:${row.doi}`;
    case 'mla':
      return `${names(authors, style)}. "${row.title}." ${j.name}, vol. ${row.volume}${row.issue ? `, no. ${row.issue}` : ''}, ${row.year}, pp. ${pages}, ${doi}.`;
    case 'chicago':
      return `${names(authors, style)}. ${row.year}. "${row.title}." ${j.name} ${row.volume}${row.issue ? ` (${row.issue})` : ''}: ${pages}. ${doi}.`;
    case 'ieee':
      return `${names(authors, style)}, "${row.title}," ${j.short}, vol. ${row.volume}${row.issue ? `, no. ${row.issue}` : ''}, pp. ${pages}, ${row.year}, doi: ${row.doi}.`;
    case 'vancouver':
      return `${names(authors, style)}. ${row.title}. ${j.short}. ${row.year};${row.volume}${issue}:${pages}. doi:${row.doi}`;
    case 'ama':
      return `${names(authors, style)}. ${row.title}. ${j.short}. ${row.year};${row.volume}${issue}:${pages}. doi:${row.doi}`;
    case 'bibtex': {
      const first = authors[0]?.family.toLowerCase().replace(/[^a-z]/g, '') ?? 'anon';
      const key = `${first}${row.year}${
        row.title
          .split(' ')
          .find((w) => w.length > 3)
          ?.toLowerCase()
          .replace(/[^a-z]/g, '') ?? ''
      }`;
      return `@article{${key},\n  author = {${authors.map((a) => `${a.family}, ${a.given}`).join(' and ')}},\n  title = {${row.title}},\n  journal = {${j.name}},\n  year = {${row.year}},\n  volume = {${row.volume}},${row.issue ? `\n  number = {${row.issue}},` : ''}\n  pages = {${pages.replace('-', '--')}},\n  doi = {${row.doi}}\n}`;
    }
  }
}
