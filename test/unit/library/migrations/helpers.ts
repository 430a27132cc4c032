import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../../../../electron/core/library/database';
import { migrations } from '../../../../electron/core/library/migrations';
import { tempDir } from '../../../helpers/tmp';

/** A database file migrated up to `version`, for populating before the next migration runs. */
export function databaseAt(version: number): { db: Database.Database; file: string; dispose(): void } {
  const dir = tempDir('citewise-mig-');
  const file = join(dir.path, 'lib.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    migrations.filter((m) => m.version <= version),
  );
  return {
    db,
    file,
    dispose() {
      if (db.open) db.close();
      dir.remove();
    },
  };
}

export function migrateTo(db: Database.Database, version: number): void {
  migrate(
    db,
    migrations.filter((m) => m.version <= version),
  );
  if (db.pragma('user_version', { simple: true }) !== version) throw new Error('migration did not reach its version');
}

/** Items as they look in a version-2 database (before search, cache and undo existed). */
export function populateV2(db: Database.Database): void {
  db.exec(`
    INSERT OR REPLACE INTO settings (key, value) VALUES ('theme', '"dark"');
    INSERT INTO items (id, type, citation_key, title, title_sort, creators_text, creators_sort, year, container, container_sort, doi, date_added, date_modified, csl)
    VALUES (1, 'article-journal', 'mullerDeep2020', 'Deep Learning', 'deep learning', 'Müller', 'muller', 2020, 'Nature', 'nature', '10.1000/a', 1, 1,
            '{"id":"1","type":"article-journal","title":"Deep Learning","abstract":"About neural networks.","DOI":"10.1000/a"}'),
           (2, 'book', 'smithBook1999', 'A Book', 'a book', 'Smith', 'smith', 1999, NULL, NULL, NULL, 2, 2, '{"id":"2","type":"book","title":"A Book"}');
    INSERT INTO creators (item_id, role, position, family, given, literal, family_norm) VALUES (1, 'author', 0, 'Müller', 'Jörg', NULL, 'muller'), (2, 'author', 0, 'Smith', NULL, NULL, 'smith');
    INSERT INTO tags (id, name) VALUES (1, 'ml');
    INSERT INTO item_tags (item_id, tag_id) VALUES (1, 1);
    INSERT INTO notes (item_id, body, created_at, modified_at) VALUES (2, 'A seminal note', 3, 3);
    INSERT INTO collections (id, parent_id, name, created_at) VALUES (1, NULL, 'Thesis', 1), (2, 1, 'Chapter', 1);
    INSERT INTO collection_items (collection_id, item_id, added_at) VALUES (2, 1, 1);
    INSERT INTO attachments (item_id, path, sha256, size, mime, added_at) VALUES (1, '/a.pdf', NULL, 10, 'application/pdf', 1);
  `);
}
