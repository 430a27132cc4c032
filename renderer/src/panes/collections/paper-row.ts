// Search hits and author papers in the one shape PaperRow shows.
import type { InUiWords } from '../../../../shared/model/evidence';
import type { UiPaper } from '../../../../shared/model/service';
import type { SearchHit } from '../../../../shared/service';

export interface PaperRowData {
  doi: string;
  title: string | undefined;
  authors: string[];
  journal: string | undefined;
  year: number | undefined;
  tally:
    | { supporting: number; contrasting: number; mentioning: number; citingPublications?: number | undefined }
    | undefined;
  /** Editorial notice statuses, each once ("Retracted", "Has correction"…). */
  notices: string[];
}

const statuses = (notices: readonly { status?: string | undefined }[] | undefined, retracted?: boolean): string[] => {
  const out = new Set((notices ?? []).flatMap((n) => (n.status ? [n.status] : [])));
  if (retracted) out.add('Retracted');
  return [...out];
};

export function hitRow(hit: InUiWords<SearchHit>): PaperRowData {
  return {
    doi: hit.doi ?? '',
    title: hit.title,
    authors: (hit.authors ?? []).map((a) => a.authorName ?? '').filter(Boolean),
    journal: hit.journal,
    year: hit.year,
    tally: hit.tally
      ? {
          supporting: hit.tally.supporting,
          contrasting: hit.tally.contrasting,
          mentioning: hit.tally.mentioning,
          citingPublications: hit.tally.citingPublications,
        }
      : undefined,
    notices: statuses(hit.editorialNotices),
  };
}

export function paperRow(paper: UiPaper): PaperRowData {
  const t = paper.tally;
  return {
    doi: paper.doi,
    title: paper.title,
    authors: (paper.authors ?? [])
      .map((a) => a.authorName ?? [a.given, a.family].filter(Boolean).join(' '))
      .filter(Boolean),
    journal: paper.journal,
    year: paper.year,
    tally: t
      ? {
          supporting: t.supporting,
          contrasting: t.contrasting,
          mentioning: t.mentioning,
          citingPublications: t.citingPublications,
        }
      : undefined,
    notices: statuses(paper.editorialNotices, paper.retracted),
  };
}

/** A new read-only set of everything in the lists (state holds sets replaced whole, never mutated). */
export function setOf<T>(...lists: Iterable<T>[]): ReadonlySet<T> {
  return new Set(lists.flatMap((l) => [...l]));
}

/** A new read-only set without these items. */
export function without<T>(set: ReadonlySet<T>, items: Iterable<T>): ReadonlySet<T> {
  const drop = new Set(items);
  return new Set([...set].filter((x) => !drop.has(x)));
}

/** Items once each, by key, in first-seen order. */
export function uniqueBy<T>(items: Iterable<T>, key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(item);
    }
  }
  return out;
}
