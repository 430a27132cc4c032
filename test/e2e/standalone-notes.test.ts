// Standalone notes (issue 33): Ctrl+Shift+O opens New note; the note is written in the note editor,
// saved, and becomes a row with a note icon, titled by its first line, open in the details column.
// It is edited there (the title follows), filed with the collection picker, found by a search of its
// text, moved to the Trash and back. Keyboard where a user would use it; both themes, axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shootThemes } from './axe';
import { importBib, openApp, type AppSession } from './harness';
import { shownText } from './text';

const BIB = `@article{franklin1953,
  author = {Franklin, Rosalind and Gosling, R. G.},
  title = {Molecular configuration in sodium thymonucleate},
  journal = {Nature}, year = {1953}, volume = {171}, pages = {740--741}
}
`;

describe('standalone notes', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await openApp();
    await importBib(session.page, BIB, 1);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });

  it('creates, edits, files, finds and trashes a note that belongs to no item', async () => {
    const { page, problems } = session;
    const toast = () => shownText(page.getByTestId('toast'));
    const rows = page.locator('[role="row"][data-index]:visible');
    const noteRow = rows.filter({ has: page.getByTestId('note-icon') });
    const title = () => shownText(page.getByTestId('details-title'));
    await rows.first().waitFor();
    await rows.first().click();

    const dialog = page.getByTestId('new-note-dialog');
    const box = dialog.getByRole('textbox', { name: 'New note' });
    // Cancel leaves without a note, whatever was typed.
    await page.keyboard.press('Control+Shift+O');
    await box.waitFor();
    await box.click();
    await page.keyboard.type('Not this one');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await noteRow.count()).toBe(0);

    await page.keyboard.press('Control+Shift+O');
    await box.waitFor();
    await box.click();
    await page.keyboard.type('Seminar plan');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Compare the ribosome papers first.');
    await shootThemes(page, 'standalone-note-new');
    await dialog.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(toast).toContain('Added the note “Seminar plan”');
    await expect.poll(() => noteRow.count()).toBe(1);
    expect(await shownText(noteRow.locator('.text'))).toBe('Seminar plan');
    await expect.poll(title).toBe('Seminar plan');
    const editor = page.getByTestId('standalone-note').getByRole('textbox', { name: 'Note' });
    expect(await editor.innerText()).toContain('Compare the ribosome papers first.');
    // A reference's sections are not shown for a note.
    expect(await page.getByRole('heading', { name: 'Citation evidence' }).count()).toBe(0);
    await shootThemes(page, 'standalone-note-details');

    // Edited in the details column: saved as typed, the title follows the first line.
    await editor.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('Thesis ');
    await expect.poll(title, { timeout: 15_000 }).toBe('Thesis Seminar plan');
    await expect.poll(() => shownText(noteRow.locator('.text')), { timeout: 15_000 }).toBe('Thesis Seminar plan');

    // Filed with the collection picker, as any row.
    await noteRow.click();
    await page.keyboard.press('Control+Shift+L');
    const picker = page.getByTestId('collection-picker');
    await picker.getByRole('combobox').fill('Ideas');
    await page.keyboard.press('Enter');
    await expect.poll(toast).toContain('Added 1 item to “Ideas”');
    await expect
      .poll(() => shownText(page.locator('[data-collection]', { hasText: 'Ideas' }).locator('.count')))
      .toBe('1');

    // Found by a word of its text (the reference does not have it).
    const search = page.getByRole('searchbox', { name: 'Search the library' });
    await search.fill('ribosome');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await noteRow.count()).toBe(1);
    await search.fill('');
    await expect.poll(() => rows.count()).toBe(2);

    // To the Trash with Delete, and back.
    await noteRow.click();
    await page.keyboard.press('Delete');
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => noteRow.count()).toBe(0);
    await page.getByTestId('view-trash').click();
    await expect.poll(() => noteRow.count()).toBe(1);
    await shootThemes(page, 'standalone-note-trash');
    await page.getByTestId('item-table').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => noteRow.count()).toBe(0);
    await page.getByTestId('view-library').click();
    await expect.poll(() => noteRow.count()).toBe(1);
    expect(problems.errors).toEqual([]);
  }, 180_000);
});
