// The reader's side of the core (shared/ipc/reader.ts): which attached file may be read (it is there,
// readable, and a PDF), its bytes in ranges, and the page last shown of each file.
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { readerFeature } from '../../../shared/ipc';
import type { Attachment } from '../../../shared/model/library';
import { CoreError } from '../errors';
import type { AsyncFulltext, AsyncLibrary } from '../library/client';
import type { FeatureHandlers } from '../registry';
import { assertReadable } from './attachments';

export interface ReaderHandlerDeps {
  library: { lib: Pick<AsyncLibrary, 'getItem'>; fulltext: Pick<AsyncFulltext, 'readerPage' | 'rememberReaderPage'> };
}

/** PDF 1.7 (ISO 32000-1, 7.5.2) lets the header start anywhere in the first 1,024 bytes. */
const HEADER_WINDOW = 1024;

/** Files opened lately, so reading a range does not look the attachment up again. */
const RECENT_FILES = 8;

interface ReadableFile {
  attachment: Attachment;
  name: string;
  size: number;
  key: string;
}

/** The file's key in reader_positions (migration 0030). */
function fileKey(a: Attachment): string {
  return a.sha256 ?? `path:${a.path}`;
}

async function pdfHeaderAt(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEADER_WINDOW);
    const { bytesRead } = await handle.read(head, 0, HEADER_WINDOW, 0);
    return head.subarray(0, bytesRead).includes('%PDF-', 0, 'latin1');
  } finally {
    await handle.close();
  }
}

export function readerHandlers(deps: ReaderHandlerDeps) {
  const { lib, fulltext } = deps.library;
  const recent = new Map<string, ReadableFile>();

  const resolve = async (itemId: number, id: number): Promise<ReadableFile> => {
    const a = (await lib.getItem(itemId)).attachments.find((x) => x.id === id);
    if (!a) throw new CoreError('NOT_FOUND', `Item ${itemId} has no attachment ${id}.`);
    const name = a.originalName ?? basename(a.path);
    await assertReadable(a);
    let isPdf: boolean;
    let size: number;
    try {
      isPdf = await pdfHeaderAt(a.path);
      const handle = await open(a.path, 'r');
      try {
        size = (await handle.stat()).size;
      } finally {
        await handle.close();
      }
    } catch {
      throw new CoreError('NOT_FOUND', `${name} could not be read at ${a.path}.`);
    }
    if (!isPdf)
      throw new CoreError(
        'INVALID_INPUT',
        `${name} is not a PDF (it has no PDF header in its first ${HEADER_WINDOW} bytes); the reader shows PDFs only. Open it from the attachment list instead.`,
      );
    const file = { attachment: a, name, size, key: fileKey(a) };
    recent.delete(`${itemId}:${id}`);
    recent.set(`${itemId}:${id}`, file);
    if (recent.size > RECENT_FILES) recent.delete(recent.keys().next().value!);
    return file;
  };

  return {
    'reader.open': async ({ itemId, id }) => {
      const file = await resolve(itemId, id);
      return {
        itemId,
        attachmentId: id,
        name: file.name,
        size: file.size,
        lastPage: await fulltext.readerPage(file.key),
      };
    },
    'reader.read': async ({ itemId, id, offset, length }) => {
      const file = recent.get(`${itemId}:${id}`) ?? (await resolve(itemId, id));
      const handle = await open(file.attachment.path, 'r').catch(() => {
        throw new CoreError('NOT_FOUND', `${file.name} is no longer at ${file.attachment.path}.`);
      });
      try {
        const size = (await handle.stat()).size;
        if (size !== file.size) {
          recent.delete(`${itemId}:${id}`);
          throw new CoreError('CONFLICT', `${file.name} changed while it was open; open it again.`);
        }
        if (offset > size)
          throw new CoreError('INVALID_INPUT', `Offset ${offset} is past the end of ${file.name} (${size} bytes).`);
        const buffer = Buffer.alloc(Math.min(length, size - offset));
        let done = 0;
        while (done < buffer.length) {
          const { bytesRead } = await handle.read(buffer, done, buffer.length - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return { offset, data: buffer.subarray(0, done).toString('base64') };
      } finally {
        await handle.close();
      }
    },
    'reader.remember': async ({ itemId, id, page }) => {
      const file = recent.get(`${itemId}:${id}`) ?? (await resolve(itemId, id));
      await fulltext.rememberReaderPage(file.key, page);
      return null;
    },
  } satisfies FeatureHandlers<typeof readerFeature>;
}
