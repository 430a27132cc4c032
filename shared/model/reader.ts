// Bounds of the PDF reader's contract (shared/ipc/reader.ts), shared with the renderer, which reads in
// ranges no larger than the core gives.

/** The largest range one `reader.read` returns: 1 MiB (1.4 MB as base64 in one WebSocket message). */
export const READER_CHUNK_MAX = 1024 * 1024;
/** The highest page number the reader's remembered position accepts (bounds the input only). */
export const READER_MAX_PAGE = 1_000_000;
