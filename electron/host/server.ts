// Host mode: the same core behind a server bound to 127.0.0.1. It serves the built renderer and a
// WebSocket carrying the IPC contract. Every HTTP and WebSocket request needs a credential: the
// per-launch token, which works once, in whatever form it first comes (the printed address, a
// Bearer header, the WebSocket's ?token=), or the session cookie the printed address was exchanged
// for. Anyone who reads the token later (terminal scrollback, shell history) finds it spent.
// Connections are capped as for the editor API (core/net/connections.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { WS_MAX_MESSAGE_BYTES, WS_PATH, type ServerMessage } from '../../shared/ipc';
import type { Core } from '../core';
import { buildCsp } from '../core/csp';
import { silentLogger, type Logger } from '../core/log';
import { limitConnections, type ConnectionLimit } from '../core/net/connections';
import { cookieName, hostAllowed, newToken, originAllowed, tokenSource } from './auth';
import { resolveStatic, sendFile } from './static';
import { ATTACHMENT_ROUTE, serveAttachment } from './attachments';
import { receiveUpload, UPLOAD_ROUTE } from './uploads';

export const LOOPBACK = '127.0.0.1';

export interface HostOptions {
  core: Core;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token for tests; a random one otherwise. */
  token?: string;
  /** Connections held at once (the longest-idle gives way beyond); tests lower it. */
  maxConnections?: number;
  /** Headers (and the request) must arrive within this; a connection that sends nothing is closed after it. */
  headersTimeoutMs?: number;
  logger?: Logger;
}

/** Connections browser mode holds at once: its page opens a few, and a WebSocket. */
export const HOST_MAX_CONNECTIONS = 128;

export interface Host {
  readonly origin: string;
  /** The address to open: the origin with the token, which the server swaps for a cookie. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Open WebSocket connections, for tests that check nothing leaks. */
  connectionCount(): number;
  /** Connections held now and dropped so far (tests). */
  readonly connections: ConnectionLimit;
  close(): Promise<void>;
}

const UNAUTHORIZED_PAGE =
  'Citewise: this address needs the token printed when Citewise started. Open the full URL it printed (it ends in ?token=…).\n';
const USED_TOKEN_PAGE =
  "Citewise: this address was already opened once, and its token works only once (so that it is useless in a browser history or a terminal's scrollback). Open the window that used it, or restart Citewise for a new address.\n";

export async function startHost(options: HostOptions): Promise<Host> {
  const { core, rendererDir } = options;
  const logger = options.logger ?? silentLogger;
  const token = options.token ?? newToken();
  // The session cookie's value: its own secret, handed out when the printed address is first opened.
  const session = newToken();
  // The launch token works once, as a page address, a Bearer header or a WebSocket's ?token=; later
  // uses in any form are refused (a reload by the browser that has the session cookie aside).
  let launchTokenUsed = false;
  const sockets = new Set<WebSocket>();
  let port = 0;

  const securityHeaders = (): Record<string, string> => ({
    'Content-Security-Policy': buildCsp({ connectSrc: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
  });

  const refuse = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, {
      ...securityHeaders(),
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    res.end(text);
  };

  const server = createServer({ connectionsCheckingInterval: 1000 }, (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req, port)) return refuse(res, 403, 'Citewise: unexpected Host header.\n');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (req.method === 'POST' && url.pathname === UPLOAD_ROUTE) {
      const checks = {
        session: tokenSource(req, new URL('/', url), token, port, session) === 'cookie',
        origin: originAllowed(req.headers.origin, port),
      };
      void receiveUpload(req, res, url, core.uploads, checks, refuse, logger).catch((err: unknown) => {
        logger.error('Receiving an upload failed', err);
        if (!res.headersSent) refuse(res, 500, 'Citewise: the file could not be received.\n');
        else res.destroy();
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Citewise: method not allowed.\n');
    const source = tokenSource(req, url, token, port, session);
    if (source === null) return refuse(res, 401, UNAUTHORIZED_PAGE);
    if (source === 'header') {
      // A program's one request with the token (a page's own requests carry the cookie).
      if (launchTokenUsed) return refuse(res, 401, USED_TOKEN_PAGE);
      launchTokenUsed = true;
    }
    if (source === 'query') {
      const hasSession = tokenSource(req, new URL('/', url), token, port, session) === 'cookie';
      if (launchTokenUsed && !hasSession) return refuse(res, 401, USED_TOKEN_PAGE);
      launchTokenUsed = true;
      // Swap the token in the address bar for the session cookie, and go to the app's own root: never
      // to a path from the request, which "/.//evil.example/" would turn into an off-site address.
      res.writeHead(303, {
        ...securityHeaders(),
        ...(hasSession ? {} : { 'Set-Cookie': `${cookieName(port)}=${session}; HttpOnly; SameSite=Strict; Path=/` }),
        Location: '/',
        'Cache-Control': 'no-store',
      });
      return res.end();
    }
    const attachment = ATTACHMENT_ROUTE.exec(url.pathname);
    if (attachment) {
      void serveAttachment(core, res, attachment, refuse, req.method === 'HEAD').catch((err: unknown) => {
        logger.error('Sending an attachment failed', err);
        if (!res.headersSent) refuse(res, 500, 'Citewise: the file could not be sent.\n');
        else res.destroy();
      });
      return;
    }
    const file =
      resolveStatic(rendererDir, url.pathname) ??
      (extensionless(url.pathname) ? resolveStatic(rendererDir, '/') : null);
    if (!file) return refuse(res, 404, 'Citewise: not found.\n');
    sendFile(res, file, securityHeaders());
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_MESSAGE_BYTES });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const source = tokenSource(req, url, token, port, session);
    const origin = req.headers.origin;
    // Browsers always send Origin; a cookie alone must come from our own page, never another site's.
    const originOk = origin === undefined ? source === 'header' || source === 'query' : originAllowed(origin, port);
    // The token itself (not the cookie) works for one connection: the first program to use it.
    const spent = (source === 'header' || source === 'query') && launchTokenUsed;
    let status = 0;
    if (!hostAllowed(req, port) || url.pathname !== WS_PATH) status = 404;
    else if (source === null || spent) status = 401;
    else if (!originOk) status = 403;
    if (status === 0 && (source === 'header' || source === 'query')) launchTokenUsed = true;
    if (status !== 0) {
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  function serveSocket(ws: WebSocket): void {
    sockets.add(ws);
    const inflight = new AbortController();
    const send = (message: ServerMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      // Serialised inside a catch: a result too deep or too large for JSON must not take the server down.
      let text: string;
      try {
        text = JSON.stringify(message);
      } catch (err) {
        logger.warn(
          `Could not serialise a ${message.type} for the window: ${err instanceof Error ? err.message : String(err)}`,
        );
        if (message.type !== 'result') return;
        text = JSON.stringify({
          type: 'result',
          id: message.id,
          result: {
            ok: false,
            error: {
              code: 'INTERNAL',
              message: 'Citewise could not send this answer (it was too large or too deeply nested).',
            },
          },
        } satisfies ServerMessage);
      }
      ws.send(text);
    };
    const unsubscribe = core.events.onAny((name, payload) => send({ type: 'event', name, payload }));
    const onMessage = (data: RawData, isBinary: boolean): void => {
      let message: unknown;
      try {
        message = JSON.parse(isBinary ? '' : data.toString());
      } catch {
        ws.close(1007, 'Malformed message');
        return;
      }
      if (!isInvoke(message)) {
        const id = typeof (message as { id?: unknown } | null)?.id === 'number' ? (message as { id: number }).id : null;
        if (id === null) return void ws.close(1007, 'Malformed message');
        return send({
          type: 'result',
          id,
          result: {
            ok: false,
            error: {
              code: 'INVALID_INPUT',
              message: 'Malformed request: expected {type:"invoke", id, channel, input}.',
            },
          },
        });
      }
      const { id } = message;
      core.invoke(message.channel, message.input, inflight.signal).then(
        (result) => send({ type: 'result', id, result }),
        (err: unknown) => {
          logger.warn(`A request failed outside its handler: ${err instanceof Error ? err.message : String(err)}`);
          send({
            type: 'result',
            id,
            result: {
              ok: false,
              error: { code: 'INTERNAL', message: 'Citewise hit an unexpected error; details are in the log.' },
            },
          });
        },
      );
    };
    ws.on('message', (data, isBinary) => {
      // Nothing a message does may escape into the socket's event loop: that would end the server.
      try {
        onMessage(data, isBinary);
      } catch (err) {
        logger.warn(`A WebSocket message could not be handled: ${err instanceof Error ? err.message : String(err)}`);
        ws.close(1011, 'Could not handle the message');
      }
    });
    ws.on('close', () => {
      sockets.delete(ws);
      unsubscribe();
      inflight.abort();
    });
    ws.on('error', (err) => logger.warn(`WebSocket error: ${err.message}`));
  }

  // Requests must arrive in time (GET and HEAD only: no body to wait for), and the server holds a
  // bounded number of connections, the longest-idle giving way: idle connections by the thousand
  // made it unreachable. An open WebSocket counts as in use.
  const headersTimeout = options.headersTimeoutMs ?? 15_000;
  server.headersTimeout = headersTimeout;
  server.requestTimeout = headersTimeout;
  const connections = limitConnections(server, options.maxConnections ?? HOST_MAX_CONNECTIONS, { upgrades: true });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('Host mode could not read its own address');
  port = address.port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    url: `${origin}/?token=${token}`,
    port,
    token,
    connectionCount: () => sockets.size,
    connections,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function extensionless(pathname: string): boolean {
  return !pathname.slice(pathname.lastIndexOf('/') + 1).includes('.');
}

function isInvoke(m: unknown): m is { type: 'invoke'; id: number; channel: string; input: unknown } {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  return o.type === 'invoke' && typeof o.id === 'number' && Number.isSafeInteger(o.id) && typeof o.channel === 'string';
}
