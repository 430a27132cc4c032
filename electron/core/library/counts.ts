// What `citewise stats` prints, counted by SQLite: the items (not in the trash) by type, with a DOI,
// with citation tallies and retracted. It used to read every row through the library worker a page
// at a time and count in JavaScript, which took 9-12 s on 100,000 items against 2 s on 1,000; each
// count here is one pass over an index, done inside the worker.
import { sql, type ReadDb } from './sql';

export interface LibraryCounts {
  /** Items not in the trash. */
  items: number;
  /** Those items by CSL type, most first (ties by name). */
  byType: Record<string, number>;
  withDoi: number;
  /** With citation tallies the service found (a row's evidence state "found"). */
  withTallies: number;
  /** With a notice of retraction (a row's `retracted` true). */
  retracted: number;
}

export function libraryCounts(read: ReadDb): LibraryCounts {
  // Every item through the narrow (type, id) index, less those in the trash (a partial index): the
  // items' own rows are never read. Reading trashed_at from each row took 1.2 s on 100,000 items.
  const byType = new Map(
    read
      .all<{ type: string; n: number }>(
        sql`SELECT type, count(*) AS n FROM items INDEXED BY items_by_type GROUP BY type`,
      )
      .map((t) => [t.type, t.n]),
  );
  for (const t of read.all<{ type: string; n: number }>(
    sql`SELECT type, count(*) AS n FROM items INDEXED BY items_trashed WHERE trashed_at IS NOT NULL GROUP BY type`,
  )) {
    byType.set(t.type, (byType.get(t.type) ?? 0) - t.n);
  }
  const types = [...byType].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  // The same for DOIs (items_doi), and tallies and notices from the service's side (one row per DOI
  // fetched) joined to that index.
  const c = read.get<{ doi: number; tallies: number; retracted: number }>(sql`SELECT
      (SELECT count(*) FROM items WHERE doi IS NOT NULL)
        - (SELECT count(*) FROM items INDEXED BY items_trashed WHERE trashed_at IS NOT NULL AND doi IS NOT NULL) AS doi,
      (SELECT count(*) FROM service_tallies t CROSS JOIN items i ON i.doi = t.doi WHERE t.found = 1)
        - (SELECT count(*) FROM items i INDEXED BY items_trashed CROSS JOIN service_tallies t ON t.doi = i.doi WHERE i.trashed_at IS NOT NULL AND t.found = 1) AS tallies,
      (SELECT count(*) FROM service_notices n CROSS JOIN items i ON i.doi = n.doi WHERE n.found = 1 AND n.retracted = 1)
        - (SELECT count(*) FROM items i INDEXED BY items_trashed CROSS JOIN service_notices n ON n.doi = i.doi WHERE i.trashed_at IS NOT NULL AND n.found = 1 AND n.retracted = 1) AS retracted`)!;
  return {
    items: types.reduce((sum, [, n]) => sum + n, 0),
    byType: Object.fromEntries(types),
    withDoi: c.doi,
    withTallies: c.tallies,
    retracted: c.retracted,
  };
}
