// Auto-export definitions, their per-item entry cache, and one run of a definition: scope → export
// records → cached or freshly rendered entries → the file, rewritten atomically and only when its bytes
// would change. Runs in the library worker (through Library's auto-export methods), beside the data it
// reads: a run never ships the library across a thread boundary, only a small report.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { CslItem } from '../../../shared/model/csl';
import type { ErrorCode } from '../../../shared/ipc';
import { CoreError } from '../errors';
import { assembleEntryBytes, renderEntry, type EntryOptions } from '../formats/entries';
import type { ExportFormat } from '../formats/index';
import { nodeAtomicFs, writeFileAtomic, type AtomicWriteFs } from '../fs/atomic-write';
import { refuseDataFolderTarget } from '../fs/data-folder-guard';
import { inBatches, inList, sql, type SqlFragment, type WriteDb } from './sql';
import type { ItemId } from './types';

import {
  AUTO_EXPORT_FORMATS,
  DEFAULT_AUTO_EXPORT_OPTIONS,
  type AutoExport,
  type AutoExportFormat,
  type AutoExportOptions,
  type AutoExportRun,
  type AutoExportScope,
  type AutoExportStatus,
} from '../../../shared/model/auto-export';
import { isObject, readStored, storedCsl } from './stored-json';

export { AUTO_EXPORT_FORMATS, DEFAULT_AUTO_EXPORT_OPTIONS };
export type { AutoExport, AutoExportFormat, AutoExportOptions, AutoExportRun, AutoExportScope, AutoExportStatus };
// Every auto-export format is one the exporters write.
AUTO_EXPORT_FORMATS satisfies readonly ExportFormat[];

export interface AutoExportInput {
  path: string;
  format: AutoExportFormat;
  /** Default: the whole library. */
  scope?: AutoExportScope;
  options?: Partial<AutoExportOptions>;
}

export type AutoExportPatch = Partial<Omit<AutoExportInput, 'options'>> & { options?: Partial<AutoExportOptions> };

export type RenderEntry = (item: CslItem, format: AutoExportFormat, options: EntryOptions) => string;

export interface AutoExportStoreOptions {
  db: WriteDb;
  now: () => number;
  /** Tests count or fail renders through this. */
  render?: RenderEntry;
  /** Tests fail writes through this. */
  fs?: AtomicWriteFs;
}

/** Bump when an exporter's output changes, so caches written by an older version are re-rendered. */
const RENDER_REVISION = 1;

interface Row {
  id: number;
  path: string;
  format: AutoExportFormat;
  collection_id: number | null;
  subcollections: number;
  options: string;
  created_at: number;
  last_run_at: number | null;
  last_status: AutoExportStatus;
  last_error: string | null;
  item_count: number | null;
  output_size: number | null;
  output_mtime_ms: number | null;
}

interface Cached {
  settings_hash: string;
  revision: number;
  citation_key: string;
}

function toDefinition(r: Row): AutoExport {
  return {
    id: r.id,
    path: r.path,
    format: r.format,
    scope:
      r.collection_id === null
        ? { kind: 'library' }
        : { kind: 'collection', collectionId: r.collection_id, subcollections: r.subcollections === 1 },
    options: {
      ...DEFAULT_AUTO_EXPORT_OPTIONS,
      ...readStored<Partial<AutoExportOptions>>(r.options, `The options of auto-export ${r.id}`, isObject),
    },
    createdAt: r.created_at,
    lastRunAt: r.last_run_at,
    status: r.last_status,
    error: r.last_error,
    itemCount: r.item_count,
  };
}

function checkFormat(format: unknown): AutoExportFormat {
  if (!AUTO_EXPORT_FORMATS.includes(format as AutoExportFormat))
    throw new CoreError(
      'INVALID_INPUT',
      `An auto-export format is one of ${AUTO_EXPORT_FORMATS.join(', ')} (got "${String(format)}").`,
    );
  return format as AutoExportFormat;
}

function checkPath(path: unknown): string {
  if (typeof path !== 'string' || path.trim() === '')
    throw new CoreError('INVALID_INPUT', 'An auto-export needs the path of the file to write.');
  if (!isAbsolute(path)) throw new CoreError('INVALID_INPUT', `The auto-export path must be absolute (got "${path}").`);
  return resolve(path);
}

function checkOptions(options: Partial<AutoExportOptions> | undefined, base: AutoExportOptions): AutoExportOptions {
  const out = { ...base };
  for (const [k, v] of Object.entries(options ?? {})) {
    if (!(k in DEFAULT_AUTO_EXPORT_OPTIONS)) throw new CoreError('INVALID_INPUT', `Unknown auto-export option "${k}".`);
    if (typeof v !== 'boolean') throw new CoreError('INVALID_INPUT', `The auto-export option "${k}" is true or false.`);
    out[k as keyof AutoExportOptions] = v;
  }
  return out;
}

/** The hash of everything besides the item that decides an entry's bytes. */
export function settingsHash(format: AutoExportFormat, options: AutoExportOptions): string {
  const key = JSON.stringify({
    r: RENDER_REVISION,
    format,
    abstracts: options.abstracts,
    notes: options.notes,
    ascii: options.ascii && (format === 'bibtex' || format === 'biblatex'),
  });
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The record an entry is rendered from: the item as `citewise export` writes it, shaped by the options. */
export function exportRecord(
  csl: CslItem,
  citationKey: string,
  notes: readonly string[],
  options: AutoExportOptions,
): CslItem {
  const record: CslItem = { ...csl, id: citationKey, 'citation-key': citationKey };
  if (!options.abstracts) delete record.abstract;
  if (options.notes && notes.length > 0) {
    const parts = [typeof record.note === 'string' ? record.note : '', ...notes].filter((s) => s.trim() !== '');
    record.note = parts.join('\n\n');
  }
  return record;
}

/** A failed write, said with what and where. */
function writeProblem(err: unknown, path: string): { code: ErrorCode; message: string } {
  const e = err as NodeJS.ErrnoException;
  const dir = dirname(path);
  const kept = 'The previous file, if there is one, was left as it was.';
  switch (e.code) {
    case 'ENOENT':
      return {
        code: 'NOT_FOUND',
        message: `Could not write ${path}: the folder ${dir} does not exist (was it moved, deleted or unmounted?). ${kept}`,
      };
    case 'ENOTDIR':
      return {
        code: 'NOT_FOUND',
        message: `Could not write ${path}: part of the path ${dir} is not a folder. ${kept}`,
      };
    case 'EACCES':
    case 'EPERM':
      return {
        code: 'FORBIDDEN',
        message: `Could not write ${path}: Citewise is not allowed to write in ${dir}. ${kept}`,
      };
    case 'EROFS':
      return { code: 'FORBIDDEN', message: `Could not write ${path}: ${dir} is on a read-only file system. ${kept}` };
    case 'EISDIR':
      return { code: 'CONFLICT', message: `Could not write ${path}: there is a folder with that name. ${kept}` };
    case 'ENOSPC':
    case 'EDQUOT':
      return { code: 'INTERNAL', message: `Could not write ${path}: the disk holding ${dir} is full. ${kept}` };
    default:
      return { code: 'INTERNAL', message: `Could not write ${path}: ${e.message ?? String(err)}. ${kept}` };
  }
}

function scopeFilter(r: Row): SqlFragment {
  if (r.collection_id === null) return sql`i.trashed_at IS NULL`;
  return r.subcollections === 1
    ? sql`i.trashed_at IS NULL AND i.id IN (SELECT item_id FROM collection_items WHERE collection_id IN (
        WITH RECURSIVE sub(id) AS (SELECT ${r.collection_id} UNION SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub))`
    : sql`i.trashed_at IS NULL AND i.id IN (SELECT item_id FROM collection_items WHERE collection_id = ${r.collection_id})`;
}

export class AutoExportStore {
  readonly #db: WriteDb;
  readonly #now: () => number;
  readonly #render: RenderEntry;
  readonly #fs: AtomicWriteFs;

  constructor(options: AutoExportStoreOptions) {
    this.#db = options.db;
    this.#now = options.now;
    this.#render = options.render ?? renderEntry;
    this.#fs = options.fs ?? nodeAtomicFs;
  }

  add(input: AutoExportInput): AutoExport {
    const path = checkPath(input.path);
    const format = checkFormat(input.format);
    const options = checkOptions(input.options, DEFAULT_AUTO_EXPORT_OPTIONS);
    const scope = this.#checkScope(input.scope ?? { kind: 'library' });
    const collectionId = scope.kind === 'collection' ? scope.collectionId : null;
    const subcollections = scope.kind === 'collection' && !scope.subcollections ? 0 : 1;
    try {
      const r = this.#db
        .run(sql`INSERT INTO auto_exports (path, format, collection_id, subcollections, options, created_at)
        VALUES (${path}, ${format}, ${collectionId}, ${subcollections}, ${JSON.stringify(options)}, ${this.#now()})`);
      return this.get(Number(r.lastInsertRowid));
    } catch (err) {
      if (String(err).includes('UNIQUE'))
        throw new CoreError('CONFLICT', `Another auto-export already writes ${path}.`);
      throw err;
    }
  }

  get(id: number): AutoExport {
    return toDefinition(this.#row(id));
  }

  list(): AutoExport[] {
    return this.#db.all<Row>(sql`SELECT * FROM auto_exports ORDER BY id`).map(toDefinition);
  }

  /** Changes a definition; a change of format, options or scope makes the next run re-render everything it must. */
  update(id: number, patch: AutoExportPatch): AutoExport {
    const current = this.get(id);
    const path = patch.path === undefined ? current.path : checkPath(patch.path);
    const format = patch.format === undefined ? current.format : checkFormat(patch.format);
    const options = checkOptions(patch.options, current.options);
    const scope = patch.scope === undefined ? current.scope : this.#checkScope(patch.scope);
    const collectionId = scope.kind === 'collection' ? scope.collectionId : null;
    const subcollections = scope.kind === 'collection' && !scope.subcollections ? 0 : 1;
    try {
      this.#db.transaction(() => {
        this.#db
          .run(sql`UPDATE auto_exports SET path = ${path}, format = ${format}, collection_id = ${collectionId}, subcollections = ${subcollections},
          options = ${JSON.stringify(options)} WHERE id = ${id}`);
        // A new target has never been written: the next run writes it even if the bytes are the same.
        if (path !== current.path)
          this.#db.run(
            sql`UPDATE auto_exports SET output_size = NULL, output_mtime_ms = NULL, last_status = 'pending' WHERE id = ${id}`,
          );
      });
    } catch (err) {
      if (String(err).includes('UNIQUE'))
        throw new CoreError('CONFLICT', `Another auto-export already writes ${path}.`);
      throw err;
    }
    return this.get(id);
  }

  /** Forgets a definition and its cache; the file it wrote stays. */
  remove(id: number): void {
    this.#row(id);
    this.#db.run(sql`DELETE FROM auto_exports WHERE id = ${id}`);
  }

  /**
   * The definitions a change to these items can affect: every library-wide one, and each collection one
   * whose file holds one of the items or whose collection now does. Without ids: all of them.
   */
  affected(itemIds?: readonly ItemId[] | null): number[] {
    const rows = this.#db.all<Row>(sql`SELECT * FROM auto_exports ORDER BY id`);
    if (itemIds === undefined || itemIds === null) return rows.map((r) => r.id);
    if (itemIds.length === 0) return [];
    const ids = [...new Set(itemIds)];
    return rows
      .filter((r) => {
        if (r.collection_id === null) return true;
        return (
          inBatches(ids, (batch) => {
            const hit = this.#db
              .get(sql`SELECT 1 FROM auto_export_entries WHERE export_id = ${r.id} AND item_id IN ${inList(batch)}
            UNION ALL SELECT 1 FROM items i WHERE i.id IN ${inList(batch)} AND ${scopeFilter(r)} LIMIT 1`);
            return hit ? [true] : [];
          }).length > 0
        );
      })
      .map((r) => r.id);
  }

  /** Brings one file up to date. A failure is recorded and returned as status "error", not thrown. */
  run(id: number, options: { force?: boolean } = {}): AutoExportRun {
    const def = this.#row(id);
    try {
      return this.#run(def, options);
    } catch (err) {
      // A bug or a database problem, not the file system: still recorded, so the user sees it.
      const message = `Auto-export to ${def.path} failed: ${err instanceof Error ? err.message : String(err)}. The previous file, if there is one, was left as it was.`;
      this.#db.run(
        sql`UPDATE auto_exports SET last_run_at = ${this.#now()}, last_status = 'error', last_error = ${message} WHERE id = ${def.id}`,
      );
      throw new CoreError('INTERNAL', message);
    }
  }

  #run(def: Row, options: { force?: boolean }): AutoExportRun {
    const started = performance.now();
    const id = def.id;
    const report: AutoExportRun = {
      id,
      path: def.path,
      status: 'error',
      error: null,
      errorCode: null,
      itemCount: 0,
      rendered: 0,
      reused: 0,
      removed: 0,
      bytes: 0,
      ms: 0,
    };
    const fail = (code: ErrorCode, message: string): AutoExportRun => {
      this.#db.run(
        sql`UPDATE auto_exports SET last_run_at = ${this.#now()}, last_status = 'error', last_error = ${message} WHERE id = ${id}`,
      );
      return { ...report, status: 'error', error: message, errorCode: code, ms: performance.now() - started };
    };
    if (def.collection_id !== null && !this.#db.get(sql`SELECT 1 FROM collections WHERE id = ${def.collection_id}`)) {
      return fail(
        'NOT_FOUND',
        `The collection this auto-export follows (id ${def.collection_id}) was deleted; ${def.path} was left as it was. Choose another collection or remove the auto-export.`,
      );
    }
    const settings = toDefinition(def);
    const hash = settingsHash(settings.format, settings.options);
    const entryOptions: EntryOptions = settings.options.ascii ? { ascii: true } : {};

    // Which entries are stale, from small rows only: ids, keys and revisions (see migration 0007).
    const scope = this.#db.all<{ id: number; citation_key: string; revision: number }>(
      sql`SELECT i.id, i.citation_key, coalesce(r.revision, 0) AS revision FROM items i LEFT JOIN item_revisions r ON r.item_id = i.id WHERE ${scopeFilter(def)}`,
    );
    const cached = new Map<number, Cached>();
    for (const c of this.#db.all<Cached & { item_id: number }>(
      sql`SELECT item_id, settings_hash, revision, citation_key FROM auto_export_entries WHERE export_id = ${id}`,
    )) {
      cached.set(c.item_id, c);
    }
    const stale: { id: number; citation_key: string; revision: number }[] = [];
    for (const item of scope) {
      const hit = cached.get(item.id);
      cached.delete(item.id);
      if (hit && hit.settings_hash === hash && hit.revision === item.revision && hit.citation_key === item.citation_key)
        report.reused++;
      else stale.push(item);
    }
    // What is left in the cache is no longer in scope (removed, trashed, deleted).
    const gone = [...cached.keys()];
    report.removed = gone.length;
    report.itemCount = scope.length;

    const put = this.#db.raw
      .prepare(`INSERT INTO auto_export_entries (export_id, item_id, settings_hash, revision, citation_key, entry) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT(export_id, item_id) DO UPDATE SET settings_hash = excluded.settings_hash, revision = excluded.revision, citation_key = excluded.citation_key, entry = excluded.entry`);
    // Whether the file's bytes change: an entry is new, gone, or renders differently from before (a
    // re-render can come out the same, e.g. after a note changed while notes are not exported).
    let differs = gone.length > 0;
    const fresh: { item: (typeof stale)[number]; entry: string }[] = [];
    for (const batch of chunk(stale)) {
      const ids = batch.map((b) => b.id);
      const csl = new Map(
        this.#db
          .all<{ id: number; csl: string }>(
            sql`SELECT item_id AS id, csl FROM item_csl WHERE item_id IN ${inList(ids)}`,
          )
          .map((r) => [r.id, r.csl]),
      );
      const before = new Map(
        this.#db
          .all<{ item_id: number; citation_key: string; entry: string }>(
            sql`SELECT item_id, citation_key, entry FROM auto_export_entries WHERE export_id = ${id} AND item_id IN ${inList(ids)}`,
          )
          .map((r) => [r.item_id, r]),
      );
      const notes = new Map<number, string[]>();
      if (settings.options.notes) {
        // A note's text (its HTML is for the app and Zotero's API, not for a .bib file).
        for (const n of this.#db.all<{ item_id: number; text: string }>(
          sql`SELECT item_id, text FROM notes WHERE item_id IN ${inList(ids)} ORDER BY item_id, id`,
        )) {
          const list = notes.get(n.item_id);
          if (list) list.push(n.text);
          else notes.set(n.item_id, [n.text]);
        }
      }
      for (const item of batch) {
        const entry = this.#render(
          exportRecord(
            storedCsl(csl.get(item.id)!, item.id, item.citation_key),
            item.citation_key,
            notes.get(item.id) ?? [],
            settings.options,
          ),
          settings.format,
          entryOptions,
        );
        const old = before.get(item.id);
        if (!old || old.entry !== entry || old.citation_key !== item.citation_key) differs = true;
        fresh.push({ item, entry });
      }
    }
    report.rendered = fresh.length;
    if (fresh.length > 0 || gone.length > 0) {
      this.#db.transaction(() => {
        for (const r of fresh) put.run(id, r.item.id, hash, r.item.revision, r.item.citation_key, r.entry);
        for (const batch of chunk(gone))
          this.#db.run(sql`DELETE FROM auto_export_entries WHERE export_id = ${id} AND item_id IN ${inList(batch)}`);
        // The cache is now ahead of the file until it is written: if that never happens (a failed
        // write, a crash), the next run must not take the file for up to date.
        if (differs)
          this.#db.run(
            sql`UPDATE auto_exports SET last_status = 'pending' WHERE id = ${id} AND last_status <> 'error'`,
          );
      });
    }

    // The file is what the cache describes when the last run wrote it (or found it current), and
    // nobody deleted or edited it since.
    const onDisk = statSync(def.path, { throwIfNoEntry: false });
    const fileCurrent =
      (def.last_status === 'written' || def.last_status === 'unchanged') &&
      onDisk !== undefined &&
      onDisk.isFile() &&
      onDisk.size === def.output_size &&
      onDisk.mtimeMs === def.output_mtime_ms;
    if (!options.force && fileCurrent && !differs) {
      this.#db.run(
        sql`UPDATE auto_exports SET last_run_at = ${this.#now()}, last_status = 'unchanged', last_error = NULL, item_count = ${scope.length} WHERE id = ${id}`,
      );
      return { ...report, status: 'unchanged', bytes: def.output_size ?? 0, ms: performance.now() - started };
    }

    // The entries as their UTF-8 bytes (CAST … AS BLOB), put together without a detour through strings,
    // in a stable order: by citation key (unique in the library), compared as code units so it never
    // depends on the locale of the machine.
    const entries = this.#db.all<{ citation_key: string; entry: Buffer }>(
      sql`SELECT citation_key, CAST(entry AS BLOB) AS entry FROM auto_export_entries WHERE export_id = ${id}`,
    );
    entries.sort((a, b) => (a.citation_key < b.citation_key ? -1 : a.citation_key > b.citation_key ? 1 : 0));
    const bytes = assembleEntryBytes(
      entries.map((e) => e.entry),
      settings.format,
    );
    report.bytes = bytes.length;
    // The file may have become a link to the library (or a hard link to a backup) since it was added.
    const dataDir = this.#dataDir();
    if (dataDir !== null) {
      try {
        refuseDataFolderTarget(def.path, dataDir);
      } catch (err) {
        if (err instanceof CoreError) return fail(err.code, err.message);
        throw err;
      }
    }
    try {
      writeFileAtomic(def.path, bytes, this.#fs);
    } catch (err) {
      const problem = writeProblem(err, def.path);
      return fail(problem.code, problem.message);
    }
    const written = statSync(def.path, { throwIfNoEntry: false });
    this.#db
      .run(sql`UPDATE auto_exports SET last_run_at = ${this.#now()}, last_status = 'written', last_error = NULL, item_count = ${entries.length},
      output_size = ${bytes.length}, output_mtime_ms = ${written?.mtimeMs ?? null} WHERE id = ${id}`);
    return { ...report, status: 'written', ms: performance.now() - started };
  }

  /** The folder of the library this store writes to (its file's), none for a library in memory. */
  #dataDir(): string | null {
    const name = this.#db.raw.name;
    return name === '' || name === ':memory:' ? null : dirname(name);
  }

  #row(id: number): Row {
    const row = this.#db.get<Row>(sql`SELECT * FROM auto_exports WHERE id = ${id}`);
    if (!row) throw new CoreError('NOT_FOUND', `There is no auto-export with id ${id}.`);
    return row;
  }

  #checkScope(scope: AutoExportScope): AutoExportScope {
    if (scope.kind === 'library') return { kind: 'library' };
    if (scope.kind !== 'collection' || !Number.isInteger(scope.collectionId))
      throw new CoreError('INVALID_INPUT', 'An auto-export follows the library or one collection.');
    if (!this.#db.get(sql`SELECT 1 FROM collections WHERE id = ${scope.collectionId}`))
      throw new CoreError('NOT_FOUND', `There is no collection with id ${scope.collectionId}.`);
    return { kind: 'collection', collectionId: scope.collectionId, subcollections: scope.subcollections !== false };
  }
}

function chunk<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
