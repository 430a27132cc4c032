import type { Migration } from './index';

// The DOI placeholders that wait for the service's metadata (`custom.citewise.pendingMetadata` in the
// item's CSL), found without reading any CSL: each page of the Library's rows asks which of its items
// wait (library-base.ts, waitingOf). Reading the page's CSL for that took 2.5 to 6 ms per 1,000 rows
// of a 100,000-item library, as long as the page's own query; through this partial index it is a
// scan of the few placeholders, 0.01 ms. The index holds only placeholders, so it stays small.
export const m0020PendingMetadataIndex: Migration = {
  version: 20,
  name: 'pending-metadata-index',
  up(db) {
    db.exec(
      `CREATE INDEX item_csl_pending_metadata ON item_csl(item_id) WHERE json_extract(csl, '$.custom.citewise.pendingMetadata') = 1;`,
    );
  },
};
