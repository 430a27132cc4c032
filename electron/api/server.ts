// The local API for editors: Better BibTeX's endpoints on 127.0.0.1 (port 23119 by default, which
// its clients hard-code) over the same core as the app, plus the picker page. Requests are routed
// through a table (routes.ts) that other protocols extend. See guard.ts for who may call it,
// json-rpc.ts / methods.ts, cayw.ts and pull-export.ts for the endpoints.
// Any program on this computer may connect, so the server bounds what one client can take (see
// ApiLimits): connections held (the longest-idle gives way, core/net/connections.ts), the time a
// request may take to arrive (a body sent a byte a minute is dropped), JSON-RPC batches, exports
// waiting for the library worker, and pickers open at once; work for a client that has gone stops.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { ItemStatus } from '../../shared/model/item-status';
import { silentLogger, type Logger } from '../core/log';
import { limitConnections, type ConnectionLimit } from '../core/net/connections';
import type { Pick } from './cayw-format';
import { cayw, isProbe } from './cayw';
import { BusyError, ClientGoneError, type ExportGate } from './export-gate';
import { hostAllowed, refuseEditorRequest } from './guard';
import { handleRpcText, INVALID_REQUEST, MAX_BATCH_ANSWER_CHARS, PARSE_ERROR, type RpcMethods } from './json-rpc';
import { EditorLibrary, type ApiCore } from './library';
import { API_READY, editorMethods } from './methods';
import { parsePicks, PickerHub, PICKER_PATH, PICKER_TOKEN_HEADER, type OpenPicker } from './picker';
import { PICKER_CSP, PICKER_CSS, PICKER_HTML, PICKER_JS } from './picker-page';
import { PREFS_CSS, PREFS_HTML, PREFS_JS } from './integration/prefs-page';
import { decodeQuery, PULL_EXPORT_PATHS, pullExport } from './pull-export';
import { RouteTable } from './routes';
import { freeTextQuery } from './search-query';
import { zoteroRoutes } from './zotero-routes';
import {
  assetStyles,
  coreInstalledStyles,
  coreIntegrationLibrary,
  IntegrationEndpoints,
  IntegrationSessions,
  ITEM_URI_PREFIX,
  pickerDialogs,
} from './integration';
import { ZOTERO_VERSION } from './connector';

export const DEFAULT_API_PORT = 23119;
export const LOOPBACK = '127.0.0.1';
/** The largest JSON-RPC request body read. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Hits the picker shows per search. */
const PICKER_HITS = 30;

/** What one client may take of the server; tests lower them. */
export interface ApiLimits {
  /** Connections held at once; beyond, the longest-idle one is closed (core/net/connections.ts). */
  maxConnections: number;
  /** The whole request (headers and body) must arrive within this; a held pick waits longer, as an answer. */
  requestTimeoutMs: number;
  /** The headers must arrive within this (a connection that sends nothing is closed after it). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Exports that may wait behind the running one (export-gate.ts); more are answered 503. */
  maxWaitingExports: number;
  /** Pickers open at once; another CAYW pick is answered 503 until one is answered. */
  maxPickers: number;
  /** How large a JSON-RPC batch's answer may grow before its remaining calls are left unrun. */
  maxBatchAnswerChars: number;
}

export const DEFAULT_API_LIMITS: ApiLimits = {
  maxConnections: 256,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxWaitingExports: 4,
  maxPickers: 4,
  maxBatchAnswerChars: MAX_BATCH_ANSWER_CHARS,
};

export interface ApiServerOptions {
  /**
   * The core, or its start: the port is bound at once and answers `probe=1` and `api.ready` while the
   * library opens; every other request waits for it (and fails with 503 if it cannot start).
   */
  core: ApiCore | Promise<ApiCore>;
  /** 0 picks a free port (tests); default 23119. */
  port?: number;
  /** Shows the picker to the user: a browser tab (headless), a window (the app, which returns how to close it). */
  openPicker: OpenPicker;
  /** The items selected in the Library, for selected=1 and /better-bibtex/select; default: what the app's Library pane reported to the core. */
  selection?: () => Promise<number[]>;
  /** clipboard=1: puts the citation on the clipboard; absent: the request says it cannot. */
  copy?: (text: string) => Promise<void>;
  /** minimize=1 */
  minimize?: () => void;
  /**
   * Folders editors may use for this run besides those in Settings → Editors (`citewise api
   * --allow-folder`): collection.scanAUX reads .aux files and autoexport.add writes files only there.
   */
  allowFolders?: readonly string[];
  limits?: Partial<ApiLimits>;
  logger?: Logger;
}

export interface ApiServer {
  readonly port: number;
  readonly origin: string;
  /** The word-processor integration (its transport says whether a command is running). */
  readonly integration: IntegrationEndpoints;
  /** Pickers waiting for the user. */
  readonly pickers: PickerHub;
  /** Connections held now and dropped so far (tests). */
  readonly connections: ConnectionLimit;
  /** Where exports wait their turn, once the library is open (tests hold it to see the queue). */
  exports(): Promise<ExportGate>;
  close(): Promise<void>;
}

/** The port is taken, most likely by Zotero or JabRef, which answer on the same port; `suggested` was free a moment ago. */
export class ApiPortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly suggested: number = port + 1,
  ) {
    super(
      port === DEFAULT_API_PORT
        ? `Port ${port} is in use (Zotero or JabRef may be running); run \`citewise api --port ${suggested}\` or choose another port in Settings → Editors.`
        : `Port ${port} is in use; run \`citewise api --port ${suggested}\` or choose another port in Settings → Editors.`,
    );
    this.name = 'ApiPortInUseError';
  }
}

/** How far above a taken port a free one is looked for. */
const PORT_SEARCH = 20;

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, LOOPBACK, () => probe.close(() => resolve(true)));
  });
}

/** The first free loopback port after `port` (within PORT_SEARCH), else one the system picks. */
export async function freePortAfter(port: number): Promise<number> {
  for (let p = port + 1; p <= Math.min(65535, port + PORT_SEARCH); p++) if (await portFree(p)) return p;
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, LOOPBACK, () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    ...extra,
  });
  res.end(body);
}

const plain = (res: ServerResponse, status: number, body: string) =>
  send(res, status, 'text/plain; charset=utf-8', body);

/** A JSON-RPC error for the request as a whole (HTTP 200, as Better BibTeX answers). */
const rpcFailure = (res: ServerResponse, code: number, message: string) =>
  send(res, 200, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));

/** The body as text; null (and nothing more read) once it is longer than `limit`. */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // The answer says so and closes the connection: the rest is never read.
        req.off('data', onData);
        req.pause();
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The media type of a Content-Type header, lower case, without parameters; undefined when absent. */
function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.split(';')[0]!.trim().toLowerCase();
}

/** A signal that aborts when the client closes the connection before the answer is sent. */
function clientGone(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** Whether a JSON-RPC body calls nothing but `api.ready` (answered before the library is open). */
function onlyReady(text: string): boolean {
  if (!text.includes('api.ready')) return false;
  try {
    const body: unknown = JSON.parse(text);
    const calls = Array.isArray(body) ? body : [body];
    return (
      calls.length > 0 &&
      calls.every((c) => typeof c === 'object' && c !== null && (c as { method?: unknown }).method === 'api.ready')
    );
  } catch {
    return false;
  }
}

const EARLY_METHODS: RpcMethods = { 'api.ready': API_READY };

interface Opened {
  library: EditorLibrary;
  methods: RpcMethods;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const logger = options.logger ?? silentLogger;
  const limits: ApiLimits = { ...DEFAULT_API_LIMITS, ...options.limits };
  // Settled once the core is up; until then `opened` is null and requests wait on `opening`.
  let opened: Opened | null = null;
  const opening: Promise<Opened> = Promise.resolve(options.core).then((core) => {
    const library = new EditorLibrary(core, { maxWaitingExports: limits.maxWaitingExports });
    const folders = async (): Promise<string[]> => [
      ...((await library.call('settings.get', {})).editorApiFolders ?? []),
      ...(options.allowFolders ?? []),
    ];
    opened = { library, methods: editorMethods(library, { folders }) };
    return opened;
  });
  // A core that fails to start is the host's to report; the requests that waited get a 503.
  opening.catch(() => {});
  const ready = async (): Promise<Opened> => opened ?? opening;
  const pickers = new PickerHub(options.openPicker);
  const selection = options.selection ?? (async () => (await ready()).library.call('library.selection.get', {}));
  const report = (err: unknown) => logger.error('editor API request failed', err);
  let port = 0;

  async function caywRequest(_req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // Editors probe before they offer to cite: answered at once, the library open or not.
    if (isProbe(url.searchParams)) return plain(res, 200, 'ready');
    const { library } = await ready();
    const picking = (url.searchParams.get('selected') ?? '') === '';
    if (picking && pickers.open >= limits.maxPickers)
      return send(
        res,
        503,
        'text/plain; charset=utf-8',
        `Citewise: ${pickers.open} pickers are already waiting for you; answer or close one first.\n`,
        {
          'Retry-After': '5',
        },
      );
    const gone = clientGone(res);
    const answer = await cayw(url.searchParams, {
      library,
      // The editor gave up (closed the connection): the picker closes too.
      pick: () => pickers.pick(`http://${LOOPBACK}:${port}`, gone),
      selection,
      copy: options.copy ?? (() => Promise.reject(new Error('this Citewise cannot reach the clipboard'))),
      minimize: options.minimize ?? (() => {}),
      signal: gone,
    });
    return plain(res, answer.status, answer.body);
  }

  async function jsonRpcRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    let text: string;
    let mayWrite = false;
    if (req.method === 'POST') {
      // As Zotero's server: a body of another type is refused (no Content-Type at all passes). Only
      // application/json, which a web page cannot send here without a preflight, may change data.
      const type = mediaType(req.headers['content-type']);
      if (type !== undefined && type !== 'application/json')
        return plain(res, 400, `Citewise: the JSON-RPC endpoint takes application/json, not ${type}.\n`);
      mayWrite = type === 'application/json';
      const body = await readBody(req, MAX_BODY_BYTES);
      if (body === null) {
        res.setHeader('Connection', 'close');
        return plain(res, 413, `Citewise: a JSON-RPC request may have at most ${MAX_BODY_BYTES} bytes.\n`);
      }
      text = body;
    } else {
      // zotero.lua sends the call as the query string itself (…/json-rpc?%7B%22jsonrpc%22…).
      try {
        text = decodeQuery(url.search.slice(1));
      } catch {
        return rpcFailure(res, PARSE_ERROR, 'Parse error: the query is not valid percent-encoding');
      }
    }
    if (text.trim() === '') return rpcFailure(res, INVALID_REQUEST, 'Invalid Request: the body is empty');
    const context = { signal: clientGone(res), mayWrite, maxBatchAnswerChars: limits.maxBatchAnswerChars };
    if (opened === null && onlyReady(text))
      return send(res, 200, 'application/json', await handleRpcText(EARLY_METHODS, text, report, context));
    const { methods } = await ready();
    return send(res, 200, 'application/json', await handleRpcText(methods, text, report, context));
  }

  async function pullExportRequest(_req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { library } = await ready();
    const answer = await pullExport(url, library, selection, clientGone(res));
    return send(res, answer.status, answer.type, answer.body, answer.headers);
  }

  async function pickerRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const pageHeaders = { 'Content-Security-Policy': PICKER_CSP, 'Cross-Origin-Opener-Policy': 'same-origin' };
    if (!hostAllowed(req, port))
      return plain(res, 403, 'Citewise: the Host header must be 127.0.0.1 or localhost with this port.\n');
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${LOOPBACK}:${port}` && origin !== `http://localhost:${port}`)
      return plain(res, 403, 'Citewise: not from the picker page.\n');
    const rest = url.pathname.slice(PICKER_PATH.length);
    if (req.method === 'GET' && rest === 'app.js')
      return send(res, 200, 'text/javascript; charset=utf-8', PICKER_JS, pageHeaders);
    if (req.method === 'GET' && rest === 'app.css')
      return send(res, 200, 'text/css; charset=utf-8', PICKER_CSS, pageHeaders);
    if (req.method === 'GET' && rest === 'prefs.js')
      return send(res, 200, 'text/javascript; charset=utf-8', PREFS_JS, pageHeaders);
    if (req.method === 'GET' && rest === 'prefs.css')
      return send(res, 200, 'text/css; charset=utf-8', PREFS_CSS, pageHeaders);
    const [id = '', action] = rest.split('/');
    if (action === undefined) {
      if (req.method !== 'GET') return plain(res, 405, 'Citewise: method not allowed.\n');
      if (!pickers.exists(id))
        return send(
          res,
          404,
          'text/plain; charset=utf-8',
          'Citewise: this picker is closed (the editor stopped waiting, or it was answered).\n',
          pageHeaders,
        );
      return send(res, 200, 'text/html; charset=utf-8', pickers.formOf(id) ? PREFS_HTML : PICKER_HTML, pageHeaders);
    }
    const token = req.headers[PICKER_TOKEN_HEADER];
    if (!pickers.authorised(id, typeof token === 'string' ? token : undefined))
      return plain(res, 403, 'Citewise: this picker is closed or the request is not from it.\n');
    if (action === 'search' && req.method === 'GET') {
      const q = (url.searchParams.get('q') ?? '').slice(0, 2000);
      const hits = await pickerSearch((await ready()).library, q);
      if ('error' in hits) return send(res, 400, 'application/json', JSON.stringify(hits));
      return send(res, 200, 'application/json', JSON.stringify({ hits: hits.rows }));
    }
    const form = pickers.formOf(id);
    if (form && action === 'options' && req.method === 'GET')
      return send(res, 200, 'application/json', JSON.stringify(form.options));
    if (form && action === 'done' && req.method === 'POST') {
      const body = await readBody(req, 1024 * 1024);
      let answer: unknown;
      try {
        answer = form.parse(JSON.parse(body ?? ''));
      } catch (err) {
        return plain(res, 400, `Citewise: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      pickers.finish(id, answer);
      return plain(res, 200, 'ok\n');
    }
    if (action === 'done' && req.method === 'POST') {
      const body = await readBody(req, 1024 * 1024);
      let picks: Pick[];
      try {
        picks = parsePicks(JSON.parse(body ?? ''));
      } catch (err) {
        return plain(res, 400, `Citewise: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      pickers.finish(id, picks);
      return plain(res, 200, 'ok\n');
    }
    if (action === 'cancel' && req.method === 'POST') {
      pickers.finish(id, null);
      return plain(res, 200, 'ok\n');
    }
    return plain(res, 404, 'Citewise: not found.\n');
  }

  // Better BibTeX's endpoints as it routes them (content/json-rpc.ts, pull-export.ts), and the picker.
  const routes = new RouteTable()
    .add('/better-bibtex/cayw', ['GET'], caywRequest)
    .add('/better-bibtex/json-rpc', ['GET', 'POST'], jsonRpcRequest)
    .add(PULL_EXPORT_PATHS, ['GET'], pullExportRequest)
    .addPrefix(PICKER_PATH, ['GET', 'POST'], pickerRequest, 'own');

  // The Zotero Connector's /connector/ and Zotero's local Web API /api/ (zotero-routes.ts), each with its own guard.
  const apiCore = async () => (await ready()).library.core;
  const wordStyles = assetStyles(undefined, coreInstalledStyles(apiCore));
  const integration = new IntegrationEndpoints({
    port: () => port,
    sessions: new IntegrationSessions({
      library: coreIntegrationLibrary(apiCore),
      dialogs: pickerDialogs(pickers, () => `http://${LOOPBACK}:${port}`, apiCore, wordStyles),
      styles: wordStyles,
      version: ZOTERO_VERSION,
      uriPrefix: ITEM_URI_PREFIX,
    }),
  });
  const zotero = zoteroRoutes({ port: () => port, core: apiCore }, integration);

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (zotero.serves(url.pathname)) return zotero.handle(req, res, url);
    const found = routes.match(url.pathname);
    if (found?.guard !== 'own') {
      // Unknown paths too: a web page learns nothing from this server, not even what it serves.
      const refusal = refuseEditorRequest(req, port);
      if (refusal) return plain(res, refusal.status, `${refusal.message}\n`);
    }
    if (!found)
      return plain(
        res,
        404,
        `Citewise: no endpoint ${url.pathname}. The editor API answers /better-bibtex/cayw, /better-bibtex/json-rpc and the pull exports (/better-bibtex/library, /collection, /select, /export…); the Zotero Connector's /connector/ and Zotero's local API /api/.\n`,
      );
    if (!RouteTable.allows(found, req.method))
      return send(
        res,
        405,
        'text/plain; charset=utf-8',
        `Citewise: ${url.pathname} takes ${found.methods.join(' or ')}, not ${req.method}.\n`,
        { Allow: found.methods.join(', ') },
      );
    return found.handle(req, res, url);
  }

  const server = createServer({ connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs) }, (req, res) => {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    route(req, res, url).catch((err: unknown) => {
      if (err instanceof ClientGoneError) return;
      if (err instanceof BusyError)
        return send(res, 503, 'text/plain; charset=utf-8', `Citewise: ${err.message}\n`, { 'Retry-After': '5' });
      if (opened === null)
        return plain(
          res,
          503,
          `Citewise: the library could not be opened: ${err instanceof Error ? err.message : String(err)}\n`,
        );
      report(err);
      plain(res, 500, `Citewise: the request failed: ${err instanceof Error ? err.message : String(err)}\n`);
    });
  });
  // The request must arrive in time (a held pick is an answer that waits, which these do not limit).
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const connections = limitConnections(server, limits.maxConnections);

  await new Promise<void>((resolve, reject) => {
    const wanted = options.port ?? DEFAULT_API_PORT;
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      freePortAfter(wanted).then(
        (free) => reject(new ApiPortInUseError(wanted, free)),
        () => reject(new ApiPortInUseError(wanted)),
      );
    };
    server.once('error', onError);
    server.listen(wanted, LOOPBACK, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The editor API could not read its own address');
  port = address.port;

  return {
    port,
    origin: `http://${LOOPBACK}:${port}`,
    pickers,
    integration,
    connections,
    exports: async () => (await ready()).library.exports,
    async close() {
      pickers.cancelAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The badge a hit shows for its paper's notices (a retraction shows as Retracted from the row itself). */
const NOTICE_BADGES: Record<ItemStatus, string | null> = {
  none: null,
  correction: 'Corrected',
  'expression-of-concern': 'Expression of concern',
  withdrawn: 'Withdrawn',
  retracted: 'Retracted',
};

/** The picker's search: the library's own query language, or its words when the query does not parse. */
async function pickerSearch(library: EditorLibrary, q: string) {
  if (q.trim() === '') return { rows: [] };
  let rows;
  try {
    rows = await library.search(q, PICKER_HITS);
  } catch {
    const words = freeTextQuery(q);
    if (words === '') return { rows: [] };
    try {
      rows = await library.search(words, PICKER_HITS);
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }
  const flagged = await library.flagged();
  return {
    rows: rows.map((r) => ({
      citationKey: r.citationKey,
      title: r.title,
      creators: r.creators,
      year: r.year,
      container: r.container,
      evidence: r.evidence,
      retracted: r.retracted,
      notice: NOTICE_BADGES[flagged.get(r.id) ?? 'none'],
    })),
  };
}
