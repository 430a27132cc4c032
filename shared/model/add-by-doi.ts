// Add by DOI, the words both the app's dialog and `citewise add` use: how pasted text is split into
// DOIs, and the one-line summary of what happened to them.
import { grouped } from './numbers';

/** A DOI in a token, bare or after "doi:" or a resolver: "10." then a registrant code and "/". */
const DOI_TOKEN = /(?:^|[/:])10\.\d{4,9}\/\S/;

/** A DOI token at the end of a sentence: its closing punctuation is the sentence's, not the DOI's. */
function trimProse(token: string): string {
  let t = token.replace(/[.,;:'"”’\]]+$/, '');
  while (t.endsWith(')') && (t.match(/\(/g)?.length ?? 0) < (t.match(/\)/g)?.length ?? 0)) t = t.slice(0, -1);
  return t;
}

/**
 * The DOIs in pasted text: split on whitespace and commas only, as the dialog says. A semicolon is
 * part of a DOI: old Wiley DOIs have one, e.g. 10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F.
 * A line of prose ("see Smith et al., doi:10.1038/nature12373.") gives its DOIs, not each of its
 * words: its other words are dropped, and the sentence's full stop or bracket after a DOI too. A line
 * with no DOI at all is one entry, so it is reported once as "not a DOI", not word by word.
 * Repeats are given once, in first-seen order.
 */
export function splitDoiInput(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const tokens = line.split(/[\s,]+/).filter((d) => d !== '');
    if (tokens.length === 0) continue;
    const dois = tokens.filter((t) => DOI_TOKEN.test(t));
    if (dois.length === 0) out.push(tokens.length === 1 ? tokens[0]! : line.trim());
    else if (dois.length === tokens.length) out.push(...dois);
    else out.push(...dois.map(trimProse));
  }
  return [...new Set(out)];
}

export interface AddByDoiCounts {
  added: readonly unknown[];
  queued: readonly unknown[];
  duplicates: readonly unknown[];
  notAdded: readonly unknown[];
}

const count = (n: number, one: string, many: string): string => `${grouped(n)} ${n === 1 ? one : many}`;

/**
 * "Added 2 items, 1 placeholder kept, completed when the service is reachable." A DOI kept offline is
 * a placeholder in the library, not "0 added": it is completed by enrichment when the service answers.
 */
export function addByDoiSummary(r: AddByDoiCounts): string {
  const parts: string[] = [];
  if (r.added.length > 0) parts.push(`Added ${count(r.added.length, 'item', 'items')}`);
  if (r.queued.length > 0)
    parts.push(
      `${count(r.queued.length, 'placeholder', 'placeholders')} kept, completed when the service is reachable`,
    );
  if (r.duplicates.length > 0) parts.push(`${count(r.duplicates.length, 'DOI', 'DOIs')} already in your library`);
  if (r.notAdded.length > 0) parts.push(`${count(r.notAdded.length, 'DOI', 'DOIs')} not added`);
  if (parts.length === 0) return 'Nothing was added.';
  const text = parts.join(', ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}
