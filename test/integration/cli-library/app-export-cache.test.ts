// The first formatted export of an app session reads the same cache, through the same data path, as
// `citewise export` (export-scope.ts, the library's cite_cache): a set the command line formatted
// comes to the app without a render, printing the very same text, and the other way round. A hit
// writes nothing (a miss stores its bibliography again, which moves the row's created_at).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Result } from '../../../shared/ipc';
import { createCore } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { REFERENCE_FORMAT_NAMES } from '../../../shared/model/reference-formats';
import { FIXTURES, run, tempDir } from './helpers';

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

let dir: { path: string; remove: () => void };
beforeAll(async () => {
  dir = tempDir();
  expect((await run(dir.path, 'import', join(FIXTURES, 'library.bib'))).code).toBe(0);
}, 60_000);
afterAll(() => dir.remove());

/** The cache's rows (style, format, items, created_at), oldest first. */
function rows(): Array<{ style: string; format: string; items: number; created_at: number }> {
  const db = new Database(join(dir.path, LIBRARY_FILE), { readonly: true });
  try {
    return db
      .prepare('SELECT style, format, items, created_at FROM cite_cache ORDER BY created_at, rowid')
      .all() as never;
  } finally {
    db.close();
  }
}

/** One app session: a core opened on the data folder, one export, closed. */
async function appExport(style: string, format = 'text'): Promise<string> {
  const core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    secrets: createMemorySecretStore(),
  });
  try {
    const out = value(
      await createInProcessApi(core).invoke('library.export', {
        scope: { kind: 'library' },
        format: format as never,
        style: style as never,
      }),
    );
    expect(out.items).toBeGreaterThan(10);
    return out.content;
  } finally {
    await core.close();
  }
}

describe('an app session and the command line share the formatted-bibliography cache', () => {
  it('serves the command line’s bibliography to the first export of an app session, and the app’s to the command line', async () => {
    // The user's own folder: an export into the library's folder is refused.
    const mine = tempDir();
    onTestFinished(() => mine.remove());
    const file = join(mine.path, 'apa.txt');
    expect((await run(dir.path, 'export', '--format', 'text', '--style', 'apa', '-o', file)).code).toBe(0);
    const cli = readFileSync(file, 'utf8');
    const kept = rows();
    expect(kept).toEqual([expect.objectContaining({ style: 'apa', format: 'text' })]);

    const app = await appExport('apa');
    expect(`${app}\n`).toBe(cli);
    // A hit: nothing stored again.
    expect(rows()).toEqual(kept);

    // The other way: the app formats a style first, the command line then reads it.
    const fromApp = await appExport('ieee');
    const both = rows();
    expect(both.map((r) => r.style)).toEqual(['apa', 'ieee']);
    const ieee = join(mine.path, 'ieee.txt');
    expect((await run(dir.path, 'export', '--format', 'text', '--style', 'ieee', '-o', ieee)).code).toBe(0);
    expect(readFileSync(ieee, 'utf8')).toBe(`${fromApp}\n`);
    expect(rows()).toEqual(both);
  }, 120_000);
});

describe('an app session and the command line write the same reference files', () => {
  it.each(REFERENCE_FORMAT_NAMES)(
    'writes %s byte for byte as the app’s Export does',
    async (name) => {
      const cli = await run(dir.path, 'export', '--format', name);
      expect(cli.code).toBe(0);
      const app = await appExport('apa', name);
      expect(app.length).toBeGreaterThan(1000);
      expect(cli.stdout).toBe(app.endsWith('\n') ? app : `${app}\n`);
    },
    60_000,
  );
});
