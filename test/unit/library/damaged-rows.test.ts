// A row whose stored JSON is damaged (by another program, a disk, an old bug) is a clear error that
// names its record where it is read; the rest of the library goes on working. Before, `getItem` of an
// item whose record was a JSON list returned it as CSL (a TypeError later, in the renderer), and a
// record cut short was a bare SyntaxError, reported as "an unexpected error".
import { describe, expect, it, onTestFinished } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { libraryBibliographyStore } from '../../../electron/core/library/cite-cache';
import {
  arrayOf,
  DamagedRecordError,
  isCsl,
  isItemId,
  readStored,
  storedCsl,
} from '../../../electron/core/library/stored-json';
import { article, importItems, testLibrary } from './helpers/lib';

function library() {
  const t = testLibrary();
  onTestFinished(() => t.dispose());
  const [a, b] = importItems(t.library, [article('Alpha paper', 'Smith', 2000), article('Beta paper', 'Jones', 2001)])
    .ids as [number, number];
  return { t, a, b, key: t.library.getItem(a).citationKey };
}

describe('reading stored JSON', () => {
  it('returns what fits its shape', () => {
    expect(readStored('[1, 2, 3]', 'x', arrayOf(isItemId))).toEqual([1, 2, 3]);
    expect(storedCsl('{"type":"book","title":"T"}', 4)).toEqual({ type: 'book', title: 'T' });
  });

  it.each([
    ['{"type":"book"', 'not JSON'],
    ['', 'not JSON'],
    ['[1,2]', 'an object was expected, not a list'],
    ['null', 'an object was expected, not null'],
    ['"text"', 'an object was expected, not string'],
    ['{"title":"no type"}', 'it has no CSL type'],
    ['{"type":7}', 'it has no CSL type'],
  ])('refuses %j as an item record, naming the item: %s', (text, problem) => {
    let err: unknown;
    try {
      storedCsl(text, 12, 'smith2000');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DamagedRecordError);
    expect(err).toBeInstanceOf(CoreError);
    expect((err as Error).message).toContain('The record of item 12 (smith2000) is damaged in the library file (');
    expect((err as Error).message).toContain(problem);
    expect((err as Error).message).toContain('other items are unaffected');
  });

  it('checks each element of a list, and says which one is wrong', () => {
    expect(() => readStored('[1, 2, "3"]', 'The list', arrayOf(isItemId))).toThrow(
      'The list is damaged in the library file (element 3: an item id was expected, not string)',
    );
    expect(() => readStored('[1, 0]', 'The list', arrayOf(isItemId))).toThrow('element 2');
    expect(() => readStored('{}', 'The list', arrayOf(isCsl))).toThrow('a list was expected, not object');
  });
});

describe('a library with a damaged row', () => {
  it('names the item whose record is damaged, in every path that reads it, and serves the others', () => {
    const { t, a, b, key } = library();
    t.db.prepare('UPDATE item_csl SET csl = ? WHERE item_id = ?').run('[1,2]', a);
    const message = `The record of item ${a} (${key}) is damaged in the library file (an object was expected, not a list)`;
    expect(() => t.library.getItem(a)).toThrow(message);
    expect(() => t.library.cslOf([a, b])).toThrow(message);
    expect(() => t.library.exportText([a], 'bibtex')).toThrow(message);
    expect(() => t.library.cslJsonOf([b, a])).toThrow(message);
    // Text that is not JSON at all cannot pass the library's own trigger and index on item_csl: it is
    // damage on disk, written here with them set aside.
    const schema = t.db
      .prepare(
        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'item_csl' AND type IN ('trigger', 'index') AND sql IS NOT NULL",
      )
      .all() as { type: string; name: string; sql: string }[];
    for (const o of schema) t.db.exec(`DROP ${o.type.toUpperCase()} "${o.name}"`);
    t.db.prepare('UPDATE item_csl SET csl = ? WHERE item_id = ?').run('{"type": "book", "title": "cut', a);
    expect(() => t.library.cslJsonOf([b, a])).toThrow(
      `The record of item ${a} (${key}) is damaged in the library file (not JSON`,
    );
    t.db.prepare('UPDATE item_csl SET csl = ? WHERE item_id = ?').run('[1,2]', a);
    for (const o of schema) t.db.exec(o.sql);
    expect(() => t.library.setCitationKey(a, 'fresh2000')).toThrow(message);
    expect(() => t.library.updateItem(a, { id: 'x', type: 'book', title: 'New' })).toThrow(`item ${a}`);
    // Nothing was half-written by the refused edits, and the other item is whole.
    expect(t.db.prepare('SELECT csl FROM item_csl WHERE item_id = ?').pluck().get(a)).toBe('[1,2]');
    expect(t.library.getItem(b).title).toBe('Beta paper');
    expect(t.library.exportText([b], 'bibtex').content).toContain('Beta paper');
    // The listing reads typed columns, not the record: the item can still be found and trashed.
    expect(t.library.listing.list({ query: 'alpha' }).rows.map((r) => r.id)).toEqual([a]);
  });

  it('names a damaged undo entry instead of failing on its item list', () => {
    const { t, a } = library();
    t.library.addTags([a], ['x']);
    t.db.prepare("UPDATE undo_log SET item_ids = '{\"a\":1}' WHERE stack = 'undo'").run();
    expect(() => t.library.undoHistory()).toThrow(/The items of the undo entry “Add tag .*” \(#\d+\) is damaged/);
    t.db.prepare("UPDATE undo_log SET item_ids = '[1]', payload = 'oops' WHERE stack = 'undo'").run();
    expect(() => t.library.undo()).toThrow(
      /The undo entry “Add tag .*” \(#\d+\) is damaged in the library file \(not JSON/,
    );
  });

  it('names a damaged saved graph', () => {
    const { t } = library();
    const g = t.graph.saveGraph({ name: 'Mine', seed: { kind: 'library' }, seedDois: [], dois: ['10.1000/a'] });
    t.db.prepare('UPDATE graphs SET dois = ? WHERE id = ?').run('{"dois": 5}', g.id);
    expect(() => t.graph.getGraph(g.id)).toThrow(`The papers of saved graph ${g.id} is damaged`);
    t.db.prepare('UPDATE graphs SET dois = ?, seed = ? WHERE id = ?').run('["10.1000/a"]', '[', g.id);
    expect(() => t.graph.listGraphs()).toThrow(`The seed of saved graph ${g.id} is damaged`);
  });

  it('treats a damaged cached answer of the service as a miss, and names a damaged dataset collection', () => {
    const { t } = library();
    t.library.serviceCache.putPapers({ found: { '10.1000/a': { doi: '10.1000/a', title: 'A' } } });
    expect(t.library.serviceCache.getPaper('10.1000/a')).toMatchObject({ state: 'found' });
    t.db.prepare('UPDATE service_papers SET data = \'["oops"]\'').run();
    expect(t.library.serviceCache.getPaper('10.1000/a')).toEqual({ state: 'not-fetched' });

    const kept = t.library.serviceCollections.save({ slug: 'abc', name: 'Trials' } as never, {
      kind: 'items',
      dois: 1,
    });
    expect(t.library.serviceCollections.list().map((c) => c.name)).toEqual(['Trials']);
    t.db.prepare("UPDATE service_collections SET data = '5' WHERE id = ?").run(kept.id);
    expect(() => t.library.serviceCollections.list()).toThrow(
      'The dataset collection “Trials” is damaged in the library file (an object was expected, not number)',
    );
  });

  it('treats a damaged kept bibliography as a miss, to be rendered again', async () => {
    const store = libraryBibliographyStore({ getText: () => '[["a", "A."], ["b"]]', put: () => true });
    expect(await store.get('k')).toBeNull();
    const good = libraryBibliographyStore({ getText: () => '[["a", "A."]]', put: () => true });
    expect(await good.get('k')).toEqual([{ id: 'a', value: 'A.' }]);
  });
});
