// The app:// protocol's decisions, without Electron: which file of the built renderer a URL names (or
// none), and the headers every response carries, a 404 included.
import { join, normalize, sep } from 'node:path';

export const APP_HOST = 'citewise';

/** The file under `rendererDir` that `requestUrl` names; null for another host, a malformed path or an escape. */
export function rendererFile(requestUrl: string, rendererDir: string): string | null {
  let url: URL;
  let path: string;
  try {
    url = new URL(requestUrl);
    path = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  } catch {
    return null;
  }
  if (url.host !== APP_HOST || path.includes('\0')) return null;
  const relative = normalize(path).replace(/^([/\\])+/, '');
  const file = join(rendererDir, relative);
  return file.startsWith(rendererDir + sep) ? file : null;
}

/** The same policy on every answer: the page's CSP, and no content sniffing. */
export function withSecurityHeaders(response: Response, csp: string): Response {
  const headers = new Headers(response.headers);
  headers.set('Content-Security-Policy', csp);
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(response.body, { status: response.status, headers });
}

export function notFound(csp: string): Response {
  return withSecurityHeaders(
    new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
    csp,
  );
}
