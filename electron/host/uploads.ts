// Browser mode: a file chosen for import, sent by the app's own page as the raw body of
// POST /uploads/import?name=NAME and streamed to a temporary file of the core's (core/chosen-files.ts),
// so that the import reads it by path, as the desktop app and the CLI do: its text never crosses the
// WebSocket. The server checked the Host before anything reaches here; this checks the rest: the
// session cookie (never the launch token: a program imports with `citewise import`), the page's own
// Origin, the name, and the size, counted as the bytes arrive.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { MAX_IMPORT_CHARS } from '../../shared/ipc/wire';
import type { PdfSelection } from '../../shared/ipc';
import type { Logger } from '../core/log';

export const UPLOAD_ROUTE = '/uploads/import';

/**
 * The most bytes an upload may hold: UTF-8 takes at most 3 bytes per character (4 for a pair), so a
 * file over 3 × the import's character bound is over that bound too, and is refused unread.
 */
export const MAX_UPLOAD_BYTES = 3 * MAX_IMPORT_CHARS;

export interface UploadTarget {
  path(): string;
  adopt(path: string, name: string): PdfSelection;
}

/** A file name as a browser gives it: no folder, no control characters, not empty. */
function checkedName(name: string | null): string | null {
  if (name === null) return null;
  const trimmed = name.trim();
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (trimmed === '' || trimmed.length > 255 || /[/\\\u0000-\u001f\u007f]/.test(trimmed)) return null;
  return trimmed;
}

class TooLarge extends Error {}

/**
 * Answers POST /uploads/import (already checked: Host, and the session cookie as `session`): 200 with
 * the selection as JSON, or a refusal in plain text saying what was wrong. A refused or broken upload
 * leaves no file behind.
 */
export async function receiveUpload(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  target: UploadTarget,
  checks: { session: boolean; origin: boolean },
  refuse: (res: ServerResponse, status: number, text: string) => void,
  logger: Logger,
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<void> {
  // One upload per connection: a refusal is sent before the body is read.
  res.setHeader('Connection', 'close');
  // The page's own fetch carries its cookie and its Origin; anything else is not the app.
  if (!checks.session) return refuse(res, 401, 'Citewise: uploads come from the app’s own page only.\n');
  if (!checks.origin) return refuse(res, 403, 'Citewise: this upload does not come from the app’s page.\n');
  const name = checkedName(url.searchParams.get('name'));
  if (name === null)
    return refuse(res, 400, 'Citewise: the upload needs the file’s name (?name=), without a folder.\n');
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  const mb = Math.round((maxBytes / 1024 / 1024) * 100) / 100;
  const tooLarge = `Citewise: ${name} is larger than the ${mb} MB a file to import may be; import it with citewise import.\n`;
  if (Number.isFinite(declared) && declared > maxBytes) return refuse(res, 413, tooLarge);
  const path = target.path();
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > maxBytes ? new TooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(req, count, createWriteStream(path, { flags: 'wx' }));
  } catch (err) {
    await rm(path, { force: true });
    if (err instanceof TooLarge) return refuse(res, 413, tooLarge);
    const code = (err as { code?: string }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT')
      return refuse(res, 507, `Citewise: the disk is full; ${name} could not be received for import.\n`);
    // The page went away mid-upload: nobody is waiting for an answer.
    if (req.destroyed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    logger.error('An upload failed', err);
    return refuse(res, 500, `Citewise: ${name} could not be received for import.\n`);
  }
  if (received === 0) {
    await rm(path, { force: true });
    return refuse(res, 400, `Citewise: ${name} is empty.\n`);
  }
  const selection = target.adopt(path, name);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(selection));
}
