// The library's shapes live in shared/model/library (the renderer shows them too); what only the core
// needs is declared here.
export * from '../../../shared/model/library';

export interface ImportOptions {
  /** Where the items came from ("file.bib", "paste"), kept on each item. */
  source?: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}
