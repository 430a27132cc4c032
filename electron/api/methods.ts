// Better BibTeX's JSON-RPC methods over the Citewise library, answering in the shapes its clients
// parse: item.export's [200, "text/plain", body] (rbbt reads result[[3]], the Obsidian plugin
// result[2]), item.search's CSL items with citekey and library, item.collections' nested parents,
// item.pandoc_filter's { errors, items } for zotero.lua.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { version } from '../../package.json';
import type { CslItem, CslName } from '../../shared/model/csl';
import type { Collection } from '../../shared/model/library';
import { INVALID_PARAMS, RpcError, type RpcMethod, type RpcMethods } from './json-rpc';
import { checkLibrary, type EditorLibrary } from './library';
import { conditionsQuery, freeTextQuery } from './search-query';
import { findTranslator, TRANSLATOR_NAMES, type Translator } from './translators';
import { itemUri, LIBRARY_ID, LIBRARY_NAME, noteHtml, toZoteroItem } from './zotero-item';
import { auxKeys as allAuxKeys } from '../core/manuscript/latex';

/** item.search answers at most this many items, best first (Better BibTeX answers every match; at 200 the
 * CSL records alone took 50 ms on 100,000 items, against a 30 ms budget for a search as one types). */
export const SEARCH_LIMIT = 50;
/** The largest .aux file collection.scanAUX reads. */
const MAX_AUX_BYTES = 64 * 1024 * 1024;

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function keysParam(method: string, value: unknown): string[] {
  if (!isStringArray(value))
    throw new RpcError(INVALID_PARAMS, `${method}: citekeys must be an array of citation keys`);
  return value.map((k) => k.replace(/^@/, ''));
}

function translatorParam(method: string, value: unknown): Translator {
  if (typeof value !== 'string')
    throw new RpcError(INVALID_PARAMS, `${method}: translator must be a name or an id (${TRANSLATOR_NAMES})`);
  const t = findTranslator(value);
  if (!t)
    throw new RpcError(INVALID_PARAMS, `Unknown translator '${value}': Citewise exports with ${TRANSLATOR_NAMES}`);
  return t;
}

/** Better BibTeX's export of items through a translator, as text. */
export async function translate(
  library: EditorLibrary,
  ids: readonly number[],
  translator: Translator,
  options: { notes?: boolean } = {},
): Promise<string> {
  if (translator.kind !== 'bbtjson') return library.exportText(ids, translator.kind);
  const items = await Promise.all(ids.map((id) => library.item(id)));
  return JSON.stringify(
    {
      config: { id: translator.id, label: translator.label, options: { exportNotes: options.notes ?? true } },
      version: { citewise: version },
      collections: {},
      items: items.map(toZoteroItem),
    },
    null,
    2,
  );
}

/** "Smith", "Smith and Jones", "Smith et al.": the author part of an author-date citation. */
export function authorText(csl: CslItem): string {
  const names: CslName[] = csl.author ?? csl.editor ?? [];
  const last = names.map((n) => n.literal ?? n.family ?? n.given ?? '').filter((n) => n !== '');
  if (last.length === 0) return '';
  if (last.length === 1) return last[0]!;
  if (last.length === 2) return `${last[0]} and ${last[1]}`;
  return `${last[0]} et al.`;
}

interface CollectionJson {
  key: string;
  name: string;
  parentCollection: false | string | CollectionJson;
}

function collectionJson(c: Collection, byId: Map<number, Collection>, withParents: boolean): CollectionJson {
  const parent = c.parentId === null ? undefined : byId.get(c.parentId);
  return {
    key: String(c.id),
    name: c.name,
    parentCollection:
      parent === undefined ? false : withParents ? collectionJson(parent, byId, true) : String(parent.id),
  };
}

/** The citation keys an .aux file cites (BibTeX's \citation and biblatex's \abx@aux@cite), without \nocite{*}'s `*`. */
export function auxKeys(text: string): string[] {
  return allAuxKeys(text).filter((k) => k !== '*');
}

/** `api.ready` needs no library: the server answers it while the library is still opening. */
export const API_READY: RpcMethod = {
  params: [],
  run: async () => ({ zotero: `Citewise ${version}`, betterbibtex: `Citewise ${version}`, citewise: version }),
};

export function editorMethods(library: EditorLibrary): RpcMethods {
  // Better BibTeX answers for the keys it knows and fails only when it knows none.
  const foundKeys = async (keys: string[]): Promise<{ key: string; id: number }[]> => {
    const ids = await library.idsOfKeys(keys);
    const found = keys.flatMap((key, i) => (ids[i] === null ? [] : [{ key, id: ids[i]! }]));
    if (found.length === 0) throw new RpcError(INVALID_PARAMS, `zero matches for ${keys.join(',')}`);
    return found;
  };

  return {
    'api.ready': API_READY,

    'user.groups': {
      params: ['includeCollections'],
      run: async (includeCollections) => {
        const group: Record<string, unknown> = { id: LIBRARY_ID, name: LIBRARY_NAME };
        if (includeCollections === true)
          group.collections = (await library.collections()).map((c) => ({
            key: String(c.id),
            name: c.name,
            parentCollection: c.parentId === null ? false : String(c.parentId),
          }));
        return [group];
      },
    },

    'item.search': {
      params: ['terms', 'library'],
      required: 1,
      run: async (terms, lib) => {
        checkLibrary(lib);
        let query: string;
        let key: string | undefined;
        if (typeof terms === 'string') {
          query = freeTextQuery(terms.replace(/ (?:&|and) /g, ' '));
          if (terms.trim() !== '' && query === '') return [];
          key = terms.trim().replace(/^@/, '');
        } else if (
          terms !== null &&
          typeof terms === 'object' &&
          !Array.isArray(terms) &&
          typeof (terms as { terms?: unknown }).terms === 'string'
        ) {
          // Older clients send { terms: "…" }.
          query = freeTextQuery((terms as { terms: string }).terms);
        } else if (Array.isArray(terms)) {
          query = conditionsQuery(terms);
        } else {
          throw new RpcError(INVALID_PARAMS, 'item.search: terms must be a string or a list of conditions');
        }
        // A typed citation key comes first even where the words rank it lower. One worker message:
        // search, key and records apart were three, a third of the time on a busy machine.
        const csl = await library.searchCsl(query, SEARCH_LIMIT, key);
        return csl.map((item) => ({ ...item, library: LIBRARY_NAME, citekey: item['citation-key'] ?? item.id }));
      },
    },

    'item.citationkey': {
      params: ['item_keys'],
      required: 1,
      run: async (itemKeys) => {
        if (!isStringArray(itemKeys))
          throw new RpcError(
            INVALID_PARAMS,
            'item.citationkey: item_keys must be an array of "libraryID:itemKey" strings',
          );
        const out: Record<string, string | null> = {};
        for (const full of itemKeys) {
          const colon = full.indexOf(':');
          const lib = colon >= 0 ? full.slice(0, colon) : String(LIBRARY_ID);
          const key = colon >= 0 ? full.slice(colon + 1) : full;
          if (!/^\d+$/.test(lib)) throw new RpcError(INVALID_PARAMS, `Could not parse library ID from ${full}`);
          let citekey: string | null = null;
          if (Number(lib) === LIBRARY_ID && /^[1-9]\d{0,15}$/.test(key)) {
            try {
              citekey = (await library.item(Number(key))).citationKey;
            } catch {
              citekey = null;
            }
          }
          out[full] = citekey;
        }
        return out;
      },
    },

    'item.export': {
      params: ['citekeys', 'translator', 'libraryID'],
      required: 2,
      run: async (citekeys, translator, libraryID) => {
        checkLibrary(libraryID);
        const keys = keysParam('item.export', citekeys);
        const t = translatorParam('item.export', translator);
        const ids = await library.requireKeys(keys);
        return [200, 'text/plain', await translate(library, ids, t)];
      },
    },

    'item.bibliography': {
      params: ['citekeys', 'format', 'library'],
      required: 1,
      run: async (citekeys, format, lib) => {
        checkLibrary(lib);
        const keys = keysParam('item.bibliography', citekeys);
        const f = (format ?? {}) as { quickCopy?: unknown; contentType?: unknown; locale?: unknown; id?: unknown };
        if (typeof f !== 'object' || Array.isArray(f))
          throw new RpcError(
            INVALID_PARAMS,
            'item.bibliography: format must be an object { quickCopy, contentType, locale, id }',
          );
        const contentType = f.contentType ?? 'text';
        if (contentType !== 'text' && contentType !== 'html')
          throw new RpcError(
            INVALID_PARAMS,
            `item.bibliography: contentType must be "text" or "html", not ${JSON.stringify(contentType)}`,
          );
        if (f.id === undefined && f.quickCopy !== true)
          throw new RpcError(
            INVALID_PARAMS,
            'no style specified: give format.id (a CSL style such as apa) or quickCopy: true for the default style',
          );
        const style = await library.styleOf(typeof f.id === 'string' ? f.id : undefined);
        const locale = await library.localeOf(typeof f.locale === 'string' ? f.locale : undefined);
        const found = await foundKeys(keys);
        const cited = await library.cite(
          found.map((f) => f.id),
          style,
          locale,
          'bibliography',
        );
        return contentType === 'html' ? cited.html : cited.text;
      },
    },

    'item.collections': {
      params: ['citekeys', 'includeParents'],
      required: 1,
      run: async (citekeys, includeParents) => {
        const found = await foundKeys(keysParam('item.collections', citekeys));
        const byId = new Map((await library.collections()).map((c) => [c.id, c]));
        const out: Record<string, CollectionJson[]> = {};
        for (const { key, id } of found) {
          const detail = await library.item(id);
          out[key] = detail.collections.flatMap((cid) => {
            const c = byId.get(cid);
            return c ? [collectionJson(c, byId, includeParents === true)] : [];
          });
        }
        return out;
      },
    },

    'item.notes': {
      params: ['citekeys'],
      required: 1,
      run: async (citekeys) => {
        const found = await foundKeys(keysParam('item.notes', citekeys));
        const out: Record<string, string[]> = {};
        for (const { key, id } of found) out[key] = (await library.item(id)).notes.map((n) => noteHtml(n.body));
        return out;
      },
    },

    'item.attachments': {
      params: ['citekey', 'library'],
      required: 1,
      run: async (citekey, lib) => {
        checkLibrary(lib);
        if (typeof citekey !== 'string')
          throw new RpcError(INVALID_PARAMS, 'item.attachments: citekey must be a citation key');
        const [id] = await library.idsOfKeys([citekey]);
        if (id === null || id === undefined) throw new RpcError(INVALID_PARAMS, `${citekey} not found`);
        // `open` is a file: URL: Citewise has no zotero:// handler, and a file opens in its own application.
        return (await library.item(id)).attachments.map((a) => ({ open: pathToFileURL(a.path).href, path: a.path }));
      },
    },

    'item.pandoc_filter': {
      params: ['citekeys', 'asCSL', 'libraryID', 'style', 'locale'],
      required: 1,
      run: async (citekeys, asCSL, libraryID) => {
        if (Array.isArray(libraryID)) for (const l of libraryID as unknown[]) checkLibrary(l);
        else checkLibrary(libraryID);
        const keys = [...new Set(keysParam('item.pandoc_filter', citekeys))];
        const ids = await library.idsOfKeys(keys);
        const result: { errors: Record<string, number>; items: Record<string, unknown> } = { errors: {}, items: {} };
        const found: { key: string; id: number }[] = [];
        keys.forEach((key, i) => {
          if (ids[i] === null) result.errors[key] = 0;
          else found.push({ key, id: ids[i]! });
        });
        if (found.length === 0) return result;
        if (asCSL === true) {
          const items = await library.csl(found.map((f) => f.id));
          items.forEach((item, i) => {
            const { id, key } = found[i]!;
            result.items[key] = {
              ...item,
              id: itemUri(id),
              custom: { itemID: id, uri: itemUri(id), author: authorText(item) },
            };
          });
        } else {
          for (const { key, id } of found) result.items[key] = toZoteroItem(await library.item(id));
        }
        return result;
      },
    },

    'collection.scanAUX': {
      params: ['collection', 'aux'],
      required: 2,
      run: async (collection, aux) => {
        if (typeof collection !== 'string')
          throw new RpcError(INVALID_PARAMS, 'collection.scanAUX: collection must be a path such as "//thesis/cited"');
        if (typeof aux !== 'string' || !isAbsolute(aux))
          throw new RpcError(INVALID_PARAMS, 'collection.scanAUX: aux must be the absolute path of an .aux file');
        let size: number;
        try {
          size = (await stat(aux)).size;
        } catch (err) {
          throw new RpcError(
            INVALID_PARAMS,
            `collection.scanAUX: cannot read ${aux}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
          );
        }
        if (size > MAX_AUX_BYTES)
          throw new RpcError(
            INVALID_PARAMS,
            `collection.scanAUX: ${aux} is ${size} bytes, more than the ${MAX_AUX_BYTES} an .aux file may have`,
          );
        const keys = auxKeys(await readFile(aux, 'utf8'));
        const ids = await library.idsOfKeys(keys);
        const cited = [...new Set(ids.filter((id): id is number => id !== null))];
        const missing = keys.filter((_, i) => ids[i] === null);
        const target = await library.collectionAt(collection, true);
        if (!target) throw new RpcError(INVALID_PARAMS, `collection.scanAUX: no collection at ${collection}`);
        // The collection holds exactly what the document cites.
        const current = await library.listing.idsOf({ collectionId: target.id, includeSubcollections: false });
        const stale = current.filter((id) => !cited.includes(id));
        if (stale.length > 0)
          await library.call('library.collections.removeItems', { collectionId: target.id, ids: stale });
        const fresh = cited.filter((id) => !current.includes(id));
        if (fresh.length > 0)
          await library.call('library.collections.addItems', { collectionId: target.id, ids: fresh });
        return { libraryID: LIBRARY_ID, key: String(target.id), items: cited.length, missing };
      },
    },

    'autoexport.add': {
      params: ['collection', 'translator', 'path', 'displayOptions', 'replace'],
      required: 3,
      run: async (collection, translator, path, displayOptions, replace) => {
        if (typeof collection !== 'string')
          throw new RpcError(INVALID_PARAMS, 'autoexport.add: collection must be a path such as "//thesis"');
        if (typeof path !== 'string')
          throw new RpcError(
            INVALID_PARAMS,
            'autoexport.add: path must be the absolute path of the file to keep in sync',
          );
        const t = translatorParam('autoexport.add', translator);
        if (t.kind === 'bbtjson')
          throw new RpcError(
            INVALID_PARAMS,
            `autoexport.add: ${t.label} cannot be kept in sync; use Better BibTeX, Better BibLaTeX or Better CSL JSON`,
          );
        const options = (displayOptions ?? {}) as { exportNotes?: unknown };
        const target = await library.collectionAt(collection, true);
        if (!target) throw new RpcError(INVALID_PARAMS, `autoexport.add: no collection at ${collection}`);
        const existing = (await library.call('autoExport.list', {})).find((a) => a.path === path);
        if (
          existing &&
          existing.format === t.kind &&
          existing.scope.kind === 'collection' &&
          existing.scope.collectionId === target.id
        ) {
          await library.call('autoExport.run', { id: existing.id, force: true });
          return { libraryID: LIBRARY_ID, key: String(target.id), id: target.id };
        }
        if (existing && replace !== true)
          throw new RpcError(
            INVALID_PARAMS,
            "Auto-export exists with incompatible parameters, but no 'replace' was requested",
          );
        if (existing) await library.call('autoExport.remove', { id: existing.id });
        await library.call('autoExport.add', {
          path,
          format: t.kind,
          scope: { kind: 'collection', collectionId: target.id, subcollections: false },
          options: { notes: options.exportNotes === true },
        });
        return { libraryID: LIBRARY_ID, key: String(target.id), id: target.id };
      },
    },
  };
}
