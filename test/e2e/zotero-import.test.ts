// A Zotero user's first hour: Add → Zotero data folder…, reached from the keyboard; a folder that is
// not Zotero's said beside the path; the preview of a real-shaped data folder (the importer's own
// sample: collections, a group, notes, a stored PDF, Better BibTeX keys) while Zotero holds it locked;
// the import, its report, and Undo for all of it. Zotero's database is the same file afterwards.
// Both themes, axe.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleZoteroLibrary, writeZoteroFolder } from '../helpers/zotero-db';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { openApp, type AppSession } from './harness';

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('importing a Zotero data folder from the Library', () => {
  const dir = tempDir('citewise-zotero-e2e-');
  const folder = join(dir.path, 'Zotero');
  let database: string;
  let session: AppSession;

  beforeAll(async () => {
    database = writeZoteroFolder(folder, await sampleZoteroLibrary());
    session = await openApp({ dataDir: join(dir.path, 'data') });
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    dir.remove();
  });

  it('previews, imports and undoes a Zotero library, leaving Zotero’s files as they were', async () => {
    const { page, problems } = session;
    const before = hash(database);

    // The empty library offers it beside Import a .bib file.
    await page.getByTestId('first-run').getByRole('button', { name: 'Or a whole Zotero library…' }).click();
    await page.getByTestId('zotero-import-dialog').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('zotero-import-dialog').count()).toBe(0);

    // Add ▾ from the keyboard: ↓ opens the menu, the fifth entry is the Zotero folder (after New item,
    // New note, By identifier and Import file).
    await page.getByTestId('add-button').focus();
    await page.keyboard.press('ArrowDown');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    await expect.poll(focused).toBe('New item…');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Zotero data folder…');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('zotero-import-dialog');
    const field = dialog.getByTestId('zotero-folder');
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await shootThemes(page, 'zotero-import-choose');

    // A folder that is not Zotero's: said beside the field, nothing read.
    await field.fill(dir.path);
    await page.keyboard.press('Enter');
    const error = dialog.locator('#zotero-folder-error');
    await expect.poll(() => error.textContent()).toContain('has no zotero.sqlite');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await shootThemes(page, 'zotero-import-not-zotero');

    // Zotero running: its database held with an exclusive lock, by another process than the app's.
    const zotero = new Database(database);
    zotero.pragma('locking_mode = EXCLUSIVE');
    zotero.exec('BEGIN EXCLUSIVE');
    try {
      await field.fill(folder);
      await page.keyboard.press('Enter');
      const preview = dialog.getByTestId('zotero-preview');
      await preview.waitFor();
      await dialog.getByTestId('zotero-locked').waitFor();
      const counts = (await preview.innerText()).replace(/\s+/g, ' ');
      expect(counts).toContain('Items 8');
      expect(counts).toContain('Collections 5 — group library Lab group as collections');
      expect(counts).toContain('Notes 2 — 1 standalone — plus the annotations of 1 file, one note each');
      expect(counts).toContain('Files 1 in storage/, 0 linked, 1 web link');
      expect(counts).toContain('Citation keys 3 kept');
      const skipped = await dialog.getByTestId('zotero-skipped').innerText();
      expect(skipped).toContain('1 saved search');
      expect(skipped).toContain('/nowhere/lost.pdf');
      await shootThemes(page, 'zotero-import-preview');

      await dialog.getByTestId('zotero-import-confirm').click();
      const report = dialog.getByTestId('zotero-report');
      await report.waitFor({ timeout: 60_000 });
      expect((await report.innerText()).replace(/\s+/g, ' ')).toContain(
        'Added 9 items (1 standalone note among them) from 8 Zotero items. 5 new collections, 2 tags, 3 notes, 1 file.',
      );
      await shootThemes(page, 'zotero-import-report');
    } finally {
      zotero.exec('COMMIT');
      zotero.close();
    }
    expect(hash(database)).toBe(before);

    const rows = page.locator('[role="row"][data-id]:not([hidden])');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(5);
    // Undo from the report: everything it added goes to the Trash, in one step.
    await dialog.getByTestId('zotero-undo').click();
    await expect
      .poll(() => dialog.getByTestId('zotero-undone').textContent())
      .toBe('Undone: the 9 items it added are in the Trash.');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(0);
    expect(problems.errors).toEqual([]);
  }, 180_000);
});
