import type Database from 'better-sqlite3';
import { m0001Settings } from './0001-settings';
import { m0002Items } from './0002-items';
import { m0003Search } from './0003-search';
import { m0004ServiceCache } from './0004-service-cache';
import { m0005Undo } from './0005-undo';
import { m0006Enrichment } from './0006-enrichment';
import { m0007AutoExport } from './0007-auto-export';
import { m0008CitationGraph } from './0008-citation-graph';
import { m0009Assistant } from './0009-assistant';
import { m0010ServiceCollections } from './0010-service-collections';
import { m0011FilterIndex } from './0011-filter-index';
import { m0012ItemCsl } from './0012-item-csl';
import { m0013SearchHash } from './0013-search-hash';
import { m0014UndoItems } from './0014-undo-items';
import { m0015CiteCache } from './0015-cite-cache';
import { m0016PdfCapture } from './0016-pdf-capture';
import { m0017PdfFulltext } from './0017-pdf-fulltext';
import { m0018PdfTextPages } from './0018-pdf-text-pages';
import { m0019PdfWatch } from './0019-pdf-watch';
import { m0020PendingMetadataIndex } from './0020-pending-metadata-index';
import { m0021AttachmentNames } from './0021-attachment-names';
import { m0022ZoteroKeys } from './0022-zotero-keys';
import { m0023TableColumns } from './0023-table-columns';
import { m0024TagsAndRelations } from './0024-tags-and-relations';
import { m0025CollectionTrash } from './0025-collection-trash';
import { m0026ItemOrigins } from './0026-item-origins';
import { m0027Sync } from './0027-sync';
import { m0028RichNotes } from './0028-rich-notes';
import { m0029StandaloneNotes } from './0029-standalone-notes';
import { m0030ReaderPositions } from './0030-reader-positions';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/** Every migration, one file each; a test migrates a populated database through each of them. */
export const migrations: readonly Migration[] = [
  m0001Settings,
  m0002Items,
  m0003Search,
  m0004ServiceCache,
  m0005Undo,
  m0006Enrichment,
  m0007AutoExport,
  m0008CitationGraph,
  m0009Assistant,
  m0010ServiceCollections,
  m0011FilterIndex,
  m0012ItemCsl,
  m0013SearchHash,
  m0014UndoItems,
  m0015CiteCache,
  m0016PdfCapture,
  m0017PdfFulltext,
  m0018PdfTextPages,
  m0019PdfWatch,
  m0020PendingMetadataIndex,
  m0021AttachmentNames,
  m0022ZoteroKeys,
  m0023TableColumns,
  m0024TagsAndRelations,
  m0025CollectionTrash,
  m0026ItemOrigins,
  m0027Sync,
  m0028RichNotes,
  m0029StandaloneNotes,
  m0030ReaderPositions,
];
