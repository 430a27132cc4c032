// Zotero's ways in: what the Zotero Connector saves from the browser (electron/api/connector calls
// these), and a Zotero data folder imported directly. Inputs are bounded here; the Zotero item JSON
// itself is checked field by field by the mapping in the core (core/formats/zotero).
import { z } from 'zod';
import { hasPathOrControl } from '../model/pdf-capture';
import type { ItemId } from '../model/library';
import type { PdfAddOutcome } from './pdfs';
import { MAX_IMPORT_CHARS } from './wire';
import { event, feature, request } from './define';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Items one Connector save may bring (a search results page with everything selected). */
export const MAX_CONNECTOR_ITEMS = 500;
/** The largest file (a PDF, a page snapshot) the Connector may send for an item. */
export const MAX_CONNECTOR_FILE_BYTES = 100 * 1024 * 1024;

/** An item as a Zotero translator made it; the core maps what it knows and keeps the rest. */
const zoteroItem = z
  .object({ itemType: z.string().min(1).max(100) })
  .passthrough()
  .refine((item) => JSON.stringify(item).length <= 2_000_000, 'An item is larger than 2 MB');

export interface ConnectorSavedItem {
  id: ItemId;
  title: string | null;
  /** The library had it already (same DOI, or key and title): the save went to that item. */
  existing: boolean;
}

/** A save from the browser, as the app shows it (a toast with the items, the collection and Undo). */
export interface ConnectorSave {
  items: ConnectorSavedItem[];
  collection: { id: number; name: string } | null;
  /** The page it came from. */
  source: string;
  /** What happened: saved, or moved to another collection from the Connector's popup. */
  kind: 'saved' | 'moved' | 'attached';
  /** For 'attached': the file's name. */
  file?: string;
}

export interface ZoteroImportReport {
  /** The zotero.sqlite read (a copy of it: the original is never opened for writing). */
  database: string;
  items: number;
  added: number;
  duplicates: number;
  notes: number;
  standaloneNotes: number;
  collections: number;
  tags: number;
  attachments: { stored: number; linked: number; links: number; missing: string[] };
  /** Items whose citation key came from Better BibTeX (its database, Zotero 7's field or Extra). */
  pinnedKeys: number;
  trashed: number;
  /** Item types or records Citewise could not take, each with its Zotero item key. */
  skipped: { key: string; reason: string }[];
  warnings: string[];
  ids: ItemId[];
}

/** What a Zotero data folder holds and what importing it would do, read before anything is written. */
export interface ZoteroImportPreview {
  /** The data folder and its zotero.sqlite, as found from the path given. */
  folder: string;
  database: string;
  /** A running Zotero holds the database locked: a copy taken now is what is read. */
  locked: boolean;
  /** Regular items (not notes or attachments) in the folder, and those the library has already. */
  items: number;
  duplicates: number;
  /** Collections in the folder (a group library counts as one more), and tags across its items. */
  collections: number;
  tags: number;
  /** Notes on items, standalone notes, and files with annotations (each becomes one note). */
  notes: number;
  standaloneNotes: number;
  annotatedFiles: number;
  attachments: {
    /** Files in storage/ (copied or linked, as Settings → PDFs says), linked files, web links. */
    stored: number;
    linked: number;
    links: number;
    /** Files named by the database that are not on disk. */
    missing: string[];
  };
  /** The folder has no storage/ subfolder, though its database names files stored there. */
  storageMissing: boolean;
  /**
   * Zotero's Linked Attachment Base Directory this preview used: the one given (`from` 'given'), or
   * the one a Zotero profile's prefs.js names (`from` is that file); null when none was found.
   */
  baseDirectory: { path: string; from: string } | null;
  /** Linked files stored relative to that base folder ("attachments:…" in Zotero's database). */
  relativeLinks: number;
  pinnedKeys: number;
  trashed: number;
  groups: string[];
  savedSearches: number;
  /** Records Citewise cannot take, each with its Zotero key. */
  skipped: { key: string; reason: string }[];
}

/**
 * Zotero's Linked Attachment Base Directory (its Settings → Advanced → Files and Folders), for linked
 * files stored relative to it; absent: read from the Zotero profile's prefs.js when it can be found.
 */
const zoteroBase = z.string().trim().min(1).max(4096).optional();
const zoteroPath = z
  .string()
  .trim()
  .min(1, 'the folder is empty')
  .max(4096, 'the path is longer than 4,096 characters')
  .refine(
    (p) => ![...p].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f),
    'the path holds control characters',
  );

export const zoteroFeature = feature({
  requests: {
    /** The items of a Connector save, filed in a collection (null: none); one undo step. */
    'zotero.connector.save': request(
      z
        .object({
          items: z.array(zoteroItem).min(1).max(MAX_CONNECTOR_ITEMS),
          collectionId: id.nullable(),
          source: z.string().max(8000),
        })
        .strict(),
    ).returns<ConnectorSavedItem[]>(),
    /**
     * A BibTeX, RIS or CSL-JSON file a page links to, which the Connector sends whole: its entries
     * saved as a browser save is (filed in the collection, one undo step, announced); an entry the
     * library has already goes to that item.
     */
    'zotero.connector.import': request(
      z
        .object({
          text: z.string().min(1).max(MAX_IMPORT_CHARS),
          collectionId: id.nullable(),
          source: z.string().max(8000),
        })
        .strict(),
    ).returns<ConnectorSavedItem[]>(),
    /** The Connector's popup moved a save to another collection, or set its tags or note. */
    'zotero.connector.update': request(
      z
        .object({
          ids: z.array(id).min(1).max(MAX_CONNECTOR_ITEMS),
          fromCollectionId: id.nullable(),
          toCollectionId: id.nullable(),
          previousTags: z.array(z.string().max(500)).max(1000),
          tags: z.array(z.string().max(500)).max(1000),
          noteIds: z.record(z.string().regex(/^\d+$/), id),
          note: z.string().max(1_000_000),
          source: z.string().max(8000),
        })
        .strict(),
    ).returns<Record<string, number>>(),
    /** A file the Connector sent for a saved item: a PDF is captured (checksum, duplicates, full text), anything else kept. */
    'zotero.connector.attach': request(
      z
        .object({
          itemId: id,
          name: z
            .string()
            .min(1)
            .max(255)
            .refine((n) => !hasPathOrControl(n), 'The file name may not hold a path or control characters'),
          mime: z
            .string()
            .max(200)
            .regex(/^[\w.+-]+\/[\w.+-]+$/, 'not a media type'),
          base64: z
            .string()
            .min(1, 'The file is empty')
            .max(
              Math.ceil(MAX_CONNECTOR_FILE_BYTES / 3) * 4,
              `The file is larger than ${MAX_CONNECTOR_FILE_BYTES / 1024 / 1024} MB`,
            )
            .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file is not base64'),
          source: z.string().max(8000),
        })
        .strict(),
    ).returns<PdfAddOutcome>(),
    /** Imports a Zotero data folder (the one holding zotero.sqlite and storage/), read-only. */
    'zotero.import': request(z.object({ path: zoteroPath, base: zoteroBase }).strict()).returns<ZoteroImportReport>(),
    /** What importing a Zotero data folder would bring, read-only: nothing is written. */
    'zotero.import.preview': request(
      z.object({ path: zoteroPath, base: zoteroBase }).strict(),
    ).returns<ZoteroImportPreview>(),
  },
  events: {
    /** Something arrived from the browser (the toast). */
    'zotero.saved': event<ConnectorSave>(),
  },
});
