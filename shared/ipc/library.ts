// The offline library through IPC: listing and search, items and their parts, collections, tags,
// saved searches, trash, duplicates, undo, import, export and citations, backups. The core runs all
// of it in the library worker; inputs are bounded here so no payload can make it do unbounded work.
import { z } from 'zod';
import { CITATION_LOCALES, DEFAULT_CITATION_STYLE } from '../model/settings';
import { MAX_IMPORT_CHARS } from './wire';
import { STYLE_ID_PATTERN } from '../model/csl';
import { hasControlCharacter } from '../model/doi';
import type {
  BackupInfo,
  Collection,
  DuplicateGroup,
  ImportIssue,
  SameEntryReason,
  ItemDetail,
  ItemId,
  Page,
  Recovery,
  RelatedItem,
  SavedSearch,
  UndoEntry,
  UndoOutcome,
  UndoTops,
} from '../model/library';
import { MAX_COLLECTION_NAME, SORT_COLUMNS } from '../model/library';
import type { PaperVersions } from '../model/paper-versions';
import {
  MAX_IDENTIFIER_INPUT_CHARS,
  MAX_IDENTIFIERS_PER_CALL,
  type AddIdentifiersReport,
} from '../model/add-by-identifier';
import type { AttachFilesReport, LinkedFilesPreview } from '../model/linked-files';
import { REFERENCE_FORMAT_NAMES } from '../model/reference-formats';
import { event, feature, request } from './define';

/** The most items one request may name (a selection of the whole of a very large library). */
export const MAX_IDS = 200_000;
export { MAX_IMPORT_CHARS };

export const EXPORT_FILE_FORMATS = REFERENCE_FORMAT_NAMES;
export const EXPORT_CITE_FORMATS = ['text', 'html', 'rtf'] as const;
export type ExportFileFormat = (typeof EXPORT_FILE_FORMATS)[number];
export type ExportCiteFormat = (typeof EXPORT_CITE_FORMATS)[number];
export { CITATION_LOCALES };

const empty = z.object({}).strict();
const itemId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ids = z.array(itemId).min(1).max(MAX_IDS);
const name = z.string().trim().min(1).max(MAX_COLLECTION_NAME);
const tags = z.array(z.string().trim().min(1).max(500)).min(1).max(1000);
const query = z.string().max(4000);
/** A built-in style (apa, ieee, …) or the id of one added from a .csl file. */
const styleRef = z
  .string()
  .regex(
    STYLE_ID_PATTERN,
    'a citation style id: apa, ieee, mla, ama, chicago, harvard, vancouver, bibtex or an added style',
  );
const sort = z.object({ column: z.enum([...SORT_COLUMNS, 'relevance']), direction: z.enum(['asc', 'desc']) }).strict();
const where = {
  query: query.optional(),
  collectionId: itemId.optional(),
  includeSubcollections: z.boolean().optional(),
  unfiled: z.boolean().optional(),
  trash: z.boolean().optional(),
};
/** Which items library.list/count and a view cover: a search, a collection (with subcollections), Unfiled or the trash. */
export const libraryWhere = z.object(where).strict();

/**
 * What an import reads: a file the user chose (`file`, a selection of the open dialog, a drop or an
 * upload, with the file's index in it), or pasted `text` (with `fileName` when a file was read as
 * text). Exactly one of the two (importSourceNamed); each call adds its own options.
 */
const importSourceInput = z
  .object({
    file: z
      .object({ selection: z.string().min(1).max(100), index: z.number().int().min(0).max(100_000) })
      .strict()
      .optional(),
    text: z.string().min(1).max(MAX_IMPORT_CHARS).optional(),
    fileName: z.string().max(1000).optional(),
    format: z.enum(['bibtex', 'ris', 'csljson', 'doi-list']).optional(),
  })
  .strict();
const importSourceNamed: [(o: { file?: unknown; text?: unknown }) => boolean, { message: string; path: string[] }] = [
  (o) => (o.file === undefined) !== (o.text === undefined),
  { message: 'An import reads either a chosen file or pasted text, and one of them is needed', path: ['text'] },
];
export type LibraryWhere = z.infer<typeof libraryWhere>;

/** What an export or a bibliography covers: chosen items, a collection (with subcollections), a search, a view, or everything. */
export const exportScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('items'), ids }).strict(),
  z.object({ kind: z.literal('collection'), collectionId: itemId }).strict(),
  z.object({ kind: z.literal('query'), query }).strict(),
  z.object({ kind: z.literal('library') }).strict(),
  /** What a view of the library shows: a collection, Unfiled or the trash, with a search. */
  z.object({ kind: z.literal('view'), where: libraryWhere }).strict(),
]);
export type ExportScope = z.infer<typeof exportScope>;

/**
 * What the Library pane has selected, as it reports it for the editor API's `selected=1`: the chosen
 * items (none included), or everything the view shows ("Select all" on 100,000 rows sends the view,
 * not the ids).
 */
export const librarySelection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('items'), ids: z.array(itemId).max(MAX_IDS) }).strict(),
  z.object({ kind: z.literal('view'), where: libraryWhere }).strict(),
]);
export type LibrarySelection = z.infer<typeof librarySelection>;

/** A citation style the exporter can use. */
export interface CitationStyleInfo {
  id: string;
  title: string;
  builtIn: boolean;
}

/** The import's one issue type (shared/model/library), for the renderer that shows the report. */
export type { ImportIssue };

export interface ImportReport {
  /** The detected (or given) format. */
  format: string;
  /** Entries the parser found. */
  entries: number;
  added: number;
  ids: ItemId[];
  /** `existingKey`: the citation key of the item it is, for the report to name (never an internal id). */
  duplicates: { line: number; key?: string; existingId: ItemId; existingKey?: string; reason: SameEntryReason }[];
  /** Entries left out, each with its line and reason. */
  errors: ImportIssue[];
  warnings: ImportIssue[];
  /** DOIs found in a DOI list, whose metadata comes from the service. */
  dois: string[];
  /** For a DOI list: what adding them did (the items are also counted in `added` and `ids`). */
  byDoi?: AddDoisReport;
  /** BibTeX: entries whose Title Case title was read in sentence case (Settings → Import). */
  titlesCased?: number;
  /** For a .bib whose entries name files (`file = {…}`): what became of each (pdf/attach-files.ts). */
  files?: AttachFilesReport;
}

/** A dry run: what an import would do, without writing. */
export interface ImportPreview {
  format: string;
  entries: number;
  /** The first entries as the library would store them. */
  sample: {
    line: number;
    type: string;
    title: string | null;
    creators: string | null;
    year: number | null;
    doi: string | null;
    duplicateOf: ItemId | null;
    /** The title as the file wrote it, when `title` is it in sentence case (Settings → Import). */
    titleAsWritten?: string;
  }[];
  /** BibTeX: entries whose Title Case title is read in sentence case. */
  titlesCased?: number;
  /** How many entries are already in the library (same DOI). */
  duplicates: number;
  errors: ImportIssue[];
  warnings: ImportIssue[];
  dois: string[];
  /** For a .bib whose entries name files: how many, and how many need a folder to start from. */
  files?: LinkedFilesPreview;
}

export type { AddIdentifiersReport, AttachFilesReport, LinkedFilesPreview };

export interface AddDoisReport {
  added: { doi: string; id: ItemId; citationKey: string }[];
  duplicates: { doi: string; existingId: ItemId }[];
  /** Not added, with why: not a DOI, unknown to the service, or the lookup failed (offline: retry later). */
  notAdded: { doi: string; reason: string; code?: string }[];
  /** The service could not be reached: kept as placeholder items, completed by enrichment when it can. */
  queued: { doi: string; id: ItemId }[];
}

export interface ExportOutput {
  content: string;
  /** Entries in `content`. */
  items: number;
  /** Items in the scope (more than `items` when a limit was given). */
  total: number;
  /** Standalone notes in the scope, left out: no reference format or style has a place for them. */
  notesSkipped?: number;
  mime: string;
  /** The file name extension, without the dot. */
  extension: string;
}

export interface Citation {
  /** Plain text, for the clipboard's text/plain. */
  text: string;
  /** Allowlisted HTML (i, b, sup, sub, span with font-variant), for text/html. */
  html: string;
}

export interface LibraryStatus {
  file: string;
  items: number;
  trashed: number;
  collections: number;
  tags: number;
  /** Set when the library file was found damaged at start and was set aside. */
  recovery: Recovery | null;
  backupDir: string;
}

/** Why the library changed, so each view refreshes only what it shows. `ids` is absent when too many to list. */
export interface LibraryChange {
  kind: 'items' | 'collections' | 'tags' | 'searches' | 'trash' | 'cache' | 'all';
  ids?: ItemId[];
}

export const libraryFeature = feature({
  requests: {
    'library.status': request(empty).returns<LibraryStatus>(),
    'library.list': request(
      z
        .object({
          ...where,
          sort: sort.optional(),
          limit: z.number().int().min(1).max(1000).default(100),
          cursor: z.string().max(4000).nullable().optional(),
          offset: z.number().int().min(0).max(10_000_000).optional(),
        })
        .strict()
        .refine((input) => input.offset === undefined || !input.cursor, {
          message: 'a page starts at a cursor or at an offset, not both',
          path: ['offset'],
        }),
    ).returns<Page>(),
    'library.count': request(libraryWhere).returns<number>(),
    /** The Library pane reports its selection (the editor API's `selected=1` and `/better-bibtex/select`). */
    'library.selection.set': request(
      z
        .object({
          selection: librarySelection,
          /** The collection the Library shows (where a save from the Zotero Connector goes); null: none. */
          collectionId: itemId.nullable().optional(),
        })
        .strict(),
    ).returns<null>(),
    /** The collection the Library last showed (null: the library, a search, the trash). */
    'library.selection.collection': request(empty).returns<number | null>(),
    /** The ids of the last reported selection, in the order selected (empty when none was reported). */
    'library.selection.get': request(empty).returns<ItemId[]>(),

    'library.item.get': request(z.object({ id: itemId }).strict()).returns<ItemDetail>(),
    /** Replaces the item's CSL-JSON (the table's columns follow); one undo step. */
    'library.item.update': request(
      z
        .object({
          id: itemId,
          csl: z
            .record(z.string().max(200), z.unknown())
            .refine((r) => typeof r.type === 'string' && r.type.trim() !== '', {
              message: 'A CSL record needs a "type" (for example "article-journal" or "book")',
              path: ['type'],
            })
            .refine((r) => typeof r.DOI !== 'string' || !hasControlCharacter(r.DOI), {
              message: 'The DOI contains a control character (such as %00); a DOI never does',
              path: ['DOI'],
            }),
        })
        .strict(),
    ).returns<ItemDetail>(),
    'library.item.setKey': request(z.object({ id: itemId, key: z.string().trim().min(1).max(300) }).strict()).returns<{
      citationKey: string;
    }>(),
    'library.item.regenerateKey': request(z.object({ id: itemId }).strict()).returns<{ citationKey: string }>(),
    'library.item.related': request(z.object({ id: itemId }).strict()).returns<RelatedItem[]>(),
    /**
     * The item's published versions and preprints, from the links the service cache holds (offline).
     * `fetch` first asks the service for the linked papers nothing is known of yet (to name them); when
     * it cannot be reached, the answer is what is stored.
     */
    'library.item.versions': request(
      z.object({ id: itemId, fetch: z.boolean().default(false) }).strict(),
    ).returns<PaperVersions>(),

    /**
     * "Use the title as written": the items' titles a BibTeX import stored in sentence case go back to
     * the file's (ItemDetail.titleAsWritten), in one undo step; `changed` counts the items that had one.
     */
    'library.titles.asWritten': request(z.object({ ids }).strict()).returns<{ changed: number }>(),
    'library.tags.list': request(empty).returns<{ name: string; count: number }[]>(),
    'library.tags.add': request(z.object({ ids, tags }).strict()).returns<null>(),
    'library.tags.remove': request(z.object({ ids, tags }).strict()).returns<null>(),

    'library.notes.add': request(z.object({ itemId, body: z.string().min(1).max(1_000_000) }).strict()).returns<{
      id: number;
    }>(),
    /** A standalone note (one that belongs to no item), filed into `collectionId` when given. */
    'library.notes.addStandalone': request(
      z.object({ body: z.string().min(1).max(1_000_000), collectionId: itemId.nullable().optional() }).strict(),
    ).returns<{ itemId: ItemId; noteId: number }>(),
    'library.notes.update': request(
      z.object({ id: itemId, body: z.string().min(1).max(1_000_000) }).strict(),
    ).returns<null>(),
    'library.notes.delete': request(z.object({ id: itemId }).strict()).returns<null>(),
    'library.attachments.remove': request(z.object({ id: itemId }).strict()).returns<null>(),

    'library.collections.list': request(empty).returns<Collection[]>(),
    'library.collections.create': request(
      z.object({ name, parentId: itemId.nullable().default(null) }).strict(),
    ).returns<{ id: number }>(),
    'library.collections.rename': request(z.object({ id: itemId, name }).strict()).returns<null>(),
    'library.collections.move': request(z.object({ id: itemId, parentId: itemId.nullable() }).strict()).returns<null>(),
    'library.collections.delete': request(z.object({ id: itemId }).strict()).returns<null>(),
    'library.collections.addItems': request(z.object({ collectionId: itemId, ids }).strict()).returns<null>(),
    'library.collections.removeItems': request(z.object({ collectionId: itemId, ids }).strict()).returns<null>(),
    /**
     * Makes a collection hold exactly these items (an editor's collection.scanAUX): one undo step,
     * labelled with `source` (the file the list came from) when given.
     */
    'library.collections.setItems': request(
      z
        .object({ collectionId: itemId, ids: z.array(itemId).max(1_000_000), source: z.string().max(300).optional() })
        .strict(),
    ).returns<{ added: number; removed: number }>(),
    /**
     * The collection at a path of names from the top, created with its parents where missing and,
     * with `ids`, made to hold exactly those items (an editor's collection.scanAUX, autoexport.add):
     * one undo step, whose undo also removes the collections it created.
     */
    'library.collections.fillPath': request(
      z
        .object({
          path: z.array(name).min(1).max(32),
          ids: z.array(itemId).max(1_000_000).optional(),
          source: z.string().max(300).optional(),
        })
        .strict(),
    ).returns<{ id: number; created: number; added: number; removed: number }>(),
    'library.collections.moveItems': request(z.object({ ids, fromId: itemId, toId: itemId }).strict()).returns<null>(),

    'library.trash': request(z.object({ ids }).strict()).returns<null>(),
    'library.restore': request(z.object({ ids }).strict()).returns<null>(),
    /** Deletes trashed items for good (items not in the trash are refused). */
    'library.delete': request(z.object({ ids }).strict()).returns<null>(),
    'library.trash.empty': request(empty).returns<{ deleted: number }>(),

    'library.searches.list': request(empty).returns<SavedSearch[]>(),
    'library.searches.save': request(z.object({ name, query, sort: sort.nullable().default(null) }).strict()).returns<{
      id: number;
    }>(),
    'library.searches.delete': request(z.object({ id: itemId }).strict()).returns<null>(),

    'library.duplicates': request(empty).returns<DuplicateGroup[]>(),
    /** Marks a duplicate group's items as not duplicates of one another (`mark` false: offers them again). */
    'library.duplicates.notDuplicates': request(
      z.object({ ids: z.array(itemId).min(2).max(1000), mark: z.boolean().default(true) }).strict(),
    ).returns<null>(),
    /** Merges `otherIds` into `keepId`; `csl`, when given, is the field-by-field choice applied to the result. */
    'library.merge': request(
      z.object({ keepId: itemId, otherIds: ids, csl: z.record(z.string().max(200), z.unknown()).optional() }).strict(),
    ).returns<ItemDetail>(),

    /**
     * Undoes the last change; with `id`, only if that entry is still the last one (CONFLICT otherwise:
     * an Undo offered for one change never reverts another). Items the change created go to the Trash.
     * `label` is null when there was nothing to undo.
     */
    'library.undo': request(z.object({ id: itemId.optional() }).strict()).returns<UndoOutcome | { label: null }>(),
    /** Re-applies the last undone change; CONFLICT when its items changed since (see docs/undo.md). */
    'library.redo': request(z.object({ id: itemId.optional() }).strict()).returns<UndoOutcome | { label: null }>(),
    'library.history': request(empty).returns<{ undo: UndoEntry[]; redo: UndoEntry[] }>(),
    /** What undo and redo would revert now (the payload of library.undoChanged). */
    'library.undo.tops': request(empty).returns<UndoTops>(),

    /**
     * Imports a file the user chose, by its selection (`file`: the desktop app's dialog or drop, or
     * browser mode's upload, see importFile), parsed from disk as the CLI does; or pasted `text`. One
     * transaction; runs as a job. An upload's temporary file is deleted once imported.
     */
    'library.import': request(
      importSourceInput
        .extend({
          /** The folder the .bib's relative file paths start from (an upload does not say where it was). */
          baseDir: z.string().trim().min(1).max(4096).optional(),
        })
        .strict()
        .refine(...importSourceNamed),
    ).returns<ImportReport>(),
    /** What `library.import` would do with the same source, without writing. */
    'library.import.preview': request(
      importSourceInput
        .extend({ sample: z.number().int().min(0).max(200).default(20) })
        .strict()
        .refine(...importSourceNamed),
    ).returns<ImportPreview>(),
    /**
     * Adds items by identifier, a mixed list: DOIs and arXiv ids through the service, PMIDs, PMCIDs and
     * ISBNs matched against the library and otherwise refused with the reason (shared/model/identifiers).
     */
    'library.addIdentifiers': request(
      z
        .object({
          inputs: z.array(z.string().max(MAX_IDENTIFIER_INPUT_CHARS)).min(1).max(MAX_IDENTIFIERS_PER_CALL),
        })
        .strict(),
    ).returns<AddIdentifiersReport>(),
    /** A new item typed in by hand (New item): a CSL record checked by shared/model/item-form; one undo step. */
    'library.item.create': request(
      z
        .object({ csl: z.record(z.string().max(200), z.unknown()), collectionId: itemId.nullable().default(null) })
        .strict(),
    ).returns<ItemDetail>(),
    /**
     * Items a word-processor document cites from its embedded data, added as one undo step: for each,
     * the library item it became (new, or the one it duplicates), or null when it could not be added.
     */
    'library.items.addCited': request(
      z
        .object({
          items: z
            .array(z.record(z.string().max(200), z.unknown()))
            .min(1)
            .max(5000),
        })
        .strict(),
    ).returns<(ItemId | null)[]>(),
    /** A copy of an item (fields, creators, tags; not notes or attachments), filed into `collectionId` when given. */
    'library.item.duplicate': request(
      z.object({ id: itemId, collectionId: itemId.nullable().default(null) }).strict(),
    ).returns<ItemDetail>(),
    /** New keys from the formula (Settings → Citation keys) for the items, as one undo step. */
    'library.items.regenerateKeys': request(z.object({ ids }).strict()).returns<{
      changed: number;
      unchanged: number;
    }>(),
    /** Adds papers by DOI with their metadata from the service. */
    'library.addDois': request(
      z.object({ dois: z.array(z.string().max(1000)).min(1).max(5000) }).strict(),
    ).returns<AddDoisReport>(),

    'library.export': request(
      z
        .object({
          scope: exportScope,
          format: z.enum([...EXPORT_FILE_FORMATS, ...EXPORT_CITE_FORMATS]),
          style: styleRef.default(DEFAULT_CITATION_STYLE),
          locale: z.enum(CITATION_LOCALES).default('en-US'),
          /** A preview: only the first `limit` items of the scope (in library order) are exported. */
          limit: z.number().int().min(1).max(1000).optional(),
          /** The items' notes too: RIS N1 lines (HTML), BibTeX/BibLaTeX `annote` (text); CSL-JSON has no place for them. */
          notes: z.boolean().optional(),
        })
        .strict(),
    ).returns<ExportOutput>(),
    /** A bibliography of the items, or one in-text citation of all of them (grouped). */
    'library.cite': request(
      z
        .object({
          ids: z.array(itemId).min(1).max(5000),
          style: styleRef.default(DEFAULT_CITATION_STYLE),
          locale: z.enum(CITATION_LOCALES).default('en-US'),
          kind: z.enum(['bibliography', 'citation']).default('bibliography'),
        })
        .strict(),
    ).returns<Citation>(),

    /**
     * Each CSL record (not a library item: a reference of a check or an answer) as its own one-entry
     * bibliography, in the order given.
     */
    'library.citeRecords': request(
      z
        .object({
          records: z
            .array(
              z
                .record(z.string().max(200), z.unknown())
                .refine((r) => typeof r.type === 'string' && typeof r.id === 'string', {
                  message: 'A CSL record needs a string "id" and "type"',
                }),
            )
            .min(1)
            .max(1000),
          style: styleRef.default(DEFAULT_CITATION_STYLE),
          locale: z.enum(CITATION_LOCALES).default('en-US'),
        })
        .strict(),
    ).returns<Citation[]>(),
    /** The citation styles: the eight built in, then those added from .csl files. */
    'library.styles.list': request(empty).returns<CitationStyleInfo[]>(),
    /** Adds (or replaces) a style from a .csl file's text, checked first; kept in the data folder. */
    'library.styles.add': request(
      z.object({ xml: z.string().min(1).max(2_000_000) }).strict(),
    ).returns<CitationStyleInfo>(),
    'library.styles.remove': request(z.object({ id: styleRef }).strict()).returns<null>(),

    'library.backup': request(empty).returns<BackupInfo>(),
    'library.backups': request(empty).returns<BackupInfo[]>(),
  },
  events: {
    'library.changed': event<LibraryChange>(),
    /** The step undo (or redo) would revert changed: every Undo offer shows only while it is its step. */
    'library.undoChanged': event<UndoTops>(),
    /**
     * Changes are waiting for the write lock another program holds (a command-line import): they are
     * saved, in order, when it finishes. `message` says so for the user; waiting false: all saved.
     */
    'library.waiting': event<{ waiting: boolean; message: string }>(),
  },
});
