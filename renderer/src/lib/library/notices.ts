// The editorial notices a row is flagged with in the table: one badge per kind of notice the service
// reports, most severe first, each with a tooltip naming the notice. Comments flag nothing (as in
// shared/model/item-status.ts).
import type { LibraryRow } from '../../../../shared/model/library';

export type NoticeTone = 'danger' | 'warning' | 'info';

export interface NoticeBadge {
  /** The service's kind, lowercased ("has expression of concern"). */
  kind: string;
  /** The badge's text (shown in capitals). */
  label: string;
  /** The tooltip: which notice, and what it means. */
  title: string;
  tone: NoticeTone;
}

const KNOWN: readonly NoticeBadge[] = [
  {
    kind: 'retracted',
    label: 'Retracted',
    title: 'Retraction notice: this paper has been retracted; its findings should not be relied on',
    tone: 'danger',
  },
  { kind: 'withdrawn', label: 'Withdrawn', title: 'Withdrawal notice: this paper has been withdrawn', tone: 'danger' },
  {
    kind: 'has expression of concern',
    label: 'Concern',
    title: 'Expression of concern: the publisher has raised a concern about this paper',
    tone: 'warning',
  },
  {
    kind: 'has correction',
    label: 'Corrected',
    title: 'Correction notice: this paper has been corrected',
    tone: 'info',
  },
  { kind: 'has erratum', label: 'Erratum', title: 'Erratum: an error in this paper has been corrected', tone: 'info' },
];
const UNFLAGGED = new Set(['comment']);

/** The badges of a row: retracted (the paper's own flag counts too), withdrawn, concern, corrected, erratum, then any other notice. */
export function noticeBadges(row: Pick<LibraryRow, 'retracted' | 'notices'>): NoticeBadge[] {
  const kinds = new Set(row.notices.map((k) => k.trim().toLowerCase()));
  if (row.retracted === true) kinds.add('retracted');
  const out = KNOWN.filter((b) => kinds.has(b.kind));
  for (const kind of kinds) {
    if (UNFLAGGED.has(kind) || KNOWN.some((b) => b.kind === kind)) continue;
    out.push({ kind, label: 'Notice', title: `Editorial notice: ${kind}`, tone: 'info' });
  }
  return out;
}
