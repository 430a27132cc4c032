// How an item waiting for the citation service says so (ServiceWait): a mark in the table's title
// cell and a box in the details column, both naming what it waits for. The DOI and the title read
// from a PDF are shown as text, never as markup.
import type { ServiceWait } from '../../../../shared/model/library';

export const WAITING_HEADING = 'Waiting for the citation service';

/** What it waits for, in a few words (the table's tooltip and its screen-reader text). */
export function waitingFor(w: ServiceWait): string {
  return w.for === 'metadata' ? `its metadata (DOI ${w.doi})` : "a search by its PDF's title";
}

/** The table mark's tooltip. */
export function waitingTitle(w: ServiceWait): string {
  return `${WAITING_HEADING}: ${waitingFor(w)}`;
}

/** The details column's sentence: what happens when the service can be reached again. */
export function waitingDetail(w: ServiceWait): { lead: string; quoted: string; rest: string } {
  if (w.for === 'metadata') {
    return {
      lead: 'Its metadata and citation evidence for DOI ',
      quoted: w.doi,
      rest: ' are fetched when the service can be reached. Fields you edit meanwhile are kept.',
    };
  }
  return {
    lead: 'The title read from its PDF, ',
    quoted: w.title,
    rest: ", is looked up in the service's paper search when the service can be reached; the PDF is then identified or sent to Needs review. Fields you edit meanwhile are kept.",
  };
}
