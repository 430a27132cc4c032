// How an attached PDF's bytes reach pdf.js: through the contract (`reader.read`, at most
// READER_CHUNK_MAX a call), never a URL, so the CSP and browser mode's token rules stay as they are.
// A small file is read whole; a large one is read in the ranges pdf.js asks for (a 1,000-page,
// 200 MB file shows its first page after a few ranges, and only what is looked at is held).
import * as pdfjs from 'pdfjs-dist';
import type { CitewiseApi, ReaderFile } from '../../../../shared/ipc';
import { READER_CHUNK_MAX } from '../../../../shared/model/reader';
import { ReadError } from './problems';

/** pdf.js's parser: a Web Worker of the app's own file (worker-src 'self'), one per open document. */
function parserWorker(): Worker {
  return new Worker(new URL('./pdf.worker.ts', import.meta.url), { type: 'module', name: 'pdf.js' });
}

/** Files up to this size are read whole before pdf.js starts; larger ones by range. */
export const WHOLE_FILE_MAX = 4 * READER_CHUNK_MAX;
/** pdf.js's range size for large files. */
export const RANGE_CHUNK = 256 * 1024;

export function fromBase64(data: string): Uint8Array {
  const text = atob(data);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** Bytes [begin, end) of the file, in calls of at most READER_CHUNK_MAX. */
export async function readRange(api: CitewiseApi, file: ReaderFile, begin: number, end: number): Promise<Uint8Array> {
  const out = new Uint8Array(end - begin);
  const calls: Promise<void>[] = [];
  for (let at = begin; at < end; at += READER_CHUNK_MAX) {
    const length = Math.min(READER_CHUNK_MAX, end - at);
    calls.push(
      api.invoke('reader.read', { itemId: file.itemId, id: file.attachmentId, offset: at, length }).then((result) => {
        if (!result.ok) throw new ReadError(result.error.message, result.error.code);
        const bytes = fromBase64(result.value.data);
        if (bytes.length !== length)
          throw new ReadError(`${file.name} ended early (it changed while it was open?); open it again.`, 'CONFLICT');
        out.set(bytes, at - begin);
      }),
    );
  }
  await Promise.all(calls);
  return out;
}

class ContractRangeTransport extends pdfjs.PDFDataRangeTransport {
  constructor(
    private readonly api: CitewiseApi,
    private readonly file: ReaderFile,
    initial: Uint8Array,
    private readonly onError: (err: unknown) => void,
  ) {
    super(file.size, initial);
  }

  override requestDataRange(begin: number, end: number): void {
    readRange(this.api, this.file, begin, end).then(
      (bytes) => this.onDataRange(begin, bytes),
      (err: unknown) => this.onError(err),
    );
  }
}

/**
 * A document being loaded or shown, with its own worker: a shared worker port made the next load fail
 * while the last document was still being destroyed (closing the reader and opening the next file at
 * once). `dispose` destroys the document and ends its worker.
 */
export interface LoadedPdf {
  task: pdfjs.PDFDocumentLoadingTask;
  dispose(): void;
}

/**
 * Starts loading the file into pdf.js. `onError` hears a failed read (pdf.js itself would wait for
 * the range for ever): the caller then destroys the task and says why.
 */
export async function loadPdf(api: CitewiseApi, file: ReaderFile, onError: (err: unknown) => void): Promise<LoadedPdf> {
  const port = parserWorker();
  // pdf.js's types say `port?: null`, though it takes a Worker (its docs and code do).
  const worker = new pdfjs.PDFWorker({ port: port as unknown as null });
  const wrap = (task: pdfjs.PDFDocumentLoadingTask): LoadedPdf => ({
    task,
    dispose() {
      void task
        .destroy()
        .catch(() => {})
        .finally(() => {
          worker.destroy();
          port.terminate();
        });
    },
  });
  const common = {
    worker,
    isEvalSupported: false,
    enableXfa: false,
    // Fonts the file does not embed come from the system's (no standard-font files are fetched).
    useSystemFonts: true,
  };
  if (file.size <= WHOLE_FILE_MAX) {
    const data = await readRange(api, file, 0, file.size).catch((err: unknown) => {
      worker.destroy();
      port.terminate();
      throw err;
    });
    return wrap(pdfjs.getDocument({ ...common, data }));
  }
  const initial = await readRange(api, file, 0, RANGE_CHUNK).catch((err: unknown) => {
    worker.destroy();
    port.terminate();
    throw err;
  });
  const range = new ContractRangeTransport(api, file, initial, onError);
  return wrap(
    pdfjs.getDocument({
      ...common,
      range,
      length: file.size,
      rangeChunkSize: RANGE_CHUNK,
      disableAutoFetch: true,
      disableStream: true,
    }),
  );
}
