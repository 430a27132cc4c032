// The worker-thread entry of PDF reading (pdf-worker.js in the builds): one request at a time, each
// a PDF's bytes, answered with what extractPdf found or why the file cannot be read.
import { parentPort } from 'node:worker_threads';
import { extractPdf, loadPdfJs, PdfReadError } from './extract';
import { replied } from '../worker-rpc';
import type { PdfWorkerReady, PdfWorkerReply, PdfWorkerRequest } from './run-in-worker';

// Ready once pdf.js is loaded: a file's time limit counts its own reading, not the thread's start.
void loadPdfJs().then(() => parentPort!.postMessage({ ready: true } satisfies PdfWorkerReady));

parentPort!.on('message', (request: PdfWorkerRequest) => {
  extractPdf(request.bytes, { maxPages: request.maxPages, ...(request.wholeOrNone ? { wholeOrNone: true } : {}) }).then(
    (facts) => parentPort!.postMessage(replied(request.id, { ok: true, facts } satisfies PdfWorkerReply)),
    (err: unknown) => {
      const failure = err instanceof PdfReadError ? err.failure : { code: 'corrupt' as const, message: `it cannot be read (${err instanceof Error ? err.message : String(err)})` };
      parentPort!.postMessage(replied(request.id, { ok: false, failure } satisfies PdfWorkerReply));
    },
  );
});
