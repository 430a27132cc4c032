// Pull export: the library, a collection, the Library's selection or items by key as a file, for
// biblatex's location=remote, the Overleaf helpers, rbbt's bbt_bib_selected() and the Obsidian
// plugin's key list. The URL forms are Better BibTeX's (content/pull-export.ts); the whole request
// sits in the query, in the one parameter that has no value, and options follow after "&":
//   /better-bibtex/library?/1/library.biblatex          (also /library.biblatex, /0/…, /export/library)
//   /better-bibtex/collection?/1/thesis/chapter-1.bibtex (a path, or a collection's key: /0/12.biblatex)
//   /better-bibtex/select?csljson                         (also /export/selected; quick-copy: formatted)
//   /better-bibtex/export?/library;id:1/My Library.biblatex, …?/library;id:1/collection;key:12/name.bib,
//     …?/library;name:My Library/collection/thesis/chapter-1.json
//   /better-bibtex/export/item?citationKeys=a,b&translator=biblatex[&pandocFilterData=true]
// The extension is a translator name or id (.bib is BibLaTeX, as in Better BibTeX). Citewise has one
// library: its id is 1, and 0 (Better BibTeX's documented example) names it too.
import type { Collection } from '../../shared/model/library';
import type { EditorLibrary } from './library';
import { INVALID_PARAMS, RpcError } from './json-rpc';
import { translate } from './methods';
import { findTranslator, TRANSLATOR_NAMES, type Translator } from './translators';
import { itemUri } from './zotero-item';

export interface PullAnswer {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

export const PULL_EXPORT_PATHS = [
  '/better-bibtex/library',
  '/better-bibtex/export/library',
  '/better-bibtex/collection',
  '/better-bibtex/export/collection',
  '/better-bibtex/select',
  '/better-bibtex/export/selected',
  '/better-bibtex/export',
  '/better-bibtex/export/item',
] as const;

type PullPath = (typeof PULL_EXPORT_PATHS)[number];

const text = (status: number, body: string): PullAnswer => ({
  status,
  type: 'text/plain; charset=utf-8',
  body: `Citewise: ${body}\n`,
});

/** Refused with this answer (thrown inside, returned by pullExport). */
class Refused extends Error {
  constructor(readonly answer: PullAnswer) {
    super(answer.body);
  }
}

const refuse = (status: number, body: string): Refused => new Refused(text(status, body));

/** The library ids that name Citewise's one library. */
const OUR_LIBRARY = new Set(['0', '1']);

function checkLibraryId(id: string | undefined): void {
  if (id !== undefined && !OUR_LIBRARY.has(id))
    throw refuse(404, `library ${id} not found; Citewise has one library, 1 ("My Library")`);
}

/**
 * The query as Better BibTeX reads it: the parameter without a value is the request itself, the
 * others are options. (URLSearchParams leaves a malformed %-escape as it is: no request fails on it.)
 */
function queryOf(url: URL): { target: string; options: URLSearchParams } {
  let target: string | null = null;
  const options = new URLSearchParams();
  for (const [key, value] of url.searchParams) {
    if (value !== '') options.append(key, value);
    else if (target === null) target = key;
    else throw refuse(400, `the request is ambiguous: both "${target}" and "${key}" have no value`);
  }
  return { target: target ?? '', options };
}

function translatorOf(extension: string, example: string): Translator {
  const translator = findTranslator(extension);
  if (!translator) throw refuse(400, `unknown export format "${extension}"; use ${TRANSLATOR_NAMES}, e.g. ${example}`);
  return translator;
}

/** "…/name.ext" → the path before the extension, and the translator the extension names. */
function splitExtension(path: string, example: string): { rest: string; translator: Translator } {
  const m = /\.([-0-9a-z]+)$/i.exec(path);
  if (!m) throw refuse(400, `no export format at the end of "${path}"; add one, e.g. ${example}`);
  return { rest: path.slice(0, m.index), translator: translatorOf(m[1]!, example) };
}

/** Better BibTeX's "yes": y, yes or true. */
const yes = (value: string | null): boolean => /^(y(es)?|true)$/i.test(value ?? '');

/** A collection by its key (Citewise's collection id), else by its path under the library. */
async function collectionByKeyOrPath(library: EditorLibrary, keyOrPath: string): Promise<Collection> {
  if (/^\d+$/.test(keyOrPath)) {
    const byKey = (await library.collections()).find((c) => String(c.id) === keyOrPath);
    if (byKey) return byKey;
  }
  const byPath = await library.collectionAt(`//${keyOrPath}`).catch((err: unknown) => {
    if (err instanceof RpcError) throw refuse(404, err.message);
    throw err;
  });
  if (!byPath) throw refuse(404, `no collection at "${keyOrPath}"`);
  return byPath;
}

async function collectionIds(library: EditorLibrary, collection: Collection, options: URLSearchParams) {
  return library.listing.idsOf({
    collectionId: collection.id,
    includeSubcollections: options.get('recursive') !== 'false',
  });
}

interface Export {
  ids: number[];
  translator: Translator;
  /** A file name for Content-Disposition (the /export form sends one, as Better BibTeX does). */
  filename?: string;
}

/** /library and /export/library: the whole library. */
async function libraryExport(library: EditorLibrary, target: string): Promise<Export> {
  const example = '/better-bibtex/library?/1/library.biblatex';
  const m = /^\/?(?:(\d+)\/)?(.*)$/.exec(target)!;
  checkLibraryId(m[1]);
  const { translator } = splitExtension(m[2]!, example);
  return { ids: await library.listing.idsOf({}), translator };
}

/** /collection and /export/collection: one collection, by key or path. */
async function collectionExport(library: EditorLibrary, target: string, options: URLSearchParams): Promise<Export> {
  const example = '/better-bibtex/collection?/1/thesis/chapter-1.biblatex';
  const m = /^\/(?:(\d+)\/)?(.*)$/.exec(target);
  if (!m) throw refuse(400, `expected a library and a collection's path, e.g. ${example}`);
  checkLibraryId(m[1]);
  const { rest, translator } = splitExtension(m[2]!, example);
  const collection = await collectionByKeyOrPath(library, rest);
  return { ids: await collectionIds(library, collection, options), translator };
}

/** /export: Better BibTeX's long and short forms, /library;id:1/… or /library;name:My Library/…. */
async function exportForm(library: EditorLibrary, target: string, options: URLSearchParams): Promise<Export> {
  const example = '/better-bibtex/export?/library;id:1/My Library.biblatex';
  let path = target.replace(/^\//, '');
  if (path === '') throw refuse(404, `no path; e.g. ${example}`);
  const { rest, translator } = splitExtension(path, example);
  path = rest;
  const lib = /^(group|library);(id|name):([^/]+)\//.exec(path);
  if (lib) {
    path = path.slice(lib[0].length);
    if (lib[1] === 'group') throw refuse(404, `Citewise has no group libraries (asked for ${lib[2]} ${lib[3]})`);
    if (lib[2] === 'id') checkLibraryId(lib[3]);
    else if (lib[3] !== 'My Library')
      throw refuse(404, `library "${lib[3]}" not found; Citewise has one library, "My Library"`);
  }
  const coll = /^collection(?:;(id|key):([^/]+)(?:\/|$))?/.exec(path);
  if (!coll) {
    const ext = target.slice(target.lastIndexOf('.'));
    return { ids: await library.listing.idsOf({}), translator, filename: `My Library${ext}` };
  }
  const collection =
    coll[2] !== undefined
      ? await collectionByKeyOrPath(library, coll[2])
      : await collectionByKeyOrPath(library, path.slice(coll[0].length).replace(/^\//, ''));
  return {
    ids: await collectionIds(library, collection, options),
    translator,
    filename: `${collection.name}${target.slice(target.lastIndexOf('.'))}`,
  };
}

/** /export/item: items by citation key; pandocFilterData wraps them as zotero.lua's older versions read. */
async function itemExport(library: EditorLibrary, options: URLSearchParams, signal?: AbortSignal): Promise<PullAnswer> {
  checkLibraryId(options.get('libraryID') ?? undefined);
  if (options.get('groupID') !== null || options.get('group') !== null)
    throw refuse(404, 'Citewise has no group libraries');
  const keys = [...new Set((options.get('citationKeys') ?? '').split(',').filter((k) => k !== ''))];
  if (keys.length === 0) throw refuse(400, 'no citation keys given (citationKeys=a,b)');
  const name = options.get('translator');
  if (!name) throw refuse(400, 'no translator given (translator=biblatex)');
  const translator = translatorOf(name, '/better-bibtex/export/item?citationKeys=a,b&translator=biblatex');
  const ids = await library.idsOfKeys(keys);
  const found = keys.flatMap((key, i) => (ids[i] === null ? [] : [{ key, id: ids[i]! }]));
  if (found.length === 0) throw refuse(404, `no items found for ${keys.join(', ')}`);
  const body = await translate(
    library,
    found.map((f) => f.id),
    translator,
    { notes: yes(options.get('exportNotes')), signal },
  );
  if (!yes(options.get('pandocFilterData'))) return { status: 200, type: translator.mime, body };
  if (translator.kind !== 'csljson' && translator.kind !== 'bbtjson')
    throw refuse(400, `pandocFilterData needs Better CSL JSON or BetterBibTeX JSON, not ${translator.label}`);
  const parsed = JSON.parse(body) as unknown;
  const items = (translator.kind === 'csljson' ? parsed : (parsed as { items: unknown[] }).items) as Record<
    string,
    unknown
  >[];
  const response = {
    items: {} as Record<string, unknown>,
    zotero: {} as Record<string, { itemID: number; uri: string }>,
    errors: {} as Record<string, string>,
  };
  keys.forEach((key, i) => {
    if (ids[i] === null) response.errors[key] = 'not found';
  });
  const byKey = new Map(found.map((f) => [f.key, f.id]));
  for (const item of items) {
    const key = String(item.citationKey ?? item['citation-key'] ?? item.id);
    const id = byKey.get(key);
    response.items[key] = item;
    if (id !== undefined) response.zotero[key] = { itemID: id, uri: itemUri(id) };
  }
  return { status: 200, type: 'application/json; charset=utf-8', body: JSON.stringify(response) };
}

/** Whether the surrogate at `i` is half of a pair (encodeURIComponent throws on a lone one). */
function isPaired(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 0xdc00
    ? i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    : i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800;
}

/** A Content-Disposition for a file name of any characters: an ASCII fallback, and the name itself (RFC 6266). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(
    name.replace(/[\ud800-\udfff]/g, (c, i: number) => (isPaired(name, i) ? c : '\ufffd')),
  ).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export async function pullExport(
  url: URL,
  library: EditorLibrary,
  selection: () => Promise<number[]>,
  signal?: AbortSignal,
): Promise<PullAnswer> {
  const path = url.pathname as PullPath;
  try {
    if (path === '/better-bibtex/export/item') return await itemExport(library, queryOf(url).options, signal);
    const { target, options } = queryOf(url);
    let exported: Export;
    if (path === '/better-bibtex/library' || path === '/better-bibtex/export/library')
      exported = await libraryExport(library, target);
    else if (path === '/better-bibtex/collection' || path === '/better-bibtex/export/collection')
      exported = await collectionExport(library, target, options);
    else if (path === '/better-bibtex/export') exported = await exportForm(library, target, options);
    else {
      // /select?<translator>, as rbbt's bbt_bib_selected() asks.
      const name = target.replace(/^\//, '');
      if (name === '') throw refuse(404, 'no format given, e.g. /better-bibtex/select?biblatex');
      const ids = await selection();
      if (ids.length === 0) throw refuse(404, 'no items are selected in the Library');
      if (name === 'quick-copy') {
        const style = await library.styleOf(undefined);
        const locale = await library.localeOf(undefined);
        const cited = await library.exports.run(() => library.cite(ids, style, locale, 'bibliography'), signal);
        return { status: 200, type: 'text/plain; charset=utf-8', body: cited.text };
      }
      exported = { ids, translator: translatorOf(name, '/better-bibtex/select?biblatex') };
    }
    const body = await translate(library, exported.ids, exported.translator, {
      notes: yes(options.get('exportNotes')),
      signal,
    });
    return {
      status: 200,
      type: exported.translator.mime,
      body,
      ...(exported.filename ? { headers: { 'Content-Disposition': attachment(exported.filename) } } : {}),
    };
  } catch (err) {
    if (err instanceof Refused) return err.answer;
    if (err instanceof RpcError && err.code === INVALID_PARAMS) return text(400, err.message);
    throw err;
  }
}

/** The query as the client wrote it, "+" as a space the way query strings are read. */
export function decodeQuery(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new RpcError(INVALID_PARAMS, 'the query is not valid percent-encoding');
  }
}
