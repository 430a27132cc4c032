// What a 'call' request may reach in the library worker: the methods a store's class and the classes
// it extends declare (Library and its rooms, EnrichmentStore…), never Object's (`toString`,
// `__proto__`, `hasOwnProperty`…), `constructor`, getters, fields that are not functions, or what a
// store keeps to the worker (INTERNAL). TypeScript's `protected` leaves no trace at run time: without
// INTERNAL, a raw message naming `writeItem` or `undoable` ran it, with whatever arguments it carried.
import type { OpenedLibrary } from './open';
import type { LibraryStores } from './protocol';

type Method = (...args: unknown[]) => unknown;

/**
 * Methods declared along a store's class chain that LibraryClient does not offer: the Library chain's
 * protected helpers (library-base.ts, undo.ts), and its import entry points, which take callbacks or
 * return a session (protocol.ts StoreMethod; the worker runs imports as 'import.*' requests).
 * dispatch.test.ts checks that what remains of each store is exactly what the client offers, so a
 * helper a room adds fails that test until it is named here.
 */
const INTERNAL: Readonly<Record<string, ReadonlySet<string>>> = {
  lib: new Set([
    'deleteRow',
    'reindex',
    'rowOf',
    'writeItem',
    'tagId',
    'subject',
    'undoable',
    'undoBarrier',
    'beginImport',
  ]),
};

/** The methods declared along a store's class chain, up to (not including) Object. */
function declaredMethods(store: object): Map<string, Method> {
  const methods = new Map<string, Method>();
  for (
    let proto: object | null = Object.getPrototypeOf(store) as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      // A subclass's override comes first and stays.
      if (name !== 'constructor' && typeof d.value === 'function' && !methods.has(name))
        methods.set(name, d.value as Method);
    }
  }
  return methods;
}

/** What a 'call' may reach on the store LibraryClient names `name`: its declared methods less INTERNAL's. */
export function exposedMethods(name: string, store: object): Map<string, Method> {
  const methods = declaredMethods(store);
  for (const internal of INTERNAL[name] ?? []) methods.delete(internal);
  return methods;
}

/** What 'call' requests reach in an opened library, by the name LibraryClient has for each. */
export function storesOf(opened: OpenedLibrary): LibraryStores {
  const { library } = opened;
  return {
    lib: library,
    enrichment: opened.enrichment,
    graph: opened.graph,
    assistant: library.assistant,
    fulltext: opened.fulltext,
    autoExports: library.autoExports,
    serviceCollections: library.serviceCollections,
    citeCache: library.citeCache,
    serviceCache: library.serviceCache,
    listing: library.listing,
    sync: opened.sync,
  };
}

/** Finds the method a call names, once per store; anything else is refused with the store and method in the message. */
export function storeDispatch(stores: LibraryStores): (store: string, method: string) => (args: unknown[]) => unknown {
  const tables = new Map(
    Object.entries(stores).map(([name, store]) => [
      name,
      { store: store as object, methods: exposedMethods(name, store as object) },
    ]),
  );
  return (store, method) => {
    const table = tables.get(store);
    const fn = table?.methods.get(method);
    if (table && !fn && Object.hasOwn(INTERNAL, store) && INTERNAL[store]!.has(method))
      throw new Error(
        `Library method ${store}.${method} is internal to the library worker; LibraryClient does not offer it.`,
      );
    if (!table || !fn) throw new Error(`Unknown library method ${store}.${method}`);
    return (args) => fn.apply(table.store, args);
  };
}
