// A Zotero data folder built by a test: zotero.sqlite with the tables of Zotero 7's schema
// (resource/schema/userdata.sql, the columns as Zotero declares them) that an import reads, filled
// the way Zotero fills them (itemData through itemDataValues, dates as "YYYY-MM-DD original",
// creators shared between items, "storage:" paths), storage/KEY/ files, and Better BibTeX's
// better-bibtex.sqlite beside it. ZOTERO_USERDATA_SQL may name Zotero's own userdata.sql, whose
// whole schema is then used instead of these tables (Zotero's system.sql and userdata.sql, concatenated).
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ITEM_TYPE_FIELDS } from '../../electron/core/formats/zotero/schema';
import { makePdf } from './pdfs';

const TABLES = `
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL, display INT DEFAULT 1 NOT NULL, custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE settings (setting TEXT, key TEXT, value, PRIMARY KEY (setting, key));
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, clientVersion INT NOT NULL DEFAULT 0,
  synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE, valueNormalized TEXT);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, charsetID INT, path TEXT,
  syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT, lastProcessedModificationTime INT, lastRead INT);
CREATE TABLE itemAnnotations (itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL, type INTEGER NOT NULL, authorName TEXT, text TEXT,
  textNormalized TEXT, comment TEXT, commentNormalized TEXT, color TEXT, pageLabel TEXT, sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, nameNormalized TEXT);
CREATE TABLE relationPredicates (predicateID INTEGER PRIMARY KEY, predicate TEXT UNIQUE);
CREATE TABLE itemRelations (itemID INT NOT NULL, predicateID INT NOT NULL, object TEXT NOT NULL, PRIMARY KEY (itemID, predicateID, object));
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL, PRIMARY KEY (itemID, tagID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT, firstNameNormalized TEXT,
  lastNameNormalized TEXT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
  PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL, parentCollectionID INT DEFAULT NULL,
  clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
  clientVersion INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID));
CREATE TABLE savedSearches (savedSearchID INTEGER PRIMARY KEY, savedSearchName TEXT NOT NULL, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, clientVersion INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL, filesEditable INT NOT NULL,
  version INT NOT NULL DEFAULT 0, clientVersion INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0,
  archived INT NOT NULL DEFAULT 0, isAdmin INT NOT NULL DEFAULT 0);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL, description TEXT NOT NULL, version INT NOT NULL);
`;

export interface ZoteroDbItem {
  key: string;
  type: string;
  fields?: Record<string, string>;
  creators?: { type: string; first?: string; last?: string; name?: string }[];
  tags?: string[];
  collections?: string[];
  libraryID?: number;
  added?: string;
  deleted?: string;
  /** A child of this item (key). */
  parent?: string;
  note?: string;
  attachment?: { linkMode: number; contentType: string; path: string | null; file?: Uint8Array };
  annotation?: { text: string; comment: string; page: string };
}

export interface ZoteroDbSpec {
  collections?: { key: string; name: string; parent?: string; libraryID?: number }[];
  groups?: { libraryID: number; name: string }[];
  items: ZoteroDbItem[];
  savedSearches?: number;
  /** Better BibTeX's keys by item key: [key, pinned]. */
  bbt?: Record<string, [string, boolean]>;
}

/** Writes the data folder at `dir`: zotero.sqlite, storage/, better-bibtex.sqlite. Returns the database path. */
export function writeZoteroFolder(dir: string, spec: ZoteroDbSpec): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'zotero.sqlite');
  const db = new Database(file);
  const full = process.env.ZOTERO_USERDATA_SQL;
  db.exec(full ? readFileSync(full, 'utf8') : TABLES);
  // Zotero fills these from its schema at first start; ids are its own, so they are not the schema's order here.
  const types = [...Object.keys(ITEM_TYPE_FIELDS)];
  const fields = [...new Set(Object.values(ITEM_TYPE_FIELDS).flatMap((t) => t.fields.map((f) => f.split('>')[0]!)))];
  const creatorTypes = [
    ...new Set(Object.values(ITEM_TYPE_FIELDS).flatMap((t) => t.creators.map((c) => c.replace('*', '')))),
  ];
  types.forEach((t, i) => {
    db.prepare('INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)').run(i + 1, t);
    db.prepare('INSERT INTO itemTypesCombined (itemTypeID, typeName, custom) VALUES (?, ?, 0)').run(i + 1, t);
  });
  fields.forEach((f, i) => {
    db.prepare('INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)').run(i + 10, f);
    db.prepare('INSERT INTO fieldsCombined (fieldID, fieldName, custom) VALUES (?, ?, 0)').run(i + 10, f);
  });
  creatorTypes.forEach((c, i) => db.prepare('INSERT INTO creatorTypes VALUES (?, ?)').run(i + 1, c));
  db.prepare("INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (1, 'user', 1, 1)").run();
  for (const g of spec.groups ?? []) {
    db.prepare("INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (?, 'group', 1, 1)").run(
      g.libraryID,
    );
    db.prepare("INSERT INTO groups (groupID, libraryID, name, description, version) VALUES (?, ?, ?, '', 1)").run(
      1000 + g.libraryID,
      g.libraryID,
      g.name,
    );
  }
  const collectionIds = new Map<string, number>();
  for (const c of spec.collections ?? []) {
    const r = db
      .prepare('INSERT INTO collections (collectionName, parentCollectionID, libraryID, key) VALUES (?, ?, ?, ?)')
      .run(c.name, c.parent ? collectionIds.get(c.parent)! : null, c.libraryID ?? 1, c.key);
    collectionIds.set(c.key, Number(r.lastInsertRowid));
  }
  const itemIds = new Map<string, number>();
  const value = (v: string): number => {
    db.prepare('INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)').run(v);
    return (db.prepare('SELECT valueID FROM itemDataValues WHERE value = ?').get(v) as { valueID: number }).valueID;
  };
  for (const it of spec.items) {
    const typeId = types.indexOf(it.type) + 1;
    const r = db
      .prepare('INSERT INTO items (itemTypeID, dateAdded, dateModified, libraryID, key) VALUES (?, ?, ?, ?, ?)')
      .run(typeId, it.added ?? '2020-01-02 03:04:05', it.added ?? '2020-01-02 03:04:05', it.libraryID ?? 1, it.key);
    const id = Number(r.lastInsertRowid);
    itemIds.set(it.key, id);
    for (const [f, v] of Object.entries(it.fields ?? {})) {
      const stored = f === 'date' && /^\d{4}/.test(v) ? `${sqlDate(v)} ${v}` : v;
      db.prepare('INSERT INTO itemData VALUES (?, ?, ?)').run(id, fields.indexOf(f) + 10, value(stored));
    }
    (it.creators ?? []).forEach((c, i) => {
      const mode = c.name !== undefined ? 1 : 0;
      db.prepare('INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)').run(
        mode ? '' : (c.first ?? ''),
        c.name ?? c.last ?? '',
        mode,
      );
      const creatorId = (
        db
          .prepare('SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND fieldMode = ?')
          .get(mode ? '' : (c.first ?? ''), c.name ?? c.last ?? '', mode) as { creatorID: number }
      ).creatorID;
      db.prepare('INSERT INTO itemCreators VALUES (?, ?, ?, ?)').run(
        id,
        creatorId,
        creatorTypes.indexOf(c.type) + 1,
        i,
      );
    });
    for (const t of it.tags ?? []) {
      db.prepare('INSERT OR IGNORE INTO tags (name) VALUES (?)').run(t);
      const tagId = (db.prepare('SELECT tagID FROM tags WHERE name = ?').get(t) as { tagID: number }).tagID;
      db.prepare('INSERT INTO itemTags VALUES (?, ?, 0)').run(id, tagId);
    }
    for (const c of it.collections ?? [])
      db.prepare('INSERT INTO collectionItems VALUES (?, ?, 0)').run(collectionIds.get(c)!, id);
    if (it.deleted) db.prepare('INSERT INTO deletedItems VALUES (?, ?)').run(id, it.deleted);
    const parent = it.parent ? itemIds.get(it.parent)! : null;
    if (it.note !== undefined) db.prepare('INSERT INTO itemNotes VALUES (?, ?, ?, ?)').run(id, parent, it.note, '');
    if (it.attachment) {
      db.prepare(
        'INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, ?, ?, ?)',
      ).run(id, parent, it.attachment.linkMode, it.attachment.contentType, it.attachment.path);
      if (it.attachment.file && it.attachment.path?.startsWith('storage:')) {
        mkdirSync(join(dir, 'storage', it.key), { recursive: true });
        writeFileSync(join(dir, 'storage', it.key, it.attachment.path.slice(8)), it.attachment.file);
      }
    }
    if (it.annotation)
      db.prepare(
        "INSERT INTO itemAnnotations (itemID, parentItemID, type, text, comment, pageLabel, sortIndex, position, isExternal) VALUES (?, ?, 1, ?, ?, ?, '00001|000010|00100', '{}', 0)",
      ).run(id, parent, it.annotation.text, it.annotation.comment, it.annotation.page);
  }
  for (let i = 0; i < (spec.savedSearches ?? 0); i++)
    db.prepare('INSERT INTO savedSearches (savedSearchName, libraryID, key) VALUES (?, 1, ?)').run(
      `Search ${i}`,
      `SRCH000${i}`,
    );
  db.close();
  if (spec.bbt) {
    const bbt = new Database(join(dir, 'better-bibtex.sqlite'));
    bbt.exec(
      'CREATE TABLE citationkey (itemID INTEGER PRIMARY KEY, itemKey TEXT, libraryID INTEGER, citationKey TEXT, pinned INTEGER)',
    );
    for (const [key, [citationKey, pinned]] of Object.entries(spec.bbt))
      bbt
        .prepare('INSERT INTO citationkey VALUES (?, ?, 1, ?, ?)')
        .run(itemIds.get(key)!, key, citationKey, pinned ? 1 : 0);
    bbt.close();
  }
  return file;
}

/** Zotero's SQL form of a date it stores before the text as written. */
function sqlDate(v: string): string {
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?/.exec(v)!;
  return `${m[1]}-${m[2] ?? '00'}-${m[3] ?? '00'}`;
}

/**
 * A researcher's library as Zotero 7 stores it: a nested collection tree with two siblings of one
 * name, a group library, every kind of child (note, stored PDF with an annotation, web link, a linked
 * file gone missing), keys from Better BibTeX, Zotero 7's field and Extra, a trashed item, a
 * standalone note and a saved search.
 */
export async function sampleZoteroLibrary(): Promise<ZoteroDbSpec> {
  const pdf = await makePdf({
    title: 'Ribosome assembly in archaea',
    pages: [['Archaeal ribosomes assemble in stages.']],
  });
  return {
    groups: [{ libraryID: 2, name: 'Lab group' }],
    collections: [
      { key: 'COLLAAAA', name: 'Thesis' },
      { key: 'COLLBBBB', name: 'Chapter 1', parent: 'COLLAAAA' },
      { key: 'COLLCCCC', name: 'Chapter 1', parent: 'COLLAAAA' },
      { key: 'COLLDDDD', name: 'Shared', libraryID: 2 },
    ],
    savedSearches: 1,
    bbt: { ITEMAAAA: ['franklin1953pinned', true] },
    items: [
      {
        key: 'ITEMAAAA',
        type: 'journalArticle',
        fields: {
          title: 'Molecular configuration in sodium thymonucleate',
          publicationTitle: 'Nature',
          date: '1953-04-25',
          volume: '171',
          pages: '740-741',
          DOI: '10.1038/171740a0',
          libraryCatalog: 'www.nature.com',
          extra: 'Citation Key: ignoredBecauseBBT',
        },
        creators: [
          { type: 'author', first: 'Rosalind', last: 'Franklin' },
          { type: 'author', first: 'R. G.', last: 'Gosling' },
        ],
        tags: ['DNA', 'x-ray'],
        collections: ['COLLBBBB'],
        added: '2019-06-01 10:00:00',
      },
      {
        key: 'NOTEAAAA',
        type: 'note',
        parent: 'ITEMAAAA',
        // As Zotero 7's note editor writes it: the schema div, a citation of another item, and (from a
        // paste) a script and a handler that must not survive.
        note:
          '<div data-schema-version="9"><h1>Photo 51</h1><p>See <a href="https://example.org/51" rel="noopener noreferrer nofollow">the photo</a>.</p>' +
          '<p onclick="alert(1)"><span class="citation" data-citation="%7B%22citationItems%22%3A%5B%7B%22uris%22%3A%5B%22http%3A%2F%2Fzotero.org%2Fusers%2Flocal%2FabCD1234%2Fitems%2FITEMEEEE%22%5D%7D%5D%2C%22properties%22%3A%7B%7D%7D">(<span class="citation-item">Example, 2024</span>)</span></p><script>alert(2)</script></div>',
      },
      {
        key: 'ATTAAAAA',
        type: 'attachment',
        parent: 'ITEMAAAA',
        fields: { title: 'Full Text PDF', url: 'https://www.nature.com/x.pdf' },
        attachment: { linkMode: 1, contentType: 'application/pdf', path: 'storage:Franklin 1953.pdf', file: pdf },
      },
      {
        key: 'ANNOAAAA',
        type: 'annotation',
        parent: 'ATTAAAAA',
        annotation: { text: 'helical structure', comment: 'key claim', page: '740' },
      },
      {
        key: 'ATTBBBBB',
        type: 'attachment',
        parent: 'ITEMAAAA',
        fields: { title: 'Nature page', url: 'https://www.nature.com/articles/171740a0' },
        attachment: { linkMode: 3, contentType: 'text/html', path: null },
      },
      {
        key: 'ATTCCCCC',
        type: 'attachment',
        parent: 'ITEMAAAA',
        fields: { title: 'Lost file' },
        attachment: { linkMode: 2, contentType: 'application/pdf', path: '/nowhere/lost.pdf' },
      },
      {
        key: 'ITEMBBBB',
        type: 'book',
        fields: {
          title: 'The Double Helix',
          publisher: 'Atheneum',
          place: 'New York',
          date: '1968',
          citationKey: 'watson1968',
          ISBN: '978-0-689-70602-8',
        },
        creators: [{ type: 'author', first: 'James D.', last: 'Watson' }],
        collections: ['COLLAAAA', 'COLLCCCC'],
      },
      {
        key: 'ITEMCCCC',
        type: 'bookSection',
        fields: {
          title: 'On helices',
          bookTitle: 'Collected Papers',
          pages: '1-20',
          date: 'Spring 1970',
          extra: 'Citation Key: crick1970',
        },
        creators: [
          { type: 'author', first: 'Francis', last: 'Crick' },
          { type: 'editor', first: 'Sydney', last: 'Brenner' },
          { type: 'bookAuthor', name: 'Cold Spring Harbor Laboratory' },
        ],
      },
      {
        key: 'ITEMDDDD',
        type: 'thesis',
        fields: {
          title: 'Diffraction studies',
          university: "King's College London",
          thesisType: 'PhD thesis',
          date: '1950',
        },
        creators: [{ type: 'author', first: 'Raymond', last: 'Gosling' }],
      },
      {
        key: 'ITEMEEEE',
        type: 'webpage',
        fields: {
          title: 'Photo 51 explained',
          url: 'https://example.org/51',
          websiteTitle: 'Example',
          accessDate: '2024-01-02 03:04:05',
        },
      },
      {
        key: 'ITEMFFFF',
        type: 'podcast',
        fields: { title: 'Episode 51', seriesTitle: 'Science Talk', episodeNumber: '51' },
        creators: [{ type: 'podcaster', first: 'Pat', last: 'Host' }],
      },
      {
        key: 'ITEMGGGG',
        type: 'conferencePaper',
        fields: { title: 'A trashed paper', proceedingsTitle: 'Proc', date: '2001' },
        deleted: '2024-02-03 04:05:06',
      },
      { key: 'NOTEBBBB', type: 'note', note: '<p>Standalone: ideas for chapter 2</p>', collections: ['COLLAAAA'] },
      {
        key: 'ITEMHHHH',
        type: 'report',
        fields: { title: 'Group report', institution: 'Lab' },
        libraryID: 2,
        collections: ['COLLDDDD'],
      },
    ],
  };
}
