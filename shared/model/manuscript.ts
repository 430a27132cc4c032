// The manuscript check: what a manuscript (Markdown/Quarto, LaTeX, Typst, Word) cites, which library
// items those are, and which of them need a second look. Pure and DOM-free: the core builds the
// report, the CLI and the Assistant pane show it (as text).
import type { ItemId } from './library';
import { STATUS_LABELS, type ItemStatus } from './item-status';

export const MANUSCRIPT_FORMATS = ['markdown', 'latex', 'typst', 'docx'] as const;
export type ManuscriptFormat = (typeof MANUSCRIPT_FORMATS)[number];

/** File extensions the check reads, and the format each is read as. */
export const MANUSCRIPT_EXTENSIONS: Readonly<Record<string, ManuscriptFormat>> = {
  md: 'markdown',
  markdown: 'markdown',
  qmd: 'markdown',
  rmd: 'markdown',
  tex: 'latex',
  ltx: 'latex',
  aux: 'latex',
  typ: 'typst',
  docx: 'docx',
};

/** The largest manuscript the check reads (a text file or a .docx package): 20 MB. */
export const MAX_MANUSCRIPT_BYTES = 20 * 1024 * 1024;

/**
 * "Many contrasting statements": a cited paper with at least this many citation statements that
 * contrast it (from the tallies the library holds). An absolute count, so that a paper with 3 of 4
 * contrasting is not flagged for what is one disagreement; `--contrasting N` changes it.
 */
export const MANY_CONTRASTING = 5;

/** The format a file name says, or null when its extension is not one the check reads. */
export function manuscriptFormatOf(name: string): ManuscriptFormat | null {
  const m = /\.([A-Za-z0-9]+)$/.exec(name);
  return m ? (MANUSCRIPT_EXTENSIONS[m[1]!.toLowerCase()] ?? null) : null;
}

/** One citation found in a manuscript: a key, or (Word fields) the embedded item's DOI and title. */
export interface FoundCitation {
  key?: string | undefined;
  doi?: string | undefined;
  title?: string | undefined;
  /** 1-based line, where the format has lines; for Word, the paragraph of its part. */
  line?: number | undefined;
  /** Where, when not the file itself: ".aux", "footnotes", "endnotes", "front matter". */
  part?: string | undefined;
}

/** What a library item the manuscript cites is, as the check needs it. */
export interface CitedItemFacts {
  id: ItemId;
  citationKey: string;
  title: string | null;
  creators: string | null;
  year: number | null;
  doi: string | null;
  trashed: boolean;
  status: ItemStatus;
  /** The notice kinds behind the status, lowercased as the service words them. */
  notices: string[];
  /** null: no tallies stored for its DOI (not fetched, or the service does not know it). */
  tallies: { supporting: number; contrasting: number; mentioning: number; total: number } | null;
  /** Published versions of this paper (it is a preprint), from the paper data the library caches. */
  publishedVersions: { doi: string; citationKey: string | null }[];
}

export type MatchedBy = 'key' | 'doi' | 'title';

/** What the library is asked for each distinct cited reference. */
export interface CitationLookup {
  key?: string | undefined;
  doi?: string | undefined;
  title?: string | undefined;
}

export type LookupResult = { matchedBy: MatchedBy; item: CitedItemFacts } | null;

export const MANUSCRIPT_FLAGS = [
  'missing',
  'retracted',
  'withdrawn',
  'expression-of-concern',
  'contrasting',
  'published-version',
  'corrected',
] as const;
export type ManuscriptFlag = (typeof MANUSCRIPT_FLAGS)[number];

/** Flags that make the check fail (exit 3); a correction is reported but is not a problem. */
export const PROBLEM_FLAGS: readonly ManuscriptFlag[] = [
  'missing',
  'retracted',
  'withdrawn',
  'expression-of-concern',
  'contrasting',
  'published-version',
];

export interface CitedEntry {
  /** How the manuscript names it: the key, else the DOI or title of a Word field's item. */
  ref: string;
  /** Every place it is cited (line numbers, or "paragraph 3 (footnotes)"), in order. */
  places: string[];
  /** The first line it is cited on, when the format has lines. */
  line: number | null;
  matchedBy: MatchedBy | null;
  item: CitedItemFacts | null;
  flags: ManuscriptFlag[];
}

export interface ManuscriptReport {
  file: string;
  format: ManuscriptFormat;
  /** Citations found (an item cited three times counts three). */
  citations: number;
  /** One entry per distinct reference, in order of first citation. */
  cited: CitedEntry[];
  /** `\nocite{*}` or `nocite: @*`: every entry of the bibliography is cited, which the check cannot list. */
  citesAll: boolean;
  contrastingThreshold: number;
  /** The number of entries with each flag. */
  counts: Record<ManuscriptFlag, number>;
  /** True when any entry has a problem flag (exit code 3). */
  problems: boolean;
  notes: string[];
}

export const FLAG_LABELS: Record<ManuscriptFlag, string> = {
  missing: 'not in the library',
  retracted: 'retracted',
  withdrawn: 'withdrawn',
  'expression-of-concern': 'under an expression of concern',
  contrasting: 'many contrasting statements',
  'published-version': 'preprint with a published version',
  corrected: 'corrected',
};

/** The flags of one cited entry. */
export function flagsOf(item: CitedItemFacts | null, contrastingThreshold: number): ManuscriptFlag[] {
  if (!item) return ['missing'];
  const flags: ManuscriptFlag[] = [];
  if (item.status === 'retracted') flags.push('retracted');
  if (item.status === 'withdrawn') flags.push('withdrawn');
  if (item.status === 'expression-of-concern') flags.push('expression-of-concern');
  if (item.status === 'correction') flags.push('corrected');
  if (item.tallies && item.tallies.contrasting >= contrastingThreshold) flags.push('contrasting');
  if (item.publishedVersions.length > 0) flags.push('published-version');
  return flags;
}

/** Distinct references in order of first citation, with every place each is cited. */
export function groupCitations(
  found: readonly FoundCitation[],
): { lookup: CitationLookup; ref: string; places: string[]; line: number | null }[] {
  const byRef = new Map<string, { lookup: CitationLookup; ref: string; places: string[]; line: number | null }>();
  for (const c of found) {
    const ref = c.key ?? c.doi ?? c.title;
    if (!ref) continue;
    const id = c.key ? `k:${c.key}` : c.doi ? `d:${c.doi.toLowerCase()}` : `t:${ref.toLowerCase()}`;
    let entry = byRef.get(id);
    if (!entry) {
      entry = { lookup: { key: c.key, doi: c.doi, title: c.title }, ref, places: [], line: c.line ?? null };
      byRef.set(id, entry);
    }
    const place = placeOf(c);
    if (place && !entry.places.includes(place)) entry.places.push(place);
  }
  return [...byRef.values()];
}

function placeOf(c: FoundCitation): string | null {
  if (c.line === undefined) return c.part ?? null;
  return c.part ? `${c.part} ${c.line}` : `line ${c.line}`;
}

/** The report as plain text: what the CLI prints and the pane shows. Untrusted text stays text. */
export function reportText(r: ManuscriptReport): string {
  const out: string[] = [];
  const missing = r.cited.filter((e) => !e.item).length;
  out.push(
    `${r.file} (${r.format}): ${count(r.citations, 'citation')} of ${count(r.cited.length, 'reference')}, ${count(r.cited.length - missing, 'in the library', 'in the library')}, ${missing} not.`,
  );
  if (r.citesAll)
    out.push(
      'It cites every entry of its bibliography (\\nocite{*} or nocite: @*); only the references it names are listed.',
    );
  out.push('');
  for (const e of r.cited) {
    const where =
      e.places.length > 0
        ? ` (${e.places.slice(0, 5).join(', ')}${e.places.length > 5 ? `, and ${e.places.length - 5} more` : ''})`
        : '';
    if (!e.item) {
      out.push(`  ✗ ${e.ref}${where}: not in the library`);
      continue;
    }
    const it = e.item;
    const desc = [it.creators, it.year, it.title].filter((x) => x !== null && x !== '').join(', ');
    const by = e.matchedBy === 'key' ? '' : ` [matched by ${e.matchedBy}: ${it.citationKey}]`;
    out.push(
      `  ${e.flags.some((f) => PROBLEM_FLAGS.includes(f)) ? '!' : '✓'} ${e.ref}${where}: ${desc || '(untitled)'}${it.doi ? ` doi:${it.doi}` : ''}${by}${it.trashed ? ' (in the trash)' : ''}`,
    );
    for (const f of e.flags) out.push(`      ${flagLine(f, it, r.contrastingThreshold)}`);
  }
  out.push('');
  const summary = MANUSCRIPT_FLAGS.filter((f) => r.counts[f] > 0).map((f) => `${r.counts[f]} ${FLAG_LABELS[f]}`);
  out.push(
    summary.length > 0
      ? `Found: ${summary.join('; ')}.`
      : r.citations === 0 && !r.citesAll
        ? 'No citations were found, so nothing was checked.'
        : 'Nothing to look at: every reference is in the library and none is flagged.',
  );
  for (const n of r.notes) out.push(`Note: ${n}`);
  return `${out.join('\n')}\n`;
}

function flagLine(f: ManuscriptFlag, it: CitedItemFacts, threshold: number): string {
  switch (f) {
    case 'retracted':
    case 'withdrawn':
    case 'expression-of-concern':
    case 'corrected':
      return `${STATUS_LABELS[it.status]}${it.notices.length ? ` (notices: ${it.notices.join(', ')})` : ''}`;
    case 'contrasting':
      return `${it.tallies!.contrasting} contrasting statements (at least ${threshold} is many), ${it.tallies!.supporting} supporting, ${it.tallies!.mentioning} mentioning`;
    case 'published-version':
      return `a preprint; published as ${it.publishedVersions.map((p) => `doi:${p.doi}${p.citationKey ? ` (in the library as ${p.citationKey})` : ''}`).join(', ')}`;
    case 'missing':
      return 'not in the library';
  }
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
