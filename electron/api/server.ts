// The local API for editors: Better BibTeX's endpoints on 127.0.0.1 (port 23119 by default, which
// its clients hard-code) over the same core as the app, plus the picker page. See guard.ts for who
// may call it, json-rpc.ts / methods.ts, cayw.ts and pull-export.ts for the endpoints.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { ItemStatus } from '../../shared/model/item-status';
import { silentLogger, type Logger } from '../core/log';
import type { Pick } from './cayw-format';
import { cayw, isProbe } from './cayw';
import { hostAllowed, refuseEditorRequest } from './guard';
import { handleRpcText, INVALID_REQUEST, type RpcMethods } from './json-rpc';
import { EditorLibrary, type ApiCore } from './library';
import { API_READY, editorMethods } from './methods';
import { parsePicks, PickerHub, PICKER_PATH, PICKER_TOKEN_HEADER, type OpenPicker } from './picker';
import { PICKER_CSP, PICKER_CSS, PICKER_HTML, PICKER_JS } from './picker-page';
import { decodeQuery, isPullExport, pullExport } from './pull-export';
import { freeTextQuery } from './search-query';
import { zoteroRoutes } from './zotero-routes';

export const DEFAULT_API_PORT = 23119;
export const LOOPBACK = '127.0.0.1';
/** The largest JSON-RPC request body read. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Hits the picker shows per search. */
const PICKER_HITS = 30;

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
  logger?: Logger;
}

export interface ApiServer {
  readonly port: number;
  readonly origin: string;
  /** Pickers waiting for the user. */
  readonly pickers: PickerHub;
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

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(null);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
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
  // Settled once the core is up; until then `opened` is null and requests wait on `opening`.
  let opened: Opened | null = null;
  const opening: Promise<Opened> = Promise.resolve(options.core).then((core) => {
    const library = new EditorLibrary(core);
    opened = { library, methods: editorMethods(library) };
    return opened;
  });
  // A core that fails to start is the host's to report; the requests that waited get a 503.
  opening.catch(() => {});
  const ready = async (): Promise<Opened> => opened ?? opening;
  const pickers = new PickerHub(options.openPicker);
  const selection = options.selection ?? (async () => (await ready()).library.call('library.selection.get', {}));
  const report = (err: unknown) => logger.error('editor API request failed', err);
  let port = 0;

  async function editorRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const refusal = refuseEditorRequest(req, port);
    if (refusal) return plain(res, refusal.status, `${refusal.message}\n`);
    const path = url.pathname;
    // Editors probe before they offer to cite: answered at once, the library open or not.
    if (path === '/better-bibtex/cayw' && req.method === 'GET' && isProbe(url.searchParams))
      return plain(res, 200, 'ready');
    if (path === '/better-bibtex/json-rpc') {
      let text: string;
      if (req.method === 'POST') {
        const body = await readBody(req, MAX_BODY_BYTES);
        if (body === null)
          return plain(res, 413, `Citewise: a JSON-RPC request may have at most ${MAX_BODY_BYTES} bytes.\n`);
        text = body;
      } else if (req.method === 'GET') {
        // zotero.lua sends the call as the query string itself (…/json-rpc?%7B%22jsonrpc%22…).
        try {
          text = decodeQuery(url.search.slice(1));
        } catch {
          text = '';
        }
      } else {
        return plain(res, 405, 'Citewise: the JSON-RPC endpoint takes POST (or GET with the call as the query).\n');
      }
      if (text.trim() === '')
        return send(
          res,
          200,
          'application/json',
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: INVALID_REQUEST, message: 'Invalid Request: the body is empty' },
          }),
        );
      if (opened === null && onlyReady(text))
        return send(res, 200, 'application/json', await handleRpcText(EARLY_METHODS, text, report));
      const { methods } = await ready();
      return send(res, 200, 'application/json', await handleRpcText(methods, text, report));
    }
    if (req.method !== 'GET') return plain(res, 405, 'Citewise: this endpoint takes GET.\n');
    const { library } = await ready();
    if (path === '/better-bibtex/cayw') {
      const gone = new AbortController();
      // The editor gave up (closed the connection): the picker closes too.
      res.on('close', () => gone.abort());
      const answer = await cayw(url.searchParams, {
        library,
        pick: () => pickers.pick(`http://${LOOPBACK}:${port}`, gone.signal),
        selection,
        copy: options.copy ?? (() => Promise.reject(new Error('this Citewise cannot reach the clipboard'))),
        minimize: options.minimize ?? (() => {}),
      });
      return plain(res, answer.status, answer.body);
    }
    if (isPullExport(path)) {
      const answer = await pullExport(path, url.search.slice(1), library, selection);
      return send(res, answer.status, answer.type, answer.body);
    }
    return plain(
      res,
      404,
      `Citewise: no endpoint ${path}. The editor API answers /better-bibtex/cayw, /better-bibtex/json-rpc and the pull exports.\n`,
    );
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
      return send(res, 200, 'text/html; charset=utf-8', PICKER_HTML, pageHeaders);
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

  // The Zotero Connector's /connector/ and Zotero's local Web API /api/ (zotero-routes.ts).
  const zotero = zoteroRoutes({ port: () => port, core: async () => (await ready()).library.core });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    const handle = url.pathname.startsWith(PICKER_PATH)
      ? pickerRequest(req, res, url)
      : zotero.serves(url.pathname)
        ? zotero.handle(req, res, url)
        : editorRequest(req, res, url);
    handle.catch((err: unknown) => {
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
  // A held CAYW request waits for the user as long as it takes.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;

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
