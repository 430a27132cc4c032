// Better BibTeX's JSON-RPC methods over the Citewise library, answering in the shapes its clients
// parse: item.export's text (a plain string, as Better BibTeX answers since 6.7.142: rbbt writes it
// to the .bib as it is), item.search's CSL items with citekey and library, item.collections' nested
// parents, item.pandoc_filter's { errors, items } for zotero.lua. Every item.* method answers as
// items.* too, as in Better BibTeX. The two methods that change something (collection.scanAUX,
// autoexport.add) run only for a POST with Content-Type: application/json, use files only inside
// the folders the user allowed (file-scope.ts), and each change can be undone.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { version } from '../../package.json';
import type { CslItem, CslName } from '../../shared/model/csl';
import type { Collection } from '../../shared/model/library';
import { AUTO_EXPORT_EXTENSIONS, type AutoExportFormat } from '../../shared/model/auto-export';
import { CoreError } from '../core/errors';
import { parseManuscriptInWorker } from '../core/manuscript/in-worker';
import { INVALID_PARAMS, RpcError, type RpcContext, type RpcMethod, type RpcMethods } from './json-rpc';
import { checkLibrary, type EditorLibrary } from './library';
import { scopedPath } from './file-scope';
import { conditionsQuery, freeTextQuery } from './search-query';
import { findTranslator, TRANSLATOR_NAMES, type Translator } from './translators';
import { itemUri, LIBRARY_ID, LIBRARY_NAME, noteHtml, toZoteroItem } from './zotero-item';

/** item.search answers at most this many items, best first (Better BibTeX answers every match; at 200 the
 * CSL records alone took 50 ms on 100,000 items, against a 30 ms budget for a search as one types). */
export const SEARCH_LIMIT = 50;
/**
 * The longest item.search text (and condition value) taken: what one types into a search box is far
 * shorter, and a 15 MB query once held the library for 20 minutes.
 */
export const MAX_SEARCH_CHARS = 2000;
/**
 * The most words item.search takes (after repeats are dropped): each is a pass of the search, 400
 * years took 1 s on a small library; a title pasted whole has about 20.
 */
export const MAX_SEARCH_WORDS = 64;
/** The most conditions an advanced item.search may have. */
export const MAX_SEARCH_CONDITIONS = 100;
/** The most citation keys one call may name (a thesis cites hundreds; each key is a lookup). */
export const MAX_KEYS = 10_000;

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function keysParam(method: string, value: unknown): string[] {
  if (!isStringArray(value))
    throw new RpcError(INVALID_PARAMS, `${method}: citekeys must be an array of citation keys`);
  if (value.length > MAX_KEYS)
    throw new RpcError(
      INVALID_PARAMS,
      `${method}: at most ${MAX_KEYS} citation keys in one call (got ${value.length}); send them in several calls`,
    );
  return value.map((k) => k.replace(/^@/, ''));
}

/** The RpcContext json-rpc.ts passes after a method's parameters. */
const contextOf = (value: unknown): RpcContext => (value ?? {}) as RpcContext;

function translatorParam(method: string, value: unknown): Translator {
  if (typeof value !== 'string')
    throw new RpcError(INVALID_PARAMS, `${method}: translator must be a name or an id (${TRANSLATOR_NAMES})`);
  const t = findTranslator(value);
  if (!t)
    throw new RpcError(INVALID_PARAMS, `Unknown translator '${value}': Citewise exports with ${TRANSLATOR_NAMES}`);
  return t;
}

/** Items read at a time for BetterBibTeX JSON (each is one message to the library worker). */
const ITEMS_AT_ONCE = 200;

/**
 * Better BibTeX's export of items through a translator, as text. Every export waits its turn at the
 * library's export gate (export-gate.ts); `signal` drops it when its client has gone.
 */
export function translate(
  library: EditorLibrary,
  ids: readonly number[],
  translator: Translator,
  options: { notes?: boolean; signal?: AbortSignal | undefined } = {},
): Promise<string> {
  return library.exports.run(async () => {
    if (translator.kind !== 'bbtjson') return library.exportText(ids, translator.kind);
    const items = [];
    for (let i = 0; i < ids.length; i += ITEMS_AT_ONCE) {
      // Between batches: a client that has gone stops the work done for it.
      if (options.signal?.aborted) throw new RpcError(INVALID_PARAMS, 'the client has gone');
      items.push(...(await Promise.all(ids.slice(i, i + ITEMS_AT_ONCE).map((id) => library.item(id)))));
    }
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
  }, options.signal);
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

/** `api.ready` needs no library: the server answers it while the library is still opening. */
export const API_READY: RpcMethod = {
  params: [],
  run: async () => ({ zotero: `Citewise ${version}`, betterbibtex: `Citewise ${version}`, citewise: version }),
};

export interface EditorMethodOptions {
  /** The folders the user allowed editors to use (file-scope.ts); read at each call, as they may change. */
  folders(): Promise<readonly string[]>;
}

/** What the worker's errors say, as the client's error. */
function asRpcError(method: string, err: unknown): unknown {
  if (err instanceof CoreError && err.code !== 'INTERNAL')
    return new RpcError(INVALID_PARAMS, `${method}: ${err.message}`);
  return err;
}

export function editorMethods(library: EditorLibrary, options: EditorMethodOptions): RpcMethods {
  // Better BibTeX answers for the keys it knows and fails only when it knows none.
  const foundKeys = async (keys: string[]): Promise<{ key: string; id: number }[]> => {
    const ids = await library.idsOfKeys(keys);
    const found = keys.flatMap((key, i) => (ids[i] === null ? [] : [{ key, id: ids[i]! }]));
    if (found.length === 0) throw new RpcError(INVALID_PARAMS, `zero matches for ${keys.join(',')}`);
    return found;
  };

  const methods: Record<string, RpcMethod> = {
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
        const tooLong = (text: string) =>
          new RpcError(
            INVALID_PARAMS,
            `item.search: the search is ${text.length} characters long; at most ${MAX_SEARCH_CHARS} are taken`,
          );
        // freeTextQuery's terms are one word each, separated by one space.
        const checkWords = (q: string) => {
          const count = q === '' ? 0 : q.split(' ').length;
          if (count > MAX_SEARCH_WORDS)
            throw new RpcError(
              INVALID_PARAMS,
              `item.search: the search has ${count} different words; at most ${MAX_SEARCH_WORDS} are taken`,
            );
        };
        if (typeof terms === 'string') {
          if (terms.length > MAX_SEARCH_CHARS) throw tooLong(terms);
          query = freeTextQuery(terms.replace(/ (?:&|and) /g, ' '));
          checkWords(query);
          if (terms.trim() !== '' && query === '') return [];
          key = terms.trim().replace(/^@/, '');
        } else if (
          terms !== null &&
          typeof terms === 'object' &&
          !Array.isArray(terms) &&
          typeof (terms as { terms?: unknown }).terms === 'string'
        ) {
          // Older clients send { terms: "…" }.
          const text = (terms as { terms: string }).terms;
          if (text.length > MAX_SEARCH_CHARS) throw tooLong(text);
          query = freeTextQuery(text);
          checkWords(query);
        } else if (Array.isArray(terms)) {
          if (terms.length > MAX_SEARCH_CONDITIONS)
            throw new RpcError(
              INVALID_PARAMS,
              `item.search: at most ${MAX_SEARCH_CONDITIONS} conditions (got ${terms.length})`,
            );
          const long = JSON.stringify(terms).length;
          if (long > MAX_SEARCH_CHARS * 4)
            throw new RpcError(
              INVALID_PARAMS,
              `item.search: the conditions are ${long} characters long; at most ${MAX_SEARCH_CHARS * 4} are taken`,
            );
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
      run: async (citekeys, translator, libraryID, context) => {
        checkLibrary(libraryID);
        const keys = keysParam('item.export', citekeys);
        const t = translatorParam('item.export', translator);
        const ids = await library.requireKeys(keys);
        // The text itself, as Better BibTeX answers since 6.7.142 (before: [200, "text/plain", text]).
        return translate(library, ids, t, { signal: contextOf(context).signal });
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
      writes: true,
      run: async (collection, aux) => {
        const method = 'collection.scanAUX';
        if (typeof collection !== 'string')
          throw new RpcError(INVALID_PARAMS, `${method}: collection must be a path such as "//thesis/cited"`);
        const path = await scopedPath(aux, {
          method,
          what: 'the .aux file',
          extensions: ['aux'],
          folders: await options.folders(),
        });
        // Read and parsed as the manuscript check reads an .aux: in a worker, a regular file of at
        // most 20 MB (its kind and size checked before a byte is read), control characters removed.
        let keys: string[];
        try {
          const parsed = await parseManuscriptInWorker({ kind: 'path', path });
          keys = [...new Set(parsed.citations.flatMap((c) => (c.key ? [c.key] : [])))];
        } catch (err) {
          throw asRpcError(method, err);
        }
        if (keys.length > MAX_KEYS)
          throw new RpcError(
            INVALID_PARAMS,
            `${method}: ${path} cites ${keys.length} keys; at most ${MAX_KEYS} are taken`,
          );
        const ids = await library.idsOfKeys(keys);
        const cited = [...new Set(ids.filter((id): id is number => id !== null))];
        const missing = keys.filter((_, i) => ids[i] === null);
        // The collection holds exactly what the document cites (Better BibTeX clears it first),
        // created with its parents when missing: one step on the undo stack, which puts back what it
        // held and removes the collections it created.
        const target = await library.fillCollection(collection, cited, basename(path));
        return { libraryID: LIBRARY_ID, key: String(target.id), items: cited.length, missing };
      },
    },

    'autoexport.add': {
      params: ['collection', 'translator', 'path', 'displayOptions', 'replace'],
      required: 3,
      writes: true,
      run: async (collection, translator, path, displayOptions, replace) => {
        const method = 'autoexport.add';
        if (typeof collection !== 'string')
          throw new RpcError(INVALID_PARAMS, `${method}: collection must be a path such as "//thesis"`);
        const t = translatorParam(method, translator);
        if (t.kind === 'bbtjson' || t.kind === 'cslyaml')
          throw new RpcError(
            INVALID_PARAMS,
            `${method}: ${t.label} cannot be kept in sync; use Better BibTeX, Better BibLaTeX or Better CSL JSON`,
          );
        const format: AutoExportFormat = t.kind;
        const target = await scopedPath(path, {
          method,
          what: `the ${t.label} file`,
          extensions: [AUTO_EXPORT_EXTENSIONS[format]],
          folders: await options.folders(),
        });
        const given = typeof path === 'string' ? resolve(path) : target;
        const exports = await library.call('autoExport.list', {});
        const existing = exports.find((a) => a.path === target || a.path === given);
        // A file Citewise does not keep in sync is never replaced through the API: it may be anything
        // the user keeps (package.json was). Citewise writes new files, and its own.
        if (!existing && (await stat(target).catch(() => null)) !== null)
          throw new RpcError(
            INVALID_PARAMS,
            `${method}: ${target} already exists and is not a file Citewise keeps in sync; Citewise does not replace it. Delete it or choose a new name.`,
          );
        const opts = (displayOptions ?? {}) as { exportNotes?: unknown };
        // Created when missing as one undo step of its own ("Create collection …").
        const coll = await library.fillCollection(collection);
        if (
          existing &&
          existing.format === format &&
          existing.scope.kind === 'collection' &&
          existing.scope.collectionId === coll.id
        ) {
          await library.call('autoExport.run', { id: existing.id, force: true });
          return { libraryID: LIBRARY_ID, key: String(coll.id), id: coll.id };
        }
        if (existing && replace !== true)
          throw new RpcError(
            INVALID_PARAMS,
            "Auto-export exists with incompatible parameters, but no 'replace' was requested",
          );
        if (existing) await library.call('autoExport.remove', { id: existing.id });
        await library.call('autoExport.add', {
          path: target,
          format,
          scope: { kind: 'collection', collectionId: coll.id, subcollections: false },
          options: { notes: opts.exportNotes === true },
        });
        return { libraryID: LIBRARY_ID, key: String(coll.id), id: coll.id };
      },
    },
  };
  // Better BibTeX answers every item.* method as items.* too.
  for (const [name, method] of Object.entries(methods))
    if (name.startsWith('item.')) methods[`items.${name.slice('item.'.length)}`] = method;
  return methods;
}
