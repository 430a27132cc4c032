// The PDF reader (docs/reader.md): an attached PDF's bytes reach pdf.js in the renderer through the
// contract, in bounded ranges (the same in the desktop app and in browser mode, with no new route or
// CSP source), and the page last shown of each file is remembered in the library.
import { z } from 'zod';
import { READER_CHUNK_MAX, READER_MAX_PAGE } from '../model/reader';
import { feature, request } from './define';

export { READER_CHUNK_MAX, READER_MAX_PAGE };

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export interface ReaderFile {
  itemId: number;
  attachmentId: number;
  /** The file's name as the user knows it. */
  name: string;
  /** Bytes; the reader asks for ranges of it. */
  size: number;
  /** The page the reader last showed of this file, or null. */
  lastPage: number | null;
}

export interface ReaderChunk {
  offset: number;
  /** The bytes from `offset`, base64. */
  data: string;
}

const attachment = { itemId: id, id };

export const readerFeature = feature({
  requests: {
    /**
     * Opens an attached PDF for reading: its size and last page. NOT_FOUND (saying where the file was
     * expected) when it is missing, INVALID_INPUT when it is not a PDF.
     */
    'reader.open': request(z.object(attachment).strict()).returns<ReaderFile>(),
    /** Bytes of the file opened with `reader.open`, at most READER_CHUNK_MAX at once. */
    'reader.read': request(
      z
        .object({
          ...attachment,
          offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
          length: z.number().int().min(1).max(READER_CHUNK_MAX),
        })
        .strict(),
    ).returns<ReaderChunk>(),
    /** Remembers the page shown of the file (per file: the same PDF on two items shares it). */
    'reader.remember': request(
      z.object({ ...attachment, page: z.number().int().min(1).max(READER_MAX_PAGE) }).strict(),
    ).returns<null>(),
  },
  events: {},
});
