// Zotero's view of the library (a room of the Library, see library-base.ts): the 8-character keys
// Zotero clients know objects by (migration 0022), the versions of Zotero's local API, and the writes
// of the Zotero Connector: a save of the items a page's translator made (one undo step), and the
// changes the Connector's popup makes to that save (another collection, tags, a note).
import { createHash, randomInt } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { ZoteroImportPreview, ZoteroImportReport } from '../../../shared/ipc/zotero';
import type { CslItem } from '../../../shared/model/csl';
import {
  readZoteroFolder,
  zoteroDatabaseOf,
  zoteroLocked,
  type FolderAttachment,
  type ZoteroFolder,
} from '../formats/zotero/data-folder';
import { extraCitationKey, zoteroToCsl } from '../formats/zotero/item';
import { BASE_PATH_PREFIX } from '../formats/zotero/base-directory';
import { escapeNoteText } from '../../../shared/model/note-html';
import { noteColumnsOrNull } from './note-body';
import { CoreError } from '../errors';
import { prepareItem } from './derive';
import { ImportSession } from './import-session';
import { chunk, notFound } from './library-base';
import { inList, sql } from './sql';
import type { ItemId } from './types';
import { CollectionsRoom } from './collections';
import { storedCsl } from './stored-json';

export type ZoteroKind = 'item' | 'note' | 'attachment' | 'collection' | 'search';

/** Zotero's key alphabet: digits and capitals without 0, 1 and O (Zotero.Utilities.generateObjectKey). */
export const ZOTERO_KEY_ALPHABET = '23456789ABCDEFGHIJKLMNPQRSTUVWXYZ';
export const ZOTERO_KEY = /^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$/;

export function newZoteroKey(): string {
  let key = '';
  for (let i = 0; i < 8; i++) key += ZOTERO_KEY_ALPHABET[randomInt(ZOTERO_KEY_ALPHABET.length)];
  return key;
}

/** How a Zotero data-folder import is run: where stored files go, and its progress and cancel flag. */
export interface ZoteroImportOptions {
  storeDir: string;
  mode: 'copy' | 'link';
  /**
   * Shared with the thread that asked (Int32Array over a SharedArrayBuffer, ZOTERO_FLOW's slots): it
   * sets `cancel`, this import counts `done` of `total` and stops, rolled back, at the next record.
   */
  progress?: Int32Array;
  /** Zotero's Linked Attachment Base Directory, given by the user; absent: read from Zotero's profile. */
  baseDirectory?: string;
  /** Where Zotero's profile is looked for (default: the user's home folder). */
  home?: string;
}

export const ZOTERO_FLOW = { cancel: 0, done: 1, total: 2 } as const;

/** A data folder's files as kept (by Zotero's attachment item id), those not found, and those this import copied. */
interface ZoteroFiles {
  kept: Map<
    number,
    { path: string; sha256: string; size: number; stored: 'copied' | 'linked'; name: string; pdf: boolean }
  >;
  missing: string[];
  created: string[];
}

/** One item a Connector save brings: its CSL, tags and notes (HTML or text, kept to the note allowlist here). */
export interface ConnectorItem {
  csl: CslItem;
  tags: readonly string[];
  notes: readonly string[];
}

export interface ConnectorSaved {
  id: ItemId;
  /** The library had the item already (same DOI, or key and title): the save went to it. */
  existing: boolean;
}

/** What the Connector's popup asks of a save: where it goes, its tags and its note. */
export interface ConnectorUpdate {
  ids: readonly ItemId[];
  /** The collection the save was in (null: none). */
  fromCollectionId: number | null;
  toCollectionId: number | null;
  /** The tags the popup had added before, replaced by `tags`. */
  previousTags: readonly string[];
  tags: readonly string[];
  /** The note the popup added before, per item (note ids), replaced by `note` ('' removes it). */
  noteIds: Readonly<Record<string, number>>;
  note: string;
}

/** An item with what Zotero's JSON needs, read in bulk for the local API. */
export interface ZoteroObjectRow {
  id: ItemId;
  csl: CslItem;
  citationKey: string;
  title: string | null;
  creators: string | null;
  year: number | null;
  dateAdded: number;
  dateModified: number;
  trashedAt: number | null;
  version: number;
  tags: string[];
  collections: number[];
  notes: { id: number; body: string; text: string; createdAt: number; modifiedAt: number }[];
  attachments: {
    id: number;
    path: string;
    mime: string | null;
    size: number | null;
    sha256: string | null;
    stored: 'copied' | 'linked';
    originalName: string | null;
    addedAt: number;
  }[];
}

export abstract class ZoteroRoom extends CollectionsRoom {
  /** Items (any, trashed too) with their tags, collections, notes and attachments, in the order of `ids`; missing ones left out. */
  zoteroObjects(ids: readonly ItemId[]): ZoteroObjectRow[] {
    const out = new Map<number, ZoteroObjectRow>();
    for (const batch of chunk([...new Set(ids)])) {
      const list = inList(batch);
      for (const r of this.r.all<{
        id: number;
        csl: string;
        citation_key: string;
        title: string | null;
        creators_text: string | null;
        year: number | null;
        date_added: number;
        date_modified: number;
        trashed_at: number | null;
        changed: number | null;
      }>(sql`SELECT i.id, r.csl, i.citation_key, i.title, i.creators_text, i.year, i.date_added, i.date_modified, i.trashed_at,
          c.changed_at AS changed FROM items i JOIN item_csl r ON r.item_id = i.id
          LEFT JOIN zotero_changes c ON c.kind = 'item' AND c.object_id = i.id WHERE i.id IN ${list}`))
        out.set(r.id, {
          id: r.id,
          csl: storedCsl(r.csl, r.id, r.citation_key),
          citationKey: r.citation_key,
          title: r.title,
          creators: r.creators_text,
          year: r.year,
          dateAdded: r.date_added,
          dateModified: r.date_modified,
          trashedAt: r.trashed_at,
          version: Math.max(r.date_modified, r.changed ?? 0),
          tags: [],
          collections: [],
          notes: [],
          attachments: [],
        });
      for (const t of this.r.all<{ item_id: number; name: string }>(
        sql`SELECT it.item_id, t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id IN ${list} ORDER BY t.name COLLATE NOCASE`,
      ))
        out.get(t.item_id)?.tags.push(t.name);
      for (const c of this.r.all<{ item_id: number; collection_id: number }>(
        sql`SELECT item_id, collection_id FROM collection_items WHERE item_id IN ${list} ORDER BY collection_id`,
      ))
        out.get(c.item_id)?.collections.push(c.collection_id);
      for (const n of this.r.all<{
        id: number;
        item_id: number;
        body: string;
        text: string;
        created_at: number;
        modified_at: number;
      }>(sql`SELECT id, item_id, body, text, created_at, modified_at FROM notes WHERE item_id IN ${list} ORDER BY id`))
        out
          .get(n.item_id)
          ?.notes.push({ id: n.id, body: n.body, text: n.text, createdAt: n.created_at, modifiedAt: n.modified_at });
      for (const a of this.r.all<{
        id: number;
        item_id: number;
        path: string;
        mime: string | null;
        size: number | null;
        sha256: string | null;
        stored: 'copied' | 'linked';
        original_name: string | null;
        added_at: number;
      }>(
        sql`SELECT id, item_id, path, mime, size, sha256, stored, original_name, added_at FROM attachments WHERE item_id IN ${list} ORDER BY id`,
      ))
        out.get(a.item_id)?.attachments.push({
          id: a.id,
          path: a.path,
          mime: a.mime,
          size: a.size,
          sha256: a.sha256,
          stored: a.stored,
          originalName: a.original_name,
          addedAt: a.added_at,
        });
    }
    return ids.flatMap((id) => (out.has(id) ? [out.get(id)!] : []));
  }

  /** Every item id, the trash's too (the local API filters them itself). */
  zoteroAllItemIds(): ItemId[] {
    return this.r.pluck<number>(sql`SELECT id FROM items ORDER BY id`);
  }

  /** The Zotero keys of these objects, given now to those without one (in the order of `ids`). */
  zoteroKeysOf(kind: ZoteroKind, ids: readonly number[]): string[] {
    const have = new Map<number, string>();
    for (const batch of chunk([...new Set(ids)]))
      for (const r of this.r.all<{ object_id: number; key: string }>(
        sql`SELECT object_id, key FROM zotero_keys WHERE kind = ${kind} AND object_id IN ${inList(batch)}`,
      ))
        have.set(r.object_id, r.key);
    const missing = [...new Set(ids)].filter((id) => !have.has(id));
    if (missing.length > 0) {
      this.w.transaction(() => {
        const insert = this.w.raw.prepare(
          'INSERT INTO zotero_keys (kind, object_id, key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        );
        const read = this.w.raw.prepare('SELECT key FROM zotero_keys WHERE kind = ? AND object_id = ?').pluck();
        for (const id of missing) {
          // A key another object has is drawn again (33^8 keys: rarely).
          while (insert.run(kind, id, newZoteroKey()).changes === 0 && read.get(kind, id) === undefined);
          have.set(id, read.get(kind, id) as string);
        }
      });
    }
    return ids.map((id) => have.get(id)!);
  }

  /** The object a Zotero key names, or null. */
  zoteroObject(key: string): { kind: ZoteroKind; id: number } | null {
    const row = this.r.get<{ kind: ZoteroKind; object_id: number }>(
      sql`SELECT kind, object_id FROM zotero_keys WHERE key = ${key}`,
    );
    return row ? { kind: row.kind, id: row.object_id } : null;
  }

  /**
   * The library's version for Zotero's local API: the last time anything it serves changed (an item's
   * date_modified, a note, an attachment, a collection, an item leaving or joining one: zotero_changes).
   */
  zoteroLibraryVersion(): number {
    return (
      this.r.get<{ v: number | null }>(sql`SELECT max(
        coalesce((SELECT max(date_modified) FROM items), 0),
        coalesce((SELECT max(changed_at) FROM zotero_changes), 0),
        coalesce((SELECT max(modified_at) FROM notes), 0),
        coalesce((SELECT max(added_at) FROM attachments), 0),
        coalesce((SELECT max(created_at) FROM collections), 0)) AS v`)?.v ?? 0
    );
  }

  /** Each item's version (the later of its date_modified and its last change in zotero_changes). */
  zoteroItemVersions(ids: readonly ItemId[]): Record<number, number> {
    const out: Record<number, number> = {};
    for (const batch of chunk(ids))
      for (const r of this.r.all<{ id: number; v: number }>(
        sql`SELECT i.id, max(i.date_modified, coalesce(c.changed_at, 0)) AS v FROM items i
          LEFT JOIN zotero_changes c ON c.kind = 'item' AND c.object_id = i.id WHERE i.id IN ${inList(batch)}`,
      ))
        out[r.id] = r.v;
    return out;
  }

  /** Items changed after a version (the local API's `since=`), trashed ones included. */
  zoteroItemsSince(version: number): ItemId[] {
    return this.r.pluck<number>(sql`SELECT id FROM items WHERE date_modified > ${version}
      UNION SELECT object_id FROM zotero_changes WHERE kind = 'item' AND changed_at > ${version}
        AND object_id IN (SELECT id FROM items)`);
  }

  /**
   * Saves what the Zotero Connector sent as one undo step: each item is added (or, when the library
   * already has it by the import's rules, found), with its tags and notes, and filed in the collection.
   */
  saveConnectorItems(items: readonly ConnectorItem[], collectionId: number | null): ConnectorSaved[] {
    if (collectionId !== null && !this.w.get(sql`SELECT 1 AS x FROM collections WHERE id = ${collectionId}`))
      throw notFound('The collection');
    const lookup = new ImportSession(this.w, { source: 'zotero-connector' }, this.now(), false);
    const found = items.map((it) => lookup.existing(prepareItem(it.csl))?.id ?? null);
    const existing = [...new Set(found.filter((id): id is number => id !== null))];
    return this.undoable(
      (s) => `Save ${s} from the browser`,
      existing,
      () => {
        const session = new ImportSession(this.w, { source: 'zotero-connector' }, this.now(), false);
        const now = this.now();
        const saved: ConnectorSaved[] = items.map((it, index) => {
          const was = found[index] ?? null;
          let id: number;
          if (was !== null) id = was;
          else {
            const added = session.addOne(it.csl, index, true);
            if (typeof added !== 'number')
              throw new CoreError('INVALID_INPUT', `Item ${index + 1} was not saved: ${added ?? 'no reason given'}`);
            id = added;
          }
          for (const tag of it.tags)
            this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${id}, ${this.tagId(tag)})`);
          for (const html of it.notes) {
            const note = noteColumnsOrNull(html);
            if (note)
              this.w.run(
                sql`INSERT INTO notes (item_id, body, text, created_at, modified_at) VALUES (${id}, ${note.body}, ${note.text}, ${now}, ${now})`,
              );
          }
          if (collectionId !== null)
            this.w.run(
              sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${collectionId}, ${id}, ${now})`,
            );
          return { id, existing: was !== null };
        });
        const ids = saved.map((s) => s.id);
        for (const batch of chunk(ids))
          this.w.run(sql`UPDATE items SET date_modified = ${now} WHERE id IN ${inList(batch)}`);
        this.reindex(ids);
        return { value: saved, created: saved.filter((s) => !s.existing).map((s) => s.id) };
      },
    );
  }

  /**
   * What the Connector's popup changed about a save, as one undo step: the items move from the
   * collection they were saved to into another (or none), the popup's tags replace the ones it added
   * before, and its note is added, changed or (empty) removed. Returns each item's note id.
   */
  updateConnectorSave(update: ConnectorUpdate): Record<string, number> {
    const ids = [...new Set(update.ids)].filter((id) => this.w.get(sql`SELECT 1 AS x FROM items WHERE id = ${id}`));
    if (
      update.toCollectionId !== null &&
      !this.w.get(sql`SELECT 1 AS x FROM collections WHERE id = ${update.toCollectionId}`)
    )
      throw notFound('The collection');
    const tags = [...new Set(update.tags.map((t) => t.trim()).filter((t) => t !== '' && t.length <= 500))];
    const note = noteColumnsOrNull(update.note.trim());
    return this.undoable(
      (s) => `Change the browser save of ${s}`,
      ids,
      () => {
        const now = this.now();
        const notes: Record<string, number> = {};
        for (const id of ids) {
          if (update.fromCollectionId !== update.toCollectionId) {
            if (update.fromCollectionId !== null)
              this.w.run(
                sql`DELETE FROM collection_items WHERE collection_id = ${update.fromCollectionId} AND item_id = ${id}`,
              );
            if (update.toCollectionId !== null)
              this.w.run(
                sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${update.toCollectionId}, ${id}, ${now})`,
              );
          }
          for (const old of update.previousTags)
            if (!tags.some((t) => t.toLowerCase() === old.toLowerCase()))
              this.w.run(
                sql`DELETE FROM item_tags WHERE item_id = ${id} AND tag_id = (SELECT id FROM tags WHERE name = ${old})`,
              );
          for (const tag of tags)
            this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${id}, ${this.tagId(tag)})`);
          const noteId = update.noteIds[String(id)];
          const live =
            noteId !== undefined && this.w.get(sql`SELECT 1 AS x FROM notes WHERE id = ${noteId} AND item_id = ${id}`);
          if (note === null) {
            if (live) this.w.run(sql`DELETE FROM notes WHERE id = ${noteId}`);
          } else if (live) {
            this.w.run(
              sql`UPDATE notes SET body = ${note.body}, text = ${note.text}, modified_at = ${now} WHERE id = ${noteId}`,
            );
            notes[String(id)] = noteId;
          } else {
            const r = this.w.run(
              sql`INSERT INTO notes (item_id, body, text, created_at, modified_at) VALUES (${id}, ${note.body}, ${note.text}, ${now}, ${now})`,
            );
            notes[String(id)] = Number(r.lastInsertRowid);
          }
        }
        this.w.run(sql`DELETE FROM tags WHERE id NOT IN (SELECT tag_id FROM item_tags)`);
        for (const batch of chunk(ids))
          this.w.run(sql`UPDATE items SET date_modified = ${now} WHERE id IN ${inList(batch)}`);
        this.reindex(ids);
        return { value: notes };
      },
    );
  }

  /**
   * What importing a Zotero data folder would bring (the counts importZoteroFolder reports), read from
   * a copy of its database as the import reads it; nothing is written, no file is copied.
   */
  previewZoteroFolder(path: string, baseDirectory?: string): ZoteroImportPreview {
    const { folder: dir, database } = zoteroDatabaseOf(path);
    const locked = zoteroLocked(this.r.raw, database);
    const folder = readZoteroFolder(this.r.raw, path, { baseDirectory });
    const lookup = new ImportSession(this.w, { source: 'zotero.sqlite' }, this.now(), false);
    const items = new Set(folder.items.map((i) => i.itemID));
    let duplicates = 0;
    let pinnedKeys = 0;
    const skipped = [...folder.skipped];
    for (const item of folder.items) {
      const { csl } = zoteroToCsl({ itemType: item.itemType, ...item.fields, creators: item.creators }, item.key);
      const citationKey = item.bbtKey?.key ?? item.fields.citationKey ?? extraCitationKey(item.fields.extra ?? '');
      if (citationKey) csl['citation-key'] = citationKey;
      if (item.bbtKey?.pinned || item.fields.citationKey || (!item.bbtKey && citationKey)) pinnedKeys++;
      const prepared = prepareItem(csl);
      if (prepared.type === null) skipped.push({ key: item.key, reason: 'The entry has no item type.' });
      else if (this.#importedBefore(item.key) || lookup.existing(prepared)) duplicates++;
    }
    const withParent = <T extends { parentItemID: number | null }>(list: readonly T[]) =>
      list.filter((x) => x.parentItemID === null || items.has(x.parentItemID));
    const notes = withParent(folder.notes).filter((n) => noteColumnsOrNull(n.html) !== null);
    const attachments = withParent(folder.attachments);
    const stored = attachments.filter((a) => a.linkMode === 0 || a.linkMode === 1);
    const onDisk = (a: FolderAttachment) => a.file !== null && existsSync(a.file) && statSync(a.file).isFile();
    const files = attachments.filter((a) => a.linkMode !== 3);
    const annotated = new Set(folder.annotations.map((a) => a.parentItemID));
    const tags = new Set<string>();
    for (const x of [...folder.items, ...notes.filter((n) => n.parentItemID === null), ...attachments])
      if (!('parentItemID' in x) || x.parentItemID === null)
        for (const t of x.tags) if (t.trim() !== '' && t.trim().length <= 500) tags.add(t.trim().toLowerCase());
    return {
      folder: dir,
      database,
      locked,
      items: folder.items.length,
      duplicates,
      collections: folder.collections.length + folder.groups.size,
      tags: tags.size,
      notes: notes.length,
      standaloneNotes: notes.filter((n) => n.parentItemID === null).length,
      annotatedFiles: files.filter((a) => annotated.has(a.itemID)).length,
      attachments: {
        stored: stored.filter(onDisk).length,
        linked: files.filter((a) => a.linkMode === 2 && onDisk(a)).length,
        links: attachments.filter((a) => a.linkMode === 3 && a.url && a.parentItemID !== null).length,
        missing: files.filter((a) => !onDisk(a)).map((a) => a.file ?? a.rawPath ?? a.title),
      },
      storageMissing: stored.length > 0 && !existsSync(join(dir, 'storage')),
      baseDirectory: folder.baseDirectory ? { path: folder.baseDirectory.path, from: folder.baseDirectory.from } : null,
      relativeLinks: files.filter((a) => a.linkMode === 2 && a.rawPath?.startsWith(BASE_PATH_PREFIX)).length,
      pinnedKeys,
      trashed: [
        ...folder.items,
        ...notes.filter((n) => n.parentItemID === null),
        ...files.filter((a) => a.parentItemID === null),
      ].filter((x) => x.deleted !== null).length,
      groups: [...folder.groups.values()],
      savedSearches: folder.savedSearches,
      skipped,
    };
  }

  /**
   * Imports a Zotero data folder (readZoteroFolder: its database is copied, never opened itself):
   * items with their creators, tags, notes (annotations as a note), attachments (stored files copied
   * into `storeDir` under their checksum, or linked where they are; links kept on the item),
   * collections and their hierarchy (a group library as a collection of its own), Better BibTeX's
   * keys, Zotero's keys and dates, the trash. One transaction: all of it or nothing. An item the
   * library already has (the import's rules) is counted and left as it is, with its children.
   */
  importZoteroFolder(path: string, options: ZoteroImportOptions): ZoteroImportReport {
    const folder = readZoteroFolder(this.r.raw, path, {
      baseDirectory: options.baseDirectory,
      ...(options.home !== undefined ? { home: options.home } : {}),
    });
    const flow = options.progress;
    if (flow) {
      Atomics.store(flow, ZOTERO_FLOW.done, 0);
      Atomics.store(flow, ZOTERO_FLOW.total, folder.attachments.length + folder.items.length);
    }
    const step = (): void => {
      if (!flow) return;
      if (Atomics.load(flow, ZOTERO_FLOW.cancel) !== 0)
        throw new CoreError('CANCELLED', 'The Zotero import was cancelled: nothing was imported.');
      Atomics.add(flow, ZOTERO_FLOW.done, 1);
    };
    const files = this.#zoteroFiles(folder, options, step);
    try {
      return this.#importZotero(folder, files, step);
    } catch (err) {
      // Nothing half-written: the files this import copied go with its rolled-back rows.
      for (const file of files.created) rmSync(file, { force: true });
      throw err;
    }
  }

  #importZotero(folder: ZoteroFolder, files: ZoteroFiles, step: () => void): ZoteroImportReport {
    const report: ZoteroImportReport = {
      database: folder.database,
      items: folder.items.length,
      added: 0,
      duplicates: 0,
      notes: 0,
      standaloneNotes: 0,
      collections: 0,
      tags: 0,
      attachments: { stored: 0, linked: 0, links: 0, missing: files.missing },
      pinnedKeys: 0,
      trashed: 0,
      skipped: folder.skipped,
      warnings: [],
      ids: [],
    };
    report.warnings.push(...baseDirectoryNotes(folder));
    if (folder.savedSearches > 0)
      report.warnings.push(
        `${folder.savedSearches} saved search${folder.savedSearches === 1 ? '' : 'es'} not imported: Zotero's search conditions do not translate to Citewise's search language; make them again with the search box.`,
      );
    const session = new ImportSession(this.w, { source: 'zotero.sqlite' }, this.now());
    try {
      const now = this.now();
      const madeCollections: number[] = [];
      const collectionIds = this.#zoteroCollections(folder, report, madeCollections);
      const itemIds = new Map<number, number>();
      const tagNames = new Set<string>();
      const key = (kind: ZoteroKind, id: number, zoteroKey: string) =>
        this.w.run(sql`INSERT OR IGNORE INTO zotero_keys (kind, object_id, key) VALUES (${kind}, ${id}, ${zoteroKey})`);
      const file = (itemId: number, ids: readonly number[], libraryID: number) => {
        const group = folder.groups.has(libraryID) ? collectionIds.get(`library:${libraryID}`) : undefined;
        for (const c of [...ids.map((x) => collectionIds.get(String(x))), group])
          if (c !== undefined)
            this.w.run(
              sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${c}, ${itemId}, ${now})`,
            );
      };
      const stamp = (itemId: number, added: number, modified: number, deleted: number | null) => {
        this.w.run(sql`UPDATE items SET date_added = ${added || now}, date_modified = ${modified || added || now},
          trashed_at = ${deleted} WHERE id = ${itemId}`);
        if (deleted !== null) report.trashed++;
      };
      const tag = (itemId: number, names: readonly string[]) => {
        for (const name of names) {
          const t = name.trim();
          if (t === '' || t.length > 500) continue;
          tagNames.add(t.toLowerCase());
          this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${itemId}, ${this.tagId(t)})`);
        }
      };
      const links = new Map<number, { title: string; url: string }[]>();
      for (const a of folder.attachments)
        if (a.linkMode === 3 && a.url && a.parentItemID !== null) {
          links.set(a.parentItemID, [...(links.get(a.parentItemID) ?? []), { title: a.title, url: a.url }]);
          report.attachments.links++;
        }
      folder.items.forEach((item, index) => {
        step();
        const { csl } = zoteroToCsl({ itemType: item.itemType, ...item.fields, creators: item.creators }, item.key);
        const citationKey = item.bbtKey?.key ?? item.fields.citationKey ?? extraCitationKey(item.fields.extra ?? '');
        if (citationKey) csl['citation-key'] = citationKey;
        if (item.bbtKey?.pinned || item.fields.citationKey || (!item.bbtKey && citationKey)) report.pinnedKeys++;
        const zotero = { ...((csl.custom?.['zotero'] as object | undefined) ?? { itemType: item.itemType }) } as Record<
          string,
          unknown
        >;
        if (item.relations.length > 0) zotero.relations = item.relations;
        if (links.has(item.itemID)) zotero.links = links.get(item.itemID);
        if (Object.keys(zotero).length > 1 || csl.custom) csl.custom = { ...csl.custom, zotero };
        // Imported before (its Zotero key is on record): the same item, even in the Trash.
        const id = this.#importedBefore(item.key) ? null : session.addOne(csl, index, false);
        if (id === null) {
          report.duplicates++;
          return;
        }
        if (typeof id === 'string') {
          report.skipped.push({ key: item.key, reason: id });
          return;
        }
        itemIds.set(item.itemID, id);
        tag(id, item.tags);
        stamp(id, item.dateAdded, item.dateModified, item.deleted);
        file(id, item.collections, item.libraryID);
        key('item', id, item.key);
      });
      // Standalone notes and attachments become items of their own (Zotero shows them as top-level items).
      const standalone = (kind: 'attachment', title: string, zoteroKey: string): number | null => {
        if (this.#importedBefore(zoteroKey)) return null;
        const csl: CslItem = { id: zoteroKey, type: 'document', title, custom: { zotero: { itemType: kind } } };
        const id = session.addOne(csl, folder.items.length, true);
        return typeof id === 'number' ? id : null;
      };
      // A citation in a note (Zotero's data-citation names the cited items by URI, …/items/KEY) stays a
      // link when the cited item is in the library by that key (imported now or before).
      const citationItem = (uris: readonly string[]): number | undefined => {
        for (const uri of uris) {
          const zoteroKey = /\/items\/([A-Z0-9]{8})$/.exec(uri)?.[1];
          if (!zoteroKey) continue;
          const row = this.w.get<{ id: number }>(
            sql`SELECT i.id FROM zotero_keys k JOIN items i ON i.id = k.object_id WHERE k.kind = 'item' AND k.key = ${zoteroKey}`,
          );
          if (row) return row.id;
        }
        return undefined;
      };
      for (const n of folder.notes) {
        const note = noteColumnsOrNull(n.html, { citationItem });
        const parent = n.parentItemID === null ? undefined : itemIds.get(n.parentItemID);
        if (n.parentItemID !== null && parent === undefined) continue;
        if (note === null) continue;
        if (parent === undefined) {
          // A standalone note becomes one of ours (shared/model/standalone-note.ts), with its dates.
          if (this.#importedBefore(n.key)) continue;
          const made = this.insertStandaloneNote(session, note, {
            created: n.dateAdded || now,
            modified: n.dateModified || n.dateAdded || now,
          });
          if (made === null) continue;
          report.standaloneNotes++;
          report.notes++;
          tag(made, n.tags);
          stamp(made, n.dateAdded, n.dateModified, n.deleted);
          file(made, n.collections, n.libraryID);
          key('item', made, n.key);
          itemIds.set(n.itemID, made);
          continue;
        }
        const r = this.w.run(sql`INSERT INTO notes (item_id, body, text, created_at, modified_at)
          VALUES (${parent}, ${note.body}, ${note.text}, ${n.dateAdded || now}, ${n.dateModified || n.dateAdded || now})`);
        if (n.parentItemID !== null) key('note', Number(r.lastInsertRowid), n.key);
        report.notes++;
      }
      const attachmentItem = new Map<number, number>();
      for (const a of folder.attachments) {
        if (a.linkMode === 3) continue;
        let parent = a.parentItemID === null ? undefined : itemIds.get(a.parentItemID);
        if (a.parentItemID !== null && parent === undefined) continue;
        if (parent === undefined) {
          const made = standalone('attachment', a.title, a.key);
          if (made === null) continue;
          parent = made;
          tag(made, a.tags);
          stamp(made, a.dateAdded, a.dateAdded, a.deleted);
          file(made, a.collections, a.libraryID);
          key('item', made, a.key);
        }
        attachmentItem.set(a.itemID, parent);
        const kept = files.kept.get(a.itemID);
        if (!kept) continue;
        const r = this.w
          .run(sql`INSERT INTO attachments (item_id, path, sha256, size, mime, added_at, stored, original_name)
          VALUES (${parent}, ${kept.path}, ${kept.pdf ? kept.sha256 : null}, ${kept.size}, ${a.contentType}, ${a.dateAdded || now}, ${kept.stored}, ${kept.name})`);
        key('attachment', Number(r.lastInsertRowid), a.key);
        if (kept.stored === 'copied') report.attachments.stored++;
        else report.attachments.linked++;
      }
      // Annotations (highlights and comments in Zotero's reader) as one note per annotated file.
      const byFile = new Map<number, string[]>();
      for (const an of folder.annotations) {
        const line = [
          an.pageLabel ? `p. ${an.pageLabel}: ` : '',
          an.text ? `“${an.text.trim()}”` : '',
          an.text && an.comment ? ' — ' : '',
          an.comment.trim(),
        ].join('');
        if (line.trim() !== '') byFile.set(an.parentItemID, [...(byFile.get(an.parentItemID) ?? []), `- ${line}`]);
      }
      for (const [attachmentId, lines] of byFile) {
        const parent = attachmentItem.get(attachmentId);
        if (parent === undefined) continue;
        const a = folder.attachments.find((x) => x.itemID === attachmentId);
        const note = noteColumnsOrNull(
          `<h2>${escapeNoteText(`Annotations in ${a?.title ?? 'the attachment'}`)}</h2><ul>${lines
            .map((l) => `<li>${escapeNoteText(l.replace(/^- /, ''))}</li>`)
            .join('')}</ul>`,
        );
        if (!note) continue;
        this.w.run(
          sql`INSERT INTO notes (item_id, body, text, created_at, modified_at) VALUES (${parent}, ${note.body}, ${note.text}, ${now}, ${now})`,
        );
        report.notes++;
      }
      const all = [...new Set([...itemIds.values(), ...attachmentItem.values()])];
      this.reindex(all);
      // One undo step: undone, every item it added goes to the Trash with its notes and files, and the
      // collections it created (not ones that were there before) are removed, unless used since.
      if (all.length > 0 || madeCollections.length > 0)
        this.undoable(
          (subject) =>
            all.length > 0
              ? `Import ${subject} from Zotero`
              : `Import ${madeCollections.length === 1 ? '1 collection' : `${madeCollections.length} collections`} from Zotero`,
          [],
          () => ({ value: undefined, created: all, collections: madeCollections }),
        );
      const result = session.commit();
      report.added = result.added;
      report.ids = result.ids;
      report.tags = tagNames.size;
      for (const e of result.errors) report.warnings.push(`Entry ${e.index + 1}: ${e.reason}`);
      for (const w of result.warnings) report.warnings.push(`Entry ${w.index + 1}: ${w.reason}`);
      return report;
    } catch (err) {
      session.rollback();
      throw err;
    }
  }

  #importedBefore(zoteroKey: string): boolean {
    return !!this.w.get(
      sql`SELECT 1 AS x FROM zotero_keys k JOIN items i ON i.id = k.object_id WHERE k.kind = 'item' AND k.key = ${zoteroKey}`,
    );
  }

  /** The data folder's collections, created (or found, by name under the same parent) in one pass, parents first. */
  #zoteroCollections(folder: ZoteroFolder, report: ZoteroImportReport, made: number[]): Map<string, number> {
    const ids = new Map<string, number>();
    const now = this.now();
    const find = (name: string, parent: number | null): number | undefined =>
      this.w.get<{ id: number }>(
        sql`SELECT id FROM collections WHERE coalesce(parent_id, 0) = ${parent ?? 0} AND name = ${name} COLLATE NOCASE`,
      )?.id;
    const make = (name: string, parent: number | null): number => {
      const there = find(name, parent);
      if (there !== undefined) return there;
      report.collections++;
      const id = Number(
        this.w.run(sql`INSERT INTO collections (parent_id, name, created_at) VALUES (${parent}, ${name}, ${now})`)
          .lastInsertRowid,
      );
      made.push(id);
      return id;
    };
    for (const [libraryID, name] of folder.groups) ids.set(`library:${libraryID}`, make(name, null));
    const pending = [...folder.collections];
    const byZotero = new Map(folder.collections.map((c) => [c.collectionID, c]));
    const seen = new Map<string, number>();
    while (pending.length > 0) {
      const before = pending.length;
      for (let i = 0; i < pending.length;) {
        const c = pending[i]!;
        const parent =
          c.parentID === null
            ? (ids.get(`library:${c.libraryID}`) ?? null)
            : byZotero.has(c.parentID)
              ? ids.get(String(c.parentID))
              : null;
        if (parent === undefined) {
          i++;
          continue;
        }
        // Zotero allows two sibling collections of one name; Citewise does not: the second gets "(2)".
        const sibling = `${parent ?? 0}/${c.name.toLowerCase()}`;
        const n = (seen.get(sibling) ?? 0) + 1;
        seen.set(sibling, n);
        const id = make(n === 1 ? c.name : `${c.name} (${n})`, parent);
        ids.set(String(c.collectionID), id);
        this.w.run(
          sql`INSERT OR IGNORE INTO zotero_keys (kind, object_id, key) VALUES ('collection', ${id}, ${c.key})`,
        );
        pending.splice(i, 1);
      }
      if (pending.length === before) break;
    }
    return ids;
  }

  /** Attachment files: stored ones copied into the library folder (or linked, as asked), linked ones linked; the missing named. */
  #zoteroFiles(folder: ZoteroFolder, options: ZoteroImportOptions, step: () => void): ZoteroFiles {
    // Only a PDF's row carries its checksum: the full-text index reads every attachment with one.
    const kept: ZoteroFiles['kept'] = new Map();
    const missing: string[] = [];
    /** Files this import put in the library folder (removed again if it fails or is cancelled). */
    const created: string[] = [];
    const parentOk = (a: FolderAttachment) =>
      a.parentItemID === null || folder.items.some((i) => i.itemID === a.parentItemID);
    try {
      for (const a of folder.attachments) {
        step();
        if (a.linkMode === 3 || !parentOk(a)) continue;
        this.#keepZoteroFile(a, options, kept, missing, created);
      }
    } catch (err) {
      for (const file of created) rmSync(file, { force: true });
      throw err;
    }
    return { kept, missing, created };
  }

  #keepZoteroFile(
    a: FolderAttachment,
    options: ZoteroImportOptions,
    kept: ZoteroFiles['kept'],
    missing: string[],
    created: string[],
  ): void {
    {
      const where = a.file;
      if (where === null || !existsSync(where) || !statSync(where).isFile()) {
        missing.push(where ?? a.rawPath ?? a.title);
        return;
      }
      const bytes = readFileSync(where);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const name = basename(where);
      const pdf = a.contentType === 'application/pdf' || /\.pdf$/i.test(name);
      if (options.mode === 'copy' && (a.linkMode === 0 || a.linkMode === 1)) {
        const ext = extname(name).toLowerCase() || '.bin';
        const dir = join(options.storeDir, sha256.slice(0, 2));
        const path = join(dir, `${sha256}${ext === '.pdf' ? '.pdf' : ext}`);
        if (!existsSync(path)) {
          mkdirSync(dir, { recursive: true });
          copyFileSync(where, path);
          created.push(path);
        }
        kept.set(a.itemID, { path, sha256, size: bytes.byteLength, stored: 'copied', name, pdf });
      } else kept.set(a.itemID, { path: where, sha256, size: bytes.byteLength, stored: 'linked', name, pdf });
    }
  }
}

/**
 * What the report says about linked files stored relative to Zotero's Linked Attachment Base
 * Directory: where they were looked for, or that the folder was not found and how to give it.
 */
function baseDirectoryNotes(folder: ZoteroFolder): string[] {
  const relative = folder.attachments.filter((a) => a.linkMode === 2 && a.rawPath?.startsWith('attachments:')).length;
  if (relative === 0) return [];
  const files = relative === 1 ? '1 linked file is' : `${relative} linked files are`;
  const base = folder.baseDirectory;
  if (base === null)
    return [
      `${files} relative to Zotero's Linked Attachment Base Directory, which was not found in a Zotero profile on this computer: import again giving that folder (Zotero: Settings → Advanced → Files and Folders; citewise import --zotero-base DIR).`,
    ];
  return [
    `${files} relative to Zotero's Linked Attachment Base Directory, looked for in ${base.path} (${base.from === 'given' ? 'the folder given' : `from ${base.from}`}).`,
  ];
}
