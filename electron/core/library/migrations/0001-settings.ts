import type { Migration } from './index';

export const m0001Settings: Migration = {
  version: 1,
  name: 'settings',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `);
  },
};
