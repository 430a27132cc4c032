// PDFs in the app (issue 23): Add → PDFs… and a drop on the Library window each make items with the
// PDF attached, captured in the core's PDF worker, with progress, Cancel and a summary (added, to
// review, already in the library, not added and why). The PDFs are built here with pdf-lib. No
// citation service is configured, so identification rests on the PDFs alone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLines, makePdf } from '../helpers/pdfs';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { shownText, shownTexts } from './text';

describe('PDFs in the app', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    app = await launchApp();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Panes' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const pdf = async (name: string, spec: Parameters<typeof makePdf>[0]) => ({
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from(await makePdf(spec)),
  });

  it('Add → PDFs… adds each file and says what became of it', async () => {
    const alpha = await pdf('alpha.pdf', {
      title: 'Ribosome stalling in yeast under heat',
      byline: 'A. Müller',
      pages: [
        ['Published as doi:10.5555/alpha.2024 in a journal.', ...bodyLines(1, 10)],
        ['The zymurgy quasar <img src=x onerror=alert(1)> of folded chains, measured twice.'],
      ],
    });
    const twoDois = await pdf('two-dois.pdf', {
      title: 'A paper with two identifiers',
      pages: [['See doi:10.5555/first.1 and doi:10.5555/second.2 for the data.']],
    });
    await page.getByTestId('add-button').click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'PDFs…' }).click();
    await (
      await chooser
    ).setFiles([
      alpha,
      twoDois,
      { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some notes, not a PDF at all') },
      { ...alpha, name: 'alpha copy.pdf' },
    ]);
    const dialog = page.getByTestId('pdf-add-dialog');
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 60_000 })
      .toMatch(/Added 2 PDFs of 4 files, 1 to review\.\s+1 file already in your library\.\s+1 file not added\./);
    expect(await shownText(dialog.getByTestId('pdf-added'))).toContain('10.5555/alpha.2024');
    expect(await shownText(dialog.getByTestId('pdf-review-list'))).toMatch(
      /two-dois\.pdf a possible match, not certain \(50 % sure\): check it/,
    );
    expect(await shownText(dialog.getByTestId('pdf-duplicates'))).toMatch(
      /alpha copy\.pdf the same file is already attached/,
    );
    // The message names the file the user chose, never the temporary copy the core read.
    expect(await shownText(dialog.getByTestId('pdf-failed'))).toBe(
      'notes.pdf was not added: it is not a PDF (it does not start with a PDF header).',
    );
    await shootThemes(page, 'pdfs-add-summary');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('2 items');
  });

  it('a drop of PDFs on the Library window adds them', async () => {
    const bytes = [
      ...(await makePdf({
        title: 'Dropped paper on ocean climate',
        pages: [['doi:10.5555/dropped.7', ...bodyLines(3, 5)]],
      })),
    ];
    await page.evaluate((data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'dropped.pdf', { type: 'application/pdf' }));
      window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, bytes);
    const dialog = page.getByTestId('pdf-add-dialog');
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 60_000 })
      .toMatch(/Added 1 PDF of 1 file\./);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('3 items');
  });

  it('Needs review lists the unsure captures with confidence and evidence; one click settles each', async () => {
    await page.getByTestId('pdf-file').setInputFiles([await pdf('scan.pdf', { blankPages: 2 })]);
    const dialog = page.getByTestId('pdf-add-dialog');
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 60_000 })
      .toMatch(/Added 1 PDF of 1 file, 1 to review\./);
    await dialog.getByRole('button', { name: 'Open Needs review' }).click();
    const review = page.getByTestId('review');
    await expect.poll(() => review.getByTestId('review-entry').count()).toBe(2);
    const [twoDois, scan] = [review.getByTestId('review-entry').nth(0), review.getByTestId('review-entry').nth(1)];
    expect(await shownText(twoDois.getByTestId('review-confidence'))).toContain('Confidence 50 %');
    const evidence = await shownText(twoDois.getByRole('list', { name: 'Evidence' }));
    expect(evidence).toContain('text, page 1 10.5555/first.1');
    expect(evidence).toContain('text, page 1 10.5555/second.2');
    expect(await shownText(scan.getByTestId('review-confidence'))).toContain('Confidence 0 %');
    expect(await shownText(scan)).toContain('no identifier and no text on the first page (a scan?)');
    // The file each came from, by the name it had (the copy in the library folder is named by its checksum).
    expect(await shownText(twoDois.getByTestId('review-file'))).toBe('from two-dois.pdf');
    expect(await shownText(scan.getByTestId('review-file'))).toBe('from scan.pdf');
    await shootThemes(page, 'pdfs-needs-review');

    await twoDois.getByRole('button', { name: 'Use this: 10.5555/second.2 for A paper with two identifiers' }).click();
    await expect.poll(() => review.getByTestId('review-entry').count()).toBe(1);
    await review.getByRole('button', { name: 'Keep as it is: scan' }).click();
    await expect.poll(() => shownText(review)).toContain('Nothing to review');
    // The chosen candidate is the item's DOI now; the kept scan stays in the library as it was.
    await page.getByTestId('view-library').click();
    const search = page.getByRole('searchbox', { name: 'Search the library' });
    await search.fill('doi:10.5555/second.2');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('1 item');
    await search.fill('');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('4 items');
  });

  it('"In PDFs" searches the PDFs\' text and shows each matching page with the words around the match', async () => {
    const search = page.getByRole('searchbox', { name: 'Search the library' });
    const toggle = page.getByTestId('fulltext-toggle');
    expect(await toggle.isDisabled()).toBe(true);
    await search.fill('"zymurgy quasar"');
    // Bare words search the items' own fields only: no item has these words.
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('0 items');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await search.inputValue()).toBe('fulltext:"zymurgy quasar"');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('1 item');
    const hits = page.getByTestId('fulltext-hits');
    await expect.poll(() => hits.getByTestId('fulltext-item').count()).toBe(1);
    const line = hits.getByTestId('fulltext-item').locator('li').first();
    expect(await shownText(line.locator('.page'))).toBe('p. 2');
    expect(await shownTexts(line.locator('mark'))).toEqual(['zymurgy quasar']);
    // The PDF's text is text: its markup is shown, never made into elements.
    expect(await shownText(line)).toContain('<img src=x onerror=alert(1)> of folded chains');
    expect(await hits.locator('img').count()).toBe(0);
    await shootThemes(page, 'pdfs-fulltext-hits');
    await toggle.click();
    expect(await search.inputValue()).toBe('"zymurgy quasar"');
    await expect.poll(() => hits.count()).toBe(0);
    await search.fill('');
    // The whole library again, before the next test counts it.
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe('4 items');
  });

  it('Cancel stops after the file being read, and the summary says how many were not read', async () => {
    // Ten files of three pages: Cancel lands while most are still unread, even on a loaded machine.
    const files = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) =>
        pdf(`batch-${n}.pdf`, {
          title: `Batch paper number ${n}`,
          pages: [[`doi:10.5555/batch.${n}`, ...bodyLines(n, 30)], bodyLines(n + 10, 30), bodyLines(n + 20, 30)],
        }),
      ),
    );
    const before = 4;
    expect(await shownText(page.getByTestId('item-count'))).toBe(`${before} items`);
    await page.getByTestId('pdf-file').setInputFiles(files);
    const dialog = page.getByTestId('pdf-add-dialog');
    await dialog.getByTestId('pdf-add-progress').waitFor();
    await shootThemes(page, 'pdfs-add-progress', { dark: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(() => shownText(dialog.getByTestId('pdf-add-summary')), { timeout: 60_000 })
      .toMatch(/Cancelled: \d files? not read\./);
    const text = await shownText(dialog.getByTestId('pdf-add-summary'));
    const added = Number(/Added (\d+) PDF/.exec(text)?.[1]);
    const notRead = Number(/Cancelled: (\d+) file/.exec(text)?.[1]);
    expect(added + notRead).toBe(10);
    expect(notRead).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shownText(page.getByTestId('item-count'))).toBe(`${before + added} items`);
    expect(problems.errors).toEqual([]);
  });
});
