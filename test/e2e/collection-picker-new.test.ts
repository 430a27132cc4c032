// Issue 33: the collection picker creates a collection. Ctrl+Shift+L on a selection, a name no
// collection has, Enter: the collection is made at the top of the tree and the selection filed in
// it; Ctrl+Z takes the items out again. A name that is taken (in any case) offers that collection,
// not a second one. Keyboard only; both themes, axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shootThemes } from './axe';
import { importBib, openApp, type AppSession } from './harness';
import { shownText } from './text';

const BIB = `@article{franklin1953,
  author = {Franklin, Rosalind and Gosling, R. G.},
  title = {Molecular configuration in sodium thymonucleate},
  journal = {Nature}, year = {1953}, volume = {171}, pages = {740--741}
}
@book{watson1968,
  author = {Watson, James D.},
  title = {The Double Helix}, publisher = {Atheneum}, year = {1968}
}
`;

describe('a new collection from the collection picker', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await openApp();
    await importBib(session.page, BIB, 2);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });

  it('creates the collection typed, files the selection in it, and undoes the filing', async () => {
    const { page, problems } = session;
    const toast = () => shownText(page.getByTestId('toast'));
    const collection = (name: string) => page.locator('[data-collection]', { hasText: name });
    const row = page.locator('[role="row"][data-index="0"]');
    await row.waitFor();
    await row.click();
    await page.keyboard.press('Control+Shift+L');
    const picker = page.getByTestId('collection-picker');
    const box = picker.getByRole('combobox');
    await box.waitFor();
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // No collections yet: the picker asks for a name instead of sending the user to the sidebar.
    expect(await box.getAttribute('placeholder')).toBe('Name a new collection');
    await box.fill('  Chapter 3  ');
    const option = picker.getByTestId('picker-new-collection');
    expect(await shownText(option)).toBe('New collection “Chapter 3”');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe('picker-new');
    expect(await shownText(picker.getByRole('button', { name: /^Create/ }))).toBe('Create “Chapter 3” and add');
    await shootThemes(page, 'collection-picker-new');
    await page.keyboard.press('Enter');
    await expect.poll(toast).toContain('Added 1 item to “Chapter 3”');
    await expect.poll(() => shownText(collection('Chapter 3').locator('.count'))).toBe('1');

    // Taken, in another case: the picker offers the collection there is, not a second one.
    await row.click();
    await page.keyboard.press('Control+Shift+L');
    await box.waitFor();
    await box.fill('chapter 3');
    expect(await picker.getByTestId('picker-new-collection').count()).toBe(0);
    expect(await picker.getByRole('option', { selected: true }).textContent()).toContain('Chapter 3');
    // A second new name is offered after the collections that match part of it.
    await box.fill('Chapter');
    await page.keyboard.press('ArrowDown');
    expect(await picker.getByTestId('picker-new-collection').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => picker.count()).toBe(0);

    // The filing is one undo step.
    await page.getByTestId('item-table').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(toast).toMatch(/^Undid: Add “.+” to “Chapter 3”/);
    await expect.poll(() => shownText(collection('Chapter 3').locator('.count'))).toBe('0');
    expect(problems.errors).toEqual([]);
  }, 120_000);
});
