// The library worker's dispatch: a 'call' reaches only the methods each store's allowlist names (surface.ts).
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../../electron/core/library/client';
import { exposedMethods, storeDispatch, storesOf } from '../../../electron/core/library/dispatch';
import { openLibrary, type OpenedLibrary } from '../../../electron/core/library/open';
import type { LibraryStores } from '../../../electron/core/library/protocol';
import { STORE_SURFACE } from '../../../electron/core/library/surface';
import { tempDir } from '../../helpers/tmp';

const PROTOCOL = join(__dirname, '..', '..', '..', 'electron', 'core', 'library', 'protocol.ts');

/** The methods LibraryClient's proxies offer per store: StoreCall of protocol.ts, as the type checker resolves it. */
function clientMethods(): Record<string, string[]> {
  const program = ts.createProgram([PROTOCOL], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(PROTOCOL)!)!);
  const call = checker.getDeclaredTypeOfSymbol(exports.find((s) => s.name === 'StoreCall')!);
  const literals = (t: ts.Type): string[] =>
    (t.isUnion() ? t.types : [t]).map((x) => (x.isStringLiteral() ? x.value : `<${checker.typeToString(x)}>`));
  const out: Record<string, string[]> = {};
  for (const member of call.isUnion() ? call.types : [call]) {
    const field = (name: string): ts.Type => checker.getTypeOfSymbol(member.getProperty(name)!);
    out[literals(field('store'))[0]!] = literals(field('method'));
  }
  return out;
}

describe('library worker dispatch', () => {
  let dir: ReturnType<typeof tempDir>;
  let opened: OpenedLibrary;
  let stores: LibraryStores;
  beforeAll(() => {
    dir = tempDir('citewise-dispatch-');
    opened = openLibrary(join(dir.path, 'citewise.sqlite'));
    stores = storesOf(opened);
  });
  afterAll(() => {
    opened.close();
    dir.remove();
  });

  it.each([
    ['lib', 'constructor'],
    ['lib', 'toString'],
    ['lib', '__proto__'],
    ['lib', 'hasOwnProperty'],
    ['lib', 'valueOf'],
    ['lib', 'isPrototypeOf'],
    ['lib', '__defineGetter__'],
    ['lib', 'propertyIsEnumerable'],
    // Fields: an object, and a function that is a field rather than a declared method.
    ['lib', 'assistant'],
    ['lib', 'now'],
    ['graph', 'toLocaleString'],
    ['lib', 'noSuchMethod'],
    // Store names that are not stores.
    ['toString', 'call'],
    ['__proto__', 'toString'],
    ['constructor', 'name'],
  ])('refuses %s.%s', (store, method) => {
    const dispatch = storeDispatch(stores);
    expect(() => dispatch(store, method)).toThrow(`Unknown library method ${store}.${method}`);
  });

  // The Library chain's protected helpers sit on its prototypes at run time like any method; a raw
  // 'call' naming one ran it, outside undo and with whatever arguments the message carried. Public
  // methods left off the allowlist (beginImport, the enrichment store's own helpers) are refused too.
  it.each(['writeItem', 'undoable', 'deleteRow', 'reindex', 'rowOf', 'tagId', 'subject', 'beginImport'])(
    'refuses lib.%s, not on the allowlist',
    (method) => {
      const dispatch = storeDispatch(stores);
      expect(typeof (stores.lib as unknown as Record<string, unknown>)[method]).toBe('function');
      expect(() => dispatch('lib', method)).toThrow(
        `Unknown library method lib.${method}: LibraryClient does not offer it.`,
      );
    },
  );

  it('refuses to start with an allowlist naming what a store does not have', () => {
    expect(() => exposedMethods('listing', {})).toThrow(
      'The library store listing has no method count, which its allowlist names (surface.ts).',
    );
    expect(() => exposedMethods('listing', { count: 'not a function' })).toThrow('has no method count');
    // A name that is not a store reaches nothing, whatever the object has.
    expect(exposedMethods('toString', { toString: () => 'x' }).size).toBe(0);
  });

  it('allows methods declared by the store class and by the rooms it is built from, bound to the store', () => {
    const dispatch = storeDispatch(stores);
    // counts is Library's own; listCollections a room's (collections.ts); undoTops is further down the chain.
    expect(dispatch('lib', 'counts')([])).toMatchObject({ items: 0 });
    expect(dispatch('lib', 'listCollections')([])).toEqual([]);
    expect(dispatch('lib', 'undoTops')([])).toEqual({ undo: null, redo: null });
    // Listing and the service cache are stores of their own now, not rooms of the chain.
    expect(dispatch('listing', 'list')([{ limit: 5 }])).toMatchObject({ rows: [] });
    expect(() => dispatch('lib', 'list')).toThrow('Unknown library method lib.list');
    expect(dispatch('serviceCache', 'getTallies')([['10.1000/a']])).toEqual({ '10.1000/a': { state: 'not-fetched' } });
    expect(() => dispatch('lib', 'putPapers')).toThrow('Unknown library method lib.putPapers');
    expect(dispatch('fulltext', 'summary')([])).toMatchObject({ pages: 0 });
    expect(dispatch('autoExports', 'list')([])).toEqual([]);
    // Auto-export is its own store now, not Library pass-throughs.
    expect(() => dispatch('lib', 'listAutoExports')).toThrow('Unknown library method lib.listAutoExports');
    expect(dispatch('serviceCollections', 'list')([])).toEqual([]);
    expect(() => dispatch('lib', 'listServiceCollections')).toThrow(
      'Unknown library method lib.listServiceCollections',
    );
  });

  it('allows exactly the methods the client offers for each store', () => {
    const offered = clientMethods();
    expect(Object.keys(offered).sort()).toEqual(Object.keys(stores).sort());
    expect(Object.keys(STORE_SURFACE).sort()).toEqual(Object.keys(stores).sort());
    for (const [store, methods] of Object.entries(offered)) {
      expect(methods.length).toBeGreaterThan(3);
      const allowed = exposedMethods(store, stores[store as keyof LibraryStores]);
      expect([...allowed.keys()].sort(), store).toEqual([...methods].sort());
      expect([...allowed.keys()].sort(), store).toEqual([...STORE_SURFACE[store as keyof LibraryStores]].sort());
    }
  }, 120_000);

  it('refuses them through the worker too', async () => {
    const wdir = tempDir('citewise-dispatch-worker-');
    const client = await LibraryClient.start({ file: join(wdir.path, 'citewise.sqlite') });
    try {
      const lib = client.lib as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      for (const name of ['toString', 'hasOwnProperty', 'assistant'])
        await expect(lib[name]!('x')).rejects.toThrow(`Unknown library method lib.${name}`);
      // A raw 'call' for a helper of the chain: refused, and nothing was written.
      const id = await client.lib.addItem({ id: 'a', type: 'book', title: 'Kept' });
      await expect(lib.writeItem!(id, { id: 'a', type: 'book', title: 'Overwritten' }, 'key')).rejects.toThrow(
        'Unknown library method lib.writeItem: LibraryClient does not offer it.',
      );
      await expect(lib.undoable!('Sneaky', [id], null)).rejects.toThrow(
        'Unknown library method lib.undoable: LibraryClient does not offer it.',
      );
      expect((await client.lib.getItem(id)).title).toBe('Kept');
      expect((await client.lib.undoHistory()).undo.map((e) => e.label)).toEqual(['Add item “Kept”']);
      expect(await client.listing.count()).toBe(1);
    } finally {
      await client.close();
      wdir.remove();
    }
  });
});
