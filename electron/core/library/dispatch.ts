// What a 'call' request may reach in the library worker: the methods each store's allowlist names
// (surface.ts), looked up once per store as own entries of a Map, so that nothing else is reachable:
// not Object's (`toString`, `__proto__`, `hasOwnProperty`…), not `constructor`, not a field, and not
// a helper a room declares for the worker's own use (TypeScript's `protected` leaves no trace at run
// time: before the allowlist, a raw message naming `writeItem` or `undoable` ran it).
import type { OpenedLibrary } from './open';
import type { LibraryStores, StoreName } from './protocol';
import { STORE_SURFACE } from './surface';

type Method = (...args: unknown[]) => unknown;

/**
 * What a 'call' may reach on the store LibraryClient names `name`: the methods its allowlist names.
 * A listed name that is not a method of the store is a mistake in the build, refused at start.
 */
export function exposedMethods(name: string, store: object): Map<string, Method> {
  const methods = new Map<string, Method>();
  const listed: readonly string[] = Object.hasOwn(STORE_SURFACE, name) ? STORE_SURFACE[name as StoreName] : [];
  for (const method of listed) {
    const fn = (store as Record<string, unknown>)[method];
    if (typeof fn !== 'function')
      throw new Error(`The library store ${name} has no method ${method}, which its allowlist names (surface.ts).`);
    methods.set(method, fn as Method);
  }
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
    if (!table || !fn) throw new Error(`Unknown library method ${store}.${method}: LibraryClient does not offer it.`);
    return (args) => fn.apply(table.store, args);
  };
}
