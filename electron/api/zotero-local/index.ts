// Zotero 7's local Web API (/api/users/0/…), read-only, as Zotero serves it: the library's items
// (with their notes and attachments as child items), collections, tags and saved searches, in
// Zotero's JSON, CSL-JSON, BibTeX, BibLaTeX, RIS or a formatted bibliography, with q/qmode, tag,
// itemType, since, sort/direction, start/limit (Link and Total-Results) and the version headers.
// Objects are known by their stored 8-character Zotero keys (migration 0022). Like Zotero's, the
// local API sends everything unless `limit` is given (nothing crosses a network).
import { isNoteItem } from '../../../shared/model/standalone-note';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Channel, InputOf, ResultOf } from '../../../shared/ipc';
import type { Collection, SavedSearch } from '../../../shared/model/library';
import type { CITATION_LOCALES } from '../../../shared/model/settings';
import { cslToZotero, dateText } from '../../core/formats/zotero/item';
import { ZOTERO_SCHEMA_VERSION, ITEM_TYPE_FIELDS } from '../../core/formats/zotero/schema';
import type { ZoteroObjectRow } from '../../core/library/zotero-room';
import { connectorHostAllowed, localApiRequestAllowed } from '../connector/guard';
import type { ConnectorContext } from '../connector';
import type { ApiCore } from '../library';
import { EditorLibrary } from '../library';
import { noteHtml } from '../zotero-item';
import { freeTextQuery } from '../search-query';

export const LOCAL_API_VERSION = 3;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One object the API serves: an item, or a note or attachment as Zotero's child item. */
interface ApiObject {
  kind: 'item' | 'note' | 'attachment';
  /** Citewise's id of the item, note or attachment. */
  id: number;
  key: string;
  version: number;
  /** The item it belongs to (children). */
  parent: ZoteroObjectRow;
  data: Record<string, unknown>;
  meta: Record<string, unknown>;
  /** For sorting and filtering: the fields Zotero sorts by. */
  sortable: Record<string, string | number>;
}

const SORTS = [
  'dateAdded',
  'dateModified',
  'title',
  'creator',
  'itemType',
  'date',
  'publisher',
  'publicationTitle',
  'journalAbbreviation',
  'language',
  'accessDate',
  'libraryCatalog',
  'callNumber',
  'rights',
  'addedBy',
  'numItems',
] as const;

const FORMATS = new Set(['json', 'keys', 'versions', 'bib', 'csljson', 'bibtex', 'biblatex', 'ris']);

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Zotero's search syntax for tag= and itemType=: each parameter ANDed, `a || b` ORed, a leading `-` negates. */
export function matchesSyntax(values: readonly string[], params: readonly string[]): boolean {
  const have = new Set(values.map((v) => v.toLowerCase()));
  return params.every((param) => {
    let p = param;
    let negate = false;
    if (p.startsWith('-')) {
      negate = true;
      p = p.slice(1);
    } else if (p.startsWith('\\-')) p = p.slice(1);
    const any = p
      .split('||')
      .map((x) => x.trim().toLowerCase())
      .some((x) => have.has(x));
    return negate ? !any : any;
  });
}

export class LocalApi {
  readonly #ctx: ConnectorContext;

  constructor(ctx: ConnectorContext) {
    this.#ctx = ctx;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!connectorHostAllowed(req, this.#ctx.port())) return this.#send(res, 400, {}, 'Invalid Host header\n', null);
    if (!localApiRequestAllowed(req)) {
      res.socket?.destroy();
      return;
    }
    const core = await this.#ctx.core();
    const serverId = await this.#serverId(core);
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new HttpError(
          405,
          'Citewise serves Zotero’s local API read-only: change the library in Citewise (writes are not accepted here).',
        );
      const version = req.headers['zotero-api-version'] ?? url.searchParams.get('v') ?? String(LOCAL_API_VERSION);
      if (Number(version) !== LOCAL_API_VERSION && url.pathname !== '/api/')
        throw new HttpError(501, `API version not implemented: ${version}`);
      const provided = req.headers['zotero-server-id'];
      if (typeof provided === 'string' && provided !== serverId)
        throw new HttpError(412, 'Zotero-Server-ID does not match this server');
      const answer = await this.#route(core, req, url);
      this.#send(res, answer.status, answer.headers, answer.body, serverId, req.method === 'HEAD');
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      this.#send(res, status, { 'Content-Type': 'text/plain' }, message, serverId);
    }
  }

  #send(
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string,
    serverId: string | null,
    headOnly = false,
  ): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, {
      'Zotero-API-Version': String(LOCAL_API_VERSION),
      'Zotero-Schema-Version': String(ZOTERO_SCHEMA_VERSION),
      ...(serverId ? { 'Zotero-Server-ID': serverId } : {}),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers,
    });
    res.end(headOnly ? undefined : body);
  }

  /** A stable id for this library (Zotero-Server-ID): from its file, so a client sees when it talks to another. */
  async #serverId(core: ApiCore): Promise<string> {
    const status = await call(core, 'library.status', {});
    const hash = createHash('sha256').update(status.file).digest();
    const alphabet = '23456789ABCDEFGHIJKLMNPQRSTUVWXYZ';
    return [...hash.subarray(0, 12)].map((b) => alphabet[b % alphabet.length]).join('');
  }

  async #route(
    core: ApiCore,
    req: IncomingMessage,
    url: URL,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const path = url.pathname.replace(/\/+$/, '') || '/api';
    if (path === '/api')
      return { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'Nothing to see here.' };
    if (path === '/api/itemTypes')
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(
          Object.keys(ITEM_TYPE_FIELDS)
            .filter((t) => t !== 'annotation')
            .map((t) => ({ itemType: t, localized: t })),
        ),
      };
    const groups = /^\/api\/groups\/(\d+)(\/.*)?$/.exec(path);
    if (groups) throw new HttpError(404, 'Not found: Citewise has one library, users/0.');
    const m = /^\/api\/users\/(\d+)(\/.*)?$/.exec(path);
    if (!m) throw new HttpError(404, 'Not found');
    if (m[1] !== '0') throw new HttpError(400, 'Only data for the logged-in user is available locally -- use userID 0');
    const rest = (m[2] ?? '').split('/').filter(Boolean).map(decodeURIComponent);
    const lib = core.library.lib;
    const params = url.searchParams;
    const view = new View(core, lib, params, req, url);
    const [a, b, c, d] = rest;
    if (a === 'settings' && rest.length === 1) return json({});
    if (a === 'groups' && rest.length === 1) return view.list([], 'json-raw');
    if (a === 'items') {
      if (rest.length === 1 || (rest.length === 2 && (b === 'top' || b === 'trash' || b === 'tags')))
        return view.items({ top: b === 'top', trash: b === 'trash', tags: b === 'tags' });
      if (b === 'trash' && (c === 'top' || c === 'tags') && rest.length === 3)
        return view.items({ trash: true, top: c === 'top', tags: c === 'tags' });
      if ((b === 'top' || b === 'trash') && c === 'tags' && d === undefined)
        return view.items({ top: b === 'top', trash: b === 'trash', tags: true });
      if (b !== undefined && rest.length === 2) return view.one(b);
      if (b !== undefined && c === 'children' && rest.length === 3) return view.items({ children: b });
      if (b !== undefined && c === 'file' && (rest.length === 3 || d === 'view' || (d === 'view' && rest[4] === 'url')))
        return view.file(b, rest.at(-1) === 'url');
    }
    if (a === 'collections') {
      if (rest.length === 1 || (rest.length === 2 && b === 'top')) return view.collections({ top: b === 'top' });
      if (b !== undefined && rest.length === 2) return view.collection(b);
      if (b !== undefined && c === 'collections' && rest.length === 3) return view.collections({ parentKey: b });
      if (b !== undefined && c === 'items')
        return view.items({
          collection: b,
          top: d === 'top',
          tags: d === 'tags' || rest[4] === 'tags',
        });
    }
    if (a === 'tags') {
      if (rest.length === 1) return view.tags(null, null);
      if (b !== undefined && rest.length === 2) return view.tags(null, b);
    }
    if (a === 'searches') {
      if (rest.length === 1) return view.searches(null);
      if (b !== undefined && rest.length === 2) return view.searches(b);
      if (b !== undefined && c === 'items') return view.items({ search: b, top: d === 'top', tags: d === 'tags' });
    }
    throw new HttpError(404, 'Not found');
  }
}

function json(value: unknown, headers: Record<string, string> = {}) {
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(value, null, 4),
  };
}

async function call<C extends Channel>(core: ApiCore, channel: C, input: InputOf<C>): Promise<ResultOf<C>> {
  const result = await core.invoke(channel, input);
  if (result.ok) return result.value as ResultOf<C>;
  throw new HttpError(
    result.error.code === 'INVALID_INPUT' || result.error.code === 'NOT_FOUND' ? 400 : 500,
    result.error.message,
  );
}

interface ItemsScope {
  top?: boolean;
  trash?: boolean;
  tags?: boolean;
  children?: string;
  collection?: string;
  search?: string;
}

/** One request's view of the library: what it selects, how it is paged and formatted. */
class View {
  readonly #base: string;
  constructor(
    readonly core: ApiCore,
    readonly lib: ApiCore['library']['lib'],
    readonly params: URLSearchParams,
    readonly req: IncomingMessage,
    readonly url: URL,
  ) {
    this.#base = `http://${req.headers.host ?? 'localhost'}/api/`;
  }

  #library() {
    return {
      type: 'user',
      id: 0,
      name: 'My Library',
      links: { self: { href: `${this.#base}users/0`, type: 'application/json' } },
    };
  }

  async #keys(
    kind: 'item' | 'note' | 'attachment' | 'collection' | 'search',
    ids: number[],
  ): Promise<Map<number, string>> {
    const keys = ids.length === 0 ? [] : await this.lib.zoteroKeysOf(kind, ids);
    return new Map(ids.map((id, i) => [id, keys[i]!]));
  }

  async #objectOfKey(key: string) {
    if (!/^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$/.test(key)) throw new HttpError(404, 'Not found');
    return this.lib.zoteroObject(key);
  }

  /** The API objects for items: each item, and (unless top) its notes and attachments. */
  async #objects(rows: ZoteroObjectRow[], withChildren: boolean): Promise<ApiObject[]> {
    const collectionKeys = await this.#keys('collection', [...new Set(rows.flatMap((r) => r.collections))]);
    const itemKeys = await this.#keys(
      'item',
      rows.map((r) => r.id),
    );
    const noteKeys = await this.#keys(
      'note',
      rows.flatMap((r) => r.notes.map((n) => n.id)),
    );
    const attachmentKeys = await this.#keys(
      'attachment',
      rows.flatMap((r) => r.attachments.map((a) => a.id)),
    );
    const out: ApiObject[] = [];
    for (const r of rows) {
      const key = itemKeys.get(r.id)!;
      // A standalone note is a top-level item of itemType "note", its HTML in `note`, as Zotero serves one.
      if (isNoteItem(r.csl)) {
        const n = r.notes[0];
        out.push({
          kind: 'item',
          id: r.id,
          key,
          version: r.version,
          parent: r,
          data: {
            key,
            version: r.version,
            itemType: 'note',
            note: n ? noteHtml(n.body) : '',
            tags: r.tags.map((tag) => ({ tag })),
            collections: r.collections.map((c) => collectionKeys.get(c)!),
            relations: {},
            dateAdded: iso(r.dateAdded),
            dateModified: iso(r.dateModified),
            ...(r.trashedAt !== null ? { deleted: 1 } : {}),
          },
          meta: { numChildren: 0 },
          sortable: {
            dateAdded: r.dateAdded,
            dateModified: r.version,
            title: (r.title ?? '').toLowerCase(),
            itemType: 'note',
            numItems: 0,
          },
        });
        continue;
      }
      const z = cslToZotero(r.csl);
      const data: Record<string, unknown> = {
        key,
        version: r.version,
        itemType: z.itemType,
        ...z.fields,
        creators: z.creators,
        tags: r.tags.map((tag) => ({ tag })),
        collections: r.collections.map((c) => collectionKeys.get(c)!),
        relations: {},
        dateAdded: iso(r.dateAdded),
        dateModified: iso(r.dateModified),
        ...(r.trashedAt !== null ? { deleted: 1 } : {}),
      };
      if (ITEM_TYPE_FIELDS[z.itemType]?.fields.some((f) => f.startsWith('citationKey')))
        data.citationKey = r.citationKey;
      const date = dateText(r.csl.issued);
      out.push({
        kind: 'item',
        id: r.id,
        key,
        version: r.version,
        parent: r,
        data,
        meta: {
          ...(r.creators ? { creatorSummary: creatorSummary(z.creators) } : {}),
          ...(date && /^\d{4}/.test(date) ? { parsedDate: date } : {}),
          numChildren: r.notes.length + r.attachments.length,
        },
        sortable: {
          dateAdded: r.dateAdded,
          dateModified: r.version,
          title: (r.title ?? '').toLowerCase(),
          creator: (r.creators ?? '').toLowerCase(),
          itemType: z.itemType,
          date: date ?? '',
          ...Object.fromEntries(Object.entries(z.fields).map(([f, v]) => [f, v.toLowerCase()])),
          numItems: 0,
        },
      });
      if (!withChildren) continue;
      for (const n of r.notes) {
        const noteKey = noteKeys.get(n.id)!;
        out.push({
          kind: 'note',
          id: n.id,
          key: noteKey,
          version: n.modifiedAt,
          parent: r,
          data: {
            key: noteKey,
            version: n.modifiedAt,
            itemType: 'note',
            parentItem: key,
            note: noteHtml(n.body),
            tags: [],
            relations: {},
            dateAdded: iso(n.createdAt),
            dateModified: iso(n.modifiedAt),
          },
          meta: { numChildren: 0 },
          sortable: {
            dateAdded: n.createdAt,
            dateModified: n.modifiedAt,
            title: n.body.toLowerCase(),
            itemType: 'note',
          },
        });
      }
      for (const a of r.attachments) {
        const attachmentKey = attachmentKeys.get(a.id)!;
        const name = a.originalName ?? a.path.split(/[\\/]/).pop() ?? a.path;
        out.push({
          kind: 'attachment',
          id: a.id,
          key: attachmentKey,
          version: a.addedAt,
          parent: r,
          data: {
            key: attachmentKey,
            version: a.addedAt,
            itemType: 'attachment',
            parentItem: key,
            linkMode: a.stored === 'copied' ? 'imported_file' : 'linked_file',
            title: name,
            contentType: a.mime ?? '',
            charset: '',
            ...(a.stored === 'linked' ? { path: a.path } : { filename: name }),
            tags: [],
            relations: {},
            dateAdded: iso(a.addedAt),
            dateModified: iso(a.addedAt),
          },
          meta: { numChildren: 0 },
          sortable: {
            dateAdded: a.addedAt,
            dateModified: a.addedAt,
            title: name.toLowerCase(),
            itemType: 'attachment',
          },
        });
      }
    }
    return out;
  }

  #json(o: ApiObject): Record<string, unknown> {
    const links: Record<string, unknown> = {
      self: { href: `${this.#base}users/0/items/${o.key}`, type: 'application/json' },
    };
    if (o.kind !== 'item') {
      const parentKey = (o.data.parentItem as string) ?? '';
      links.up = { href: `${this.#base}users/0/items/${parentKey}`, type: 'application/json' };
      if (o.kind === 'attachment') {
        const a = o.parent.attachments.find((x) => x.id === o.id)!;
        links.enclosure = {
          href: pathToFileURL(a.path).href,
          type: a.mime ?? '',
          title: o.data.title,
          ...(a.size !== null ? { length: a.size } : {}),
        };
      }
    } else {
      const best = o.parent.attachments.find((a) => a.mime === 'application/pdf') ?? o.parent.attachments[0];
      if (best)
        links.attachment = {
          href: `${this.#base}users/0/items/${o.id}`,
          type: 'application/json',
          attachmentType: best.mime ?? '',
          ...(best.size !== null ? { attachmentSize: best.size } : {}),
        };
    }
    return { key: o.key, version: o.version, library: this.#library(), links, meta: o.meta, data: o.data };
  }

  async #rows(ids: number[]): Promise<ZoteroObjectRow[]> {
    return ids.length === 0 ? [] : this.lib.zoteroObjects(ids);
  }

  /** Items (and children) of a scope, filtered by q/qmode, tag, itemType, itemKey, since, includeTrashed. */
  async items(scope: ItemsScope) {
    const p = this.params;
    let ids: number[];
    let onlyChildrenOf: number | null = null;
    if (scope.children !== undefined) {
      const parent = await this.#objectOfKey(scope.children);
      if (!parent || parent.kind !== 'item') throw new HttpError(404, 'Not found');
      ids = [parent.id];
      onlyChildrenOf = parent.id;
    } else if (scope.collection !== undefined) {
      const c = await this.#objectOfKey(scope.collection);
      if (!c || c.kind !== 'collection') throw new HttpError(404, 'Collection not found');
      ids = await this.core.library.listing.idsOf({ collectionId: c.id, includeSubcollections: false });
    } else if (scope.search !== undefined) {
      const s = await this.#objectOfKey(scope.search);
      const search =
        s?.kind === 'search'
          ? (await this.core.library.listing.listSavedSearches()).find((x) => x.id === s.id)
          : undefined;
      if (!search) throw new HttpError(404, 'Not found');
      ids = await this.core.library.listing.idsOf({ query: search.query });
    } else ids = await this.lib.zoteroAllItemIds();
    const includeTrashed = p.get('includeTrashed') === '1';
    let rows = await this.#rows(ids);
    if (onlyChildrenOf === null)
      rows = rows.filter((r) => (scope.trash ? r.trashedAt !== null : includeTrashed || r.trashedAt === null));
    const q = (scope.tags ? p.get('itemQ') : p.get('q'))?.trim() ?? '';
    const qmode = (scope.tags ? p.get('itemQMode') : p.get('qmode')) ?? 'titleCreatorYear';
    if (q !== '') {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      let everything = new Set<number>();
      if (qmode === 'everything') {
        const query = freeTextQuery(q);
        if (query !== '') everything = new Set(await this.core.library.listing.idsOf({ query, trash: !!scope.trash }));
      }
      rows = rows.filter((r) => {
        const hay = `${r.title ?? ''} ${r.creators ?? ''} ${r.year ?? ''}`.toLowerCase();
        return words.every((w) => hay.includes(w)) || everything.has(r.id);
      });
    }
    const tagParams = p.getAll(scope.tags ? 'itemTag' : 'tag');
    if (tagParams.length > 0) rows = rows.filter((r) => matchesSyntax(r.tags, tagParams));
    if (p.has('itemKey')) {
      const wanted = new Set((p.get('itemKey') ?? '').split(','));
      const keys = await this.#keys(
        'item',
        rows.map((r) => r.id),
      );
      rows = rows.filter((r) => wanted.has(keys.get(r.id)!));
    }
    let objects = await this.#objects(rows, !scope.top && !scope.tags);
    if (onlyChildrenOf !== null) objects = objects.filter((o) => o.kind !== 'item');
    const typeParams = p.getAll('itemType');
    if (typeParams.length > 0) objects = objects.filter((o) => matchesSyntax([String(o.data.itemType)], typeParams));
    if (scope.tags) return this.tags(rows, null);
    return this.list(objects, 'objects');
  }

  async one(key: string) {
    const found = await this.#objectOfKey(key);
    if (!found) throw new HttpError(404, 'Not found');
    if (found.kind === 'item') {
      const rows = await this.#rows([found.id]);
      if (rows.length === 0) throw new HttpError(404, 'Not found');
      const [object] = await this.#objects(rows, false);
      return this.single(object!);
    }
    if (found.kind === 'note' || found.kind === 'attachment') {
      const owner = await this.#owner(found.kind, found.id);
      const objects = await this.#objects(await this.#rows([owner]), true);
      const object = objects.find((o) => o.kind === found.kind && o.id === found.id);
      if (!object) throw new HttpError(404, 'Not found');
      return this.single(object);
    }
    throw new HttpError(404, 'Not found');
  }

  async #owner(kind: 'note' | 'attachment', id: number): Promise<number> {
    const all = await this.lib.zoteroAllItemIds();
    // The owner is found through the item's own lists (one bulk read of the library's items' children).
    for (const row of await this.#rows(all))
      if ((kind === 'note' ? row.notes : row.attachments).some((x) => x.id === id)) return row.id;
    throw new HttpError(404, 'Not found');
  }

  async file(
    key: string,
    urlOnly: boolean,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const found = await this.#objectOfKey(key);
    if (!found) throw new HttpError(404, 'Not found');
    if (found.kind !== 'attachment') throw new HttpError(400, `Not a file attachment: ${key}`);
    const owner = await this.#owner('attachment', found.id);
    const [row] = await this.#rows([owner]);
    const a = row!.attachments.find((x) => x.id === found.id)!;
    const href = pathToFileURL(a.path).href;
    if (urlOnly) return { status: 200, headers: { 'Content-Type': 'text/plain' }, body: href };
    return { status: 302, headers: { Location: href }, body: '' };
  }

  async single(object: ApiObject) {
    const version = object.version;
    const ims = Number(this.req.headers['if-modified-since-version'] ?? 0);
    const headers = { 'Last-Modified-Version': String(version) };
    if (ims > 0 && version <= ims) return { status: 304, headers, body: '' };
    return this.#format([object], headers, false);
  }

  /** Sorting, since=, paging, the headers, and the format. */
  async list(objects: ApiObject[] | unknown[], mode: 'objects' | 'json-raw') {
    const p = this.params;
    let list = objects as ApiObject[];
    if (mode === 'objects' && p.has('since')) {
      const since = Number(p.get('since'));
      if (!Number.isFinite(since)) throw new HttpError(400, `Invalid 'since' value '${p.get('since')}'`);
      if (since !== 0) list = list.filter((o) => o.version > since);
    }
    if (mode === 'objects' && list.length > 1) {
      const sort = p.get('sort') ?? 'dateModified';
      if (!(SORTS as readonly string[]).includes(sort)) throw new HttpError(400, `Invalid 'sort' value '${sort}'`);
      const directionParam = p.get('direction');
      if (directionParam !== null && directionParam !== 'asc' && directionParam !== 'desc')
        throw new HttpError(400, `Invalid 'direction' value '${directionParam}'`);
      const direction =
        directionParam === null ? (sort.startsWith('date') ? -1 : 1) : directionParam === 'asc' ? 1 : -1;
      list = [...list].sort((a, b) => {
        const x = a.sortable[sort] ?? '';
        const y = b.sortable[sort] ?? '';
        return x < y ? -direction : x > y ? direction : 0;
      });
    }
    const total = list.length;
    let start = Math.max(0, Number.parseInt(p.get('start') ?? '0', 10) || 0);
    if (start > total) start = total;
    let limit = Number.parseInt(p.get('limit') ?? '', 10) || total - start;
    if (limit < 0) limit = 0;
    const page = list.slice(start, start + limit);
    const headers: Record<string, string> = {
      'Total-Results': String(total),
      Link: this.#links(start, limit, total),
      'Last-Modified-Version': String(await this.lib.zoteroLibraryVersion()),
    };
    const ims = Number(this.req.headers['if-modified-since-version'] ?? 0);
    if (ims > 0 && Number(headers['Last-Modified-Version']) <= ims) return { status: 304, headers, body: '' };
    if (mode === 'json-raw') return json(page, headers);
    return this.#format(page, headers, true);
  }

  #links(start: number, limit: number, total: number): string {
    const links: Record<string, string> = {};
    const build = (params: URLSearchParams) => {
      const u = new URL(this.url.pathname, `http://${this.req.headers.host ?? 'localhost'}`);
      u.search = params.toString();
      return u.toString();
    };
    if (start) {
      const first = new URLSearchParams(this.params);
      first.delete('start');
      links.first = build(first);
      const prev = new URLSearchParams(this.params);
      const prevStart = start - limit;
      if (prevStart <= 0) prev.delete('start');
      else prev.set('start', String(prevStart));
      links.prev = build(prev);
    }
    if (!start && limit >= total) links.last = build(new URLSearchParams(this.params));
    else if (limit) {
      let lastStart = start >= total ? total - limit : total - (total % limit);
      if (lastStart === total) lastStart = total - limit;
      const last = new URLSearchParams(this.params);
      if (lastStart > 0) last.set('start', String(lastStart));
      else last.delete('start');
      links.last = build(last);
      if (start + limit < total) {
        const next = new URLSearchParams(this.params);
        next.set('start', String(start + limit));
        links.next = build(next);
      }
    }
    return Object.entries(links)
      .map(([rel, href]) => `<${href}>; rel="${rel}"`)
      .join(', ');
  }

  async #format(objects: ApiObject[], headers: Record<string, string>, many: boolean) {
    const format = this.params.get('format') ?? 'json';
    if (!FORMATS.has(format)) {
      if (format === 'atom') throw new HttpError(501, 'Local API does not support Atom output');
      throw new HttpError(400, `Invalid 'format' value '${format}'`);
    }
    // Standalone notes are no references: bibliographies and exports leave them out, as Zotero's do.
    const items = objects.filter((o) => o.kind === 'item' && o.data.itemType !== 'note');
    const ids = items.map((o) => o.id);
    if (format === 'keys') {
      if (!many) throw new HttpError(400, 'Only multi-object requests can output keys');
      return {
        status: 200,
        headers: { ...headers, 'Content-Type': 'text/plain' },
        body: objects.map((o) => o.key).join('\n'),
      };
    }
    if (format === 'versions') {
      if (!many) throw new HttpError(400, 'Only multi-object requests can output versions');
      return json(Object.fromEntries(objects.map((o) => [o.key, o.version])), headers);
    }
    if (format === 'bib')
      return {
        status: 200,
        headers: { ...headers, 'Content-Type': 'text/html' },
        body: await this.#cite(ids, 'bibliography'),
      };
    if (format !== 'json') {
      const exportFormat = format === 'csljson' ? 'csljson' : (format as 'bibtex' | 'biblatex' | 'ris');
      const text =
        ids.length === 0 ? (format === 'csljson' ? '[]' : '') : (await this.lib.exportText(ids, exportFormat)).content;
      return {
        status: 200,
        headers: { ...headers, 'Content-Type': format === 'csljson' ? 'application/json' : 'text/plain' },
        body: text,
      };
    }
    const include = (this.params.get('include') ?? 'data').split(',');
    const out = [];
    for (const o of objects) {
      const j = this.#json(o);
      if (!include.includes('data')) delete j.data;
      if (o.kind === 'item' && o.data.itemType !== 'note') {
        if (include.includes('bib')) j.bib = await this.#cite([o.id], 'bibliography');
        if (include.includes('citation')) j.citation = await this.#cite([o.id], 'citation');
        for (const f of ['csljson', 'bibtex', 'biblatex', 'ris'] as const)
          if (include.includes(f)) {
            const text = (await this.lib.exportText([o.id], f)).content;
            j[f] = f === 'csljson' ? (JSON.parse(text) as unknown[])[0] : text;
          }
      }
      out.push(j);
    }
    return json(many ? out : out[0], headers);
  }

  async #cite(ids: number[], kind: 'bibliography' | 'citation'): Promise<string> {
    if (ids.length === 0) return kind === 'bibliography' ? '<div class="csl-bib-body"></div>' : '';
    const editor = new EditorLibrary(this.core);
    let style: string;
    let locale: (typeof CITATION_LOCALES)[number];
    try {
      style = await editor.styleOf(this.params.get('style') ?? undefined);
      locale = await editor.localeOf(this.params.get('locale') ?? undefined);
    } catch (err) {
      throw new HttpError(400, `Invalid style or locale: ${err instanceof Error ? err.message : String(err)}`);
    }
    const cited = await call(this.core, 'library.cite', { ids, style, locale, kind });
    if (kind === 'citation') return `<span>${cited.html}</span>`;
    return cited.html.includes('csl-bib-body') ? cited.html : `<div class="csl-bib-body">${cited.html}</div>`;
  }

  // ── collections, tags, searches ──

  async #collectionObjects(all: Collection[]) {
    const keys = await this.#keys(
      'collection',
      all.map((c) => c.id),
    );
    const version = await this.lib.zoteroLibraryVersion();
    return all.map((c) => {
      const key = keys.get(c.id)!;
      return {
        key,
        version,
        library: this.#library(),
        links: {
          self: { href: `${this.#base}users/0/collections/${key}`, type: 'application/json' },
          ...(c.parentId !== null
            ? { up: { href: `${this.#base}users/0/collections/${keys.get(c.parentId)}`, type: 'application/json' } }
            : {}),
        },
        meta: { numCollections: all.filter((x) => x.parentId === c.id).length, numItems: c.itemCount },
        data: {
          key,
          version,
          name: c.name,
          parentCollection: c.parentId === null ? false : keys.get(c.parentId)!,
          relations: {},
        },
      };
    });
  }

  async collections(scope: { top?: boolean; parentKey?: string }) {
    const all = await this.lib.listCollections();
    let parent: number | null | undefined;
    if (scope.parentKey !== undefined) {
      const found = await this.#objectOfKey(scope.parentKey);
      if (!found || found.kind !== 'collection') throw new HttpError(404, 'Collection not found');
      parent = found.id;
    } else if (scope.top) parent = null;
    const objects = (await this.#collectionObjects(all)).filter(
      (_, i) => parent === undefined || all[i]!.parentId === parent,
    );
    return this.#plainList(objects);
  }

  async collection(key: string) {
    const found = await this.#objectOfKey(key);
    if (!found || found.kind !== 'collection') throw new HttpError(404, 'Not found');
    const all = await this.lib.listCollections();
    const objects = await this.#collectionObjects(all);
    const i = all.findIndex((c) => c.id === found.id);
    if (i < 0) throw new HttpError(404, 'Not found');
    return json(objects[i], { 'Last-Modified-Version': String(objects[i]!.version) });
  }

  async #plainList(objects: { data: Record<string, unknown> }[]) {
    const p = this.params;
    const total = objects.length;
    let start = Math.max(0, Number.parseInt(p.get('start') ?? '0', 10) || 0);
    if (start > total) start = total;
    const limit = Math.max(0, Number.parseInt(p.get('limit') ?? '', 10) || total - start);
    const sort = p.get('sort');
    const sorted =
      sort === 'title' || sort === null
        ? [...objects].sort((a, b) =>
            String(a.data.name ?? a.data.tag ?? '').localeCompare(String(b.data.name ?? b.data.tag ?? '')),
          )
        : objects;
    if (p.get('direction') === 'desc') sorted.reverse();
    const page = sorted.slice(start, start + limit);
    const format = p.get('format') ?? 'json';
    const headers = {
      'Total-Results': String(total),
      Link: this.#links(start, limit, total),
      'Last-Modified-Version': String(await this.lib.zoteroLibraryVersion()),
    };
    if (format === 'keys')
      return {
        status: 200,
        headers: { ...headers, 'Content-Type': 'text/plain' },
        body: page.map((o) => String(o.data.key)).join('\n'),
      };
    if (format === 'versions') return json(Object.fromEntries(page.map((o) => [o.data.key, o.data.version])), headers);
    if (format !== 'json') throw new HttpError(400, `Invalid 'format' value '${format}'`);
    return json(page, headers);
  }

  /** Tags of the library (rows null) or of the items given; `name` asks for one tag. */
  async tags(rows: ZoteroObjectRow[] | null, name: string | null) {
    let counts: { name: string; count: number }[];
    if (rows === null) counts = await this.lib.listTags();
    else {
      const m = new Map<string, number>();
      for (const r of rows) for (const t of r.tags) m.set(t, (m.get(t) ?? 0) + 1);
      counts = [...m].map(([n, count]) => ({ name: n, count }));
    }
    if (name !== null) {
      const tag = name.replaceAll('+', ' ');
      counts = counts.filter((t) => t.name === tag);
      if (counts.length === 0) throw new HttpError(404, 'Not found');
    }
    const q = rows === null ? null : this.params.get('q');
    if (q)
      counts = counts.filter((t) =>
        this.params.get('qmode') === 'startsWith' ? t.name.startsWith(q) : t.name.includes(q),
      );
    const objects = counts.map((t) => ({
      tag: t.name,
      links: { self: { href: `${this.#base}users/0/tags/${encodeURIComponent(t.name)}`, type: 'application/json' } },
      meta: { type: 0, numItems: t.count },
      data: { tag: t.name, key: t.name, version: 0 },
    }));
    const list = await this.#plainList(objects);
    if (list.headers['Content-Type'] !== 'application/json') return list;
    const page = JSON.parse(list.body) as { data?: unknown }[];
    for (const o of page) delete o.data;
    return json(name === null ? page : page[0], list.headers);
  }

  async searches(key: string | null) {
    const all: SavedSearch[] = await this.core.library.listing.listSavedSearches();
    const keys = await this.#keys(
      'search',
      all.map((s) => s.id),
    );
    const version = await this.lib.zoteroLibraryVersion();
    const objects = all.map((s) => {
      const k = keys.get(s.id)!;
      return {
        key: k,
        version,
        library: this.#library(),
        links: { self: { href: `${this.#base}users/0/searches/${k}`, type: 'application/json' } },
        meta: {},
        data: {
          key: k,
          version,
          name: s.name,
          // Citewise's saved search is a query in its own language, kept as it is.
          conditions: [{ condition: 'quicksearch-everything', operator: 'contains', value: s.query }],
        },
      };
    });
    if (key === null) return this.#plainList(objects);
    const one = objects.find((o) => o.key === key);
    if (!one) throw new HttpError(404, 'Not found');
    return json(one, { 'Last-Modified-Version': String(version) });
  }
}

/** Zotero's creatorSummary: "Smith", "Smith and Jones", "Smith et al." (the primary creators). */
function creatorSummary(creators: { lastName?: string; name?: string; creatorType: string }[]): string {
  const primary = creators.filter((c) => c.creatorType === creators[0]?.creatorType);
  const last = (c: { lastName?: string; name?: string }) => c.lastName || c.name || '';
  if (primary.length === 0) return '';
  if (primary.length === 1) return last(primary[0]!);
  if (primary.length === 2) return `${last(primary[0]!)} and ${last(primary[1]!)}`;
  return `${last(primary[0]!)} et al.`;
}
