// Items (a room of the Library, see library-base.ts): adding, reading and editing items, citation
// keys, tags, notes, attachments and captured PDFs. Each user change is one undo step (undo.ts).
import { basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isNoteItem, standaloneNoteCsl, standaloneNoteTitle } from '../../../shared/model/standalone-note';
import { citationKeyBase, citationKeyProblem, uniqueCitationKey } from '../../../shared/model/citekey';
import { isbnsIn } from '../../../shared/model/identifiers';
import { storedKeyFormula } from './key-formula';
import type { CslItem } from '../../../shared/model/csl';
import { CoreError } from '../errors';
import { prepareItem } from './derive';
import { editedFields, recordUserEdits } from './edits';
import { changedFields, editLabel } from './undo-labels';
import { ImportSession } from './import-session';
import { titlesAsWritten, withTitlesAsWritten } from '../formats/bibtex/as-written';
import {
  pendingTitleSearches,
  unsettledCaptures,
  type CaptureInput,
  type CaptureStored,
  type PendingTitleSearch,
  type TitleSearchOutcome,
} from './capture-store';
import type { CaptureState } from '../../../shared/model/pdf-capture';
import { inList, sql, type ReadDb } from './sql';
import type { Attachment, Creator, ItemDetail, ItemId, Note, RelatedRow, TagColor } from './types';

/** Zotero's limit: one coloured tag per key 1–9. */
export const MAX_COLORED_TAGS = 9;
import { ROW_COLUMNS, ROW_JOINS, type RawRow, toRow, notFound, chunk, waitingOf } from './library-base';
import { UndoLog } from './undo';
import { noteColumns } from './note-body';
import { arrayOf, isObject, readStored, storedCsl } from './stored-json';

export abstract class ItemsRoom extends UndoLog {
  // ── Items ──

  /** Adds an item as given (and files it into `collectionId`, the collection the user is looking at), one undo step. */
  addItem(item: CslItem, collectionId: number | null = null): ItemId {
    if (collectionId !== null && !this.w.get(sql`SELECT 1 FROM collections WHERE id = ${collectionId}`))
      throw notFound(`Collection ${collectionId}`);
    return this.undoable(
      (s) => `Add item ${s}`,
      [],
      () => {
        const result = new ImportSession(this.w, { source: 'manual' }, this.now(), false).addOne(item, 0, true);
        if (typeof result !== 'number') throw new CoreError('INVALID_INPUT', result ?? 'The item was not added.');
        if (collectionId !== null)
          this.w.run(
            sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${collectionId}, ${result}, ${this.now()})`,
          );
        return { value: result, created: [result] };
      },
    );
  }

  /**
   * Adds the items a word-processor document cites from its embedded data (the integration's offer
   * to import them), one undo step: for each item, the library item it became (a new one, or the one
   * it duplicates), or null when it could not be added.
   */
  addCitedItems(items: CslItem[]): (ItemId | null)[] {
    return this.undoable(
      (s) => `Add ${s} from a word-processor document`,
      [],
      () => {
        const session = new ImportSession(this.w, { source: 'manual' }, this.now(), false);
        const out = items.map((item, i) => {
          const added = session.addOne(item, i, false);
          return typeof added === 'number' ? added : null;
        });
        const created = out.filter((id): id is ItemId => id !== null);
        // A duplicate is linked to the item the library had (found by its DOI, key or title).
        for (const d of session.commit().duplicates) out[d.index] ??= d.existingId;
        return { value: out, created };
      },
    );
  }

  getItem(id: ItemId): ItemDetail {
    return this.#detail(this.r, id);
  }

  /** Replaces an item's metadata. The citation key stays unless `csl['citation-key']` names a new one. */
  updateItem(id: ItemId, csl: CslItem): void {
    const was = this.w.get<{ csl: string }>(sql`SELECT csl FROM item_csl WHERE item_id = ${id}`);
    const fields = was
      ? changedFields(storedCsl(was.csl, id), csl).filter(
          (f) => f !== 'citation key' || typeof csl['citation-key'] === 'string',
        )
      : [];
    this.undoable(
      (s) => editLabel(fields, s),
      [id],
      () => {
        const current = this.rowOf(this.w, id);
        const requested = typeof csl['citation-key'] === 'string' ? csl['citation-key'].trim() : current.citation_key;
        const key =
          requested.toLowerCase() === current.citation_key.toLowerCase()
            ? current.citation_key
            : this.#checkKey(requested, id);
        if (key !== current.citation_key) this.#keyEdited(id);
        // Remembered so enrichment never overwrites or re-fills what the user changed (edits.ts).
        recordUserEdits(this.w, id, storedCsl(current.csl, id, current.citation_key), csl, this.now());
        this.writeItem(id, { ...csl, 'citation-key': key }, key);
        return { value: undefined };
      },
    );
  }

  /**
   * "Use the title as written": for each item whose title a BibTeX import stored in sentence case
   * (Settings → Import) and that still holds it, the title as the file wrote it, in one undo step.
   * Returns the items changed (the others had no such title).
   */
  useTitlesAsWritten(ids: readonly ItemId[]): ItemId[] {
    const updates: { id: ItemId; before: CslItem; after: CslItem; key: string }[] = [];
    for (const batch of chunk([...new Set(ids)]))
      for (const row of this.r.all<{ id: number; citation_key: string; csl: string }>(
        sql`SELECT i.id, i.citation_key, r.csl FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.id IN ${inList(batch)} ORDER BY i.id`,
      )) {
        const before = storedCsl(row.csl, row.id, row.citation_key);
        const after = withTitlesAsWritten(before);
        if (after) updates.push({ id: row.id, before, after, key: row.citation_key });
      }
    if (updates.length === 0) return [];
    this.undoable(
      (s) => `Use the title as written for ${s}`,
      updates.map((u) => u.id),
      () => {
        const now = this.now();
        for (const u of updates) {
          // A choice of the user's: enrichment must not put a sentence-case title back (edits.ts).
          recordUserEdits(this.w, u.id, u.before, u.after, now);
          this.writeItem(u.id, u.after, u.key, now);
        }
        return { value: undefined };
      },
    );
    return updates.map((u) => u.id);
  }

  /**
   * Writes an item completed from the service (enrichment, fill.ts): not a user edit, so no undo entry
   * and no edit record. A placeholder that became a real entry (`completed`) gets the service's
   * keywords as tags, and a key from the formula in place of the one made for the placeholder
   * ("anon", "anona"…); a key the user set stays.
   */
  writeServiceFill(id: ItemId, csl: CslItem, placeholder?: { completed: true; tags: readonly string[] }): void {
    const current = this.rowOf(this.w, id);
    let key = current.citation_key;
    if (placeholder) {
      const base = this.#keyBaseOf(storedCsl(current.csl, id, current.citation_key)).toLowerCase();
      const lower = key.toLowerCase();
      const generated = lower.startsWith(base) && /^[a-z]*$/.test(lower.slice(base.length));
      const userSet =
        this.w.get(sql`SELECT 1 FROM item_edits WHERE item_id = ${id} AND field = 'citation-key'`) !== undefined;
      if (generated && !userSet) key = uniqueCitationKey(this.#keyBaseOf(csl), (k) => this.#keyTaken(k, id));
      for (const name of placeholder.tags)
        this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${id}, ${this.tagId(name)})`);
    }
    this.writeItem(id, { ...csl, 'citation-key': key }, key);
  }

  /** Sets the citation key the user typed; CONFLICT if another item has it. */
  setCitationKey(id: ItemId, key: string): string {
    return this.undoable(
      (s) => `Change citation key of ${s}`,
      [id],
      () => {
        const current = this.rowOf(this.w, id);
        const checked = this.#checkKey(key.trim(), id);
        const csl = storedCsl(current.csl, id, current.citation_key);
        this.#keyEdited(id);
        this.writeItem(id, { ...csl, 'citation-key': checked }, checked);
        return { value: checked };
      },
    );
  }

  /** Regenerates a key from the formula (Settings → Citation keys), only when the user asks. */
  regenerateCitationKey(id: ItemId): string {
    return this.undoable(
      (s) => `Regenerate citation key of ${s}`,
      [id],
      () => ({ value: this.#regenerate(id, this.#keyBaseOf) }),
    );
  }

  /**
   * Regenerates the keys of several items from the formula, in the order given, as one undo step. A key
   * the formula gives again stays as it is; a new one takes the first free suffix (a, b, …) against
   * every key and alias in the library, the ones given out just before included.
   */
  regenerateCitationKeys(ids: readonly ItemId[]): { id: ItemId; from: string; to: string }[] {
    const unique = [...new Set(ids)];
    for (const id of unique) this.rowOf(this.w, id);
    const keyBase = this.#keyBaseOf;
    return this.undoable(
      (s) => `Regenerate citation key${unique.length === 1 ? '' : 's'} of ${s}`,
      unique,
      () => ({
        value: unique.map((id) => {
          const from = this.rowOf(this.w, id).citation_key;
          return { id, from, to: this.#regenerate(id, keyBase) };
        }),
      }),
    );
  }

  #regenerate(id: ItemId, keyBase: (csl: CslItem) => string): string {
    const current = this.rowOf(this.w, id);
    const csl = storedCsl(current.csl, id, current.citation_key);
    const key = uniqueCitationKey(
      keyBase(csl),
      (k) => k.toLowerCase() !== current.citation_key.toLowerCase() && this.#keyTaken(k, id),
    );
    if (key !== current.citation_key) this.writeItem(id, { ...csl, 'citation-key': key }, key);
    return key;
  }

  /** The key the library's formula (Settings → Citation keys) gives an item, before uniqueness. */
  readonly #keyBaseOf = (csl: CslItem): string => (storedKeyFormula(this.w)?.keyOf ?? citationKeyBase)(csl);

  /**
   * A copy of an item as a new item, as Zotero's Duplicate Item makes it: every field, the creators and
   * the tags, a new key from the formula; not its notes or attachments. Filed into `collectionId` when
   * given (the collection the user is looking at). One undo step; undone, the copy goes to the Trash.
   */
  duplicateItem(id: ItemId, collectionId: number | null = null): ItemId {
    const source = this.rowOf(this.w, id);
    if (collectionId !== null && !this.w.get(sql`SELECT 1 FROM collections WHERE id = ${collectionId}`))
      throw notFound(`Collection ${collectionId}`);
    const tags = this.w.pluck<string>(
      sql`SELECT t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = ${id} ORDER BY t.name`,
    );
    return this.undoable(
      (s) => `Duplicate ${s}`,
      [],
      () => {
        const { 'citation-key': _key, ...csl } = storedCsl(source.csl, id, source.citation_key);
        const copy = new ImportSession(this.w, { source: 'manual' }, this.now(), false).addOne(
          { ...csl, id: `copy-of-${id}` },
          0,
          true,
        );
        if (typeof copy !== 'number') throw new CoreError('INVALID_INPUT', copy ?? 'The item was not copied.');
        for (const name of tags)
          this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${copy}, ${this.tagId(name)})`);
        if (collectionId !== null)
          this.w.run(
            sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${collectionId}, ${copy}, ${this.now()})`,
          );
        this.#touch([copy]);
        return { value: copy, created: [copy] };
      },
    );
  }

  /**
   * The live items that carry one of these identifiers, by kind: PMID and PMCID exactly, ISBNs by their
   * ISBN-13 (an item's ISBN field may list several, written with hyphens or as ISBN-10s). For Add by
   * identifier, which cannot look these up but must not add a book twice. Scans the items' records:
   * a few hundred milliseconds on 100,000 items, for a command a person runs.
   */
  itemsWithIdentifier(kind: 'pmid' | 'pmcid' | 'isbn', values: readonly string[]): { value: string; itemId: ItemId }[] {
    if (values.length === 0) return [];
    const field = kind === 'pmid' ? 'PMID' : kind === 'pmcid' ? 'PMCID' : 'ISBN';
    const rows = this.r.all<{ id: number; v: string }>(
      sql`SELECT i.id, json_extract(r.csl, ${`$.${field}`}) AS v FROM items i JOIN item_csl r ON r.item_id = i.id
        WHERE i.trashed_at IS NULL AND json_extract(r.csl, ${`$.${field}`}) IS NOT NULL ORDER BY i.id`,
    );
    const wanted = new Set(values.map((v) => v.toUpperCase()));
    const out: { value: string; itemId: ItemId }[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      const held = kind === 'isbn' ? isbnsIn(String(row.v)) : [String(row.v).trim().toUpperCase()];
      for (const h of held)
        if (wanted.has(h) && !seen.has(h)) {
          seen.add(h);
          out.push({ value: h, itemId: row.id });
        }
    }
    return out;
  }

  findByCitationKey(key: string): ItemId | null {
    // Keys are unique without regard to case, but an alias may differ from a key only in case ("Kim_2019"
    // kept for the item that had to become "Kim_2019b" beside "kim_2019"): the key as written wins.
    const rows = this.r.all<{ id: number; exact: number }>(
      sql`SELECT id, citation_key = ${key} COLLATE BINARY AS exact FROM items WHERE citation_key = ${key}
        UNION ALL SELECT item_id, alias = ${key} COLLATE BINARY FROM key_aliases WHERE alias = ${key}`,
    );
    return (rows.find((r) => r.exact === 1) ?? rows[0])?.id ?? null;
  }

  // ── Tags ──

  addTags(ids: readonly ItemId[], tags: readonly string[]): void {
    const names = this.#tagNames(tags);
    this.undoable(
      (s) => `Add tag${names.length > 1 ? 's' : ''} ${names.join(', ')} to ${s}`,
      ids,
      () => {
        for (const name of names) {
          const tagId = this.tagId(name);
          for (const id of ids)
            this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${id}, ${tagId})`);
        }
        this.#touch(ids);
        return { value: undefined };
      },
    );
  }

  removeTags(ids: readonly ItemId[], tags: readonly string[]): void {
    const names = this.#tagNames(tags);
    this.undoable(
      (s) => `Remove tag${names.length > 1 ? 's' : ''} ${names.join(', ')} from ${s}`,
      ids,
      () => {
        for (const name of names) {
          for (const batch of chunk(ids)) {
            this.w.run(
              sql`DELETE FROM item_tags WHERE tag_id = (SELECT id FROM tags WHERE name = ${name}) AND item_id IN ${inList(batch)}`,
            );
          }
        }
        this.w.run(sql`DELETE FROM tags WHERE id NOT IN (SELECT tag_id FROM item_tags)`);
        this.#touch(ids);
        return { value: undefined };
      },
    );
  }

  listTags(): { name: string; count: number }[] {
    return this.r
      .all(sql`SELECT t.name, count(*) AS count FROM tags t JOIN item_tags it ON it.tag_id = t.id JOIN items i ON i.id = it.item_id
      WHERE i.trashed_at IS NULL GROUP BY t.id ORDER BY t.name COLLATE NOCASE`);
  }

  /**
   * Renames a tag on every item that has it (trashed ones too), as Zotero does; renaming onto a tag
   * that exists merges the two. A coloured tag keeps its colour and place under the new name. One
   * undo step; returns how many items changed.
   */
  renameTag(from: string, to: string): number {
    const [oldName] = this.#tagNames([from]);
    const [newName] = this.#tagNames([to]);
    if (oldName === newName) return 0;
    const ids = this.#itemsTagged([oldName!]);
    const tag = this.w.get<{ id: number; name: string }>(sql`SELECT id, name FROM tags WHERE name = ${oldName!}`);
    if (!tag && !this.#colorOf(oldName!)) throw notFound(`The tag “${oldName}”`);
    const run = (): { value: number } => {
      if (oldName!.toLowerCase() === newName!.toLowerCase()) {
        // Only the case changes: the same tag, renamed in place.
        this.w.run(sql`UPDATE tags SET name = ${newName!} WHERE name = ${oldName!}`);
      } else if (tag) {
        const into = this.tagId(newName!);
        this.w.run(
          sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) SELECT item_id, ${into} FROM item_tags WHERE tag_id = ${tag.id}`,
        );
        this.w.run(sql`DELETE FROM tags WHERE id = ${tag.id}`);
      }
      this.#moveColor(oldName!, newName!);
      if (ids.length) this.#touch(ids);
      return { value: ids.length };
    };
    if (ids.length === 0) return this.w.transaction(run).value;
    return this.undoable(
      `Rename tag ${oldName} to ${newName} on ${ids.length === 1 ? '1 item' : `${ids.length} items`}`,
      ids,
      run,
    );
  }

  /** Merges tags into one (`into`, new or existing): every item with any of them gets `into` instead. One undo step. */
  mergeTags(names: readonly string[], into: string): number {
    const [target] = this.#tagNames([into]);
    const sources = this.#tagNames(names).filter((n) => n.toLowerCase() !== target!.toLowerCase());
    if (sources.length === 0) throw new CoreError('INVALID_INPUT', 'Choose at least one other tag to merge.');
    const ids = this.#itemsTagged(sources);
    if (ids.length === 0)
      throw new CoreError(
        'NOT_FOUND',
        `No item has the tag${sources.length > 1 ? 's' : ''} ${sources.map((n) => `“${n}”`).join(', ')}.`,
      );
    return this.undoable(
      `Merge tags ${sources.join(', ')} into ${target} on ${ids.length === 1 ? '1 item' : `${ids.length} items`}`,
      ids,
      () => {
        const targetId = this.tagId(target!);
        for (const name of sources) {
          const tag = this.w.get<{ id: number }>(sql`SELECT id FROM tags WHERE name = ${name}`);
          if (!tag) continue;
          this.w.run(
            sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) SELECT item_id, ${targetId} FROM item_tags WHERE tag_id = ${tag.id}`,
          );
          this.w.run(sql`DELETE FROM tags WHERE id = ${tag.id}`);
        }
        this.#touch(ids);
        return { value: ids.length };
      },
    );
  }

  /** Removes tags from every item that has them (a coloured tag keeps its colour and place). One undo step. */
  deleteTags(names: readonly string[]): number {
    const list = this.#tagNames(names);
    const ids = this.#itemsTagged(list);
    if (ids.length === 0) return 0;
    return this.undoable(
      `Delete tag${list.length > 1 ? 's' : ''} ${list.join(', ')} from ${ids.length === 1 ? '1 item' : `${ids.length} items`}`,
      ids,
      () => {
        for (const name of list) this.w.run(sql`DELETE FROM tags WHERE name = ${name}`);
        this.#touch(ids);
        return { value: ids.length };
      },
    );
  }

  /**
   * Keys 1–9 (Zotero's coloured tags): adds the tag to every item when any lacks it, else removes it
   * from all of them. Returns whether it was added.
   */
  toggleTag(ids: readonly ItemId[], name: string): boolean {
    const [tag] = this.#tagNames([name]);
    const having = new Set(this.#itemsTagged([tag!]));
    const add = ids.some((id) => !having.has(id));
    if (add) this.addTags(ids, [tag!]);
    else this.removeTags(ids, [tag!]);
    return add;
  }

  /** The coloured tags in their places 1–9, with how many live items have each (0 included). */
  tagColors(): TagColor[] {
    return this.r.all<TagColor>(sql`SELECT c.name, c.color, c.position,
      (SELECT count(*) FROM tags t JOIN item_tags it ON it.tag_id = t.id JOIN items i ON i.id = it.item_id WHERE t.name = c.name AND i.trashed_at IS NULL) AS count
      FROM tag_colors c ORDER BY c.position`);
  }

  /**
   * Gives a tag a colour and a place (1–9: its key), or takes them away (color null). A new coloured
   * tag takes the first free place unless one is named; a named place that is taken moves the tag
   * there and shifts the others along, as Zotero's "Position" does. At most nine coloured tags.
   */
  setTagColor(name: string, color: string | null, position?: number): TagColor[] {
    const [tag] = this.#tagNames([name]);
    this.w.transaction(() => {
      const existing = this.#colorOf(tag!);
      if (color === null) {
        if (!existing) return;
        this.w.run(sql`DELETE FROM tag_colors WHERE name = ${tag!}`);
        this.#compactColors();
        return;
      }
      if (!/^#[0-9a-f]{6}$/i.test(color))
        throw new CoreError('INVALID_INPUT', `The colour "${color}" is not a colour like #ff6666.`);
      const all = this.w.all<{ name: string; color: string }>(
        sql`SELECT name, color FROM tag_colors ORDER BY position`,
      );
      if (!existing && all.length >= MAX_COLORED_TAGS)
        throw new CoreError(
          'CONFLICT',
          `At most ${MAX_COLORED_TAGS} tags can have a colour (keys 1 to 9); take the colour off one first.`,
        );
      const others = all.filter((c) => c.name.toLowerCase() !== tag!.toLowerCase());
      const max = others.length + 1;
      if (position !== undefined && (!Number.isInteger(position) || position < 1 || position > max))
        throw new CoreError('INVALID_INPUT', `The place of a coloured tag is 1 to ${max} here, not ${position}.`);
      const at = (position ?? existing?.position ?? max) - 1;
      this.#writeColors([...others.slice(0, at), { name: existing?.name ?? tag!, color }, ...others.slice(at)]);
    });
    return this.tagColors();
  }

  // ── Related items (both ways) ──

  /** The items related to this one, either way round, with what the details column shows of them. */
  relatedTo(id: ItemId): RelatedRow[] {
    this.rowOf(this.r, id);
    return this.r
      .all<RelatedRow>(
        sql`SELECT i.id, i.title, i.creators_text AS creators, i.year, i.citation_key AS citationKey, i.trashed_at IS NOT NULL AS trashed
      FROM (SELECT related_id AS other FROM item_relations WHERE item_id = ${id} UNION SELECT item_id FROM item_relations WHERE related_id = ${id}) r
      JOIN items i ON i.id = r.other ORDER BY i.title_sort, i.id`,
      )
      .map((r) => ({ ...r, trashed: Boolean(r.trashed) }));
  }

  /** Relates items to one item, both ways (each pair once). One undo step over all of them. */
  relateItems(id: ItemId, others: readonly ItemId[]): void {
    const list = [...new Set(others)].filter((o) => o !== id);
    if (list.length === 0)
      throw new CoreError('INVALID_INPUT', 'An item cannot be related to itself; choose another item.');
    for (const o of [id, ...list]) this.rowOf(this.w, o);
    this.undoable(
      (s) => `Relate ${s}`,
      [id, ...list],
      () => {
        const now = this.now();
        for (const o of list)
          this.w.run(
            sql`INSERT OR IGNORE INTO item_relations (item_id, related_id, added_at) VALUES (${Math.min(id, o)}, ${Math.max(id, o)}, ${now})`,
          );
        this.#touch([id, ...list]);
        return { value: undefined };
      },
    );
  }

  /** Takes away the relation between two items (both ways). One undo step. */
  unrelateItems(id: ItemId, other: ItemId): void {
    const pair = sql`item_id = ${Math.min(id, other)} AND related_id = ${Math.max(id, other)}`;
    if (!this.w.get(sql`SELECT 1 FROM item_relations WHERE ${pair}`)) throw notFound('That relation');
    this.undoable(
      (s) => `Unrelate ${s}`,
      [id, other],
      () => {
        this.w.run(sql`DELETE FROM item_relations WHERE ${pair}`);
        this.#touch([id, other]);
        return { value: undefined };
      },
    );
  }

  // ── Notes ──

  /** Adds a note (HTML, kept to the note allowlist; plain text becomes paragraphs). */
  addNote(itemId: ItemId, body: string): number {
    const note = noteColumns(body);
    return this.undoable(
      (s) => `Add note to ${s}`,
      [itemId],
      () => {
        this.rowOf(this.w, itemId);
        const now = this.now();
        const r = this.w.run(
          sql`INSERT INTO notes (item_id, body, text, created_at, modified_at) VALUES (${itemId}, ${note.body}, ${note.text}, ${now}, ${now})`,
        );
        this.#touch([itemId]);
        return { value: Number(r.lastInsertRowid) };
      },
    );
  }

  /**
   * Adds a standalone note (one that belongs to no item, see shared/model/standalone-note.ts), filed
   * into `collectionId` when given, one undo step. Returns its item and its note.
   */
  addStandaloneNote(body: string, collectionId: number | null = null): { itemId: ItemId; noteId: number } {
    const note = noteColumns(body);
    if (collectionId !== null && !this.w.get(sql`SELECT 1 FROM collections WHERE id = ${collectionId}`))
      throw notFound(`Collection ${collectionId}`);
    return this.undoable(
      (s) => `Add note ${s}`,
      [],
      () => {
        const now = this.now();
        const itemId = this.insertStandaloneNote(new ImportSession(this.w, { source: 'manual' }, now, false), note);
        if (itemId === null) throw new CoreError('INTERNAL', 'The note was not added.');
        const noteId = this.w.pluck<number>(sql`SELECT id FROM notes WHERE item_id = ${itemId}`)[0]!;
        if (collectionId !== null)
          this.w.run(
            sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${collectionId}, ${itemId}, ${now})`,
          );
        return { value: { itemId, noteId }, created: [itemId] };
      },
    );
  }

  /**
   * The item of a standalone note and its note row, inside the caller's transaction (a manual add, a
   * Zotero import): null when the session refused it. Its citation key is a random `note_…` one, so a
   * note never takes a key a reference would want.
   */
  protected insertStandaloneNote(
    session: ImportSession,
    note: { body: string; text: string },
    dates: { created?: number; modified?: number } = {},
  ): ItemId | null {
    const id = session.addOne(standaloneNoteCsl(note.body, `note_${randomBytes(5).toString('hex')}`), 0, true);
    if (typeof id !== 'number') return null;
    const now = this.now();
    this.w.run(sql`INSERT INTO notes (item_id, body, text, created_at, modified_at)
      VALUES (${id}, ${note.body}, ${note.text}, ${dates.created ?? now}, ${dates.modified ?? dates.created ?? now})`);
    return id;
  }

  updateNote(noteId: number, body: string): void {
    const itemId = this.#noteItem(noteId);
    const note = noteColumns(body);
    // Saving what is already stored (the editor saves on blur) makes no undo step.
    if (this.w.get(sql`SELECT 1 AS x FROM notes WHERE id = ${noteId} AND body = ${note.body}`)) return;
    this.undoable(
      (s) => `Edit note of ${s}`,
      [itemId],
      () => {
        this.w.run(
          sql`UPDATE notes SET body = ${note.body}, text = ${note.text}, modified_at = ${this.now()} WHERE id = ${noteId}`,
        );
        // A standalone note's title is its first line: it follows the text.
        if (this.#isNoteItem(itemId)) {
          const row = this.rowOf(this.w, itemId);
          const csl = storedCsl(row.csl, itemId, row.citation_key);
          const title = standaloneNoteTitle(note.body);
          if (csl.title !== title) this.writeItem(itemId, { ...csl, title }, row.citation_key);
        }
        this.#touch([itemId]);
        return { value: undefined };
      },
    );
  }

  deleteNote(noteId: number): void {
    const itemId = this.#noteItem(noteId);
    if (this.#isNoteItem(itemId))
      throw new CoreError(
        'INVALID_INPUT',
        'This is a standalone note: move it to the Trash (Delete) instead of deleting its text.',
      );
    this.undoable(
      (s) => `Delete note of ${s}`,
      [itemId],
      () => {
        this.w.run(sql`DELETE FROM notes WHERE id = ${noteId}`);
        this.#touch([itemId]);
        return { value: undefined };
      },
    );
  }

  // ── Attachments ──

  addAttachment(
    itemId: ItemId,
    a: {
      path: string;
      sha256?: string | null;
      size?: number | null;
      mime?: string | null;
      stored?: 'linked' | 'copied';
      originalName?: string | null;
    },
  ): number {
    return this.undoable(
      (s) => `Add attachment to ${s}`,
      [itemId],
      () => {
        this.rowOf(this.w, itemId);
        const r = this.w.run(
          sql`INSERT INTO attachments (item_id, path, sha256, size, mime, added_at, stored, original_name) VALUES (${itemId}, ${a.path}, ${a.sha256 ?? null}, ${a.size ?? null}, ${a.mime ?? null}, ${this.now()}, ${a.stored ?? 'linked'}, ${a.originalName ?? basename(a.path)})`,
        );
        this.#touch([itemId]);
        return { value: Number(r.lastInsertRowid) };
      },
    );
  }

  /** Of these items, those whose record keeps a .bib `file` field (custom.bibtex.fields.file). */
  withLinkedFiles(ids: readonly ItemId[]): ItemId[] {
    const out: ItemId[] = [];
    for (const batch of chunk(ids))
      out.push(
        ...this.r.pluck<number>(
          sql`SELECT item_id FROM item_csl WHERE item_id IN ${inList(batch)} AND json_extract(csl, '$.custom.bibtex.fields.file') IS NOT NULL ORDER BY item_id`,
        ),
      );
    const wanted = new Set(out);
    return [...new Set(ids)].filter((id) => wanted.has(id));
  }

  /**
   * Files an imported .bib names for its entries (pdf/attach-files.ts found, hashed and kept them), in
   * one transaction and, like the import they belong to, no undo step. A file whose content the item
   * has already is not attached twice (`duplicate`: importing the same file again adds nothing); one
   * another item holds too is attached, and that item named (`alsoOn`): the source linked both.
   */
  attachImportedFiles(
    files: readonly {
      itemId: ItemId;
      path: string;
      sha256: string;
      size: number;
      mime: string | null;
      stored: 'copied' | 'linked';
      originalName: string;
    }[],
  ): ({ status: 'attached'; attachmentId: number; alsoOn: ItemId | null } | { status: 'duplicate' })[] {
    return this.w.transaction(() => {
      const now = this.now();
      const touched = new Set<ItemId>();
      const out = files.map((f) => {
        this.rowOf(this.w, f.itemId);
        const mine = this.w.get(sql`SELECT 1 FROM attachments WHERE item_id = ${f.itemId} AND sha256 = ${f.sha256}`);
        if (mine) return { status: 'duplicate' as const };
        const other = this.w.get<{ item_id: number }>(
          sql`SELECT item_id FROM attachments WHERE sha256 = ${f.sha256} ORDER BY id LIMIT 1`,
        );
        const r = this.w.run(
          sql`INSERT INTO attachments (item_id, path, sha256, size, mime, added_at, stored, original_name) VALUES (${f.itemId}, ${f.path}, ${f.sha256}, ${f.size}, ${f.mime}, ${now}, ${f.stored}, ${f.originalName})`,
        );
        touched.add(f.itemId);
        return { status: 'attached' as const, attachmentId: Number(r.lastInsertRowid), alsoOn: other?.item_id ?? null };
      });
      this.#touch([...touched]);
      return out;
    });
  }

  // ── PDF capture (pdf/capture.ts reads and identifies the file; this stores it) ──

  /** The attachment with this content already in the library (live or trashed item), or null. */
  attachmentBySha256(sha256: string): { itemId: ItemId; attachmentId: number } | null {
    const row = this.r.get<{ id: number; item_id: number }>(
      sql`SELECT id, item_id FROM attachments WHERE sha256 = ${sha256} ORDER BY id LIMIT 1`,
    );
    return row ? { itemId: row.item_id, attachmentId: row.id } : null;
  }

  /**
   * A captured PDF: its item, its attachment and how it was identified, in one transaction (all of it
   * or none). Not added twice: the same content (checksum) is a duplicate; the same item (DOI, by the
   * import's rules) gets the PDF attached when it has no captured PDF yet, and is a duplicate otherwise.
   */
  capturePdf(input: CaptureInput): CaptureStored {
    const same = this.attachmentBySha256(input.attachment.sha256);
    if (same) return { status: 'duplicate', itemId: same.itemId, reason: 'checksum' };
    const into = input.into;
    if (into !== undefined) {
      this.rowOf(this.w, into);
      return this.undoable(
        (s) => `Attach PDF to ${s}`,
        [into],
        () => ({
          value: { status: 'attached' as const, itemId: into, attachmentId: this.#insertCapture(into, input) },
        }),
      );
    }
    const session = new ImportSession(this.w, { source: 'pdf' }, this.now(), false);
    const existing = session.existing(prepareItem(input.csl));
    if (existing) {
      const captured = this.r.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM pdf_captures WHERE item_id = ${existing.id}`,
      );
      if (existing.reason !== 'doi' || (captured?.n ?? 0) > 0)
        return { status: 'duplicate', itemId: existing.id, reason: existing.reason };
      return this.undoable(
        (s) => `Attach PDF to ${s}`,
        [existing.id],
        () => ({
          value: {
            status: 'attached' as const,
            itemId: existing.id,
            attachmentId: this.#insertCapture(existing.id, input),
          },
        }),
      );
    }
    return this.undoable(
      (s) => `Add PDF ${s}`,
      [],
      () => {
        const added = session.addOne(input.csl, 0, true);
        if (typeof added !== 'number') throw new CoreError('INVALID_INPUT', added ?? 'The item was not added.');
        return {
          value: { status: 'added' as const, itemId: added, attachmentId: this.#insertCapture(added, input) },
          created: [added],
        };
      },
    );
  }

  #insertCapture(itemId: ItemId, input: CaptureInput): number {
    const a = input.attachment;
    const now = this.now();
    const r = this.w.run(
      sql`INSERT INTO attachments (item_id, path, sha256, size, mime, added_at, stored, original_name) VALUES (${itemId}, ${a.path}, ${a.sha256}, ${a.size}, ${'application/pdf'}, ${now}, ${a.stored}, ${a.originalName ?? null})`,
    );
    const attachmentId = Number(r.lastInsertRowid);
    this.w.run(
      sql`INSERT INTO pdf_captures (attachment_id, item_id, method, state, confidence, evidence, candidates, captured_at) VALUES (${attachmentId}, ${itemId}, ${input.method}, ${input.state}, ${input.confidence}, ${JSON.stringify(input.evidence)}, ${JSON.stringify(input.candidates)}, ${now})`,
    );
    this.#touch([itemId]);
    return attachmentId;
  }

  /** The "Needs review" list: unsure captures, and those waiting for the service. */
  unsettledCaptures(limit?: number) {
    return unsettledCaptures(this.r, limit);
  }

  /**
   * A person settled a captured PDF from the Needs review list: with `identified`, the item becomes
   * that candidate (its metadata, its DOI) and the capture stands; with null, the item stays as it is
   * and the capture is kept. One undo step; CONFLICT when it was settled already.
   */
  settleCapture(attachmentId: number, identified: { doi: string; csl: CslItem | null } | null): ItemId {
    const row = this.w.get<{ item_id: number; state: string; candidates: string }>(
      sql`SELECT item_id, state, candidates FROM pdf_captures WHERE attachment_id = ${attachmentId}`,
    );
    if (!row) throw notFound('The captured PDF');
    if (row.state !== 'needs-review' && row.state !== 'pending')
      throw new CoreError('CONFLICT', 'This PDF has been settled already.');
    const candidate = identified
      ? readStored<{ doi: string; score: number }[]>(
          row.candidates,
          `The candidates of a captured PDF of item ${row.item_id}`,
          arrayOf(isObject),
        ).find((c) => c.doi.toLowerCase() === identified.doi.toLowerCase())
      : undefined;
    if (identified && !candidate)
      throw new CoreError('INVALID_INPUT', `${identified.doi} is not one of this PDF's candidates.`);
    const id = row.item_id;
    return this.undoable(
      (s) => (identified ? `Identify the PDF of ${s}` : `Keep the PDF of ${s}`),
      [id],
      () => {
        if (identified) {
          const current = this.rowOf(this.w, id);
          const was = storedCsl(current.csl, id, current.citation_key);
          const csl: CslItem = identified.csl ? { ...identified.csl, id: was.id } : { ...was, DOI: candidate!.doi };
          this.writeItem(id, { ...csl, 'citation-key': current.citation_key }, current.citation_key);
        }
        // A person's decision: as sure as the library gets.
        this.w.run(
          sql`UPDATE pdf_captures SET state = ${identified ? 'identified' : 'kept'}, confidence = ${identified ? 1 : 0} WHERE attachment_id = ${attachmentId}`,
        );
        this.#touch([id]);
        return { value: id };
      },
    );
  }

  /** The captures whose title search waits for the service (pdf/pending-captures.ts runs them). */
  pendingTitleSearches(limit?: number): PendingTitleSearch[] {
    return pendingTitleSearches(this.r, limit);
  }

  /**
   * A pending capture's title search ran (pdf/pending-captures.ts): the capture takes what it decided,
   * as a capture made online would have. Identified, the item becomes a DOI placeholder that enrichment
   * completes like any other (`enrich`): the title read from the page gives way to the service's and
   * the empty fields are filled, but no field the user edited meanwhile (fill.ts). Not a user change:
   * no undo entry. Null when the capture no longer waits (settled, removed, or its item in the trash).
   */
  completePendingCapture(
    attachmentId: number,
    outcome: TitleSearchOutcome,
  ): { itemId: ItemId; state: CaptureState; enrich: boolean } | null {
    return this.w.transaction(() => {
      const row = this.w.get<{ item_id: number; state: string; doi: string | null; trashed_at: number | null }>(
        sql`SELECT c.item_id, c.state, i.doi, i.trashed_at FROM pdf_captures c JOIN items i ON i.id = c.item_id WHERE c.attachment_id = ${attachmentId}`,
      );
      if (!row || row.state !== 'pending' || row.trashed_at !== null) return null;
      const id = row.item_id;
      const settle = (o: Omit<TitleSearchOutcome, 'doi'>): void => {
        this.w
          .run(sql`UPDATE pdf_captures SET state = ${o.state}, method = ${o.method}, confidence = ${o.confidence}, evidence = ${JSON.stringify(o.evidence)},
          candidates = ${JSON.stringify(o.candidates)} WHERE attachment_id = ${attachmentId}`);
      };
      const edited = new Set(editedFields(this.w, id));
      if (row.doi !== null || edited.has('DOI')) {
        // The user gave the item its DOI meanwhile: theirs stands, as if they had kept the item as it is.
        this.w.run(sql`UPDATE pdf_captures SET state = 'kept' WHERE attachment_id = ${attachmentId}`);
        return { itemId: id, state: 'kept' as const, enrich: false };
      }
      if (outcome.doi === null) {
        settle(outcome);
        return { itemId: id, state: outcome.state, enrich: false };
      }
      const other = this.w.get<{ title: string | null }>(
        sql`SELECT title FROM items WHERE doi = ${outcome.doi} AND id <> ${id} AND trashed_at IS NULL ORDER BY id LIMIT 1`,
      );
      if (other) {
        // Online, the PDF would have gone to that item; this one exists already, so a person decides.
        const note = `the library already has an item with this DOI ("${other.title ?? 'untitled'}")`;
        const evidence = outcome.evidence.map((e) => ({ ...e, detail: e.detail ? `${e.detail}; ${note}` : note }));
        settle({
          method: outcome.method,
          state: 'needs-review',
          confidence: outcome.confidence,
          evidence,
          candidates: [{ doi: outcome.doi, score: outcome.confidence, evidence: evidence[0]! }],
        });
        return { itemId: id, state: 'needs-review' as const, enrich: false };
      }
      const csl = storedCsl(this.rowOf(this.w, id).csl, id);
      const custom = (csl.custom ?? {}) as Record<string, unknown>;
      const citewise = (custom['citewise'] ?? {}) as Record<string, unknown>;
      const provisional = edited.has('title') ? [] : ['title'];
      this.writeServiceFill(id, {
        ...csl,
        DOI: outcome.doi,
        custom: { ...custom, citewise: { ...citewise, pendingMetadata: true, provisional } },
      });
      settle(outcome);
      return { itemId: id, state: outcome.state, enrich: true };
    });
  }

  removeAttachment(attachmentId: number): void {
    const row = this.w.get<{ item_id: number }>(sql`SELECT item_id FROM attachments WHERE id = ${attachmentId}`);
    if (!row) throw notFound('The attachment');
    this.undoable(
      (s) => `Remove attachment from ${s}`,
      [row.item_id],
      () => {
        this.w.run(sql`DELETE FROM attachments WHERE id = ${attachmentId}`);
        this.#touch([row.item_id]);
        return { value: undefined };
      },
    );
  }

  #touch(ids: readonly ItemId[]): void {
    const now = this.now();
    for (const batch of chunk(ids))
      this.w.run(sql`UPDATE items SET date_modified = ${now} WHERE id IN ${inList(batch)}`);
    this.reindex(ids);
  }

  /** The user chose this item's key: completing a placeholder never replaces it (writeServiceFill). */
  #keyEdited(id: ItemId): void {
    this.w.run(sql`INSERT INTO item_edits (item_id, field, edited_at) VALUES (${id}, 'citation-key', ${this.now()})
      ON CONFLICT(item_id, field) DO UPDATE SET edited_at = excluded.edited_at`);
  }

  #keyTaken(key: string, exceptId: ItemId): boolean {
    return !!this.w.get(
      sql`SELECT 1 FROM items WHERE citation_key = ${key} AND id <> ${exceptId} UNION ALL SELECT 1 FROM key_aliases WHERE alias = ${key} AND item_id <> ${exceptId}`,
    );
  }

  #checkKey(key: string, id: ItemId): string {
    const problem = citationKeyProblem(key);
    if (problem) throw new CoreError('INVALID_INPUT', problem);
    if (this.#keyTaken(key, id))
      throw new CoreError('CONFLICT', `The citation key "${key}" is already used by another item.`);
    return key;
  }

  #tagNames(tags: readonly string[]): string[] {
    const names = [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
    if (names.length === 0) throw new CoreError('INVALID_INPUT', 'A tag needs a name.');
    return names;
  }

  /** Every item (trashed ones too) with any of these tags. */
  #itemsTagged(names: readonly string[]): ItemId[] {
    return this.w.pluck<number>(
      sql`SELECT DISTINCT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE t.name IN ${inList(names)} ORDER BY it.item_id`,
    );
  }

  #colorOf(name: string): { name: string; position: number } | undefined {
    return this.w.get<{ name: string; position: number }>(
      sql`SELECT name, position FROM tag_colors WHERE name = ${name}`,
    );
  }

  /** A renamed tag keeps its colour and place; renamed onto a coloured tag, that one's colour stays. */
  #moveColor(from: string, to: string): void {
    const source = this.#colorOf(from);
    if (!source) return;
    const target = this.#colorOf(to);
    if (target && target.name.toLowerCase() !== source.name.toLowerCase()) {
      this.w.run(sql`DELETE FROM tag_colors WHERE name = ${from}`);
      this.#compactColors();
    } else this.w.run(sql`UPDATE tag_colors SET name = ${to} WHERE name = ${from}`);
  }

  /** Places 1…n with no gap, in their order. */
  #compactColors(): void {
    this.#writeColors(
      this.w.all<{ name: string; color: string }>(sql`SELECT name, color FROM tag_colors ORDER BY position`),
    );
  }

  /** The coloured tags in this order, places 1…n (rewritten whole: a place is UNIQUE and 1–9 at every step). */
  #writeColors(order: readonly { name: string; color: string }[]): void {
    this.w.run(sql`DELETE FROM tag_colors`);
    order.forEach((c, i) =>
      this.w.run(sql`INSERT INTO tag_colors (name, color, position) VALUES (${c.name}, ${c.color}, ${i + 1})`),
    );
  }

  #isNoteItem(itemId: ItemId): boolean {
    return isNoteItem(this.w.get<{ type: string }>(sql`SELECT type FROM items WHERE id = ${itemId}`));
  }

  #noteItem(noteId: number): ItemId {
    const row = this.w.get<{ item_id: number }>(sql`SELECT item_id FROM notes WHERE id = ${noteId}`);
    if (!row) throw notFound('The note');
    return row.item_id;
  }

  #detail(db: ReadDb, id: ItemId): ItemDetail {
    const raw = db.get<RawRow & { csl: string; source: string | null }>(
      sql`SELECT ${ROW_COLUMNS}, (SELECT csl FROM item_csl WHERE item_id = i.id) AS csl, i.source FROM items i ${ROW_JOINS} WHERE i.id = ${id}`,
    );
    if (!raw) throw notFound(`Item ${id}`);
    const waiting = waitingOf(db, [id]).get(id);
    const csl = storedCsl(raw.csl, id, raw.citation_key);
    const written = titlesAsWritten(csl).title;
    return {
      ...toRow(raw),
      ...(waiting ? { waiting } : {}),
      ...(written !== undefined ? { titleAsWritten: written } : {}),
      csl,
      source: raw.source,
      creatorsList: db.all<Creator>(
        sql`SELECT role, family, given, literal FROM creators WHERE item_id = ${id} ORDER BY role, position`,
      ),
      tags: db.pluck<string>(
        sql`SELECT t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = ${id} ORDER BY t.name COLLATE NOCASE`,
      ),
      notes: db.all<Note>(
        sql`SELECT id, body, text, created_at AS createdAt, modified_at AS modifiedAt FROM notes WHERE item_id = ${id} ORDER BY id`,
      ),
      collections: db.pluck<number>(
        sql`SELECT collection_id FROM collection_items WHERE item_id = ${id} ORDER BY collection_id`,
      ),
      attachments: db.all<Attachment>(
        sql`SELECT id, path, sha256, size, mime, added_at AS addedAt, stored, original_name AS originalName FROM attachments WHERE item_id = ${id} ORDER BY id`,
      ),
      keyAliases: db.pluck<string>(sql`SELECT alias FROM key_aliases WHERE item_id = ${id} ORDER BY alias`),
    };
  }
}
