// The worker-thread entry of PDF reading (pdf-worker.js in the builds): one request at a time, each
// a PDF's bytes, answered with what extractPdf found or why the file cannot be read.
import { parentPort } from 'node:worker_threads';
import { extractPdf, loadPdfJs, PdfReadError } from './extract';
import { replied } from '../worker-rpc';
import type { PdfWorkerReady, PdfWorkerReply, PdfWorkerRequest } from './run-in-worker';

// Ready once pdf.js is loaded: a file's time limit counts its own reading, not the thread's start.
void loadPdfJs().then(() => parentPort!.postMessage({ ready: true } satisfies PdfWorkerReady));

parentPort!.on('message', (request: PdfWorkerRequest) => {
  // pdf.js takes the buffer it is given (it moves it to its own worker): bytes to send back are copied first, here.
  const data = request.returnBytes ? request.bytes.slice() : request.bytes;
  extractPdf(data, { maxPages: request.maxPages, ...(request.wholeOrNone ? { wholeOrNone: true } : {}) }).then(
    (facts) =>
      request.returnBytes
        ? parentPort!.postMessage(
            replied(request.id, { ok: true, facts, bytes: request.bytes } satisfies PdfWorkerReply),
            [request.bytes.buffer as ArrayBuffer],
          )
        : parentPort!.postMessage(replied(request.id, { ok: true, facts } satisfies PdfWorkerReply)),
    (err: unknown) => {
      const failure =
        err instanceof PdfReadError
          ? err.failure
          : {
              code: 'corrupt' as const,
              message: `it cannot be read (${err instanceof Error ? err.message : String(err)})`,
            };
      parentPort!.postMessage(replied(request.id, { ok: false, failure } satisfies PdfWorkerReply));
    },
  );
});
