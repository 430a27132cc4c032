// A reference check's result as rows the UI lists: each reference found in the document with its
// match in the literature (paper, tally, editorial notices) and a flag for retracted or concerning
// papers. Pure: the renderer calls it on the task the core reports.
import { cslFromReference, noticeSeverity, type AssistantAnswerReference } from './assistant';
import type { CslItem } from './csl';
import type { InUiWords } from './evidence';
import type { ReferenceCheckTask } from '../service';

export type ReferenceCheckTaskUi = InUiWords<ReferenceCheckTask>;

export interface ReferenceCheckRow {
  /** 1-based, in the document's order. */
  index: number;
  /** The reference as the document gives it, when the service says. */
  text: string | null;
  /** The matched paper's DOI; null when the reference matched nothing. */
  doi: string | null;
  /** How it was matched (by DOI or title), when the service says. */
  matchedBy: string | null;
  title: string | null;
  year: number | null;
  journal: string | null;
  authors: string | null;
  tally: { supporting: number; contrasting: number; mentioning: number; total: number } | null;
  notices: { status: string; date: string | null; noticeDoi: string | null }[];
  severity: 'retracted' | 'concern' | 'notice' | null;
  /** The matched paper as a CSL record (id `ref-<index>`), to show as a citation; null when nothing matched. */
  csl?: CslItem | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * The rows of a finished check. The contract gives the matched citations (`result.citations`, with
 * their target DOIs) and the papers; a service that also lists every reference it found
 * (`result.references`, as the local service does: unpublished for the real one) adds the ones that
 * matched nothing.
 */
export function referenceCheckRows(task: ReferenceCheckTaskUi): ReferenceCheckRow[] {
  const papers = task.papers ?? {};
  const tallies = task.tallies ?? {};
  const row = (index: number, doi: string | null, text: string | null, matchedBy: string | null): ReferenceCheckRow => {
    const key = doi?.toLowerCase() ?? '';
    const paper = doi ? (papers[key] ?? papers[doi]) : undefined;
    const tally = doi ? (tallies[key] ?? tallies[doi]) : undefined;
    const notices = (paper?.editorialNotices ?? [])
      .filter((n) => typeof n.status === 'string')
      .map((n) => ({ status: n.status as string, date: str(n.date), noticeDoi: str(n.noticeDoi) }));
    const unique = notices.filter(
      (n, i) => notices.findIndex((m) => m.status === n.status && m.noticeDoi === n.noticeDoi) === i,
    );
    return {
      index,
      text,
      doi,
      matchedBy,
      title: str(paper?.title),
      year: typeof paper?.year === 'number' ? paper.year : null,
      journal: str(paper?.journal),
      authors: paper?.authors?.length
        ? paper.authors
            .map((a) => a.authorName)
            .slice(0, 3)
            .join(', ') + (paper.authors.length > 3 ? ' et al.' : '')
        : null,
      tally: tally
        ? {
            supporting: tally.supporting,
            contrasting: tally.contrasting,
            mentioning: tally.mentioning,
            total: tally.total,
          }
        : null,
      notices: unique,
      severity: noticeSeverity(unique.map((n) => n.status)),
      csl: paper
        ? cslFromReference(
            { paper: paper as AssistantAnswerReference['paper'], doi: doi ?? undefined } as AssistantAnswerReference,
            `ref-${index}`,
          )
        : null,
    };
  };
  const listed = (task.result as { references?: unknown } | undefined)?.references;
  if (Array.isArray(listed) && listed.every((r) => typeof r === 'object' && r !== null)) {
    return (listed as Record<string, unknown>[]).map((r, i) =>
      row(typeof r.index === 'number' ? r.index : i + 1, str(r.matchedDoi), str(r.text), str(r.matchedBy)),
    );
  }
  const seen = new Set<string>();
  const rows: ReferenceCheckRow[] = [];
  for (const c of task.result?.citations ?? []) {
    const doi = c.target.toLowerCase();
    if (seen.has(doi)) continue;
    seen.add(doi);
    rows.push(row(rows.length + 1, doi, null, null));
  }
  return rows;
}

/** Counts for the summary line. */
export function referenceCheckSummary(rows: readonly ReferenceCheckRow[]): {
  total: number;
  matched: number;
  retracted: number;
  concern: number;
} {
  return {
    total: rows.length,
    matched: rows.filter((r) => r.doi).length,
    retracted: rows.filter((r) => r.severity === 'retracted').length,
    concern: rows.filter((r) => r.severity === 'concern').length,
  };
}

/** What makes a reference worth a second look, most serious first; null when nothing does. */
export type ReferenceProblem = 'retracted' | 'concern' | 'not-found' | 'contrasting';
const PROBLEM_ORDER: readonly ReferenceProblem[] = ['retracted', 'concern', 'not-found', 'contrasting'];

export function referenceProblem(row: ReferenceCheckRow): ReferenceProblem | null {
  if (row.severity === 'retracted' || row.severity === 'concern') return row.severity;
  if (!row.doi) return 'not-found';
  if (row.tally && row.tally.contrasting > 0) return 'contrasting';
  return null;
}

/**
 * The rows as the table lists them: problems first (retracted, expression of concern, not found,
 * contrasted), then the rest; the document's order within each group. `problemsOnly` keeps the problems.
 */
export function orderReferenceRows(rows: readonly ReferenceCheckRow[], problemsOnly = false): ReferenceCheckRow[] {
  const rank = (r: ReferenceCheckRow): number => {
    const p = referenceProblem(r);
    return p === null ? PROBLEM_ORDER.length : PROBLEM_ORDER.indexOf(p);
  };
  const kept = problemsOnly ? rows.filter((r) => referenceProblem(r) !== null) : [...rows];
  return kept.sort((a, b) => rank(a) - rank(b) || a.index - b.index);
}
