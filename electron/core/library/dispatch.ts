// What a 'call' request may reach in the library worker: the methods a store's class and the classes
// it extends declare (Library and its rooms, EnrichmentStore…), never Object's (`toString`,
// `__proto__`, `hasOwnProperty`…), `constructor`, getters, or fields that are not functions.
import type { OpenedLibrary } from './open';
import type { LibraryStores } from './protocol';

type Method = (...args: unknown[]) => unknown;

/** The methods declared along a store's class chain, up to (not including) Object. */
export function declaredMethods(store: object): Map<string, Method> {
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
  };
}

/** Finds the method a call names, once per store; anything else is refused with the store and method in the message. */
export function storeDispatch(stores: LibraryStores): (store: string, method: string) => (args: unknown[]) => unknown {
  const tables = new Map(
    Object.entries(stores).map(([name, store]) => [
      name,
      { store: store as object, methods: declaredMethods(store as object) },
    ]),
  );
  return (store, method) => {
    const table = tables.get(store);
    const fn = table?.methods.get(method);
    if (!table || !fn) throw new Error(`Unknown library method ${store}.${method}`);
    return (args) => fn.apply(table.store, args);
  };
}
