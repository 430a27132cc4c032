// Who may talk to the editor API. Like Zotero's own server on this port: only this machine (the
// socket is bound to 127.0.0.1 and the Host header must name it, which defeats DNS rebinding), and
// no web page. A page's request carries an Origin header (fetch, XHR, forms), or is a plain
// navigation or subresource load with a browser's user agent; a program (curl, an editor, R, pandoc)
// sends neither. Zotero lets a browser user agent through only with its Zotero-Allowed-Request or
// X-Zotero-Connector-API-Version header, which a page cannot add without a CORS preflight that this
// server never grants.
import type { IncomingMessage } from 'node:http';

export interface Refusal {
  status: number;
  message: string;
}

export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

export function fromBrowser(req: IncomingMessage): boolean {
  const agent = req.headers['user-agent'] ?? '';
  if (!agent.startsWith('Mozilla/')) return false;
  return (
    req.headers['zotero-allowed-request'] === undefined && req.headers['x-zotero-connector-api-version'] === undefined
  );
}

/** Why a request to the Better BibTeX endpoints is refused, or null when it may proceed. */
export function refuseEditorRequest(req: IncomingMessage, port: number): Refusal | null {
  if (!hostAllowed(req, port))
    return { status: 403, message: 'Citewise: the Host header must be 127.0.0.1 or localhost with this port.' };
  if (req.headers.origin !== undefined)
    return {
      status: 403,
      message: 'Request not allowed: Citewise answers editors and scripts on this computer, not web pages.',
    };
  if (fromBrowser(req)) {
    return {
      status: 403,
      message:
        'Request not allowed: a browser request needs the Zotero-Allowed-Request header (Citewise answers editors and scripts, not web pages).',
    };
  }
  return null;
}
