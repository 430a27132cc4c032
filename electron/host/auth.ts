import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function cookieName(port: number): string {
  // Cookies ignore ports, so two instances on one machine each need their own name.
  return `citewise_${port}`;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export type TokenSource = 'query' | 'cookie' | 'header' | null;

/**
 * Where a request carried a valid credential: the launch token in the URL's query, the session cookie
 * the first visit got for it (`session`, a secret of its own: the launch token in a browser's history
 * is not the cookie), or the launch token as a Bearer header (programmatic clients).
 */
export function tokenSource(
  req: IncomingMessage,
  url: URL,
  token: string,
  port: number,
  session: string = token,
): TokenSource {
  const q = url.searchParams.get('token');
  if (q !== null && safeEqual(q, token)) return 'query';
  const c = cookieValue(req.headers.cookie, cookieName(port));
  if (c !== undefined && safeEqual(c, session)) return 'cookie';
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ') && safeEqual(auth.slice(7), token)) return 'header';
  return null;
}

/** Accepts only our own loopback origin in the Host header, which defeats DNS rebinding. */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

export function originAllowed(origin: string | undefined, port: number): boolean {
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}
