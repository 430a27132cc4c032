// The Zotero Connector's endpoints (/connector/…), so that the unmodified browser extension saves into
// Citewise when Zotero is not running. The protocol is Zotero's (version 3 of the Connector API): the
// Connector runs its translators in the browser and sends the items (saveItems) or the page
// (saveSnapshot), then each PDF's bytes (saveAttachment) and the page snapshot (saveSingleFile);
// its popup moves the save to another collection or adds tags and a note (updateSession). A save is
// a session: its items are known by the ids the Connector gave them. Writes go through the core's
// `zotero.*` channels (validated, undoable, announced to the app, which shows a toast).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { version as appVersion } from '../../../package.json';
import type { Channel, InputOf, ResultOf } from '../../../shared/ipc';
import type { ApiCore } from '../library';
import { connectorHostAllowed, connectorRequestAllowed } from './guard';
import { cslToZotero } from '../../core/formats/zotero/item';

/** Zotero's Connector API version, which the Connector sends and checks. */
export const CONNECTOR_API_VERSION = 3;
/** The Zotero version Citewise answers as: the Connector enables features by it (7: attachments sent by the Connector). */
export const ZOTERO_VERSION = '7.0.0';

/** The largest body of each kind of request. */
export const CONNECTOR_LIMITS = {
  json: 16 * 1024 * 1024,
  /** A PDF or a page snapshot (JSON with the page inside). */
  file: 100 * 1024 * 1024,
  /** A .bib or .ris offered by a page, a .csl style. */
  text: 16 * 1024 * 1024,
} as const;

/** Sessions are kept 10 minutes (1 when there are 10 or more), as Zotero keeps them. */
const SESSION_TTL_MS = 10 * 60_000;
const SESSION_TTL_BUSY_MS = 60_000;

interface Session {
  id: string;
  action: 'saveItems' | 'saveSnapshot' | 'import' | 'saveStandaloneAttachment';
  created: number;
  source: string;
  /** The Connector's id of each item → Citewise's item id. */
  items: Map<string, number>;
  /** Titles and types for sessionProgress and getRecognizedItem. */
  info: Map<string, { title: string | null; itemType: string; attachments: { id: string; progress: number }[] }>;
  collectionId: number | null;
  tags: string[];
  noteIds: Record<string, number>;
}

export interface ConnectorContext {
  /** The server's port (known once it listens). */
  port: () => number;
  core: () => Promise<ApiCore>;
  now?: () => number;
}

type Answer = { status: number; type?: string; body?: string; headers?: Record<string, string> };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly type = 'text/plain',
  ) {
    super(body);
  }
}

const json = (status: number, value: unknown): Answer => ({
  status,
  type: 'application/json',
  body: JSON.stringify(value),
});
const jsonError = (status: number, error: string): HttpError =>
  new HttpError(status, JSON.stringify({ error }), 'application/json');

/** Zotero's RFC 2047 words in headers (the Connector encodes non-ASCII titles so: =?UTF-8?Q?…?=). */
export function decodeRfc2047(value: string): string {
  return value.replace(
    /=\?([\w-]+)\?([QqBb])\?((?:[^? ]|\?(?!=))*)\?=/g,
    (whole, charset: string, enc: string, text: string) => {
      let bytes: Buffer;
      if (enc === 'Q' || enc === 'q')
        bytes = Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        );
      else bytes = Buffer.from(text, 'base64');
      try {
        return new TextDecoder(charset, { fatal: true }).decode(bytes);
      } catch {
        return whole;
      }
    },
  );
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared === undefined || !/^\d+$/.test(declared))
    return Promise.reject(new HttpError(400, 'Content-length not provided\n'));
  if (Number(declared) > limit)
    return Promise.reject(
      new HttpError(413, `Citewise: this request may have at most ${Math.round(limit / 1024 / 1024)} MB.\n`),
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.destroy();
        reject(new HttpError(413, 'Citewise: the body is larger than it said.\n'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The content type without its parameters, lowercased. */
function contentTypeOf(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

async function jsonBody(req: IncomingMessage, limit: number = CONNECTOR_LIMITS.json): Promise<Record<string, unknown>> {
  const text = (await readBody(req, limit)).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid JSON provided\n');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'Citewise: the body must be a JSON object.\n');
  return value as Record<string, unknown>;
}

/** multipart/form-data's text fields (the Connector sends a page snapshot this way from some browsers). */
function formFields(body: Buffer, header: string): Record<string, string> {
  const boundary = /boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(header);
  if (!boundary) throw new HttpError(400, 'Invalid multipart/form-data provided\n');
  const marker = `--${boundary[1] ?? boundary[2]}`;
  const out: Record<string, string> = {};
  for (const part of body.toString('utf8').split(marker).slice(1, -1)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw new HttpError(400, 'Invalid multipart/form-data provided\n');
    const name = /name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name !== undefined) out[name] = part.slice(split + 4).replace(/\r\n$/, '');
  }
  return out;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A file name for an attachment the Connector sent: its URL's name when it has one, else its title. */
export function attachmentName(title: string, url: string, mime: string): string {
  const ext =
    mime === 'application/pdf'
      ? '.pdf'
      : mime === 'text/html'
        ? '.html'
        : mime === 'application/epub+zip'
          ? '.epub'
          : '';
  let fromUrl: string;
  try {
    fromUrl = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    fromUrl = '';
  }
  const base = (ext && fromUrl.toLowerCase().endsWith(ext) ? fromUrl : `${title || 'Attachment'}${ext}`)
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, '_')
    .trim();
  return (base || `Attachment${ext}`).slice(0, 200);
}

export class ConnectorEndpoints {
  readonly #ctx: ConnectorContext;
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;

  constructor(ctx: ConnectorContext) {
    this.#ctx = ctx;
    this.#now = ctx.now ?? Date.now;
  }

  /** Answers a /connector/ request; refused ones get their connection closed without an answer. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!connectorHostAllowed(req, this.#ctx.port())) return send(res, { status: 400, body: 'Invalid Host header\n' });
    const path = url.pathname;
    if (!connectorRequestAllowed(req, path)) {
      res.socket?.destroy();
      return;
    }
    if (req.method === 'OPTIONS' || req.method === 'HEAD') return send(res, { status: 200 });
    let answer: Answer;
    try {
      answer = await this.#route(req, url);
    } catch (err) {
      if (err instanceof HttpError) answer = { status: err.status, type: err.type, body: err.body };
      else {
        answer = {
          status: 500,
          type: 'text/plain',
          body: `Citewise: ${err instanceof Error ? err.message : String(err)}\n`,
        };
      }
    }
    send(res, answer);
  }

  async #route(req: IncomingMessage, url: URL): Promise<Answer> {
    const method = url.pathname.slice('/connector/'.length);
    const endpoint = ENDPOINTS[method];
    if (!endpoint) throw new HttpError(404, 'No endpoint found\n');
    if (!endpoint.methods.includes(req.method ?? '')) throw new HttpError(400, 'Endpoint does not support method\n');
    if (req.method === 'POST' && endpoint.types !== '*') {
      const type = contentTypeOf(req);
      if (!endpoint.types.includes(type)) throw new HttpError(400, 'Endpoint does not support content-type\n');
    }
    this.#gc();
    return endpoint.run.call(this, req, url);
  }

  // ── the endpoints ──

  async ping(req: IncomingMessage): Promise<Answer> {
    if (req.method === 'GET')
      return {
        status: 200,
        type: 'text/html',
        body: '<!DOCTYPE html><html><body>Citewise is running (as Zotero)</body></html>',
      };
    await readBody(req, CONNECTOR_LIMITS.json);
    return json(200, {
      prefs: {
        automaticSnapshots: true,
        downloadAssociatedFiles: true,
        // The Connector fetches a page's PDFs itself and sends their bytes (saveAttachment).
        supportsAttachmentUpload: true,
        supportsTagsAutocomplete: true,
        canUserAddNote: true,
        googleDocsAddNoteEnabled: false,
        googleDocsAddAnnotationEnabled: false,
        googleDocsCitationExplorerEnabled: false,
      },
    });
  }

  async getSelectedCollection(req: IncomingMessage): Promise<Answer> {
    await jsonBody(req);
    const core = await this.#ctx.core();
    const [collections, shown, tags] = await Promise.all([
      this.#call(core, 'library.collections.list', {}),
      this.#call(core, 'library.selection.collection', {}),
      this.#call(core, 'library.tags.list', {}),
    ]);
    const current = collections.find((c) => c.id === shown) ?? null;
    const children = new Map<number | null, typeof collections>();
    for (const c of collections) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);
    const targets: { id: string; name: string; filesEditable: boolean; level: number }[] = [
      { id: 'L1', name: 'My Library', filesEditable: true, level: 0 },
    ];
    const walk = (parent: number | null, level: number): void => {
      for (const c of (children.get(parent) ?? []).sort((a, b) => a.name.localeCompare(b.name))) {
        targets.push({ id: `C${c.id}`, name: c.name, filesEditable: true, level });
        walk(c.id, level + 1);
      }
    };
    walk(null, 1);
    return json(200, {
      libraryID: 1,
      libraryName: 'My Library',
      libraryEditable: true,
      filesEditable: true,
      editable: true,
      id: current ? current.id : null,
      name: current ? current.name : 'My Library',
      targets,
      tags: { L1: tags.map((t) => ({ tag: t.name, type: 0 })) },
    });
  }

  async saveItems(req: IncomingMessage): Promise<Answer> {
    const data = await jsonBody(req);
    const items = Array.isArray(data.items) ? (data.items as Record<string, unknown>[]) : null;
    if (!items || items.length === 0) throw new HttpError(400, 'Citewise: saveItems needs a list of items.\n');
    const session = this.#newSession(data.sessionID, 'saveItems', text(data.uri));
    const core = await this.#ctx.core();
    const collectionId = await this.#target(core);
    session.collectionId = collectionId;
    // Translators set accessDate to "CURRENT_TIMESTAMP", which Zotero replaces with the time of the save.
    const accessed = this.#stamp();
    const stamped = items.map((item) =>
      item && typeof item === 'object' && item.accessDate === 'CURRENT_TIMESTAMP'
        ? { ...item, accessDate: accessed }
        : item,
    );
    try {
      const saved = await this.#call(core, 'zotero.connector.save', {
        items: stamped as InputOf<'zotero.connector.save'>['items'],
        collectionId,
        source: session.source,
      });
      items.forEach((item, i) => {
        const id = typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id) : `item-${i}`;
        session.items.set(id, saved[i]!.id);
        session.info.set(id, {
          title: saved[i]!.title,
          itemType: text(item.itemType),
          attachments: (Array.isArray(item.attachments) ? (item.attachments as { id?: unknown }[]) : []).map((a) => ({
            id: String(a.id ?? ''),
            progress: 0,
          })),
        });
      });
    } catch (err) {
      this.#sessions.delete(session.id);
      throw err;
    }
    return { status: 201, type: 'application/json' };
  }

  async saveSnapshot(req: IncomingMessage): Promise<Answer> {
    const data = await jsonBody(req);
    const url = text(data.url);
    const session = this.#newSession(data.sessionID, 'saveSnapshot', url);
    const core = await this.#ctx.core();
    const collectionId = await this.#target(core);
    session.collectionId = collectionId;
    const item = {
      itemType: 'webpage',
      title: text(data.title) || url,
      url,
      accessDate: this.#stamp(),
    };
    try {
      const [saved] = await this.#call(core, 'zotero.connector.save', {
        items: [item],
        collectionId,
        source: url,
      });
      session.items.set(url, saved!.id);
      session.info.set(url, { title: saved!.title, itemType: 'webpage', attachments: [] });
    } catch (err) {
      this.#sessions.delete(session.id);
      throw err;
    }
    return { status: 201, type: 'application/json' };
  }

  async saveAttachment(req: IncomingMessage, url: URL): Promise<Answer> {
    const metadata = this.#metadata(req);
    const session = this.#session(text(metadata.sessionID) || url.searchParams.get('sessionID'));
    const parent = session.items.get(String(metadata.parentItemID ?? ''));
    if (parent === undefined) throw jsonError(400, 'PARENT_ITEM_NOT_FOUND');
    const mime = contentTypeOf(req) || text(metadata.contentType) || 'application/octet-stream';
    const bytes = await readBody(req, CONNECTOR_LIMITS.file);
    const title = decodeRfc2047(text(metadata.title));
    const outcome = await this.#call(await this.#ctx.core(), 'zotero.connector.attach', {
      itemId: parent,
      name: attachmentName(title, text(metadata.url), mime),
      mime,
      base64: bytes.toString('base64'),
      source: text(metadata.url) || session.source,
    });
    if (outcome.status === 'failed') throw new HttpError(400, `${outcome.message}\n`);
    this.#progress(session, String(metadata.parentItemID), String(metadata.id ?? ''));
    return { status: 201 };
  }

  async saveStandaloneAttachment(req: IncomingMessage, url: URL): Promise<Answer> {
    const metadata = this.#metadata(req);
    const id = text(metadata.sessionID) || url.searchParams.get('sessionID');
    if (!id) throw jsonError(400, 'SESSION_ID_NOT_PROVIDED');
    const source = text(metadata.url);
    const session = this.#newSession(id, 'saveStandaloneAttachment', source);
    const core = await this.#ctx.core();
    session.collectionId = await this.#target(core);
    const mime = contentTypeOf(req) || 'application/octet-stream';
    const bytes = await readBody(req, CONNECTOR_LIMITS.file);
    const title = decodeRfc2047(text(metadata.title));
    const name = attachmentName(title, source, mime);
    let itemId: number;
    if (mime === 'application/pdf') {
      // A PDF on its own: captured as a dropped PDF is, identified by its DOI or title.
      const outcome = await this.#call(core, 'pdfs.add', { name, base64: bytes.toString('base64') });
      if (outcome.status === 'failed') throw new HttpError(400, `${outcome.message}\n`);
      itemId = outcome.itemId;
      if (session.collectionId !== null)
        await this.#call(core, 'library.collections.addItems', { collectionId: session.collectionId, ids: [itemId] });
    } else {
      const [saved] = await this.#call(core, 'zotero.connector.save', {
        items: [{ itemType: 'document', title: title || name, url: source }],
        collectionId: session.collectionId,
        source,
      });
      itemId = saved!.id;
      await this.#call(core, 'zotero.connector.attach', {
        itemId,
        name,
        mime,
        base64: bytes.toString('base64'),
        source,
      });
    }
    const item = await this.#call(core, 'library.item.get', { id: itemId });
    session.items.set(source, itemId);
    session.info.set(source, { title: item.title, itemType: cslToZotero(item.csl).itemType, attachments: [] });
    return json(201, { canRecognize: false });
  }

  async getRecognizedItem(req: IncomingMessage): Promise<Answer> {
    const data = await jsonBody(req);
    const session = this.#session(data.sessionID);
    const first = [...session.info.values()][0];
    if (!first) return { status: 204 };
    return json(200, { title: first.title ?? '', itemType: first.itemType });
  }

  async saveSingleFile(req: IncomingMessage): Promise<Answer> {
    const type = contentTypeOf(req);
    const data: Record<string, unknown> =
      type === 'multipart/form-data'
        ? formFields(await readBody(req, CONNECTOR_LIMITS.file), req.headers['content-type'] ?? '')
        : await jsonBody(req, CONNECTOR_LIMITS.file);
    const session = this.#session(data.sessionID);
    const snapshot = text(data.snapshotContent);
    if (snapshot === '')
      throw new HttpError(400, 'Citewise: the snapshot is empty (the Connector could not read the page).\n');
    const firstItem = Array.isArray(data.items) ? (data.items as { id?: unknown }[])[0] : undefined;
    const key = session.action === 'saveSnapshot' ? text(data.url) : String(firstItem?.id ?? '');
    const parent = session.items.get(key) ?? [...session.items.values()][0];
    if (parent === undefined) throw jsonError(400, 'PARENT_ITEM_NOT_FOUND');
    const outcome = await this.#call(await this.#ctx.core(), 'zotero.connector.attach', {
      itemId: parent,
      name: attachmentName(text(data.title) || 'Snapshot', '', 'text/html'),
      mime: 'text/html',
      base64: Buffer.from(snapshot, 'utf8').toString('base64'),
      source: text(data.url) || session.source,
    });
    if (outcome.status === 'failed') throw new HttpError(400, `${outcome.message}\n`);
    return { status: 201 };
  }

  async updateSession(req: IncomingMessage): Promise<Answer> {
    const data = await jsonBody(req);
    const session = this.#session(data.sessionID);
    const target = text(data.target);
    let to: number | null;
    if (/^L\d+$/.test(target)) to = null;
    else if (/^C\d+$/.test(target)) to = Number(target.slice(1));
    else throw jsonError(400, 'TARGET_NOT_FOUND');
    const core = await this.#ctx.core();
    if (to !== null && !(await this.#call(core, 'library.collections.list', {})).some((c) => c.id === to))
      throw jsonError(400, 'COLLECTION_NOT_FOUND');
    // Older Connectors send the tags as one string with commas.
    const tags = (typeof data.tags === 'string' ? data.tags.split(',') : Array.isArray(data.tags) ? data.tags : [])
      .map((t) => (typeof t === 'string' ? t.trim() : ''))
      .filter((t) => t !== '');
    const ids = [...new Set(session.items.values())];
    if (ids.length > 0) {
      session.noteIds = await this.#call(core, 'zotero.connector.update', {
        ids,
        fromCollectionId: session.collectionId,
        toCollectionId: to,
        previousTags: session.tags,
        tags,
        noteIds: session.noteIds,
        note: text(data.note),
        source: session.source,
      });
    }
    session.collectionId = to;
    session.tags = tags;
    return json(200, {});
  }

  async sessionProgress(req: IncomingMessage): Promise<Answer> {
    const data = await jsonBody(req);
    const session = this.#session(data.sessionID);
    return json(200, {
      items: [...session.info].map(([id, info]) => ({
        id,
        title: info.title,
        itemType: info.itemType,
        progress: 100,
        attachments: info.attachments.map((a) => ({ id: `${session.id}_${a.id}`, progress: a.progress })),
      })),
      done: true,
    });
  }

  async hasAttachmentResolvers(req: IncomingMessage): Promise<Answer> {
    await jsonBody(req);
    // Citewise does not look for open-access PDFs elsewhere.
    return json(200, false);
  }

  async delaySync(req: IncomingMessage): Promise<Answer> {
    await readBody(req, CONNECTOR_LIMITS.json);
    return { status: 204 };
  }

  async import(req: IncomingMessage, url: URL): Promise<Answer> {
    const body = (await readBody(req, CONNECTOR_LIMITS.text)).toString('utf8');
    if (body.trim() === '') throw new HttpError(400, 'Citewise: there is nothing to import.\n');
    const session = this.#newSession(url.searchParams.get('session') ?? undefined, 'import', 'a page');
    const core = await this.#ctx.core();
    session.collectionId = await this.#target(core);
    let saved: ResultOf<'zotero.connector.import'>;
    try {
      // One save, as a page's item is: filed in the collection, one undo step, shown in the app.
      saved = await this.#call(core, 'zotero.connector.import', {
        text: body,
        collectionId: session.collectionId,
        source: text(req.headers.referer) || 'a file a page linked to',
      });
    } catch (err) {
      this.#sessions.delete(session.id);
      throw err;
    }
    const items = [];
    for (const { id } of saved) {
      const item = await this.#call(core, 'library.item.get', { id });
      const zotero = cslToZotero(item.csl);
      session.items.set(String(id), id);
      session.info.set(String(id), { title: item.title, itemType: zotero.itemType, attachments: [] });
      items.push({ id: String(id), itemType: zotero.itemType, ...zotero.fields, creators: zotero.creators });
    }
    return json(201, items);
  }

  async installStyle(req: IncomingMessage): Promise<Answer> {
    const xml = (await readBody(req, CONNECTOR_LIMITS.text)).toString('utf8');
    try {
      const style = await this.#call(await this.#ctx.core(), 'library.styles.add', { xml });
      return json(201, { name: style.title });
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(400, err.body.replace(/^Citewise: /, ''));
      throw err;
    }
  }

  // ── helpers ──

  async #call<C extends Channel>(core: ApiCore, channel: C, input: InputOf<C>): Promise<ResultOf<C>> {
    const result = await core.invoke(channel, input);
    if (result.ok) return result.value as ResultOf<C>;
    const status = result.error.code === 'NOT_FOUND' || result.error.code === 'INVALID_INPUT' ? 400 : 500;
    throw new HttpError(status, `Citewise: ${result.error.message}\n`);
  }

  /** Where a save goes: the collection the Library shows, as Zotero saves to the selected one. */
  #target(core: ApiCore): Promise<number | null> {
    return this.#call(core, 'library.selection.collection', {});
  }

  /** Now, as Zotero's item JSON writes a time (to the second, UTC). */
  #stamp(): string {
    return new Date(this.#now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  #metadata(req: IncomingMessage): Record<string, unknown> {
    const header = req.headers['x-metadata'];
    if (typeof header !== 'string' || header === '') throw jsonError(400, 'METADATA_NOT_PROVIDED');
    try {
      const value: unknown = JSON.parse(header);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // said below
    }
    throw new HttpError(400, 'Citewise: X-Metadata is not a JSON object.\n');
  }

  #newSession(id: unknown, action: Session['action'], source: string): Session {
    const sessionId = typeof id === 'string' && id !== '' ? id.slice(0, 200) : randomUUID();
    if (this.#sessions.has(sessionId)) throw jsonError(409, 'SESSION_EXISTS');
    const session: Session = {
      id: sessionId,
      action,
      created: this.#now(),
      source: source.slice(0, 8000),
      items: new Map(),
      info: new Map(),
      collectionId: null,
      tags: [],
      noteIds: {},
    };
    this.#sessions.set(sessionId, session);
    return session;
  }

  #session(id: unknown): Session {
    if (typeof id !== 'string' || id === '') throw jsonError(400, 'SESSION_ID_NOT_PROVIDED');
    const session = this.#sessions.get(id);
    if (!session) throw jsonError(400, 'SESSION_NOT_FOUND');
    return session;
  }

  #progress(session: Session, itemId: string, attachmentId: string): void {
    const a = session.info.get(itemId)?.attachments.find((x) => x.id === attachmentId);
    if (a) a.progress = 100;
  }

  #gc(): void {
    const ttl = this.#sessions.size >= 10 ? SESSION_TTL_BUSY_MS : SESSION_TTL_MS;
    const before = this.#now() - ttl;
    for (const [id, s] of this.#sessions) if (s.created < before) this.#sessions.delete(id);
  }
}

interface Endpoint {
  methods: readonly string[];
  /** Content types a POST may have ('*': any). */
  types: readonly string[] | '*';
  run: (this: ConnectorEndpoints, req: IncomingMessage, url: URL) => Promise<Answer>;
}

const JSON_ONLY = ['application/json'];
const P = ConnectorEndpoints.prototype;
const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  ping: { methods: ['GET', 'POST'], types: ['application/json', 'text/plain'], run: P.ping },
  getSelectedCollection: { methods: ['POST'], types: JSON_ONLY, run: P.getSelectedCollection },
  saveItems: { methods: ['POST'], types: JSON_ONLY, run: P.saveItems },
  saveSnapshot: { methods: ['POST'], types: JSON_ONLY, run: P.saveSnapshot },
  saveAttachment: { methods: ['POST'], types: '*', run: P.saveAttachment },
  saveStandaloneAttachment: { methods: ['POST'], types: '*', run: P.saveStandaloneAttachment },
  getRecognizedItem: { methods: ['POST'], types: '*', run: P.getRecognizedItem },
  saveSingleFile: { methods: ['POST'], types: ['application/json', 'multipart/form-data'], run: P.saveSingleFile },
  updateSession: { methods: ['POST'], types: JSON_ONLY, run: P.updateSession },
  sessionProgress: { methods: ['POST'], types: JSON_ONLY, run: P.sessionProgress },
  hasAttachmentResolvers: { methods: ['POST'], types: JSON_ONLY, run: P.hasAttachmentResolvers },
  delaySync: { methods: ['POST'], types: '*', run: P.delaySync },
  import: { methods: ['POST'], types: '*', run: P.import },
  installStyle: { methods: ['POST'], types: '*', run: P.installStyle },
};

function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  const body = answer.body ?? '';
  res.writeHead(answer.status, {
    'X-Zotero-Version': ZOTERO_VERSION,
    'X-Zotero-Connector-API-Version': String(CONNECTOR_API_VERSION),
    'X-Citewise-Version': appVersion,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...(answer.type ? { 'Content-Type': answer.type } : {}),
    'Content-Length': String(Buffer.byteLength(body)),
    ...answer.headers,
  });
  res.end(body);
}
