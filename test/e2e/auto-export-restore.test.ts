/// <reference lib="dom" />
// Issue 6 in the real app (browser mode, against the local service): Settings → Files kept in sync
// (a typed path, refused with a clear error when it cannot work, then written and kept up to date
// after an edit, Run now, Remove), restoring a backup from Settings (confirmed, the library reloads,
// undoable), and attachments in the details column (typed or dropped path, missing and changed files
// shown, Open shows the path to copy since a browser cannot open files). Screenshots of each, axe clean.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { startService, type RunningService } from '../service/server';
import { axeViolations } from './components';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText } from './text';

const BIB = `@article{alpha2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020}
@article{beta2021, title = {Beta paper}, author = {Roe, Rick}, year = 2021}
@book{gamma2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019}
`;

describe('Auto-export, restore and attachments', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let work: ReturnType<typeof tempDir>;

  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);
  const pane = (name: string) => page.locator(`nav button[data-pane="${name}"]`).click();

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 50, log: () => {} });
    dataDir = tempDir('citewise-issue6-');
    work = tempDir('citewise-work-');
    const bib = join(work.path, 'seed.bib');
    writeFileSync(bib, BIB);
    await cli(dataDir.path, service.url, 'import', bib);
    app = await launchApp({
      dataDir: dataDir.path,
      env: { CITEWISE_SERVICE_URL: service.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await service?.close();
    dataDir?.remove();
    work?.remove();
  });

  describe('Settings → Files kept in sync', () => {
    it('refuses a path that cannot work, saying why, and sets up a file that is written at once', async () => {
      await pane('settings');
      const section = page.getByTestId('auto-export');
      await section.scrollIntoViewIfNeeded();
      await expect.poll(() => page.getByTestId('auto-export-empty').count()).toBe(1);
      // Browser mode: no save dialog, the path is typed.
      expect(await page.getByTestId('auto-export-choose').count()).toBe(0);

      const path = page.getByTestId('auto-export-path');
      await path.fill('references.bib');
      await page.getByTestId('auto-export-add').click();
      await expect.poll(() => shownText(page.getByTestId('auto-export-error'))).toContain('full path');
      expect(await path.getAttribute('aria-invalid')).toBe('true');

      await path.fill(join(work.path, 'refs.txt'));
      await page.getByTestId('auto-export-add').click();
      await expect.poll(() => shownText(page.getByTestId('auto-export-error'))).toContain('ends in .bib');

      await path.fill(join(app.dataDir, 'refs.bib'));
      await page.getByTestId('auto-export-add').click();
      await expect.poll(() => shownText(page.getByTestId('auto-export-error'))).toContain("in Citewise's data folder");
      await screenshot(page, 'auto-export-error-light');
      expect(await axeViolations(page, '[data-testid="auto-export"]')).toEqual([]);

      const target = join(work.path, 'refs.bib');
      await path.fill(target);
      await page.getByTestId('auto-export-add').click();
      const row = page.getByTestId('auto-export-row');
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('written');
      expect(await page.getByTestId('auto-export-error').count()).toBe(0);
      expect(await path.inputValue()).toBe('');
      expect(await shownText(row)).toContain(target);
      expect(await shownText(page.getByTestId('auto-export-status'))).toContain('3 entries');
      expect(readFileSync(target, 'utf8')).toContain('Alpha paper');
    });

    it('keeps the file up to date after an edit, and shows a failed run with its reason', async () => {
      const target = join(work.path, 'refs.bib');
      await pane('library');
      await rowAt(0).click();
      await page.getByTestId('details-title').waitFor();
      const title = await shownText(page.getByTestId('details-title'));
      const input = page.getByLabel('Title', { exact: true });
      await input.fill(`${title} (second edition)`);
      await input.blur();
      await expect.poll(() => readFileSync(target, 'utf8'), { timeout: 20_000 }).toContain(`${title} (second edition)`);

      await pane('settings');
      rmSync(target);
      // Run now writes it again (a deleted file is not "unchanged").
      await page.getByRole('button', { name: 'Run now: write refs.bib' }).click();
      await expect.poll(() => existsSync(target), { timeout: 10_000 }).toBe(true);

      // A second file in a folder that then disappears: the failure is shown with its reason.
      const gone = join(work.path, 'gone');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(gone);
      await page.getByTestId('auto-export-path').fill(join(gone, 'thesis.json'));
      await page.getByTestId('auto-export-format').selectOption('csljson');
      // The LaTeX option is for BibTeX only; abstracts can be left out.
      expect(await page.getByTestId('auto-export-ascii').count()).toBe(0);
      await page.getByLabel('Abstracts').uncheck();
      await page.getByTestId('auto-export-add').click();
      const second = page.getByTestId('auto-export-row').nth(1);
      await expect.poll(() => second.getAttribute('data-status'), { timeout: 15_000 }).toBe('written');
      rmSync(gone, { recursive: true });
      await page.getByRole('button', { name: 'Run now: write thesis.json' }).click();
      await expect.poll(() => second.getAttribute('data-status'), { timeout: 10_000 }).toBe('error');
      expect(await shownText(second)).toContain('does not exist');
      expect(await shownText(second)).toContain('CSL-JSON · My Library · no abstracts');
      await page.getByTestId('auto-export').scrollIntoViewIfNeeded();
      await screenshot(page, 'auto-export-light');
      expect(await axeViolations(page, 'main')).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'auto-export-dark');
      expect(await axeViolations(page, 'main')).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      await page
        .getByRole('button', { name: 'Remove thesis.json from the files kept in sync (the file stays)' })
        .click();
      await expect.poll(() => page.getByTestId('auto-export-row').count()).toBe(1);
    });
  });

  describe('Settings → restore a backup', () => {
    it('asks first, restores, reloads the library, and can be undone', async () => {
      await pane('settings');
      await page.getByTestId('backup-now').click();
      await expect.poll(() => shownText(page.getByTestId('backup-result'))).toMatch(/Backed up to/);
      // A change after the backup, which the restore takes away: an item moved to the trash.
      await pane('library');
      await rowAt(0).click();
      await page.getByRole('button', { name: 'Move to Trash' }).click();
      await expect.poll(() => page.locator('[role="row"][data-index]:visible').count(), { timeout: 10_000 }).toBe(2);
      await pane('settings');
      await expect
        .poll(() => shownText(page.getByTestId('library-counts')), { timeout: 10_000 })
        .toContain('2 items (and 1 in the trash)');

      const restoreButtons = page.getByTestId('restore-backup');
      await restoreButtons.first().click();
      const dialog = page.getByTestId('restore-dialog');
      await dialog.waitFor();
      expect(await shownText(dialog)).toContain('is backed up first');
      expect(await shownText(dialog)).toContain('(2 items)');
      await screenshot(page, 'restore-confirm-light');
      expect(await axeViolations(page, '[data-testid="restore-dialog"]')).toEqual([]);
      // Cancel changes nothing.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await shownText(page.getByTestId('library-counts'))).toContain('2 items (and 1 in the trash)');

      await restoreButtons.first().click();
      await page.getByTestId('restore-confirm').click();
      await expect.poll(() => shownText(page.getByTestId('restore-result')), { timeout: 20_000 }).toContain('3 items');
      expect(await shownText(page.getByTestId('restore-result'))).toMatch(/kept as citewise-.+-pre-restore\.sqlite/);
      await expect.poll(() => shownText(page.getByTestId('library-counts'))).not.toContain('trash');
      expect(await shownText(page.getByTestId('library-counts'))).toContain('3 items');
      expect(await shownText(page.locator('[data-testid="backups"] tbody tr').first())).toContain('Before a restore');
      await page.getByTestId('restore-result').scrollIntoViewIfNeeded();
      await screenshot(page, 'restore-done-light');
      expect(await axeViolations(page, 'main')).toEqual([]);

      // The Library pane reloaded: the trashed item is back.
      await pane('library');
      await expect.poll(() => page.locator('[role="row"][data-index]:visible').count(), { timeout: 10_000 }).toBe(3);

      // Undo: restore the pre-restore copy.
      await pane('settings');
      await page.getByTestId('restore-backup').first().click();
      await page.getByTestId('restore-confirm').click();
      await expect.poll(() => shownText(page.getByTestId('restore-result')), { timeout: 20_000 }).toContain('2 items');
      await expect.poll(() => shownText(page.getByTestId('library-counts'))).toContain('2 items (and 1 in the trash)');
      await pane('library');
      await expect.poll(() => page.locator('[role="row"][data-index]:visible').count(), { timeout: 10_000 }).toBe(2);
    });
  });

  describe('Attachments in the details column', () => {
    it('attaches a typed path, refuses a missing file, and shows the path to copy', async () => {
      await pane('library');
      await rowAt(0).click();
      await page.getByTestId('details-title').waitFor();
      const section = page.getByTestId('attachments');
      await section.scrollIntoViewIfNeeded();
      const input = page.getByTestId('attachment-path-input');

      await input.fill(join(work.path, 'nowhere.pdf'));
      await page.getByTestId('attachment-add').click();
      await expect
        .poll(() => shownText(page.getByTestId('attachment-error')))
        .toContain(`There is no file at ${join(work.path, 'nowhere.pdf')}`);

      const pdf = join(work.path, 'paper.pdf');
      writeFileSync(pdf, '%PDF-1.4\nThe paper\n');
      await input.fill(pdf);
      await page.getByTestId('attachment-add').click();
      const item = page.getByTestId('attachment');
      await expect.poll(() => item.getAttribute('data-state'), { timeout: 10_000 }).toBe('ok');
      expect(await shownText(item)).toContain('paper.pdf');
      expect(await page.getByTestId('attachment-error').count()).toBe(0);

      // Issue 32: in browser mode Open shows the PDF in a new tab, served to this session only.
      const tab = page.context().waitForEvent('page', { timeout: 15_000 });
      await page.getByTestId('attachment-open').click();
      const opened = await tab;
      await opened.close();
      await expect.poll(() => shownText(page.getByTestId('attachment-path'))).toContain(pdf);
      const href = (await page.getByTestId('attachment-link').getAttribute('href'))!;
      expect(href).toMatch(/^\/attachments\/\d+\/\d+$/);
      const got = await page.evaluate(async (h) => {
        const r = await fetch(h);
        return {
          status: r.status,
          type: r.headers.get('content-type'),
          disposition: r.headers.get('content-disposition'),
          csp: r.headers.get('content-security-policy'),
          body: await r.text(),
        };
      }, href);
      expect(got).toMatchObject({ status: 200, type: 'application/pdf', body: '%PDF-1.4\nThe paper\n' });
      expect(got.disposition).toContain('inline; filename="paper.pdf"');
      expect(got.csp).toContain("default-src 'none'");
      // Without the session's cookie the file is refused; an attachment that is not there is a 404.
      expect((await fetch(new URL(href, page.url()))).status).toBe(401);
      // (Asked outside the page, with its session cookie: a 404 in the page is a console error.)
      const cookie = (await page.context().cookies(page.url())).map((c) => `${c.name}=${c.value}`).join('; ');
      const host = { headers: { cookie } };
      expect((await fetch(new URL('/attachments/999999/1', page.url()), host)).status).toBe(404);
      const asSession = await fetch(new URL(href, page.url()), host);
      expect([asSession.status, asSession.headers.get('x-content-type-options')]).toEqual([200, 'nosniff']);
      await page.getByTestId('attachment-copy').click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(pdf);
      await screenshot(page, 'attachments-light');
      expect(await axeViolations(page, '[data-testid="item-details"]')).toEqual([]);
    });

    it('attaches a file dropped from a file manager, and shows a changed and a missing file', async () => {
      const dropped = join(work.path, 'dropped notes.txt');
      writeFileSync(dropped, 'notes');
      const dataTransfer = await page.evaluateHandle(
        (uri) => {
          const dt = new DataTransfer();
          dt.setData('text/uri-list', uri);
          return dt;
        },
        `file://${encodeURI(dropped)}`,
      );
      await page.getByTestId('item-details').dispatchEvent('drop', { dataTransfer });
      await expect.poll(() => page.getByTestId('attachment').count(), { timeout: 10_000 }).toBe(2);
      expect(await shownText(page.getByTestId('attachments'))).toContain('dropped notes.txt');
      // Dropped on the details column, a file is attached, never imported.
      expect(await page.getByTestId('import-dialog').count()).toBe(0);

      // A link is not a local file.
      const link = await page.evaluateHandle(() => {
        const dt = new DataTransfer();
        dt.setData('text/uri-list', 'https://example.org/paper.pdf');
        return dt;
      });
      await page.getByTestId('item-details').dispatchEvent('drop', { dataTransfer: link });
      await expect.poll(() => shownText(page.getByTestId('attachment-error'))).toContain('Only files on this computer');

      writeFileSync(join(work.path, 'paper.pdf'), '%PDF-1.4\nThe paper, edited\n');
      rmSync(dropped);
      // Checked again when the item is shown again.
      await rowAt(1).click();
      await page.getByTestId('details-title').waitFor();
      await rowAt(0).click();
      const states = () =>
        page.getByTestId('attachment').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')).sort());
      await expect.poll(states, { timeout: 10_000 }).toEqual(['changed', 'missing']);
      expect(await shownText(page.getByTestId('attachments'))).toContain('has changed since it was attached');
      expect(await shownText(page.getByTestId('attachments'))).toContain('is no longer at');
      await page.getByTestId('attachments').scrollIntoViewIfNeeded();
      await screenshot(page, 'attachments-states-light');
      expect(await axeViolations(page, '[data-testid="item-details"]')).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'attachments-states-dark');
      expect(await axeViolations(page, '[data-testid="item-details"]')).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
    });

    it('logged no console errors', () => {
      expect(problems.errors).toEqual([]);
    });
  });
});
