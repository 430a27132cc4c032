// Which fields the user changed by hand, recorded as they edit, so enrichment leaves them alone.
import type { CslItem } from '../../../shared/model/csl';
import { changedFields } from './fill';
import { sql, type ReadDb, type WriteDb } from './sql';
import type { ItemId } from './types';

export function recordUserEdits(w: WriteDb, id: ItemId, before: CslItem, after: CslItem, now: number): void {
  for (const field of changedFields(before, after)) {
    w.run(sql`INSERT INTO item_edits (item_id, field, edited_at) VALUES (${id}, ${field}, ${now})
      ON CONFLICT(item_id, field) DO UPDATE SET edited_at = excluded.edited_at`);
  }
}

export function editedFields(db: ReadDb, id: ItemId): string[] {
  return db.pluck<string>(sql`SELECT field FROM item_edits WHERE item_id = ${id} ORDER BY field`);
}
