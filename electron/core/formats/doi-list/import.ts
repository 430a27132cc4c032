// DOI lists, pasted or from a file: one DOI per line, or DOIs anywhere in running text (a reference
// list, an e-mail, resolver links). The DOIs go to the service for metadata, now or, offline, queued.
// Normalisation is shared/model/doi.ts, the one the service client and the store use.
import type { CslItem } from '../../../../shared/model/csl';
import { parseDoi, type NormalizedDoi } from '../../../../shared/model/doi';
import { Deadline, type ImportLimits } from '../limits';
import { excerptOf, type ImportedDoi, type ImportIssue, type ParseResult } from '../result';
import { grouped } from '../../../../shared/model/numbers';

// A DOI inside text: "10.", a registrant code, "/", then anything up to a blank, a quote or an angle
// bracket, except the angle brackets of a SICI (old Wiley and Elsevier DOIs, 10.1002/(SICI)1097-4636
// (199706)35:4<479::AID-JBM8>3.0.CO;2-F), which hold "::" and no blank; an HTML tag after a DOI does
// not. Trailing punctuation of the sentence is trimmed after the match.
export const DOI_IN_TEXT = /\b10\.\d{4,9}(?:\.\d+)*\/(?:[^\s"'<>]|<[^\s"'<>]*::[^\s"'<>]*>)+/gi;
const TRAILING = /[.,;:!?]+$/;

export function importDoiList(text: string, limits: ImportLimits): ParseResult {
  const deadline = new Deadline(limits.timeBudgetMs);
  // Lines end at LF (CRLF included), as in every other importer, so line numbers agree.
  const lines = text.split('\n');
  const nonEmpty = lines.filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  // One token per line ("doi:" allowed) means a list: a line that is not a DOI is then an error worth
  // reporting. Otherwise it is running text, where lines without DOIs are just text.
  const listMode = nonEmpty.length > 0 && nonEmpty.every((l) => /^(?:doi:?\s*)?\S+$/i.test(l.trim()));
  const dois: ImportedDoi[] = [];
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const seen = new Map<string, number>();
  const accept = (doi: NormalizedDoi, line: number) => {
    const first = seen.get(doi);
    if (first !== undefined) {
      warnings.push({ line, reason: `${doi} is already on line ${first}; it is imported once.` });
      return;
    }
    seen.set(doi, line);
    dois.push({ doi, line });
  };
  for (let i = 0; i < lines.length; i++) {
    if ((i & 4095) === 4095) deadline.check(i + 1);
    const line = lines[i]!;
    if (line.length > limits.maxFieldLength) {
      errors.push({
        line: i + 1,
        reason: `The line is ${grouped(line.length)} characters long; the limit is ${grouped(limits.maxFieldLength)}.`,
      });
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (listMode) {
      const token = trimmed.replace(/^doi:?\s*/i, '').replace(TRAILING, '');
      const parsed = parseDoi(token);
      if (parsed.ok) accept(parsed.doi, i + 1);
      else errors.push({ line: i + 1, reason: parsed.reason, excerpt: excerptOf(trimmed) });
      continue;
    }
    for (const match of trimmed.matchAll(DOI_IN_TEXT)) {
      const parsed = parseDoi(trimDoi(match[0]));
      if (parsed.ok) accept(parsed.doi, i + 1);
      else warnings.push({ line: i + 1, reason: `"${match[0]}" looks like a DOI but is not valid: ${parsed.reason}` });
    }
  }
  if (dois.length > limits.maxEntries) dois.length = limits.maxEntries;
  if (dois.length === 0 && errors.length === 0 && text.trim() !== '') {
    errors.push({
      line: 1,
      reason: 'No DOI was found. A DOI looks like 10.1000/xyz123, alone on a line or inside text.',
    });
  }
  return { format: 'doi-list', items: [], count: 0, dois, errors, warnings };
}

/** Sentence punctuation and an unmatched closing bracket are not part of a DOI found in text. */
export function trimDoi(doi: string): string {
  let d = doi.replace(TRAILING, '');
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
    ['{', '}'],
  ] as const) {
    while (d.endsWith(close) && count(d, open) < count(d, close)) d = d.slice(0, -1).replace(TRAILING, '');
  }
  return d;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

/**
 * The stand-in item for a DOI whose metadata is not fetched yet (offline): the store can keep it, show
 * it and have the enrichment job fill it in when the service is back.
 */
export function doiPlaceholder(doi: NormalizedDoi): CslItem {
  return { id: `doi:${doi}`, type: 'article-journal', DOI: doi, custom: { citewise: { pendingMetadata: true } } };
}
