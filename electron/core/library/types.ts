// The library's shapes live in shared/model/library (the renderer shows them too); what only the core
// needs is declared here.
export * from '../../../shared/model/library';

export interface ImportOptions {
  /** Where the items came from ("file.bib", "paste"), kept on each item. */
  source?: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /**
   * Leave the items out of the search index: the caller builds it in bulk once its load ends, in the
   * same transaction as it records that the index is whole (a first sync, sync/store.ts finishPull).
   */
  withoutSearchRows?: boolean;
}
