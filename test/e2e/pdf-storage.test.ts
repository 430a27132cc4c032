// Settings → PDFs in the real app (browser mode): copy by default, "link" chosen and kept, and the
// sentence that says uploads are always copied here. Then a linked PDF (from the watched folder, which
// follows the setting) whose file is deleted: its item's details mark it missing, with what and where.
// A PDF uploaded meanwhile is copied whatever the setting says. Screenshots in light and dark.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { shownText } from './text';

// The machine is shared and slow: a request and the re-render after it can take seconds.
const POLL = { timeout: 15_000 };

describe('Settings → PDFs: copy or link', () => {
  let dir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let inbox: string;
  let dataDir: string;
  const pane = (name: string) => page.locator(`nav button[data-pane="${name}"]`).click();
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);

  beforeAll(async () => {
    dir = tempDir('citewise-pdf-storage-e2e-');
    dataDir = join(dir.path, 'data');
    inbox = join(dir.path, 'Papers');
    mkdirSync(inbox);
    app = await launchApp({ dataDir });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(
      await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' }),
    ));
    await page.goto(app.url);
    await pane('settings');
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dir?.remove();
  });

  it('copies by default, keeps "link" once chosen, and says that uploads in the browser are always copied', async () => {
    await page.getByTestId('pdf-storage-copy').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId('pdf-storage-copy').isChecked(), POLL).toBe(true);
    expect(await page.getByTestId('pdf-storage-link').isChecked()).toBe(false);
    expect(await shownText(page.getByTestId('pdf-storage-where'))).toMatch(
      /In the browser, PDFs you add or drop are uploads: Citewise receives a copy of the file, not where it is kept, so they are always copied\./,
    );
    await page.getByTestId('pdf-storage-link').check();
    // Kept by the core: a new page asks for the settings again.
    await page.reload();
    await pane('settings');
    await expect.poll(() => page.getByTestId('pdf-storage-link').isChecked(), POLL).toBe(true);
    await page.getByTestId('pdf-storage-link').scrollIntoViewIfNeeded();
    await shootThemes(page, 'settings-pdf-storage');
    expect(problems.errors).toEqual([]);
  });

  it('a linked PDF whose file is deleted shows as missing, with its name and where it was; an upload is still copied', async () => {
    await page.getByTestId('watch-folder-path').fill(inbox);
    await page.getByTestId('watch-folder-set').click();
    await expect.poll(() => shownText(page.getByTestId('watch-folder-status')), POLL).toContain(`Watching ${inbox}`);
    const linked = join(inbox, 'franklin 1953.pdf');
    writeFileSync(
      linked,
      await makePdf({ title: 'Molecular configuration in sodium thymonucleate', xmpDoi: '10.5555/e2e.linked.1' }),
    );
    await expect
      .poll(() => shownText(page.getByTestId('watch-folder-status')), { timeout: 30_000 })
      .toMatch(/1 PDF added/);

    await pane('library');
    await page.getByTestId('pdf-file').setInputFiles([
      {
        name: 'wilkins.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(
          await makePdf({
            title: 'Molecular structure of deoxypentose nucleic acids',
            xmpDoi: '10.5555/e2e.copied.2',
          }),
        ),
      },
    ]);
    const dialog = page.getByTestId('pdf-add-dialog');
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 60_000 })
      .toMatch(/Added 1 PDF of 1 file\./);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-count')), POLL).toBe('2 items');

    const showItem = async (title: string) => {
      for (const i of [0, 1]) {
        if ((await shownText(rowAt(i))).includes(title)) return rowAt(i).click();
      }
      throw new Error(`no row titled ${title}`);
    };
    await showItem('deoxypentose');
    await expect
      .poll(() => shownText(page.getByTestId('attachment-kept')), POLL)
      .toContain('copy in the library folder');
    expect(await shownText(page.getByTestId('attachments'))).toContain('wilkins.pdf');

    await showItem('thymonucleate');
    await expect.poll(() => shownText(page.getByTestId('attachment-kept')), POLL).toContain('linked');
    await expect.poll(() => page.getByTestId('attachment').getAttribute('data-state'), POLL).toBe('ok');
    rmSync(linked);
    expect(existsSync(linked)).toBe(false);
    // Checked again when the item is shown again.
    await showItem('deoxypentose');
    await page.getByTestId('details-title').waitFor();
    await showItem('thymonucleate');
    await expect.poll(() => page.getByTestId('attachment').getAttribute('data-state'), POLL).toBe('missing');
    expect(await shownText(page.getByTestId('attachment-state'))).toBe('Missing');
    expect(await shownText(page.getByTestId('attachments'))).toContain(
      `The linked file franklin 1953.pdf is no longer at ${linked} (moved, renamed or deleted?). Attach it again from where it is now.`,
    );
    expect(await page.getByTestId('attachment-open').isDisabled()).toBe(true);
    await page.getByTestId('attachments').scrollIntoViewIfNeeded();
    await shootThemes(page, 'attachment-linked-missing');
    expect(problems.errors).toEqual([]);
  });
});
