import type { Migration } from './index';

// The search index collects new terms in memory and writes them out as a new segment whenever they
// reach its hash size (FTS5's default: 1 MB), merging segments as they pile up: a 100,000-entry import
// (17 MB of index) flushed and merged dozens of times on the way to its final index. At 8 MB it does
// so an eighth as often: the same index, less rewritten (the commit of that import went 1.35 -> 1.2 s
// in the store alone, 3 runs each). Memory only grows that far inside a transaction that adds that
// much text; an edit still holds a few kilobytes.
export const m0013SearchHash: Migration = {
  version: 13,
  name: 'search-hash',
  up(db) {
    db.exec(`INSERT INTO items_fts (items_fts, rank) VALUES ('hashsize', 8388608)`);
  },
};
