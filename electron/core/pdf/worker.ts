// The worker-thread entry of PDF reading (pdf-worker.js in the builds): one request at a time, each
// a PDF's bytes, answered with what extractPdf found or why the file cannot be read.
import { parentPort, workerData } from 'node:worker_threads';
import { DEFAULT_EXPANSION_CAPS, ExpansionGuard, type ExpansionCaps } from './expansion-cap';
import { extractPdf, loadPdfJs, PdfReadError, type ExtractFailure } from './extract';
import { replied } from '../worker-rpc';
import type { PdfWorkerReady, PdfWorkerReply, PdfWorkerRequest } from './run-in-worker';

// Before pdf.js loads: every buffer it grows from then on is checked against the caps.
const guard = new ExpansionGuard(
  (workerData as { expansion?: ExpansionCaps } | null)?.expansion ?? DEFAULT_EXPANSION_CAPS,
);
guard.install();

// Ready once pdf.js is loaded: a file's time limit counts its own reading, not the thread's start.
void loadPdfJs().then(() => parentPort!.postMessage({ ready: true } satisfies PdfWorkerReady));

parentPort!.on('message', (request: PdfWorkerRequest) => {
  // pdf.js takes the buffer it is given (it moves it to its own worker): bytes to send back are copied first, here.
  const data = request.returnBytes ? request.bytes.slice() : request.bytes;
  guard.begin();
  // A cap met while reading decides the answer, whatever pdf.js made of the error it was given.
  const overCap = (): ExtractFailure | null => {
    const met = guard.end();
    return met ? { code: 'too-large', message: met.message } : null;
  };
  extractPdf(data, { maxPages: request.maxPages, ...(request.wholeOrNone ? { wholeOrNone: true } : {}) }).then(
    (facts) => {
      const over = overCap();
      if (over)
        return parentPort!.postMessage(replied(request.id, { ok: false, failure: over } satisfies PdfWorkerReply));
      return request.returnBytes
        ? parentPort!.postMessage(
            replied(request.id, { ok: true, facts, bytes: request.bytes } satisfies PdfWorkerReply),
            [request.bytes.buffer as ArrayBuffer],
          )
        : parentPort!.postMessage(replied(request.id, { ok: true, facts } satisfies PdfWorkerReply));
    },
    (err: unknown) => {
      const failure =
        overCap() ??
        (err instanceof PdfReadError
          ? err.failure
          : {
              code: 'corrupt' as const,
              message: `it cannot be read (${err instanceof Error ? err.message : String(err)})`,
            });
      parentPort!.postMessage(replied(request.id, { ok: false, failure } satisfies PdfWorkerReply));
    },
  );
});
