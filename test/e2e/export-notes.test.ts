/// <reference lib="dom" />
// "Include notes" in the Export dialog (docs/formats.md, "Notes in exports"), in the real app over a
// library imported from a Zotero data folder (notes as Zotero 7's editor writes them): RIS carries
// them as N1 lines and BibTeX as annote once ticked, CSL-JSON and bibliographies say why they
// cannot, the choice is kept for the next export, and the saved file has the notes. Both themes, axe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleZoteroLibrary, writeZoteroFolder } from '../helpers/zotero-db';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { openApp, type AppSession } from './harness';
import { cli } from './seed';

const WAIT = { timeout: 20_000 };

describe('Export: include notes', () => {
  const dir = tempDir('citewise-export-notes-');
  const dataDir = join(dir.path, 'data');
  let session: AppSession;

  beforeAll(async () => {
    const folder = join(dir.path, 'Zotero');
    writeZoteroFolder(folder, await sampleZoteroLibrary());
    await cli(dataDir, 'http://127.0.0.1:9', 'import', folder);
    session = await openApp({ dataDir });
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    dir.remove();
  });

  it('adds the notes to RIS and BibTeX when ticked, says why not for the others, and keeps the choice', async () => {
    const { page, problems } = session;
    await page.locator('nav button[data-pane="settings"]').click();
    await page.getByTestId('export-library').click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.waitFor();
    const notes = dialog.getByTestId('export-notes');
    const where = dialog.getByTestId('export-notes-where');
    const text = dialog.getByTestId('export-text');

    // BibTeX, as the dialog opens: no notes until asked for.
    await expect.poll(() => text.textContent(), WAIT).toMatch(/^@\w+\{/);
    expect(await notes.isChecked()).toBe(false);
    expect(await notes.isDisabled()).toBe(false);
    expect(await where.innerText()).toBe('Notes go into the annote field.');
    expect(await text.textContent()).not.toMatch(/annote\s*=\s*\{[^}]*Photo 51/);

    await dialog.getByTestId('export-format').selectOption('ris');
    await expect.poll(() => text.textContent(), WAIT).toMatch(/^TY {2}- /m);
    expect(await text.textContent()).not.toContain('N1  - <div');
    // Ticked from the keyboard.
    await notes.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => text.textContent(), WAIT).toContain('<h1>Photo 51</h1>');
    const n1 = (await text.textContent())!.split('\n').find((l) => l.includes('<h1>Photo 51</h1>'))!;
    expect(n1.startsWith('N1  - ')).toBe(true);
    expect(n1).not.toMatch(/<script|onclick/);
    expect(await where.innerText()).toBe('Notes go into the N1 lines.');
    await shootThemes(page, 'export-notes-ris');

    // The saved file has them too.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByText('Save to file…').click()]);
    expect(readFileSync((await download.path())!, 'utf8')).toContain('<h1>Photo 51</h1>');

    // CSL-JSON and bibliographies have no place for notes: the box is off, and says why.
    await dialog.getByTestId('export-format').selectOption('csl-json');
    await expect.poll(() => notes.isDisabled(), WAIT).toBe(true);
    expect(await where.innerText()).toBe('CSL-JSON has no place for notes.');
    expect(await notes.getAttribute('aria-describedby')).toBe('notes-where');
    await expect.poll(() => text.textContent(), WAIT).toMatch(/^\[/);
    expect(await text.textContent()).not.toContain('Photo 51</h1>');
    await dialog.getByTestId('export-format').selectOption('text');
    await expect.poll(() => where.innerText(), WAIT).toBe('A bibliography lists the references only.');
    expect(await notes.isDisabled()).toBe(true);
    await shootThemes(page, 'export-notes-bibliography');

    // Closed and opened again: the choice is kept, and BibTeX now carries the notes' text in annote.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('export-library').click();
    await dialog.waitFor();
    expect(await notes.isChecked()).toBe(true);
    await expect.poll(() => text.textContent(), WAIT).toMatch(/annote\s*=\s*\{[^}]*Photo 51/);
    expect(await text.textContent()).not.toContain('<h1>');

    // Unticked: gone again, and kept so.
    await notes.uncheck();
    await expect.poll(() => text.textContent(), WAIT).not.toMatch(/annote\s*=\s*\{[^}]*Photo 51/);
    await page.keyboard.press('Escape');
    await page.getByTestId('export-library').click();
    await dialog.waitFor();
    expect(await notes.isChecked()).toBe(false);
    expect(problems.errors).toEqual([]);
  }, 180_000);
});
