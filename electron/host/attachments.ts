// Browser mode: an item's attached file, served to the session that holds the per-launch token (the
// server checks the token cookie before anything reaches here), so "Open" shows a PDF in a browser
// tab. The core's own open handler decides what may be opened (the attachment exists, is readable and
// is not a program); only types a browser shows safely are shown inline, anything else downloads.
import { createReadStream, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { basename, extname } from 'node:path';
import type { OpenedAttachment } from '../../shared/ipc';
import type { Core } from '../core';

/** Where the renderer points a browser tab to open an attachment: /attachments/ITEM/ATTACHMENT. */
export const ATTACHMENT_ROUTE = /^\/attachments\/(\d{1,15})\/(\d{1,15})$/;

/** Shown in the tab (inline): types a browser renders itself without running anything from the file. */
const INLINE: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
};

/** Content-Disposition's filename, ASCII and quoted, with the UTF-8 name beside it (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Answers GET /attachments/ITEM/ATTACHMENT: the file with its type, or the core's refusal as text
 * (404 not found or missing, 403 a program). Nothing from the file can script the app: it is its own
 * document under a CSP that allows no script (a PDF is shown by the browser's viewer).
 */
export async function serveAttachment(
  core: Core,
  res: ServerResponse,
  match: RegExpMatchArray,
  refuse: (res: ServerResponse, status: number, text: string) => void,
  head: boolean,
): Promise<void> {
  const itemId = Number(match[1]);
  const id = Number(match[2]);
  const result = await core.invoke('library.attachments.open', { itemId, id });
  if (!result.ok) {
    const status = result.error.code === 'FORBIDDEN' ? 403 : result.error.code === 'NOT_FOUND' ? 404 : 400;
    return refuse(res, status, `Citewise: ${result.error.message}\n`);
  }
  const { path } = result.value as OpenedAttachment;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return refuse(res, 404, `Citewise: ${basename(path)} cannot be read now.\n`);
  }
  const type = INLINE[extname(path).toLowerCase()];
  res.writeHead(200, {
    // The viewer needs nothing from this origin: no script, no connection, no frame of the app.
    'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    'Content-Type': type ?? 'application/octet-stream',
    'Content-Length': String(size),
    'Content-Disposition': disposition(type ? 'inline' : 'attachment', basename(path)),
  });
  if (head) return void res.end();
  const stream = createReadStream(path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
