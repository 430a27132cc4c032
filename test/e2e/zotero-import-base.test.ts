/// <reference lib="dom" />
// The Zotero import's base folder of linked files (Zotero's Linked Attachment Base Directory): a data
// folder whose two linked PDFs are stored relative to it ("attachments:Papers/…", as Zotero writes
// them), with a Zotero profile whose prefs.js names the folder the files were in on the old computer.
// The preview says where the base folder was found and that both files are not found; a wrong folder
// typed is said beside the field and changes nothing; the right one read again finds both, and the
// import attaches them. Both themes, axe.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { writeZoteroFolder } from '../helpers/zotero-db';
import { tempDir } from '../helpers/tmp';
import { shootThemes } from './axe';
import { openApp, type AppSession } from './harness';

const WAIT = { timeout: 20_000 };

describe('Zotero import: the base folder of linked files', () => {
  const dir = tempDir('citewise-zotero-base-');
  const folder = join(dir.path, 'Zotero');
  const home = join(dir.path, 'home');
  const oldBase = '/Users/ana/Dropbox/Library';
  const base = join(dir.path, 'Dropbox', 'Library');
  const prefs = join(home, '.zotero', 'zotero', 'abcd1234.default', 'prefs.js');
  let session: AppSession;

  beforeAll(async () => {
    const pdf = await makePdf({ title: 'Linked paper', pages: [['A linked paper.']] });
    mkdirSync(join(base, 'Papers', '2020'), { recursive: true });
    writeFileSync(join(base, 'Papers', '2020', 'Smith 2020.pdf'), pdf);
    writeFileSync(join(base, 'Papers', 'Jones 2019.pdf'), pdf);
    writeZoteroFolder(folder, {
      items: [
        {
          key: 'ITEMSMTH',
          type: 'journalArticle',
          fields: { title: 'Linked evidence', date: '2020' },
          creators: [{ type: 'author', first: 'Ann', last: 'Smith' }],
        },
        {
          key: 'ITEMJONS',
          type: 'book',
          fields: { title: 'Relative paths', date: '2019' },
          creators: [{ type: 'author', first: 'Bo', last: 'Jones' }],
        },
        // As Zotero stores a linked file under the base folder: "attachments:" and the relative path,
        // with the slashes of the system it was linked on.
        {
          key: 'ATTSMITH',
          type: 'attachment',
          parent: 'ITEMSMTH',
          fields: { title: 'Smith 2020.pdf' },
          attachment: { linkMode: 2, contentType: 'application/pdf', path: 'attachments:Papers/2020/Smith 2020.pdf' },
        },
        {
          key: 'ATTJONES',
          type: 'attachment',
          parent: 'ITEMJONS',
          fields: { title: 'Jones 2019.pdf' },
          attachment: { linkMode: 2, contentType: 'application/pdf', path: 'attachments:Papers\\Jones 2019.pdf' },
        },
      ],
    });
    // The Zotero profile, as Zotero writes prefs.js: the base folder of the old computer.
    mkdirSync(join(prefs, '..'), { recursive: true });
    writeFileSync(
      join(home, '.zotero', 'zotero', 'profiles.ini'),
      '[General]\nStartWithLastProfile=1\n\n[Profile0]\nName=default\nIsRelative=1\nPath=abcd1234.default\nDefault=1\n',
    );
    writeFileSync(
      prefs,
      `// Mozilla User Preferences\n\nuser_pref("extensions.zotero.baseAttachmentPath", ${JSON.stringify(oldBase)});\nuser_pref("extensions.zotero.dataDir", ${JSON.stringify(folder)});\nuser_pref("extensions.zotero.useDataDir", true);\n`,
    );
    session = await openApp({ dataDir: join(dir.path, 'data'), env: { HOME: home } });
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    dir.remove();
  });

  it('shows the base folder prefs.js names, takes another, and attaches the files found there', async () => {
    const { page, problems } = session;
    await page.getByTestId('first-run').getByRole('button', { name: 'Or a whole Zotero library…' }).click();
    const dialog = page.getByTestId('zotero-import-dialog');
    await dialog.getByTestId('zotero-folder').fill(folder);
    await page.keyboard.press('Enter');
    const preview = dialog.getByTestId('zotero-preview');
    await preview.waitFor(WAIT);

    // Found in prefs.js, and the files are not there.
    const found = dialog.getByTestId('zotero-base-found');
    expect((await found.innerText()).replace(/\s+/g, ' ')).toContain(
      `2 linked files are stored relative to Zotero’s Linked Attachment Base Directory. Zotero’s settings name ${oldBase} (found in ${prefs}).`,
    );
    expect(await dialog.getByTestId('zotero-missing-count').innerText()).toContain('2 not found');
    expect((await preview.innerText()).replace(/\s+/g, ' ')).toContain('Files 0 in storage/, 0 linked — 2 not found');
    await shootThemes(page, 'zotero-import-base-prefs');

    // A folder that is not one: said beside the field; the preview stays.
    const field = dialog.getByTestId('zotero-base-folder');
    await field.fill(join(dir.path, 'nowhere'));
    await page.keyboard.press('Enter');
    const error = dialog.locator('#zotero-base-error');
    await expect.poll(() => error.textContent(), WAIT).toContain('is not a folder');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByTestId('zotero-missing-count').innerText()).toContain('2 not found');
    await field.fill('Dropbox/Library');
    await dialog.getByTestId('zotero-base-apply').click();
    await expect.poll(() => error.textContent(), WAIT).toContain('given as a full path');

    // The right folder: read again, both files are found.
    await field.fill(base);
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await preview.innerText()).replace(/\s+/g, ' '), WAIT)
      .toContain('Files 0 in storage/, 2 linked');
    expect(await dialog.getByTestId('zotero-missing-count').count()).toBe(0);
    expect(await error.count()).toBe(0);
    expect((await found.innerText()).replace(/\s+/g, ' ')).toContain(`Using the folder you gave: ${base}.`);
    await shootThemes(page, 'zotero-import-base-given');

    // The import uses it: both items come with their file.
    await dialog.getByTestId('zotero-import-confirm').click();
    const report = dialog.getByTestId('zotero-report');
    await report.waitFor({ timeout: 60_000 });
    expect((await report.innerText()).replace(/\s+/g, ' ')).toContain('Added 2 items');
    expect((await report.innerText()).replace(/\s+/g, ' ')).toContain('2 files');
    const issues = dialog.getByTestId('zotero-report-issues');
    if (await issues.count()) expect(await issues.innerText()).not.toContain('File not found');
    expect(problems.errors).toEqual([]);
  }, 180_000);
});
