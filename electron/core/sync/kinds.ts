// What is shared, declared once per kind of object: the tables whose rows make it up (the change log's
// triggers are made from these, changelog.ts), how it reads as a document of fields, how a document
// from the server is written back, and how its fields merge. A new table joins sync by a declaration
// here (docs/sharing.md, "A new table"): nothing in the library's write paths changes.
import { basename, extname, join } from 'node:path';
import { z } from 'zod';
import { citationKeyProblem, uniqueCitationKey } from '../../../shared/model/citekey';
import type { CslItem } from '../../../shared/model/csl';
import { inList, sql, type SqlValue } from '../library/sql';
import { chunk } from '../library/library-base';
import { keywordTags } from '../library/derive';
import { arrayOf, isString, readStored, storedCsl } from '../library/stored-json';
import { noteColumnsOrNull } from '../library/note-body';
import { noteText } from '../../../shared/model/note-html';
import type { LocalId, SyncContext } from './context';
import { sameJson, type Doc, type FieldRule, type Json } from './merge';

/** A table whose rows belong to objects of a kind; a trigger per event marks the object changed. */
export interface TriggerSource {
  table: string;
  /** The object's local id from the changed row, in SQL, with ROW standing for NEW or OLD. */
  id?: string;
  /** Or a SELECT of the local ids the change touches (ROW as above), e.g. every item with a renamed tag. */
  select?: string;
  /** Only updates of these columns count (default: any update). */
  columns?: readonly string[];
  events?: readonly ('insert' | 'update' | 'delete')[];
}

export interface SyncKind {
  /** The kind's name on the server ([a-z_]). */
  name: string;
  /** Tables whose changes change an object of this kind. */
  sources: readonly TriggerSource[];
  /** SQL listing the local id of every object of this kind (a library's first sync). */
  all: string;
  /** How fields merge when both sides changed them (default 'conflict'). */
  rules?: Readonly<Record<string, FieldRule>>;
  /**
   * 'fields' (the default): three-way, field by field. 'newest': the copy fetched last wins whole,
   * never a conflict (data fetched from the citation service, the same for everyone).
   */
  merge?: 'fields' | 'newest';
  /** Checks a document from the server (types, sizes); a document that fails is set aside, never applied. */
  schema: z.ZodType<Doc>;
  /** The uid of a local object when it is made from its id (natural keys); default: a random uid kept in sync_objects. */
  uidOf?(ctx: SyncContext, id: LocalId): string;
  /** The local id a uid names, for kinds whose uid is made from their id. */
  localOf?(ctx: SyncContext, uid: string): LocalId | null;
  /** Whether the local object exists (a record may outlive it: a tombstone). */
  exists(ctx: SyncContext, id: LocalId): boolean;
  /** Objects a document needs first (a note's item): it waits in sync_parked until they are here. */
  needs?(doc: Doc): { kind: string; uid: string }[];
  /** The local objects as documents; an id without an entry has been deleted. */
  read(ctx: SyncContext, ids: readonly LocalId[]): Map<LocalId, Doc>;
  /** Writes a document from the server as the local object `id` (null: a new object); returns its local id. */
  write(ctx: SyncContext, id: LocalId | null, doc: Doc, uid: string): LocalId;
  remove(ctx: SyncContext, id: LocalId): void;
  /** What the user calls the object ("“Deep learning” (lecun2015)"), for the Conflicts view and the log. */
  describe(doc: Doc | null): string;
}

// ── Validation of what the server sends ──

const MAX_TEXT = 1_000_000;
const MAX_LIST = 10_000;
const MAX_NAME = 200;
/** Deeper than any document Citewise writes (a CSL date is three levels). */
const MAX_DEPTH = 64;

/**
 * What is wrong with a value from the server as a field's JSON value, or null when nothing is: text up
 * to MAX_TEXT characters, finite numbers, lists up to MAX_LIST values, objects with names up to
 * MAX_NAME characters, nested up to MAX_DEPTH. Checked by hand in one walk: as a recursive zod union it
 * took a sixth of a first sync's time.
 */
function jsonProblem(v: unknown, depth: number): string | null {
  if (v === null || typeof v === 'boolean') return null;
  if (typeof v === 'string') return v.length <= MAX_TEXT ? null : `text longer than ${MAX_TEXT} characters`;
  if (typeof v === 'number') return Number.isFinite(v) ? null : 'not a finite number';
  if (typeof v !== 'object') return `not a JSON value (${typeof v})`;
  if (depth >= MAX_DEPTH) return `nested more than ${MAX_DEPTH} levels deep`;
  if (Array.isArray(v)) {
    if (v.length > MAX_LIST) return `a list of more than ${MAX_LIST} values`;
    for (let i = 0; i < v.length; i++) {
      const p = jsonProblem(v[i], depth + 1);
      if (p !== null) return depth < 4 ? `[${i}]: ${p}` : p;
    }
    return null;
  }
  for (const [k, x] of Object.entries(v)) {
    if (k.length > MAX_NAME) return `a name longer than ${MAX_NAME} characters`;
    const p = jsonProblem(x, depth + 1);
    if (p !== null) return depth < 4 ? `${k.slice(0, 40)}: ${p}` : p;
  }
  return null;
}

const jsonValue: z.ZodType<Json> = z.custom<Json>().superRefine((v, ctx) => {
  const problem = jsonProblem(v, 0);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});
const name = z.string().min(1).max(1000);
const uidRef = z.string().min(1).max(300);
const stamp = z.number().int().min(0).max(8.64e15);
const names = z.array(z.string().min(1).max(1000)).max(10_000);

const itemDoc = z
  .looseObject({
    key: z
      .string()
      .min(1)
      .max(300)
      .refine((k) => citationKeyProblem(k) === null, 'not a usable citation key'),
    'csl.type': z.string().min(1).max(100),
    dateAdded: stamp,
    trashed: z.boolean(),
    source: z.string().max(1000).nullable(),
    tags: names,
    aliases: names,
    edited: names,
  })
  .catchall(jsonValue)
  .refine((d) => Object.keys(d).every((k) => k.length <= 200), 'a field name is too long');

// ── Small helpers ──

const json = (v: unknown): Json => v as Json;
/** A JSON column of the library's own, read through the checker: a damaged one is an error naming `what`. */
const parsed = (text: string | null, what: string): Json => (text === null ? null : readStored<Json>(text, what));
const numIds = (ids: readonly LocalId[]): number[] => ids.map(Number).filter(Number.isInteger);
/** A list SQLite made (json_group_array), sorted. */
const sorted = (text: string | null, what: string): string[] =>
  readStored<string[]>(text ?? '[]', what, arrayOf(isString)).sort();

function rowsOf<T>(ctx: SyncContext, ids: readonly number[], query: (batch: number[]) => T[]): T[] {
  const out: T[] = [];
  for (const batch of chunk(ids)) out.push(...query(batch));
  return out;
}

/** A name or key the server wants that a different local object holds: the one with the larger uid gives way. */
function yields(mine: string, theirs: string): boolean {
  return mine > theirs;
}

// ── Items ──

const ITEM_FIELDS = new Set(['key', 'dateAdded', 'trashed', 'source', 'tags', 'aliases', 'edited']);

function itemCsl(doc: Doc): CslItem {
  const csl: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (k.startsWith('csl.')) csl[k.slice(4)] = v;
  return { ...(csl as CslItem), 'citation-key': doc.key as string };
}

const item: SyncKind = {
  name: 'item',
  sources: [
    { table: 'items', id: 'ROW.id', columns: ['type', 'citation_key', 'date_added', 'trashed_at', 'source'] },
    { table: 'item_csl', id: 'ROW.item_id' },
    { table: 'item_tags', id: 'ROW.item_id' },
    {
      table: 'tags',
      select: 'SELECT item_id FROM item_tags WHERE tag_id = ROW.id',
      columns: ['name'],
      events: ['update'],
    },
    { table: 'key_aliases', id: 'ROW.item_id' },
    { table: 'item_edits', id: 'ROW.item_id', events: ['insert', 'delete'] },
  ],
  all: 'SELECT id FROM items',
  exists: (ctx, id) => ctx.w.get(sql`SELECT 1 AS x FROM items WHERE id = ${Number(id)}`) !== undefined,
  rules: { tags: 'set', aliases: 'set', edited: 'set', dateAdded: 'min' },
  schema: itemDoc as unknown as z.ZodType<Doc>,
  read(ctx, ids) {
    const out = new Map<LocalId, Doc>();
    const rows = rowsOf(ctx, numIds(ids), (batch) =>
      ctx.w.all<{
        id: number;
        citation_key: string;
        date_added: number;
        trashed_at: number | null;
        source: string | null;
        csl: string;
        tags: string | null;
        aliases: string | null;
        edited: string | null;
      }>(sql`SELECT i.id, i.citation_key, i.date_added, i.trashed_at, i.source, r.csl,
        (SELECT json_group_array(t.name) FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = i.id) AS tags,
        (SELECT json_group_array(alias) FROM key_aliases WHERE item_id = i.id) AS aliases,
        (SELECT json_group_array(field) FROM item_edits WHERE item_id = i.id) AS edited
        FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.id IN ${inList(batch)}`),
    );
    for (const r of rows) {
      const doc: Doc = {
        key: r.citation_key,
        dateAdded: r.date_added,
        trashed: r.trashed_at !== null,
        source: r.source,
        tags: sorted(r.tags, `The tags of item ${r.id} (${r.citation_key})`),
        aliases: sorted(r.aliases, `The former keys of item ${r.id} (${r.citation_key})`),
        edited: sorted(r.edited, `The edited fields of item ${r.id} (${r.citation_key})`),
      };
      for (const [k, v] of Object.entries(storedCsl(r.csl, r.id, r.citation_key) as Record<string, unknown>))
        if (k !== 'citation-key' && v !== undefined) doc[`csl.${k}`] = json(v);
      out.set(r.id, doc);
    }
    return out;
  },
  write(ctx, id, doc, uid) {
    const w = ctx.w;
    const existing =
      id === null
        ? undefined
        : w.get<{ id: number; trashed_at: number | null }>(sql`SELECT id, trashed_at FROM items WHERE id = ${id}`);
    const now = ctx.now();
    const key = claimKey(ctx, existing?.id ?? null, doc.key as string, uid);
    const csl = itemCsl({ ...doc, key });
    const trashedAt = doc.trashed ? (existing?.trashed_at ?? now) : null;
    let itemId: number;
    /** What the item holds now (null: written whole below). */
    let was: Doc | null = null;
    /** A new item written by the import session, with its date added and source. */
    let fresh = false;
    if (existing) {
      itemId = existing.id;
      was = item.read(ctx, [itemId]).get(itemId) ?? null;
    } else if (id === null) {
      // A new item goes in as an import's does (derived columns, creators, tags from its keywords and
      // the search row in one pass): the session's key is the one claimed, unless an alias holds it.
      // Its date added and import source go in with the row (no second write of it).
      const session = ctx.importSession();
      const added = session.addOne(csl, 0, true, {
        dateAdded: doc.dateAdded as number,
        source: doc.source as string | null,
      });
      if (typeof added !== 'number') throw new Error(added ?? 'the item was refused');
      itemId = added;
      was = session.lastKey === key ? { ...doc, key, tags: keywordTags(csl).sort(), aliases: [], edited: [] } : null;
      fresh = true;
    } else {
      // A deleted item brought back (a delete that gave way to an edit) keeps its own id.
      itemId = Number(id);
      w.run(
        sql`INSERT INTO items (id, type, citation_key, date_added, date_modified, trashed_at, source) VALUES (${itemId}, ${csl.type}, ${key}, ${doc.dateAdded as number}, ${now}, ${trashedAt}, ${doc.source as string | null})`,
      );
      w.run(sql`INSERT INTO item_csl (item_id, csl) VALUES (${itemId}, ${JSON.stringify(csl)})`);
    }
    // A new item is not in the Trash yet: leaving trashed_at out spares the Trash's triggers (the Zotero
    // change log) a row per item of a first sync; one the session wrote has its date and source already.
    if (existing || trashedAt !== null)
      w.run(
        sql`UPDATE items SET date_added = ${doc.dateAdded as number}, trashed_at = ${trashedAt}, source = ${doc.source as string | null} WHERE id = ${itemId}`,
      );
    else if (!fresh)
      w.run(
        sql`UPDATE items SET date_added = ${doc.dateAdded as number}, source = ${doc.source as string | null} WHERE id = ${itemId}`,
      );
    for (const field of ['tags', 'aliases', 'edited'] as const)
      replaceSet(ctx, itemId, field, (was?.[field] as string[] | undefined) ?? [], (doc[field] as string[]) ?? []);
    // Typed columns, creators and the search row from the CSL-JSON, as every edit writes them; an item
    // whose metadata and key are as they were only needs its search row (tags are in it).
    const cslChanged =
      !was ||
      was.key !== key ||
      Object.keys({ ...was, ...doc }).some((k) => k.startsWith('csl.') && !sameJson(was[k], doc[k]));
    if (cslChanged) ctx.writer.item(itemId, csl, key);
    else if (!sameJson(was!.tags, doc.tags)) ctx.writer.reindexItems([itemId]);
    ctx.touchedItems.add(itemId);
    return itemId;
  },
  remove(ctx, id) {
    ctx.writer.deleteItem(Number(id));
    ctx.touchedItems.add(Number(id));
  },
  describe(doc) {
    if (!doc) return 'an item';
    const title = typeof doc['csl.title'] === 'string' ? doc['csl.title'] : 'Untitled';
    return `“${title.length > 80 ? `${title.slice(0, 79)}…` : title}” (${String(doc.key)})`;
  },
};

/**
 * The key an item from the server is written with: its own, unless a different local item holds it. Of
 * the two, the one with the larger uid gives way to a free key, is pushed with it, and the log says so
 * (a key never changes silently).
 */
function claimKey(ctx: SyncContext, id: number | null, wanted: string, uid: string): string {
  const holder = ctx.w.get<{ id: number; citation_key: string }>(
    sql`SELECT id, citation_key FROM items WHERE citation_key = ${wanted} AND id IS NOT ${id}`,
  );
  if (!holder) return wanted;
  const taken = (k: string): boolean =>
    ctx.w.get(
      sql`SELECT 1 AS x FROM items WHERE citation_key = ${k} UNION ALL SELECT 1 FROM key_aliases WHERE alias = ${k}`,
    ) !== undefined;
  const holderUid = ctx.uidOf('item', holder.id);
  if (yields(uid, holderUid)) {
    const free = uniqueCitationKey(wanted, taken);
    ctx.log('item', uid, id, `The citation key “${wanted}” was already used here; this item now has “${free}”.`);
    ctx.rewritten = true;
    return free;
  }
  const free = uniqueCitationKey(wanted, (k) => taken(k) || k.toLowerCase() === wanted.toLowerCase());
  const csl = storedCsl(
    ctx.w.get<{ csl: string }>(sql`SELECT csl FROM item_csl WHERE item_id = ${holder.id}`)!.csl,
    holder.id,
    holder.citation_key,
  );
  ctx.writer.item(holder.id, { ...csl, 'citation-key': free }, free);
  ctx.markDirty('item', holder.id);
  ctx.touchedItems.add(holder.id);
  ctx.log(
    'item',
    holderUid,
    holder.id,
    `The citation key “${holder.citation_key}” is used by an item from another machine; the item here now has “${free}”.`,
  );
  return wanted;
}

/** Makes one of an item's sets what the document says, touching only what differs from `was`. */
function replaceSet(
  ctx: SyncContext,
  itemId: number,
  field: 'tags' | 'aliases' | 'edited',
  was: readonly string[],
  values: readonly string[],
): void {
  const w = ctx.w;
  const before = new Set(was);
  const after = new Set(values);
  const gone = was.filter((v) => !after.has(v));
  const added = values.filter((v) => !before.has(v));
  if (field === 'tags') {
    for (const t of gone) {
      const tagId = w.get<{ id: number }>(sql`SELECT id FROM tags WHERE name = ${t}`)?.id;
      if (tagId === undefined) continue;
      w.run(sql`DELETE FROM item_tags WHERE item_id = ${itemId} AND tag_id = ${tagId}`);
      w.run(sql`DELETE FROM tags WHERE id = ${tagId} AND NOT EXISTS (SELECT 1 FROM item_tags WHERE tag_id = ${tagId})`);
    }
    for (const t of added)
      w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${itemId}, ${ctx.writer.tag(t)})`);
  } else if (field === 'aliases') {
    for (const a of gone) w.run(sql`DELETE FROM key_aliases WHERE alias = ${a} AND item_id = ${itemId}`);
    for (const a of added) w.run(sql`INSERT OR REPLACE INTO key_aliases (alias, item_id) VALUES (${a}, ${itemId})`);
  } else {
    for (const f of gone) w.run(sql`DELETE FROM item_edits WHERE item_id = ${itemId} AND field = ${f}`);
    const now = ctx.now();
    for (const f of added)
      w.run(sql`INSERT OR IGNORE INTO item_edits (item_id, field, edited_at) VALUES (${itemId}, ${f}, ${now})`);
  }
}

// ── Collections and what they hold ──

const collection: SyncKind = {
  name: 'collection',
  sources: [{ table: 'collections', id: 'ROW.id' }],
  all: 'SELECT id FROM collections',
  exists: (ctx, id) => ctx.w.get(sql`SELECT 1 AS x FROM collections WHERE id = ${Number(id)}`) !== undefined,
  rules: { created: 'min' },
  schema: z.object({ name, parent: uidRef.nullable(), created: stamp }) as unknown as z.ZodType<Doc>,
  needs: (doc) => (doc.parent ? [{ kind: 'collection', uid: doc.parent as string }] : []),
  read(ctx, ids) {
    const out = new Map<LocalId, Doc>();
    for (const r of rowsOf(ctx, numIds(ids), (batch) =>
      ctx.w.all<{ id: number; parent_id: number | null; name: string; created_at: number }>(
        sql`SELECT id, parent_id, name, created_at FROM collections WHERE id IN ${inList(batch)}`,
      ),
    ))
      out.set(r.id, {
        name: r.name,
        parent: r.parent_id === null ? null : ctx.uidOf('collection', r.parent_id),
        created: r.created_at,
      });
    return out;
  },
  write(ctx, id, doc, uid) {
    const w = ctx.w;
    let parent = doc.parent === null ? null : (ctx.localOf('collection', doc.parent as string) as number | null);
    const self = id === null ? null : Number(id);
    if (parent !== null && self !== null) {
      const loop =
        w.get(sql`WITH RECURSIVE up(id) AS (SELECT ${parent} UNION SELECT c.parent_id FROM collections c JOIN up ON c.id = up.id WHERE c.parent_id IS NOT NULL)
        SELECT 1 AS x FROM up WHERE id = ${self}`);
      if (loop) {
        // Two machines each moved one collection into the other: this one goes to the top level.
        ctx.log(
          'collection',
          uid,
          self,
          `“${String(doc.name)}” was moved into its own subcollection on another machine; it stays at the top level.`,
        );
        parent = null;
        ctx.rewritten = true;
      }
    }
    const wanted = doc.name as string;
    const nameOf = claimSibling(ctx, self, parent, wanted, uid);
    const exists = self !== null && w.get(sql`SELECT 1 AS x FROM collections WHERE id = ${self}`) !== undefined;
    if (exists) {
      w.run(
        sql`UPDATE collections SET name = ${nameOf}, parent_id = ${parent}, created_at = ${doc.created as number} WHERE id = ${self}`,
      );
      return self!;
    }
    return Number(
      w.run(
        sql`INSERT INTO collections (id, parent_id, name, created_at) VALUES (${self}, ${parent}, ${nameOf}, ${doc.created as number})`,
      ).lastInsertRowid,
    );
  },
  remove(ctx, id) {
    ctx.w.run(sql`DELETE FROM collections WHERE id = ${Number(id)}`);
  },
  describe: (doc) => (doc ? `the collection “${String(doc.name)}”` : 'a collection'),
};

/** Sibling collections have distinct names: as with keys, the larger uid gives way ("Reading (2)"). */
function claimSibling(
  ctx: SyncContext,
  self: number | null,
  parent: number | null,
  wanted: string,
  uid: string,
): string {
  const holder = ctx.w.get<{ id: number; name: string }>(
    sql`SELECT id, name FROM collections WHERE coalesce(parent_id, 0) = ${parent ?? 0} AND name = ${wanted} COLLATE NOCASE AND id IS NOT ${self}`,
  );
  if (!holder) return wanted;
  // The one that gives way keeps its own spelling: "reading" against "Reading" becomes "reading (2)".
  const free = (base: string): string => {
    for (let n = 2; ; n++) {
      const candidate = `${base} (${n})`;
      if (
        !ctx.w.get(
          sql`SELECT 1 AS x FROM collections WHERE coalesce(parent_id, 0) = ${parent ?? 0} AND name = ${candidate} COLLATE NOCASE`,
        )
      )
        return candidate;
    }
  };
  const holderUid = ctx.uidOf('collection', holder.id);
  if (yields(uid, holderUid)) {
    const renamed = free(wanted);
    ctx.log(
      'collection',
      uid,
      self,
      `Two collections were called “${wanted}”; the one from another machine is now “${renamed}” here and everywhere.`,
    );
    ctx.rewritten = true;
    return renamed;
  }
  const renamed = free(holder.name);
  ctx.w.run(sql`UPDATE collections SET name = ${renamed} WHERE id = ${holder.id}`);
  ctx.markDirty('collection', holder.id);
  ctx.log(
    'collection',
    holderUid,
    holder.id,
    `Two collections were called “${holder.name}”; the one made here is now “${renamed}”.`,
  );
  return wanted;
}

/** Membership of an item in a collection: its own object, so adding and removing never conflict. */
const membership: SyncKind = {
  name: 'membership',
  sources: [{ table: 'collection_items', id: "ROW.collection_id || ':' || ROW.item_id" }],
  all: "SELECT collection_id || ':' || item_id FROM collection_items",
  exists(ctx, id) {
    const [c, i] = String(id).split(':').map(Number);
    return (
      ctx.w.get(sql`SELECT 1 AS x FROM collection_items WHERE collection_id = ${c!} AND item_id = ${i!}`) !== undefined
    );
  },
  rules: { added: 'min' },
  schema: z.object({ collection: uidRef, item: uidRef, added: stamp }) as unknown as z.ZodType<Doc>,
  uidOf(ctx, id) {
    const [c, i] = String(id).split(':').map(Number);
    return `${ctx.uidOf('collection', c!)}:${ctx.uidOf('item', i!)}`;
  },
  localOf(ctx, uid) {
    const [cu, iu] = uid.split(':');
    if (!cu || !iu) return null;
    const c = ctx.localOf('collection', cu);
    const i = ctx.localOf('item', iu);
    return c === null || i === null ? null : `${c}:${i}`;
  },
  needs: (doc) => [
    { kind: 'collection', uid: doc.collection as string },
    { kind: 'item', uid: doc.item as string },
  ],
  read(ctx, ids) {
    const out = new Map<LocalId, Doc>();
    for (const id of ids) {
      const [c, i] = String(id).split(':').map(Number);
      const r = ctx.w.get<{ added_at: number }>(
        sql`SELECT added_at FROM collection_items WHERE collection_id = ${c!} AND item_id = ${i!}`,
      );
      if (r) out.set(id, { collection: ctx.uidOf('collection', c!), item: ctx.uidOf('item', i!), added: r.added_at });
    }
    return out;
  },
  write(ctx, _id, doc) {
    const c = ctx.localOf('collection', doc.collection as string) as number;
    const i = ctx.localOf('item', doc.item as string) as number;
    ctx.w
      .run(sql`INSERT INTO collection_items (collection_id, item_id, added_at) VALUES (${c}, ${i}, ${doc.added as number})
      ON CONFLICT(collection_id, item_id) DO UPDATE SET added_at = excluded.added_at`);
    ctx.touchedItems.add(i);
    return `${c}:${i}`;
  },
  remove(ctx, id) {
    const [c, i] = String(id).split(':').map(Number);
    ctx.w.run(sql`DELETE FROM collection_items WHERE collection_id = ${c!} AND item_id = ${i!}`);
    ctx.touchedItems.add(i!);
  },
  describe: () => 'an item in a collection',
};

// ── Notes and attachments ──

const note: SyncKind = {
  name: 'note',
  sources: [{ table: 'notes', id: 'ROW.id' }],
  all: 'SELECT id FROM notes',
  exists: (ctx, id) => ctx.w.get(sql`SELECT 1 AS x FROM notes WHERE id = ${Number(id)}`) !== undefined,
  rules: { created: 'min', modified: 'max' },
  schema: z.object({
    item: uidRef,
    body: z.string().max(MAX_TEXT),
    created: stamp,
    modified: stamp,
  }) as unknown as z.ZodType<Doc>,
  needs: (doc) => [{ kind: 'item', uid: doc.item as string }],
  read(ctx, ids) {
    const out = new Map<LocalId, Doc>();
    for (const r of rowsOf(ctx, numIds(ids), (batch) =>
      ctx.w.all<{ id: number; item_id: number; body: string; created_at: number; modified_at: number }>(
        sql`SELECT id, item_id, body, created_at, modified_at FROM notes WHERE id IN ${inList(batch)}`,
      ),
    ))
      out.set(r.id, {
        item: ctx.uidOf('item', r.item_id),
        body: r.body,
        created: r.created_at,
        modified: r.modified_at,
      });
    return out;
  },
  write(ctx, id, doc) {
    const itemId = ctx.localOf('item', doc.item as string) as number;
    // A peer's note goes through the note allowlist like any other (a peer on an older version sends text).
    const note = noteColumnsOrNull(doc.body as string) ?? { body: '', text: '' };
    const was =
      id === null ? undefined : ctx.w.get<{ item_id: number }>(sql`SELECT item_id FROM notes WHERE id = ${Number(id)}`);
    let noteId: number;
    if (was) {
      noteId = Number(id);
      ctx.w.run(
        sql`UPDATE notes SET item_id = ${itemId}, body = ${note.body}, text = ${note.text}, created_at = ${doc.created as number}, modified_at = ${doc.modified as number} WHERE id = ${noteId}`,
      );
      if (was.item_id !== itemId) reindex(ctx, was.item_id);
    } else {
      noteId = Number(
        ctx.w.run(
          sql`INSERT INTO notes (id, item_id, body, text, created_at, modified_at) VALUES (${id === null ? null : Number(id)}, ${itemId}, ${note.body}, ${note.text}, ${doc.created as number}, ${doc.modified as number})`,
        ).lastInsertRowid,
      );
    }
    reindex(ctx, itemId);
    return noteId;
  },
  remove(ctx, id) {
    const was = ctx.w.get<{ item_id: number }>(sql`SELECT item_id FROM notes WHERE id = ${Number(id)}`);
    ctx.w.run(sql`DELETE FROM notes WHERE id = ${Number(id)}`);
    if (was) reindex(ctx, was.item_id);
  },
  describe: (doc) => (doc ? `a note (“${noteText(String(doc.body)).slice(0, 40)}”)` : 'a note'),
};

function reindex(ctx: SyncContext, itemId: number): void {
  if (ctx.w.get(sql`SELECT 1 AS x FROM items WHERE id = ${itemId}`) === undefined) return;
  ctx.writer.reindexItems([itemId]);
  ctx.touchedItems.add(itemId);
}

const capture = z
  .object({
    method: z.enum(['xmp', 'info', 'text', 'title-search', 'none']),
    state: z.enum(['identified', 'needs-review', 'pending', 'kept']),
    confidence: z.number().min(0).max(1),
    evidence: jsonValue,
    candidates: jsonValue,
    capturedAt: stamp,
  })
  .nullable();

const attachment: SyncKind = {
  name: 'attachment',
  sources: [
    { table: 'attachments', id: 'ROW.id', columns: ['item_id', 'sha256', 'size', 'mime', 'original_name'] },
    { table: 'pdf_captures', id: 'ROW.attachment_id' },
  ],
  all: 'SELECT id FROM attachments',
  exists: (ctx, id) => ctx.w.get(sql`SELECT 1 AS x FROM attachments WHERE id = ${Number(id)}`) !== undefined,
  rules: { added: 'min' },
  schema: z.object({
    item: uidRef,
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    size: z.number().int().min(0).nullable(),
    mime: z.string().max(200).nullable(),
    name: z.string().max(1000).nullable(),
    added: stamp,
    capture,
  }) as unknown as z.ZodType<Doc>,
  needs: (doc) => [{ kind: 'item', uid: doc.item as string }],
  read(ctx, ids) {
    const out = new Map<LocalId, Doc>();
    for (const r of rowsOf(ctx, numIds(ids), (batch) =>
      ctx.w.all<{
        id: number;
        item_id: number;
        path: string;
        sha256: string | null;
        size: number | null;
        mime: string | null;
        original_name: string | null;
        added_at: number;
        method: string | null;
        state: string | null;
        confidence: number | null;
        evidence: string | null;
        candidates: string | null;
        captured_at: number | null;
      }>(sql`SELECT a.id, a.item_id, a.path, a.sha256, a.size, a.mime, a.original_name, a.added_at,
          c.method, c.state, c.confidence, c.evidence, c.candidates, c.captured_at
        FROM attachments a LEFT JOIN pdf_captures c ON c.attachment_id = a.id WHERE a.id IN ${inList(batch)}`),
    ))
      out.set(r.id, {
        item: ctx.uidOf('item', r.item_id),
        sha256: r.sha256,
        size: r.size,
        mime: r.mime,
        name: r.original_name ?? basename(r.path),
        added: r.added_at,
        capture:
          r.method === null
            ? null
            : {
                method: r.method,
                state: r.state,
                confidence: r.confidence,
                evidence: parsed(r.evidence, `The capture evidence of attachment ${r.id}`),
                candidates: parsed(r.candidates, `The capture candidates of attachment ${r.id}`),
                capturedAt: r.captured_at,
              },
      });
    return out;
  },
  write(ctx, id, doc) {
    const w = ctx.w;
    const itemId = ctx.localOf('item', doc.item as string) as number;
    const sha = doc.sha256 as string | null;
    const was =
      id === null
        ? undefined
        : w.get<{ sha256: string | null }>(sql`SELECT sha256 FROM attachments WHERE id = ${Number(id)}`);
    let attId: number;
    if (was && was.sha256 === sha) {
      // The file here stays where it is (a linked file keeps its path on this machine).
      attId = Number(id);
      w.run(
        sql`UPDATE attachments SET item_id = ${itemId}, size = ${doc.size as number | null}, mime = ${doc.mime as string | null}, original_name = ${doc.name as string | null}, added_at = ${doc.added as number} WHERE id = ${attId}`,
      );
    } else {
      const path = sha ? fileFor(ctx, sha, doc.name as string | null) : ((doc.name as string | null) ?? '');
      if (was) w.run(sql`DELETE FROM attachments WHERE id = ${Number(id)}`);
      attId = Number(
        w.run(
          sql`INSERT INTO attachments (id, item_id, path, sha256, size, mime, added_at, stored, original_name) VALUES (${id === null ? null : Number(id)}, ${itemId}, ${path}, ${sha}, ${doc.size as number | null}, ${doc.mime as string | null}, ${doc.added as number}, 'copied', ${doc.name as string | null})`,
        ).lastInsertRowid,
      );
      if (sha) wantFile(ctx, sha, (doc.size as number | null) ?? 0);
    }
    const c = doc.capture as Record<string, Json> | null;
    if (c === null) w.run(sql`DELETE FROM pdf_captures WHERE attachment_id = ${attId}`);
    else
      w.run(sql`INSERT INTO pdf_captures (attachment_id, item_id, method, state, confidence, evidence, candidates, captured_at)
        VALUES (${attId}, ${itemId}, ${c.method as string}, ${c.state as string}, ${c.confidence as number}, ${JSON.stringify(c.evidence)}, ${JSON.stringify(c.candidates)}, ${c.capturedAt as number})
        ON CONFLICT(attachment_id) DO UPDATE SET item_id = excluded.item_id, method = excluded.method, state = excluded.state,
          confidence = excluded.confidence, evidence = excluded.evidence, candidates = excluded.candidates, captured_at = excluded.captured_at`);
    ctx.touchedItems.add(itemId);
    return attId;
  },
  remove(ctx, id) {
    const was = ctx.w.get<{ item_id: number }>(sql`SELECT item_id FROM attachments WHERE id = ${Number(id)}`);
    ctx.w.run(sql`DELETE FROM attachments WHERE id = ${Number(id)}`);
    if (was) ctx.touchedItems.add(was.item_id);
  },
  describe: (doc) => (doc ? `the attachment “${String(doc.name ?? doc.sha256)}”` : 'an attachment'),
};

/** Where a file from the server is kept: content-addressed, with the extension its name had. */
export function fileFor(ctx: Pick<SyncContext, 'filesDir'>, sha256: string, fileName: string | null): string {
  const ext = fileName ? extname(fileName).toLowerCase() : '';
  const safe = /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
  return join(ctx.filesDir, sha256.slice(0, 2), `${sha256}${safe}`);
}

function wantFile(ctx: SyncContext, sha256: string, size: number): void {
  const state = size > ctx.maxFileBytes ? 'too-big' : ctx.fetchAhead ? 'wanted' : 'on-demand';
  ctx.w
    .run(sql`INSERT INTO sync_files (sha256, direction, size, state, updated_at) VALUES (${sha256}, 'download', ${size}, ${state}, ${ctx.now()})
    ON CONFLICT(sha256) DO UPDATE SET size = excluded.size, state = CASE WHEN sync_files.state = 'done' THEN 'done' ELSE excluded.state END, updated_at = excluded.updated_at`);
}

// ── Saved searches ──

const savedSearch: SyncKind = {
  name: 'saved_search',
  sources: [{ table: 'saved_searches', id: 'ROW.id' }],
  all: 'SELECT id FROM saved_searches',
  exists: (ctx, id) => ctx.w.get(sql`SELECT 1 AS x FROM saved_searches WHERE id = ${Number(id)}`) !== undefined,
  rules: { created: 'min', modified: 'max' },
  schema: z.object({
    name,
    query: z.string().max(10_000),
    sort: jsonValue,
    created: stamp,
    modified: stamp,
  }) as unknown as z.ZodType<Doc>,
  read(ctx, ids) {
    const out = new Map<LocalId, Doc>();
    for (const r of rowsOf(ctx, numIds(ids), (batch) =>
      ctx.w.all<{
        id: number;
        name: string;
        query: string;
        sort: string | null;
        created_at: number;
        modified_at: number;
      }>(sql`SELECT id, name, query, sort, created_at, modified_at FROM saved_searches WHERE id IN ${inList(batch)}`),
    ))
      out.set(r.id, {
        name: r.name,
        query: r.query,
        sort: parsed(r.sort, `The sort of saved search ${r.id} (${r.name})`),
        created: r.created_at,
        modified: r.modified_at,
      });
    return out;
  },
  write(ctx, id, doc, uid) {
    const w = ctx.w;
    const self = id === null ? null : Number(id);
    let nameOf = doc.name as string;
    const holder = w.get<{ id: number }>(
      sql`SELECT id FROM saved_searches WHERE name = ${nameOf} AND id IS NOT ${self}`,
    );
    if (holder) {
      const free = (): string => {
        for (let n = 2; ; n++)
          if (!w.get(sql`SELECT 1 AS x FROM saved_searches WHERE name = ${`${nameOf} (${n})`}`))
            return `${nameOf} (${n})`;
      };
      const holderUid = ctx.uidOf('saved_search', holder.id);
      const renamed = free();
      if (yields(uid, holderUid)) {
        ctx.log(
          'saved_search',
          uid,
          self,
          `Two saved searches were called “${nameOf}”; the one from another machine is now “${renamed}”.`,
        );
        ctx.rewritten = true;
        nameOf = renamed;
      } else {
        w.run(sql`UPDATE saved_searches SET name = ${renamed} WHERE id = ${holder.id}`);
        ctx.markDirty('saved_search', holder.id);
        ctx.log(
          'saved_search',
          holderUid,
          holder.id,
          `Two saved searches were called “${nameOf}”; the one made here is now “${renamed}”.`,
        );
      }
    }
    const sort = doc.sort === null ? null : JSON.stringify(doc.sort);
    if (self !== null && w.get(sql`SELECT 1 AS x FROM saved_searches WHERE id = ${self}`)) {
      w.run(
        sql`UPDATE saved_searches SET name = ${nameOf}, query = ${doc.query as string}, sort = ${sort}, created_at = ${doc.created as number}, modified_at = ${doc.modified as number} WHERE id = ${self}`,
      );
      return self;
    }
    return Number(
      w.run(
        sql`INSERT INTO saved_searches (id, name, query, sort, created_at, modified_at) VALUES (${self}, ${nameOf}, ${doc.query as string}, ${sort}, ${doc.created as number}, ${doc.modified as number})`,
      ).lastInsertRowid,
    );
  },
  remove(ctx, id) {
    ctx.w.run(sql`DELETE FROM saved_searches WHERE id = ${Number(id)}`);
  },
  describe: (doc) => (doc ? `the saved search “${String(doc.name)}”` : 'a saved search'),
};

// ── Citation evidence already fetched: one object per DOI and kind of answer ──

interface CacheTable {
  name: string;
  table: string;
  /** Columns besides doi and fetched_at, with how each is checked. */
  columns: Record<string, z.ZodType<Json>>;
  /** Rows of other tables that go with it (a paper's links). */
  extra?: {
    read(ctx: SyncContext, doi: string): Json;
    write(ctx: SyncContext, doi: string, value: Json): void;
    source: TriggerSource;
    schema: z.ZodType<Json>;
  };
}

const int01 = z.union([z.literal(0), z.literal(1)]);
const intOrNull = z.number().int().min(0).nullable();
const dataText = z.string().max(MAX_TEXT).nullable();
const doiKey = /^10\.\S{1,290}$/;

function cacheKind(t: CacheTable): SyncKind {
  const cols = Object.keys(t.columns);
  const shape: Record<string, z.ZodType<Json>> = { ...t.columns, fetchedAt: stamp };
  if (t.extra) shape.extra = t.extra.schema;
  return {
    name: t.name,
    sources: [{ table: t.table, id: 'ROW.doi' }, ...(t.extra ? [t.extra.source] : [])],
    all: `SELECT doi FROM ${t.table}`,
    exists: (ctx, id) => ctx.w.raw.prepare(`SELECT 1 FROM "${t.table}" WHERE doi = ?`).get(String(id)) !== undefined,
    merge: 'newest',
    schema: z.object(shape) as unknown as z.ZodType<Doc>,
    uidOf: (_ctx, id) => String(id),
    localOf: (_ctx, uid) => (doiKey.test(uid) ? uid : null),
    read(ctx, ids) {
      const out = new Map<LocalId, Doc>();
      for (const doi of ids) {
        const r = ctx.w.raw
          .prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')}, fetched_at FROM "${t.table}" WHERE doi = ?`)
          .get(String(doi)) as Record<string, SqlValue> | undefined;
        if (!r) continue;
        const doc: Doc = { fetchedAt: r.fetched_at as number };
        for (const c of cols) doc[c] = r[c] as Json;
        if (t.extra) doc.extra = t.extra.read(ctx, String(doi));
        out.set(doi, doc);
      }
      return out;
    },
    write(ctx, _id, doc, uid) {
      const values = [uid, ...cols.map((c) => doc[c] as SqlValue), doc.fetchedAt as number];
      ctx.w.raw
        .prepare(
          `INSERT OR REPLACE INTO "${t.table}" (doi, ${cols.map((c) => `"${c}"`).join(', ')}, fetched_at) VALUES (${values.map(() => '?').join(', ')})`,
        )
        .run(...values);
      if (t.extra) t.extra.write(ctx, uid, doc.extra ?? null);
      ctx.touchedKinds.add('evidence');
      return uid;
    },
    remove(ctx, id) {
      ctx.w.raw.prepare(`DELETE FROM "${t.table}" WHERE doi = ?`).run(String(id));
    },
    describe: () => 'citation evidence',
  };
}

const evidence: SyncKind[] = [
  cacheKind({
    name: 'paper',
    table: 'service_papers',
    columns: { found: int01, data: dataText },
    extra: {
      source: { table: 'service_paper_links', id: 'ROW.doi' },
      schema: z
        .array(z.tuple([z.string().max(300), z.enum(['preprint', 'publication'])]))
        .max(1000) as unknown as z.ZodType<Json>,
      read: (ctx, doi) =>
        ctx.w
          .all<{ linked_doi: string; kind: string }>(
            sql`SELECT linked_doi, kind FROM service_paper_links WHERE doi = ${doi} ORDER BY linked_doi, kind`,
          )
          .map((l) => [l.linked_doi, l.kind]),
      write(ctx, doi, value) {
        ctx.w.run(sql`DELETE FROM service_paper_links WHERE doi = ${doi}`);
        for (const [linked, kind] of (value as [string, string][] | null) ?? [])
          ctx.w.run(
            sql`INSERT OR IGNORE INTO service_paper_links (doi, linked_doi, kind) VALUES (${doi}, ${linked}, ${kind})`,
          );
      },
    },
  }),
  cacheKind({
    name: 'tallies',
    table: 'service_tallies',
    columns: {
      found: int01,
      total: intOrNull,
      supporting: intOrNull,
      contrasting: intOrNull,
      mentioning: intOrNull,
      unclassified: intOrNull,
      citing_publications: intOrNull,
    },
  }),
  cacheKind({
    name: 'notices',
    table: 'service_notices',
    columns: {
      found: int01,
      retracted: int01.nullable(),
      notice_count: z.number().int().min(0),
      kinds: z.string().max(1000),
      data: dataText,
    },
  }),
  cacheKind({ name: 'statements', table: 'service_statements', columns: { found: int01, data: dataText } }),
];

/**
 * Every shared kind, parents before what needs them: a page from the server is applied in this order,
 * and a push sends them in it.
 */
export const SYNC_KINDS: readonly SyncKind[] = [
  collection,
  item,
  membership,
  note,
  attachment,
  savedSearch,
  ...evidence,
];

/**
 * The library's tables that are not shared, each with why. A table must be in a kind's sources or here
 * (the change-log test checks every table of the schema), so a new one cannot be forgotten.
 */
export const LOCAL_TABLES: Readonly<Record<string, string>> = {
  items_fts: "the search index, rebuilt from each item's fields wherever it lands",
  creators: "derived from the item's CSL-JSON, which is shared",
  item_revisions: 'auto-export bookkeeping of this machine',
  auto_exports: "files kept in sync on this machine's disk",
  auto_export_entries: "files kept in sync on this machine's disk",
  undo_log: "this machine's undo steps (sync drops those of items another machine changed)",
  settings: "this machine's preferences",
  enrich_queue: "this machine's enrichment work; the evidence it fetches is shared",
  enrich_runs: "this machine's enrichment work; the evidence it fetches is shared",
  item_status: 'derived from the notices, which are shared',
  status_changes: "what this machine's retraction watch has told its user",
  cite_cache: 'formatted bibliographies, made again from shared items',
  assistant_sessions: "a member's own conversations with the assistant",
  assistant_turns: "a member's own conversations with the assistant",
  assistant_references: "a member's own conversations with the assistant",
  graph_statements: 'the citation graph cache, fetched per paper when a graph is drawn',
  graph_fetches: 'the citation graph cache, fetched per paper when a graph is drawn',
  graphs: "a member's saved graphs",
  service_collections: "a member's collections kept on the citation service",
  service_journal_index: 'journal data cached from the service',
  service_journal_notices: 'journal data cached from the service',
  pdf_text_fts: 'full text of PDFs, extracted again from the shared files',
  pdf_text_pages: 'full text of PDFs, extracted again from the shared files',
  pdf_text_state: 'full text of PDFs, extracted again from the shared files',
  pdf_watch_files: "this machine's watched folder",
  zotero_keys:
    "the Zotero item keys this machine's local API and Connector give out (not shared yet: each machine gives its own)",
  zotero_changes: "the version log of this machine's Zotero local API",
  item_origins: 'the entries this machine imported items from, so that importing a file again adds nothing here',
  tag_colors: "not shared yet: a tag's colour and key stay on the machine that set them",
  item_relations: 'not shared yet: related items stay related on the machine that linked them',
  reader_positions: "not shared yet: the page each PDF was last read at, on this machine's reader",
};

export const KIND_BY_NAME: ReadonlyMap<string, SyncKind> = new Map(SYNC_KINDS.map((k) => [k.name, k]));

export const kindOrder = (name: string): number => {
  const i = SYNC_KINDS.findIndex((k) => k.name === name);
  return i < 0 ? SYNC_KINDS.length : i;
};

export { ITEM_FIELDS };
