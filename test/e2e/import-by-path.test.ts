// Issue 38: the app imports a file by path, its text never over the IPC. In browser mode the Import
// dialog uploads the file's bytes once to the host (POST /uploads/import) and the preview and the
// import name it by selection; what the page sends over its WebSocket is counted while a 2.4 MB .bib
// is previewed and imported: a few requests, not the file's text (before, about twice its size).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type AppSession } from './harness';
import { shownText } from './text';

const ENTRIES = 4000;
const BIB = Array.from(
  { length: ENTRIES },
  (_, i) => `@article{path${i},
  author = {Okafor, Chidi and Lindqvist, Maja},
  title = {Upload path study number ${i} on soil microbes and ${'long abstract words '.repeat(20)}},
  journal = {Journal of Tests}, year = {${1990 + (i % 30)}}, volume = {${i % 90}}, pages = {${i}--${i + 9}}
}`,
).join('\n');

describe('importing a chosen file by path', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await openApp();
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });

  it('uploads the file once; the WebSocket carries no file text', async () => {
    const { page, problems } = session;
    await page.evaluate(() => {
      const w = window as unknown as { __sent: number };
      w.__sent = 0;
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        w.__sent += typeof data === 'string' ? data.length : 0;
        return send.call(this, data);
      } as typeof send;
    });
    const uploads: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/uploads/import')) uploads.push(r.status());
    });
    const bytes = Buffer.from(BIB);
    expect(bytes.length).toBeGreaterThan(2_400_000);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'big.bib', mimeType: 'application/x-bibtex', buffer: bytes });
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-summary').waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: /^Import 4,?000 entries/ }).click();
    await dialog.getByTestId('import-report').waitFor({ timeout: 120_000 });
    expect(await shownText(dialog.getByTestId('import-report'))).toMatch(/Added 4,?000 items/);
    const sent = await page.evaluate(() => (window as unknown as { __sent: number }).__sent);
    // The preview's and the import's requests, and whatever the table asks meanwhile: kilobytes.
    expect(sent).toBeLessThan(64 * 1024);
    expect(uploads).toEqual([200]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(problems.errors).toEqual([]);
  });
});
