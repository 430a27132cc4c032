// What a file import stores, whichever way the entries travel: through the formats worker and the
// import port into the library worker (the way `citewise import` and the app import a file, the file
// read in windows, indexes deferred to the commit, items prepared in the parser's thread), or parsed
// here and written in this thread through the same import session (Library.beginImport). The dump
// covers every table an import writes and what search and sorted lists answer, so a change to the
// import's speed (batching, transfer, deferred indexes, pragmas) that changes a byte of the result
// fails here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { importFile, importInWorker } from '../../../electron/core/formats';
import { LibraryClient } from '../../../electron/core/library/client';
import { openLibrary } from '../../../electron/core/library/open';
import { tempDir } from '../../helpers/tmp';
import { generateBibtex } from '../formats/corpus';
import { importParsed } from './helpers/lib';

/** Everything an import writes, in id order, without the clock's columns (the two imports run at different times). */
function dump(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const all = (q: string, ...args: unknown[]) => db.prepare(q).all(...args);
    const items = all('SELECT * FROM items ORDER BY id') as Record<string, unknown>[];
    const ids = (q: string) =>
      db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid').pluck().all(q);
    return {
      items: items.map(({ date_added: _a, date_modified: _m, ...rest }) => rest),
      dates: new Set(items.flatMap((r) => [r.date_added, r.date_modified])).size,
      csl: all('SELECT * FROM item_csl ORDER BY item_id'),
      creators: all('SELECT * FROM creators ORDER BY item_id, role, position'),
      tags: all('SELECT * FROM tags ORDER BY id'),
      itemTags: all('SELECT * FROM item_tags ORDER BY item_id, tag_id'),
      aliases: all('SELECT * FROM key_aliases ORDER BY alias'),
      origins: all('SELECT * FROM item_origins ORDER BY item_id, origin'),
      fts: [
        'learning',
        'protein OR climate',
        'müller',
        'network NOT protein',
        'trans*',
        'title:memory',
        'creators:garcia',
        '"machine learning"',
        'erdos',
      ].map(ids),
      ftsRows: db.prepare('SELECT count(*) FROM items_fts_docsize').pluck().get(),
      indexes: all("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name"),
      integrity: db.pragma('integrity_check', { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe('a file import stores the same through the import port as in one thread', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('items, CSL records, creators, tags, search index and indexes are identical', async () => {
    const dir = tempDir('citewise-port-content-');
    dirs.push(dir);
    const bib = join(dir.path, 'refs.bib');
    // 2,500 entries (1.7 MB) read in 256 kB windows: the windowed reader, several port chunks and
    // flow control all take part, as in a 100,000-entry import.
    writeFileSync(bib, generateBibtex({ entries: 2500, seed: 20 }));
    const pieceBytes = 256 * 1024;
    mkdirSync(join(dir.path, 'port'));
    mkdirSync(join(dir.path, 'thread'));

    const viaPort = join(dir.path, 'port', 'citewise.sqlite');
    const client = await LibraryClient.start({ file: viaPort });
    let added: number;
    try {
      const feed = await client.importFromPort({ source: 'refs.bib' });
      try {
        await importInWorker({ kind: 'path', path: bib }, { port: feed.port, pieceBytes, chunkSize: 300 });
      } catch (err) {
        await feed.abort();
        throw err;
      }
      added = (await feed.commit()).added;
    } finally {
      await client.close();
    }

    const inThread = join(dir.path, 'thread', 'citewise.sqlite');
    const opened = openLibrary(inThread, { durability: 'off' });
    try {
      expect(importParsed(opened.library, importFile(bib).items, { source: 'refs.bib' }).added).toBe(added);
    } finally {
      opened.close();
    }

    const a = dump(viaPort);
    const b = dump(inThread);
    expect(a.items).toHaveLength(2500);
    expect(a.integrity).toBe('ok');
    expect(a.fts.every((rows) => rows.length > 0)).toBe(true);
    expect(a.ftsRows).toBe(2500);
    // Every entry's origin crossed the port with it.
    expect(a.origins).toHaveLength(2500);
    expect(a).toEqual(b);
  }, 60_000);
});
