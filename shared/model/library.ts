// The library's public shapes: what the store returns and takes. Plain data, so it crosses the library
// worker's boundary and IPC unchanged; the renderer shows exactly these.
import type { CslItem, CslItemType } from './csl';

export type ItemId = number;

/** The evidence state of one DOI: distinct "not fetched", "unknown to the service" and counts (possibly 0). */
export type TallyState =
  | { state: 'not-fetched' }
  | { state: 'unknown'; fetchedAt: number }
  | {
      state: 'found';
      fetchedAt: number;
      total: number;
      supporting: number;
      contrasting: number;
      mentioning: number;
      unclassified: number;
      /** null when the service did not report it. */
      citingPublications: number | null;
    };

/**
 * What an item waits for from the citation service, until it can be reached: a DOI placeholder (a DOI
 * added or found in a PDF offline) its metadata; a PDF captured offline without an identifier the
 * paper search by its first page's title.
 */
export type ServiceWait = { for: 'metadata'; doi: string } | { for: 'title-search'; title: string };

/** One row of the library table. */
export interface LibraryRow {
  id: ItemId;
  type: CslItemType;
  citationKey: string;
  title: string | null;
  creators: string | null;
  year: number | null;
  container: string | null;
  doi: string | null;
  dateAdded: number;
  dateModified: number;
  trashedAt: number | null;
  evidence: TallyState;
  /** null: notices not fetched or DOI unknown to the service. */
  retracted: boolean | null;
  /**
   * The kinds of editorial notice the service reports for the DOI, lowercased as it sends them
   * ("retracted", "withdrawn", "has expression of concern", "has correction", "has erratum", …);
   * empty when there are none or they were not fetched.
   */
  notices: string[];
  /** Set while the item waits for the citation service (absent otherwise). */
  waiting?: ServiceWait;
  publisher: string | null;
  pages: string | null;
  /** The first line of Extra (CSL `note`, where Zotero's Extra field goes). */
  extra: string | null;
  notesCount: number;
  /** How many files are attached, and how many of them are PDFs. */
  files: { count: number; pdf: number };
}

export const SORT_COLUMNS = [
  'title',
  'creators',
  'year',
  'container',
  'type',
  'citationKey',
  'dateAdded',
  'dateModified',
  'publisher',
  'pages',
  'extra',
  'attachments',
  'notes',
  'supporting',
  'contrasting',
  'mentioning',
  'citing',
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface Sort {
  column: SortColumn | 'relevance';
  direction: 'asc' | 'desc';
}

export interface ListOptions {
  /** A query in the search language; empty or absent lists everything. */
  query?: string;
  sort?: Sort;
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string | null;
  /**
   * Start this many rows into the list instead (not with a cursor): for a table that jumps far ahead,
   * where reading every page in between would be wasted. Its nextCursor pages on from there.
   */
  offset?: number;
  /** Only items in this collection (and, unless false, its subcollections). */
  collectionId?: number;
  includeSubcollections?: boolean;
  /** Only items in no collection at all (Unfiled). */
  unfiled?: boolean;
  /** The trash instead of the library. */
  trash?: boolean;
  /** Only references: standalone notes left out (what a citation picker offers). */
  references?: boolean;
}

export interface Page {
  rows: LibraryRow[];
  /** Pass back for the next page; null at the end. */
  nextCursor: string | null;
}

export interface Creator {
  role: string;
  family: string | null;
  given: string | null;
  literal: string | null;
}

export interface Note {
  id: number;
  /** The note's HTML, kept to the note allowlist (shared/model/note-html.ts); shown only through it. */
  body: string;
  /** Its plain text (search, titles, plain-text formats). */
  text: string;
  createdAt: number;
  modifiedAt: number;
}

export interface Attachment {
  id: number;
  path: string;
  sha256: string | null;
  size: number | null;
  mime: string | null;
  addedAt: number;
  /** copied: a captured PDF kept in the library folder under its checksum; linked: the file where the user keeps it. */
  stored: 'copied' | 'linked';
  /** The file's name when it was attached (a copy's own name is its checksum); null when not known. */
  originalName: string | null;
}

export interface ItemDetail extends LibraryRow {
  csl: CslItem;
  creatorsList: Creator[];
  tags: string[];
  notes: Note[];
  collections: number[];
  attachments: Attachment[];
  keyAliases: string[];
  source: string | null;
  /**
   * The title as its file wrote it, when a BibTeX import stored it in sentence case (Settings →
   * Import) and it is still that: what "Use the title as written" puts back.
   */
  titleAsWritten?: string;
}

/**
 * One problem of an import, wherever it was found: by the parser (an entry left out, or read with a
 * caveat), by the store (an entry rejected, a key that was taken), and as the report shows it.
 */
export interface ImportIssue {
  /** 1-based line where the entry starts; 0 when there is none (a problem of the whole file, or items that came without lines). */
  line: number;
  reason: string;
  /** The start of the offending text, shortened, for the researcher to recognise it (parse errors). */
  excerpt?: string;
}

/** Which entry of an import the store means: its place in the import's order, and where the source has it. */
export interface EntryPlace {
  /** 0-based, in the order the entries were given, across chunks. */
  index: number;
  /** 1-based line where the entry starts in the file; 0 for items that came without lines. */
  line: number;
  /** The key the file gave the entry (BibTeX key, RIS ID). */
  sourceKey?: string;
}

/**
 * Why an import took an entry for an item the library holds: 'entry', the same entry as the file
 * wrote it was imported before (its origin); 'key-title', the same citation key and the same DOI or
 * title; for entries without a key of their own, 'doi', the same DOI, or 'title', the same title,
 * creators, year and type (see ImportSession).
 */
export type SameEntryReason = 'entry' | 'doi' | 'key-title' | 'title';

/** The store's answer to an import (ImportSession). */
export interface ImportResult {
  added: number;
  ids: ItemId[];
  /** Entries the library already holds as the same entry, and why they are taken for it. */
  duplicates: (EntryPlace & { existingId: ItemId; existingKey?: string; reason: SameEntryReason })[];
  /** Entries not added, with the reason. */
  errors: (EntryPlace & ImportIssue)[];
  /** Kept entries with something to tell: an invalid DOI not indexed, a citation key that was taken. */
  warnings: (EntryPlace & ImportIssue)[];
}

export interface Collection {
  id: number;
  parentId: number | null;
  name: string;
  itemCount: number;
}

export interface SavedSearch {
  id: number;
  name: string;
  query: string;
  sort: Sort | null;
}

export interface DuplicateGroup {
  ids: ItemId[];
  reason: 'doi' | 'title-creator-year';
}

/** A tag with a colour and its place 1–9 (its key toggles it on the selection), as Zotero's tag selector has. */
export interface TagColor {
  name: string;
  /** #rrggbb */
  color: string;
  position: number;
  /** Live items with the tag (a coloured tag stays listed at 0). */
  count: number;
}

/** An item related to another by the user (both ways, as Zotero's Related). */
export interface RelatedRow {
  id: ItemId;
  title: string | null;
  creators: string | null;
  year: number | null;
  citationKey: string;
  trashed: boolean;
}

export interface RelatedItem {
  id: ItemId;
  relation: 'preprint' | 'publication';
}

/** The most item ids an UndoEntry lists (itemCount has them all). */
export const UNDO_ENTRY_MAX_IDS = 100;

/** One step of the undo or redo stack. `label` names the action and its items ("Edit title of “…”"). */
export interface UndoEntry {
  id: number;
  label: string;
  createdAt: number;
  /** The items the step touches (at most UNDO_ENTRY_MAX_IDS of them). */
  itemIds: ItemId[];
  itemCount: number;
  /**
   * Set for a change undo cannot revert (a collection created, renamed, moved or deleted): undo stops
   * there and says so. `before` is the newest change beneath it that can be undone (by its id).
   */
  cannotUndo?: { before: { id: number; label: string } | null };
}

/** The step undo and the step redo would revert now (library.undoChanged, library.history). */
export interface UndoTops {
  undo: UndoEntry | null;
  redo: UndoEntry | null;
}

/** What an undo or a redo did. */
export interface UndoOutcome {
  /** The step's label, as its entry had it. */
  label: string;
  itemIds: ItemId[];
  /** Items the undo moved to the Trash instead of removing them (the step had created them). */
  trashed: ItemId[];
  /**
   * Collections the step created that the undo left in place because they are in use now, each
   * named with why (“Thesis” (2 items were filed there since)). Absent when there are none.
   */
  kept?: string[];
}

export type BackupReason = 'scheduled' | 'pre-migration' | 'manual' | 'pre-restore';

export interface BackupInfo {
  file: string;
  reason: BackupReason;
  createdAt: number;
  size: number;
}

/** What start-up did with a damaged library file; the user must be told. */
export interface Recovery {
  /** Where the damaged file was moved. */
  setAside: string;
  /** What integrity_check said about it. */
  problem: string;
  /** The backup restored, or null when none was good (the library starts empty). */
  restoredFrom: string | null;
}

/** The longest name a collection may have. */
export const MAX_COLLECTION_NAME = 500;
