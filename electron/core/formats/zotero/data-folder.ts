// Reading a Zotero data folder (the folder with zotero.sqlite and storage/). Zotero keeps its
// database open, often with an exclusive lock, and it must never be changed: the file (with its
// -wal and -journal, so the copy has every commit) is copied to a temporary folder first, and the
// copy is what is read, attached to a Citewise connection as `zotero`. Better BibTeX's keys come
// from better-bibtex.sqlite beside it (copied the same way), else Zotero 7's citationKey field, else
// the "Citation Key:" line of Extra.
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import type Database from 'better-sqlite3';
import { CoreError } from '../../errors';
import { writtenDate, type ZoteroCreator } from './item';
import { BASE_PATH_PREFIX, findBaseDirectory, isFolder, resolveBasePath, type BaseDirectory } from './base-directory';

export interface FolderItem {
  itemID: number;
  key: string;
  libraryID: number;
  itemType: string;
  fields: Record<string, string>;
  creators: ZoteroCreator[];
  tags: string[];
  dateAdded: number;
  dateModified: number;
  /** When it went to Zotero's trash; null when not there. */
  deleted: number | null;
  collections: number[];
  relations: { predicate: string; object: string }[];
  /** Better BibTeX's key for it, and whether BBT had it pinned. */
  bbtKey: { key: string; pinned: boolean } | null;
}

export interface FolderNote {
  itemID: number;
  key: string;
  parentItemID: number | null;
  html: string;
  title: string;
  dateAdded: number;
  dateModified: number;
  deleted: number | null;
  libraryID: number;
  collections: number[];
  tags: string[];
}

/** Zotero's link modes: 0 imported file, 1 imported URL (both in storage/KEY/), 2 linked file, 3 linked URL. */
export interface FolderAttachment {
  itemID: number;
  key: string;
  parentItemID: number | null;
  linkMode: number;
  contentType: string | null;
  /** The file on disk when there is one ("storage:name" resolved; a linked file's own path). */
  file: string | null;
  /** The path as Zotero recorded it. */
  rawPath: string | null;
  title: string;
  url: string | null;
  dateAdded: number;
  deleted: number | null;
  libraryID: number;
  collections: number[];
  tags: string[];
}

export interface FolderAnnotation {
  parentItemID: number;
  type: number;
  text: string;
  comment: string;
  pageLabel: string;
  sortIndex: string;
}

export interface FolderCollection {
  collectionID: number;
  key: string;
  name: string;
  parentID: number | null;
  libraryID: number;
}

export interface ZoteroFolder {
  database: string;
  /** The user's own library id, and each group's library id → its name. */
  userLibraryID: number;
  groups: Map<number, string>;
  items: FolderItem[];
  notes: FolderNote[];
  attachments: FolderAttachment[];
  annotations: FolderAnnotation[];
  collections: FolderCollection[];
  savedSearches: number;
  /** Items of types Citewise has no item for (annotation children are read separately). */
  skipped: { key: string; reason: string }[];
  /** The Linked Attachment Base Directory "attachments:" paths were resolved against; null: none found. */
  baseDirectory: BaseDirectory | null;
}

/** Where the data folder's database is: the folder itself or zotero.sqlite given directly. */
export function zoteroDatabaseOf(path: string): { folder: string; database: string } {
  if (!isAbsolute(path))
    throw new CoreError('INVALID_INPUT', `Give the Zotero data folder as a full path, not ${path}.`);
  let info;
  try {
    info = statSync(path);
  } catch {
    throw new CoreError('NOT_FOUND', `There is no folder at ${path}.`);
  }
  if (info.isFile()) {
    if (basename(path) !== 'zotero.sqlite')
      throw new CoreError('INVALID_INPUT', `${path} is not a Zotero database (zotero.sqlite) or data folder.`);
    return { folder: join(path, '..'), database: path };
  }
  const database = join(path, 'zotero.sqlite');
  if (!existsSync(database))
    throw new CoreError(
      'NOT_FOUND',
      `${path} has no zotero.sqlite: choose Zotero's data folder (Zotero → Settings → Advanced → Files and Folders shows it; ~/Zotero by default).`,
    );
  return { folder: path, database };
}

/**
 * Copies a database file with its -wal and -journal into `dir` (its name kept); the original is only
 * read. Returns the copy's path.
 */
export function snapshotDatabase(file: string, dir: string): string {
  const target = join(dir, basename(file));
  copyFileSync(file, target);
  for (const suffix of ['-wal', '-journal'])
    if (existsSync(file + suffix)) copyFileSync(file + suffix, target + suffix);
  return target;
}

/**
 * Whether another program holds the database locked: Zotero, while it runs, keeps zotero.sqlite
 * under an exclusive lock. Probed through a read-only connection with no wait (the file is never
 * written, and nothing is created beside it); a database in WAL mode is not probed (a read-only
 * connection would need its -shm file), nor is one SQLite cannot open: false then. The import reads
 * a copy either way; this only decides what the app says about it.
 */
export function zoteroLocked(db: Database.Database, database: string): boolean {
  const header = Buffer.alloc(20);
  let fd: number | null = null;
  try {
    fd = openSync(database, 'r');
    if (readSync(fd, header, 0, 20, 0) < 20 || header[18] === 2) return false;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const Connection = db.constructor as typeof Database;
  let probe: Database.Database | null = null;
  try {
    probe = new Connection(database, { readonly: true, fileMustExist: true, timeout: 0 });
    probe.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
    return false;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
  } finally {
    probe?.close();
  }
}

/** Zotero's "YYYY-MM-DD HH:MM:SS" (UTC) as milliseconds; 0 when it is not one. */
export function zoteroTime(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const ms = Date.parse(`${value.replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z'}`);
  return Number.isFinite(ms) ? ms : 0;
}

type Row = Record<string, unknown>;

/**
 * Reads the data folder through `db` (any connection: the copy is attached to it as `zotero` and
 * detached again). Throws CoreError INVALID_INPUT when the file is not a Zotero database.
 */
export function readZoteroFolder(
  db: Database.Database,
  path: string,
  options: { baseDirectory?: string | undefined; home?: string } = {},
): ZoteroFolder {
  const { folder, database } = zoteroDatabaseOf(path);
  if (options.baseDirectory !== undefined && !(isAbsolute(options.baseDirectory) && isFolder(options.baseDirectory)))
    throw new CoreError(
      'INVALID_INPUT',
      `The linked attachment base folder ${options.baseDirectory} is not a folder${isAbsolute(options.baseDirectory) ? '' : ' given as a full path'}.`,
    );
  const base = findBaseDirectory(folder, {
    ...(options.baseDirectory !== undefined ? { given: options.baseDirectory } : {}),
    ...(options.home !== undefined ? { home: options.home } : {}),
  });
  const temp = mkdtempSync(join(tmpdir(), 'citewise-zotero-'));
  try {
    const copy = snapshotDatabase(database, temp);
    const bbtFile = join(folder, 'better-bibtex.sqlite');
    const bbtCopy = existsSync(bbtFile) ? snapshotDatabase(bbtFile, temp) : null;
    try {
      db.prepare('ATTACH DATABASE ? AS zotero').run(copy);
    } catch (err) {
      throw new CoreError(
        'INVALID_INPUT',
        `${database} could not be read as a Zotero database (${err instanceof Error ? err.message : String(err)}).`,
      );
    }
    try {
      if (bbtCopy) db.prepare('ATTACH DATABASE ? AS bbt').run(bbtCopy);
      try {
        return read(db, folder, database, bbtCopy !== null, base);
      } finally {
        if (bbtCopy) db.exec('DETACH DATABASE bbt');
      }
    } finally {
      db.exec('DETACH DATABASE zotero');
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function read(
  db: Database.Database,
  folder: string,
  database: string,
  withBbt: boolean,
  baseDirectory: BaseDirectory | null,
): ZoteroFolder {
  const all = (sql: string, ...params: unknown[]): Row[] => db.prepare(sql).all(...params) as Row[];
  const has = (schema: string, table: string): boolean =>
    db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE type IN ('table', 'view') AND name = ?`).get(table) !==
    undefined;
  let problem: string | null;
  try {
    problem = (db.prepare('PRAGMA zotero.quick_check').pluck().get() as string) === 'ok' ? null : 'damaged';
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  if (problem !== null || !has('zotero', 'items') || !has('zotero', 'itemData'))
    throw new CoreError(
      'INVALID_INPUT',
      `${database} could not be read as a Zotero database${problem ? ` (${problem})` : ''}. If Zotero was saving at that moment, close Zotero and import again.`,
    );
  const typesTable = has('zotero', 'itemTypesCombined') ? 'itemTypesCombined' : 'itemTypes';
  const fieldsTable = has('zotero', 'fieldsCombined') ? 'fieldsCombined' : 'fields';
  const typeName = new Map(
    all(`SELECT itemTypeID AS id, typeName AS name FROM zotero.${typesTable}`).map((r) => [r.id, String(r.name)]),
  );
  const fieldName = new Map(
    all(`SELECT fieldID AS id, fieldName AS name FROM zotero.${fieldsTable}`).map((r) => [r.id, String(r.name)]),
  );
  const creatorType = new Map(
    all('SELECT creatorTypeID AS id, creatorType AS name FROM zotero.creatorTypes').map((r) => [r.id, String(r.name)]),
  );
  const libraries = all('SELECT libraryID AS id, type FROM zotero.libraries');
  const userLibraryID = Number(libraries.find((l) => l.type === 'user')?.id ?? 1);
  const groups = new Map<number, string>(
    has('zotero', 'groups')
      ? all('SELECT libraryID AS id, name FROM zotero.groups').map((r) => [Number(r.id), String(r.name)])
      : [],
  );
  const feeds = new Set(libraries.filter((l) => l.type === 'feed').map((l) => Number(l.id)));

  const byItem = <T>(rows: Row[], value: (r: Row) => T): Map<number, T[]> => {
    const map = new Map<number, T[]>();
    for (const r of rows) {
      const id = Number(r.itemID);
      let list = map.get(id);
      if (!list) map.set(id, (list = []));
      list.push(value(r));
    }
    return map;
  };
  const fields = byItem(
    all('SELECT d.itemID, d.fieldID, v.value FROM zotero.itemData d JOIN zotero.itemDataValues v USING (valueID)'),
    (r) => [fieldName.get(r.fieldID) ?? `field${String(r.fieldID)}`, r.value === null ? '' : String(r.value)] as const,
  );
  const creators = byItem(
    all(`SELECT ic.itemID, ic.creatorTypeID, ic.orderIndex, c.firstName, c.lastName, c.fieldMode
      FROM zotero.itemCreators ic JOIN zotero.creators c USING (creatorID) ORDER BY ic.itemID, ic.orderIndex`),
    (r): ZoteroCreator => {
      const type = creatorType.get(r.creatorTypeID) ?? 'author';
      return Number(r.fieldMode) === 1
        ? { creatorType: type, name: String(r.lastName ?? '') }
        : { creatorType: type, firstName: String(r.firstName ?? ''), lastName: String(r.lastName ?? '') };
    },
  );
  const tags = byItem(
    all('SELECT it.itemID, t.name FROM zotero.itemTags it JOIN zotero.tags t USING (tagID) ORDER BY t.name'),
    (r) => String(r.name),
  );
  const memberships = byItem(all('SELECT itemID, collectionID FROM zotero.collectionItems ORDER BY orderIndex'), (r) =>
    Number(r.collectionID),
  );
  const relations = has('zotero', 'itemRelations')
    ? byItem(
        all(
          'SELECT r.itemID, p.predicate, r.object FROM zotero.itemRelations r JOIN zotero.relationPredicates p USING (predicateID)',
        ),
        (r) => ({ predicate: String(r.predicate), object: String(r.object) }),
      )
    : new Map<number, { predicate: string; object: string }[]>();
  const deleted = new Map(
    all('SELECT itemID, dateDeleted FROM zotero.deletedItems').map((r) => [
      Number(r.itemID),
      zoteroTime(r.dateDeleted),
    ]),
  );
  const bbt = new Map<number, { key: string; pinned: boolean }>();
  if (withBbt) {
    // Better BibTeX for Zotero 7 keeps `citationkey` (itemID, itemKey, libraryID, citationKey, pinned);
    // earlier versions `citekeys` (…, citekey, pinned).
    const table = has('bbt', 'citationkey') ? 'citationkey' : has('bbt', 'citekeys') ? 'citekeys' : null;
    if (table) {
      const keyColumn = table === 'citationkey' ? 'citationKey' : 'citekey';
      for (const r of all(`SELECT itemID, ${keyColumn} AS key, pinned FROM bbt.${table}`))
        if (typeof r.key === 'string' && r.key !== '')
          bbt.set(Number(r.itemID), { key: r.key, pinned: Number(r.pinned) === 1 });
    }
  }

  const notesById = new Map(
    all('SELECT itemID, parentItemID, note, title FROM zotero.itemNotes').map((r) => [Number(r.itemID), r]),
  );
  const attachmentsById = new Map(
    all('SELECT itemID, parentItemID, linkMode, contentType, path FROM zotero.itemAttachments').map((r) => [
      Number(r.itemID),
      r,
    ]),
  );
  const annotationIds = new Set<number>();
  const annotations: FolderAnnotation[] = [];
  if (has('zotero', 'itemAnnotations'))
    for (const r of all(
      'SELECT itemID, parentItemID, type, text, comment, pageLabel, sortIndex FROM zotero.itemAnnotations ORDER BY sortIndex',
    )) {
      annotationIds.add(Number(r.itemID));
      annotations.push({
        parentItemID: Number(r.parentItemID),
        type: Number(r.type),
        text: String(r.text ?? ''),
        comment: String(r.comment ?? ''),
        pageLabel: String(r.pageLabel ?? ''),
        sortIndex: String(r.sortIndex ?? ''),
      });
    }

  const out: ZoteroFolder = {
    database,
    userLibraryID,
    groups,
    items: [],
    notes: [],
    attachments: [],
    annotations,
    collections: all('SELECT collectionID, collectionName, parentCollectionID, libraryID, key FROM zotero.collections')
      .filter((r) => !feeds.has(Number(r.libraryID)))
      .map((r) => ({
        collectionID: Number(r.collectionID),
        key: String(r.key),
        name: String(r.collectionName),
        parentID: r.parentCollectionID === null ? null : Number(r.parentCollectionID),
        libraryID: Number(r.libraryID),
      })),
    savedSearches: has('zotero', 'savedSearches') ? all('SELECT savedSearchID FROM zotero.savedSearches').length : 0,
    skipped: [],
    baseDirectory,
  };

  for (const r of all(
    'SELECT itemID, itemTypeID, dateAdded, dateModified, libraryID, key FROM zotero.items ORDER BY itemID',
  )) {
    const itemID = Number(r.itemID);
    const libraryID = Number(r.libraryID);
    if (feeds.has(libraryID) || annotationIds.has(itemID)) continue;
    const type = typeName.get(r.itemTypeID) ?? 'document';
    const key = String(r.key);
    const f = Object.fromEntries(fields.get(itemID) ?? []);
    const base = {
      itemID,
      key,
      libraryID,
      dateAdded: zoteroTime(r.dateAdded),
      deleted: deleted.get(itemID) ?? null,
      collections: memberships.get(itemID) ?? [],
      tags: tags.get(itemID) ?? [],
    };
    if (type === 'note') {
      const n = notesById.get(itemID);
      out.notes.push({
        ...base,
        parentItemID: n?.parentItemID == null ? null : Number(n.parentItemID),
        html: String(n?.note ?? ''),
        title: String(n?.title ?? ''),
        dateModified: zoteroTime(r.dateModified),
      });
      continue;
    }
    if (type === 'attachment') {
      const a = attachmentsById.get(itemID);
      const linkMode = Number(a?.linkMode ?? 3);
      const rawPath = a?.path == null ? null : String(a.path);
      if (linkMode === 4) {
        // An image embedded in a note: the note keeps its text; the image is Zotero's.
        out.skipped.push({ key, reason: 'an image embedded in a note' });
        continue;
      }
      out.attachments.push({
        ...base,
        parentItemID: a?.parentItemID == null ? null : Number(a.parentItemID),
        linkMode,
        contentType: a?.contentType == null ? null : String(a.contentType),
        rawPath,
        file: attachmentFile(folder, key, linkMode, rawPath, baseDirectory?.path ?? null),
        title: f.title ?? (rawPath ? basename(rawPath.replace(/^storage:/, '')) : 'Attachment'),
        url: f.url ?? null,
      });
      continue;
    }
    if (type === 'annotation') continue;
    out.items.push({
      ...base,
      itemType: type,
      fields: Object.fromEntries(Object.entries(f).map(([k, v]) => [k, k === 'date' ? writtenDate(v) : v])),
      creators: creators.get(itemID) ?? [],
      dateModified: zoteroTime(r.dateModified),
      relations: relations.get(itemID) ?? [],
      bbtKey: bbt.get(itemID) ?? null,
    });
  }
  return out;
}

/** The file of a stored (storage/KEY/name) or linked attachment; null for a link or a path Citewise cannot resolve. */
function attachmentFile(
  folder: string,
  key: string,
  linkMode: number,
  path: string | null,
  base: string | null,
): string | null {
  if (path === null || path === '') return null;
  if (linkMode === 0 || linkMode === 1) {
    const name = path.startsWith('storage:') ? path.slice('storage:'.length) : basename(path);
    return join(folder, 'storage', key, name);
  }
  if (linkMode === 2) {
    // "attachments:rel/path" is relative to the base folder set in Zotero's preferences (its
    // profile's prefs.js, or the folder the user gave): without one, said in the report as not found.
    if (path.startsWith(BASE_PATH_PREFIX)) return resolveBasePath(path, base);
    return isAbsolute(path) ? path : null;
  }
  return null;
}
