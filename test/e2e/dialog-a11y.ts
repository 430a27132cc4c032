/// <reference lib="dom" />
// One dialog checked as a keyboard and screen-reader user meets it (issue 32): it is a modal dialog
// named by its heading, focus is inside it once open, axe finds no violation of any impact in the
// light and the dark theme, Escape closes it and focus goes back to where the user was.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { allViolations } from './axe';
import { screenshot } from './harness';

export interface DialogFacts {
  modal: boolean;
  name: string;
  focusInside: boolean;
}

/** The dialog's role, accessible name and focus, as assistive technology would read them. */
export function dialogFacts(dialog: Locator): Promise<DialogFacts> {
  return dialog.evaluate((d) => {
    const ids = d.getAttribute('aria-labelledby')?.split(/\s+/).filter(Boolean) ?? [];
    const name = ids.length
      ? ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ')
      : (d.getAttribute('aria-label') ?? '');
    const isDialog = d.tagName === 'DIALOG' || d.getAttribute('role') === 'dialog';
    return {
      modal: isDialog && (d.matches(':modal') || d.getAttribute('aria-modal') === 'true'),
      name: name.trim(),
      focusInside: d.contains(document.activeElement),
    };
  });
}

/** axe (every impact) in both themes, with a screenshot of each under test-results/. */
export async function themedViolations(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
    await page.waitForTimeout(150);
    await screenshot(page, `a11y-${name}-${scheme}`);
    found.push(...(await allViolations(page)).map((v) => `${name} (${scheme}): ${v}`));
  }
  // Back to light, and only once the page has followed: a caller that measures colours next must not
  // read the dark theme's.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  await page.waitForTimeout(150);
  return found;
}

/**
 * Checks an open dialog, closes it with Escape and checks that focus went back to `returnTo`;
 * returns axe's violations (the ARIA pattern is asserted here).
 */
export async function checkDialog(
  page: Page,
  name: string,
  dialog: Locator,
  returnTo: Locator,
  expectedName?: string | RegExp,
): Promise<string[]> {
  await dialog.waitFor();
  // Named checks: a failure says which dialog and which part of the pattern.
  await expect
    .poll(async () => `${name}: focus inside ${(await dialogFacts(dialog)).focusInside}`)
    .toBe(`${name}: focus inside true`);
  const facts = await dialogFacts(dialog);
  expect(facts.modal, `${name}: a modal dialog`).toBe(true);
  expect(facts.name, `${name}: named by its heading`).not.toBe('');
  if (expectedName !== undefined) expect(facts.name).toMatch(expectedName);
  const found = await themedViolations(page, name);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await expect
    .poll(async () => `${name}: focus back ${await returnTo.evaluate((el) => el === document.activeElement)}`)
    .toBe(`${name}: focus back true`);
  return found;
}
