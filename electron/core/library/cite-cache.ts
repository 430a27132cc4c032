// Formatted bibliographies kept in the library (migration 0015), so that a rendering is paid once per
// change: a cold `citewise export` or the first export of an app session of a set already formatted
// costs one lookup. The key (computed by the formatter, electron/core/formats/cite/persist.ts) hashes
// every input of the rendering, items in order included, so a hit is the very output a fresh render
// gives; what changed simply stops matching. The table is bounded by rows and bytes, oldest out first.
import type { BibliographyStore } from '../formats/cite/persist';
import type { BibliographyEntry } from '../formats/cite/types';
import { CoreError } from '../errors';
import { sql, type ReadDb, type WriteDb } from './sql';
import { arrayOf, DamagedRecordError, readStored, type ShapeCheck } from './stored-json';

export interface CiteCacheLimits {
  /** At most this many bibliographies (default 64). */
  rows: number;
  /** At most this many bytes of entries, summed (default 64 MB); a bigger bibliography is not kept. */
  bytes: number;
}

export const CITE_CACHE_LIMITS: CiteCacheLimits = { rows: 64, bytes: 64 * 1024 * 1024 };

export interface CiteCacheMeta {
  style: string;
  format: string;
}

export interface CiteCacheStats {
  rows: number;
  bytes: number;
}

const KEY = /^[A-Za-z0-9_-]{16,128}$/;

function checkKey(key: string): void {
  if (typeof key !== 'string' || !KEY.test(key))
    throw new CoreError('INVALID_INPUT', 'A citation cache key is 16 to 128 letters, digits, "-" or "_".');
}

export class CiteCacheStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #now: () => number;
  readonly #limits: CiteCacheLimits;

  constructor(options: { write: WriteDb; read: ReadDb; now: () => number; limits?: Partial<CiteCacheLimits> }) {
    this.#w = options.write;
    this.#r = options.read;
    this.#now = options.now;
    this.#limits = { ...CITE_CACHE_LIMITS, ...options.limits };
  }

  get(key: string): BibliographyEntry[] | null {
    const text = this.getText(key);
    return text === null ? null : entriesOfText(text);
  }

  /** The kept bibliography as stored (JSON of [id, value] pairs; entriesOfText reads it), or null: one indexed lookup. */
  getText(key: string): string | null {
    checkKey(key);
    return this.#r.get<{ entries: string }>(sql`SELECT entries FROM cite_cache WHERE key = ${key}`)?.entries ?? null;
  }

  /**
   * Whether any bibliography in this style and format is kept. When none is, an export in it will
   * render, so the CLI builds the engine while it reads the items (CiteFormatter.prepareBibliography).
   */
  holdsStyle(style: string, format: string): boolean {
    return (
      this.#r.get<{ one: number }>(
        sql`SELECT 1 AS one FROM cite_cache WHERE style = ${style} AND format = ${format} LIMIT 1`,
      ) !== undefined
    );
  }

  /** Keeps a bibliography; returns false when it alone is over the byte bound (it is not kept). */
  put(key: string, meta: CiteCacheMeta, entries: readonly BibliographyEntry[]): boolean {
    checkKey(key);
    const text = JSON.stringify(entries.map((e) => [e.id, e.value]));
    const bytes = Buffer.byteLength(text);
    if (bytes > this.#limits.bytes) return false;
    this.#w.transaction(() => {
      this.#w
        .run(sql`INSERT INTO cite_cache (key, style, format, items, entries, bytes, created_at) VALUES (${key}, ${meta.style}, ${meta.format}, ${entries.length}, ${text}, ${bytes}, ${this.#now()})
        ON CONFLICT(key) DO UPDATE SET created_at = excluded.created_at`);
      // Oldest out first until both bounds hold (the row just written is the newest).
      const rows = this.#w.all<{ key: string; bytes: number }>(
        sql`SELECT key, bytes FROM cite_cache ORDER BY created_at DESC, rowid DESC`,
      );
      let count = 0;
      let total = 0;
      for (const r of rows) {
        count++;
        total += r.bytes;
        if (count > this.#limits.rows || total > this.#limits.bytes)
          this.#w.run(sql`DELETE FROM cite_cache WHERE key = ${r.key}`);
      }
    });
    return true;
  }

  stats(): CiteCacheStats {
    return this.#r.get<CiteCacheStats>(sql`SELECT count(*) AS rows, coalesce(sum(bytes), 0) AS bytes FROM cite_cache`)!;
  }

  clear(): void {
    this.#w.run(sql`DELETE FROM cite_cache`);
  }
}

/**
 * The entries of a kept bibliography's stored text (CiteCacheStore.getText); null when the text is
 * damaged, so that a damaged row is a miss and the bibliography is rendered again, not an error.
 */
export function entriesOfText(text: string): BibliographyEntry[] | null {
  const pair: ShapeCheck = (p) =>
    Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string'
      ? null
      : 'an entry is not a key and its text';
  try {
    return readStored<Array<[string, string]>>(text, 'A kept bibliography', arrayOf(pair)).map(([id, value]) => ({
      id,
      value,
    }));
  } catch (err) {
    if (err instanceof DamagedRecordError) return null;
    throw err;
  }
}

/**
 * The formatter's BibliographyStore (formats/cite/persist.ts) over a library, direct or through its
 * worker. A hit crosses from the worker as the stored text and becomes entries here: 10,000 entry
 * objects structured-cloned cost more than one string and a JSON.parse.
 */
export function libraryBibliographyStore(cache: {
  getText(key: string): string | null | Promise<string | null>;
  put(key: string, meta: CiteCacheMeta, entries: readonly BibliographyEntry[]): boolean | Promise<boolean>;
}): BibliographyStore {
  return {
    get: async (key) => {
      const text = await cache.getText(key);
      return text === null ? null : entriesOfText(text);
    },
    put: (key, meta, entries) => cache.put(key, meta, entries),
  };
}
