// Who may talk to the Zotero Connector's endpoints: Zotero's own rules, and more. The Host must name
// this machine (DNS rebinding); a browser's request must carry the Connector's header
// (X-Zotero-Connector-API-Version, or Zotero-Allowed-Request), which a web page cannot add without a
// CORS preflight that is never granted (no Access-Control-Allow-* header is ever sent); an Origin
// other than a browser extension's is refused outright, whatever headers come with it; only a
// navigation may GET /connector/ping without them (Zotero's "Zotero is running" page). A refused
// request gets no answer at all, as from Zotero: the connection is closed, so a page cannot even
// learn that Citewise is running.
import type { IncomingMessage } from 'node:http';

/** The origins of browser extensions: the Connector's background page (Chrome, Edge, Firefox, Safari). */
const EXTENSION_ORIGIN = /^(?:chrome-extension|moz-extension|safari-web-extension|ms-browser-extension):\/\/[\w.-]+$/i;

/** Zotero's Host rule (127.0.0.1, [::1] or localhost), and this server's port. */
export function connectorHostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host?.toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

/** Whether a request may reach the Connector's endpoints (false: close the connection without a word). */
export function connectorRequestAllowed(req: IncomingMessage, path: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && !EXTENSION_ORIGIN.test(origin)) return false;
  if (origin === 'null') return false;
  const agent = req.headers['user-agent'] ?? '';
  const fromBrowser = agent.startsWith('Mozilla/') || origin !== undefined;
  if (!fromBrowser) return true;
  if (
    req.headers['x-zotero-connector-api-version'] !== undefined ||
    req.headers['zotero-allowed-request'] !== undefined
  )
    return true;
  return path === '/connector/ping' && req.method === 'GET' && req.headers['sec-fetch-mode'] === 'navigate';
}

/** Whether a request may read the local Web API: as Zotero, no browser without its header, and never a foreign page. */
export function localApiRequestAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && !EXTENSION_ORIGIN.test(origin)) return false;
  const agent = req.headers['user-agent'] ?? '';
  if (!agent.startsWith('Mozilla/') && origin === undefined) return true;
  return (
    req.headers['zotero-allowed-request'] !== undefined || req.headers['x-zotero-connector-api-version'] !== undefined
  );
}
