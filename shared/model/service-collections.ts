// What the library keeps of the service's collections, journals and authors, as the panes see it.
import type { Collection, EditorialNoticeCounts, JournalIndexRecord } from '../service';
import type { PaperQuery } from './paper-query';

/** Where a service collection's papers came from. */
export type CollectionOrigin =
  | { kind: 'items'; dois: number }
  | { kind: 'collection'; collectionId: number; collectionName: string; dois: number }
  | { kind: 'query'; query: PaperQuery };

/** A service collection in the list: its counts, without its DOIs. */
export interface ServiceCollectionSummary {
  id: number;
  slug: string;
  name: string;
  origin: CollectionOrigin;
  matched: number;
  unmatched: number;
  total: number;
  warning: string | null;
  createdAt: number;
  /** When the service last answered for it (the local copy's age). */
  fetchedAt: number;
}

/** One service collection as kept locally: the service's answer in full. */
export interface ServiceCollectionRecord extends ServiceCollectionSummary {
  collection: Collection;
}

/** A collection with what the library already holds of it. */
export interface ServiceCollectionView extends ServiceCollectionRecord {
  /** Matched DOIs that are items in the library (not in the Trash). */
  inLibrary: string[];
  /** Set when the service could not be asked and this is the local copy. */
  problem?: { code: string; message: string };
}

/** A cached value: never fetched, fetched and unknown to the service, or fetched with data. */
export type Cached<T> =
  { state: 'not-fetched' } | { state: 'unknown'; fetchedAt: number } | { state: 'found'; fetchedAt: number; value: T };

export interface JournalView {
  issn: string;
  /** The journal's name, from its index records or the library's items. */
  title: string | null;
  index: Cached<JournalIndexRecord[]>;
  notices: Cached<EditorialNoticeCounts>;
  /** Items in the library with this ISSN. */
  libraryItems: number;
  /** Set when the service could not be asked; what is shown is the local copy. */
  problem?: { code: string; message: string };
}

/** One journal the library cites. */
export interface LibraryJournal {
  issn: string;
  title: string | null;
  items: number;
  notices: Cached<EditorialNoticeCounts>;
  /** The journal index of its latest year. */
  latestIndex: {
    year: string | null;
    sjiAllYears: number | null;
    sjiFiveYears: number | null;
    sjiTwoYears: number | null;
  } | null;
}

export interface LibraryJournals {
  journals: LibraryJournal[];
  /** Items with no ISSN, which no journal row counts. */
  itemsWithoutIssn: number;
  /** What the last refresh asked the service (one notices request per 500 ISSNs, one bulk index request per 500). */
  requests?: { notices: number; index: number; issns: number };
  /** ISSNs whose batch failed, with why. */
  failed?: { issns: number; message: string };
  problem?: { code: string; message: string };
}
