// The picker end to end: an editor's CAYW request opens the picker page (in Debian's Chromium, as
// `citewise api` opens it in the browser), the user searches, adds with Enter, gives a locator,
// finishes with Enter on the empty box, and the editor receives the citation text. Esc cancels.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickSession } from '../../electron/api/picker';
import { send, startFixture, type Fixture } from '../integration/api/helpers';
import { launchBrowser, newPage, screenshot, type PageProblems } from './harness';
import { shownText } from './text';
import { allViolations } from './axe';

describe('the editor picker', () => {
  let f: Fixture;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let opened: (s: PickSession) => void;

  beforeAll(async () => {
    browser = await launchBrowser();
    const context = await browser.newContext();
    ({ page, problems } = await newPage(context));
    page.on('console', (m) => {
      // CSP violations are reported on the console: the page must cause none.
      if (/Content Security Policy/i.test(m.text())) problems.errors.push(`csp: ${m.text()}`);
    });
    f = await startFixture({
      openPicker: (s) => {
        f.sessions.push(s);
        opened(s);
      },
    });
    // Evidence on one paper: its tallies, and a retraction notice.
    await f.core.library.serviceCache.putTallies({
      found: { '10.1000/adams': { total: 14, supporting: 3, contrasting: 1, mentioning: 10, unclassified: 0 } },
    });
    await f.core.library.serviceCache.putNotices('10.1000/adams', [], true);
    // An expression of concern on another.
    const synthetic = await f.core.library.lib.getItem(f.ids['Author:2026-test']!);
    const withDoi = await f.core.invoke('library.item.update', {
      id: synthetic.id,
      csl: { ...synthetic.csl, DOI: '10.1000/synthetic' },
    });
    if (!withDoi.ok) throw new Error(withDoi.error.message);
    await f.core.library.serviceCache.putNotices(
      '10.1000/synthetic',
      [{ doi: '10.1000/synthetic', status: 'Has expression of concern', date: '2026-01-01' }],
      false,
    );
    await f.core.library.enrichment.reconcileStatuses();
    // Text from the library is shown as text, markup included.
    const item = await f.core.library.lib.getItem(f.ids.brigge2002!);
    const updated = await f.core.invoke('library.item.update', {
      id: item.id,
      csl: { ...item.csl, title: 'Books <img src=x onerror=alert(1)> Are Long' },
    });
    if (!updated.ok) throw new Error(updated.error.message);
  });

  afterAll(async () => {
    await f?.close();
    await browser?.close();
  });

  async function request(path: string) {
    const session = new Promise<PickSession>((r) => (opened = r));
    const reply = send(f.api.port, 'GET', path, { 'User-Agent': 'curl/8.5.0', Accept: '*/*' });
    await page.goto((await session).url);
    return reply;
  }

  it('from a CAYW request to the citation text the editor receives', async () => {
    const reply = request('/better-bibtex/cayw?format=pandoc&brackets=1');
    const box = page.getByRole('searchbox', { name: 'Search the library' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // Issue 32: the help line was 3.94:1 (GrayText); axe clean in both color schemes.
    expect(await allViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await allViolations(page)).toEqual([]);
    await screenshot(page, 'picker-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await box.pressSequentially('adams', { delay: 20 });
    const hit = page.getByRole('option').first();
    await expect.poll(() => shownText(hit)).toContain('On Citing');
    expect(await shownText(hit)).toContain('3 supporting · 1 contrasting · 10 mentioning');
    expect(await shownText(hit.locator('.badge.retracted'))).toBe('Retracted');
    await screenshot(page, 'editor-picker-hits');
    await box.press('Enter');
    await page.getByRole('textbox', { name: 'Locator for @adams2001' }).fill('12');
    await box.focus();

    // The fielded search language works in the box.
    await box.pressSequentially('author:brigge', { delay: 20 });
    await expect
      .poll(() => shownText(page.getByRole('option').first()))
      .toContain('Books <img src=x onerror=alert(1)> Are Long');
    expect(await page.locator('#hits img').count()).toBe(0);
    await box.press('Enter');
    await screenshot(page, 'editor-picker-picks');

    // Enter on the empty box finishes.
    await box.press('Enter');
    const answer = await reply;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('[@adams2001, p. 12; @brigge2002]');
    await expect.poll(() => shownText(page.locator('#status'))).toContain('Sent to your editor');
    expect(f.api.pickers.open).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  it('Esc cancels: the editor receives nothing', async () => {
    const reply = request('/better-bibtex/cayw?format=biblatex');
    const box = page.getByRole('searchbox', { name: 'Search the library' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.pressSequentially('synthetic', { delay: 20 });
    await expect.poll(() => page.getByRole('option').count()).toBe(1);
    expect(await shownText(page.getByRole('option').locator('.badge.notice'))).toBe('Expression of concern');
    await box.press('Enter');
    await page.keyboard.press('Escape');
    expect((await reply).body).toBe('');
    expect(problems.errors).toEqual([]);
  });
});
