import { createReadStream, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Resolves a URL path inside `root`, or null when it would leave it or names no file. */
export function resolveStatic(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '');
  const full = join(root, relative);
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    return statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

export function sendFile(res: ServerResponse, file: string, headers: Record<string, string>): void {
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  // Hashed assets can be cached; index.html carries no hash and must always be fresh.
  const cache = file.endsWith('.html') ? 'no-store' : 'private, max-age=31536000, immutable';
  res.writeHead(200, { ...headers, 'Content-Type': type, 'Cache-Control': cache });
  createReadStream(file).pipe(res);
}
