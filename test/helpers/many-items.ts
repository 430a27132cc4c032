// Libraries of any size whose every entry can be told apart in a formatted bibliography: each item has
// its own author family name (letters only, so no style's "———" or disambiguation merges two) and a
// title with its number. Used wherever a test formats more items than a size threshold.
import type { CslItem } from '../../shared/model/csl';

/** 0 → 'Aaa', 1 → 'Aab', … : a capitalised family name of letters, unique per n. */
export function familyOf(n: number): string {
  let s = '';
  for (let i = 0, v = n; i < 4; i++, v = Math.floor(v / 26)) s = String.fromCharCode(97 + (v % 26)) + s;
  return `Q${s}`;
}

export function titleOf(n: number): string {
  return `Observations on specimen ${String(n).padStart(5, '0')}`;
}

export function manyItems(count: number): CslItem[] {
  return Array.from({ length: count }, (_, n) => ({
    id: `item${n}`,
    type: 'article-journal',
    title: titleOf(n),
    author: [{ family: familyOf(n), given: 'Mara' }],
    'container-title': 'Journal of Repeated Measures',
    volume: String(1 + (n % 40)),
    issue: '2',
    page: `${10 + n}-${20 + n}`,
    issued: { 'date-parts': [[1990 + (n % 30)]] },
  }));
}

/** The same items as a BibTeX file (what a user imports). */
export function manyBibtex(count: number): string {
  return manyItems(count)
    .map((item, n) => {
      const year = (item.issued as { 'date-parts': number[][] })['date-parts'][0]![0];
      return `@article{item${n},\n  author = {${familyOf(n)}, Mara},\n  title = {${titleOf(n)}},\n  journal = {Journal of Repeated Measures},\n  volume = {${item.volume}},\n  number = {2},\n  pages = {${item.page}},\n  year = {${year}}\n}\n`;
    })
    .join('\n');
}

/**
 * Checks a formatted bibliography (text) holds exactly the entries 0 … count-1, once each; returns the
 * problems (empty when it does). BibTeX output is counted by its @ entries, the others by line.
 */
export function bibliographyProblems(document: string, count: number, style: string): string[] {
  const problems: string[] = [];
  const entries =
    style === 'bibtex'
      ? document.split(/^(?=@)/m).filter((e) => e.trim() !== '')
      : document.split('\n').filter((l) => l.trim() !== '');
  if (entries.length !== count) problems.push(`${entries.length} entries, expected ${count}`);
  const seen = new Map<number, number>();
  for (const [i, entry] of entries.entries()) {
    const m = /specimen (\d{5})/i.exec(entry);
    if (!m) {
      problems.push(`entry ${i + 1} has no title: ${entry.slice(0, 120)}`);
      continue;
    }
    const n = Number(m[1]);
    seen.set(n, (seen.get(n) ?? 0) + 1);
    if (!entry.includes(familyOf(n)))
      problems.push(`entry ${i + 1} (specimen ${m[1]}) lacks its author ${familyOf(n)}: ${entry.slice(0, 120)}`);
    if (!/Journal of Repeated Measures/i.test(entry))
      problems.push(`entry ${i + 1} lacks its journal: ${entry.slice(0, 120)}`);
  }
  for (let n = 0; n < count; n++)
    if (seen.get(n) !== 1) problems.push(`specimen ${n} appears ${seen.get(n) ?? 0} times`);
  return problems.slice(0, 10);
}
