// Add by identifier, the words both the app's dialog and `citewise add` use: what happened to each
// input of a mixed list (DOIs, arXiv ids, PMIDs, PMCIDs, ISBNs), and the one-line summary.
import type { IdentifierKind } from './identifiers';
import { grouped } from './numbers';

/** How many inputs one call of library.addIdentifiers takes; the dialog sends a longer list in parts. */
export const MAX_IDENTIFIERS_PER_CALL = 5000;
/** The longest input a call carries; no identifier comes near it (identifiers.ts MAX_IDENTIFIER_LENGTH). */
export const MAX_IDENTIFIER_INPUT_CHARS = 1000;

export type IdentifierStatus = 'added' | 'queued' | 'duplicate' | 'not-added';

export interface IdentifierOutcome {
  /** As typed. */
  input: string;
  kind: IdentifierKind | 'invalid';
  /** How the report names it: the DOI, "arXiv:2101.00001v2", "PMID 31452104", "ISBN 9780306406157". */
  label: string;
  /**
   * added: a new item with the service's metadata; queued: kept as a placeholder the service completes
   * when it can be reached; duplicate: the library has it already; not-added: `reason` says why.
   */
  status: IdentifierStatus;
  /** The item added, kept or already there. */
  itemId?: number;
  citationKey?: string;
  /** The DOI looked up (an arXiv id's is derived from it). */
  doi?: string;
  reason?: string;
  /** INVALID_INPUT (not an identifier), NOT_FOUND (unknown to the service), NO_SOURCE (nothing can look it up), or the service's error code. */
  code?: string;
  /** An ISBN that could not be looked up: the ISBN-13, so a book can be made by hand with it. */
  isbn?: string;
}

export interface AddIdentifiersReport {
  outcomes: IdentifierOutcome[];
}

const count = (n: number, one: string, many: string): string => `${grouped(n)} ${n === 1 ? one : many}`;

/** "Added 2 items, 1 already in your library, 1 not added." */
export function addByIdentifierSummary(report: AddIdentifiersReport): string {
  const n = (s: IdentifierStatus): number => report.outcomes.filter((o) => o.status === s).length;
  const parts: string[] = [];
  if (n('added') > 0) parts.push(`Added ${count(n('added'), 'item', 'items')}`);
  if (n('queued') > 0)
    parts.push(`${count(n('queued'), 'placeholder', 'placeholders')} kept, completed when the service is reachable`);
  if (n('duplicate') > 0) parts.push(`${grouped(n('duplicate'))} already in your library`);
  if (n('not-added') > 0) parts.push(`${grouped(n('not-added'))} not added`);
  if (parts.length === 0) return 'Nothing was added.';
  const text = parts.join(', ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}
