// The worker threads of the core, by the file name each has in a bundle, with its TypeScript entry.
// One table for both sides: the builds (electron.vite.config.ts, vite.node.config.ts, through
// scripts/worker-bundles.ts) emit each worker as `<name>.js` at the root of their output folder, and
// locateWorker (worker-entry.ts) finds it there from whichever chunk its own code landed in.
// Pure data: the build configs import it.

export const WORKER_SOURCES = {
  /** The library: SQLite reads and writes (electron/core/library/client.ts). */
  'library-worker': 'electron/core/library/worker.ts',
  /** Parsing imports: BibTeX, RIS, CSL-JSON (electron/core/formats/run-in-worker.ts). */
  'formats-worker': 'electron/core/formats/worker.ts',
  /** Formatting big bibliographies and citations (electron/core/formats/cite/pool.ts). */
  'cite-worker': 'electron/core/formats/cite/worker.ts',
  /** Reading PDFs with pdf.js: identifiers, title, text (electron/core/pdf/run-in-worker.ts). */
  'pdf-worker': 'electron/core/pdf/worker.ts',
} as const;

export type WorkerName = keyof typeof WORKER_SOURCES;

/**
 * The string the build replaces, in the chunk that holds locateWorker, with the relative path from that
 * chunk to the output folder's root ('./', '../', …). Unreplaced means the code was bundled without
 * scripts/worker-bundles.ts.
 */
export const BUNDLE_ROOT_MARKER = '__CITEWISE_BUNDLE_ROOT__/';
