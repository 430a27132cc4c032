// The files a Better BibTeX .bib names, attached through capture's checks: the size limit on both
// sides, an empty file, a file named a PDF that is not one, a file that is not a document. The .bib is
// read by the BibTeX importer and its items imported into a real library, as `citewise import` does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../../../electron/core/formats';
import { attachLinkedFiles } from '../../../electron/core/pdf/attach-files';
import { importItems, testLibrary, type TestLibrary } from '../library/helpers/lib';

let t: TestLibrary;
afterEach(() => t?.dispose());

/** A byte string that starts as a PDF does, `size` bytes long. */
const pdfBytes = (size: number): Buffer => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size - 9, 0x20)]);

async function attach(files: Record<string, Buffer | string>, maxBytes: number) {
  t = testLibrary();
  const folder = join(t.dir, 'export');
  mkdirSync(join(folder, 'files'), { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(join(folder, 'files', name), body);
  // BBT's shape for one file, with a relative path ("files/…"), one entry per file.
  const bib = Object.keys(files)
    .map((name, i) => `@article{key${i},\n  title = {Paper ${i}},\n  file = {files/${name}}\n}\n`)
    .join('\n');
  const ids = importItems(
    t.library,
    importText(bib, { format: 'bibtex' }).items.map((i) => i.item),
  ).ids;
  const lib = t.library;
  const report = await attachLinkedFiles(
    {
      cslOf: async (ids) => lib.cslOf(ids),
      getItem: async (id) => lib.getItem(id),
      withLinkedFiles: async (ids) => lib.withLinkedFiles(ids),
      attachImportedFiles: async (f) => lib.attachImportedFiles(f),
    },
    ids,
    { baseDirs: [folder], mode: 'link', storeDir: join(t.dir, 'store'), maxBytes },
  );
  return Object.fromEntries(report.files.map((f) => [f.written, f]));
}

describe('attaching the files a .bib names', () => {
  it('attaches a file at the size limit and refuses one a byte over it, with its size', async () => {
    const limit = 4096;
    const out = await attach(
      { 'under.pdf': pdfBytes(limit - 1), 'at.pdf': pdfBytes(limit), 'over.pdf': pdfBytes(limit + 1) },
      limit,
    );
    expect(out['files/under.pdf']).toMatchObject({ status: 'attached', pdf: true });
    expect(out['files/at.pdf']).toMatchObject({ status: 'attached', pdf: true });
    expect(out['files/over.pdf']).toMatchObject({ status: 'failed', reason: expect.stringContaining('larger than') });
    expect(out['files/over.pdf']!.reason).toContain('not attached');
    expect(t.library.getItem(out['files/at.pdf']!.itemId).attachments).toHaveLength(1);
    expect(t.library.getItem(out['files/over.pdf']!.itemId).attachments).toHaveLength(0);
  });

  it('refuses an empty file, a PDF that is not one and a file that is not a document, saying why', async () => {
    const out = await attach(
      {
        'empty.pdf': '',
        'fake.pdf': '<html>not a pdf</html>',
        'run.sh': '#!/bin/sh\nrm -rf ~\n',
        'page.html': '<p>x</p>',
      },
      1 << 20,
    );
    expect(out['files/empty.pdf']).toMatchObject({ status: 'failed', reason: 'the file is empty' });
    expect(out['files/fake.pdf']).toMatchObject({ status: 'failed', reason: expect.stringContaining('%PDF-') });
    expect(out['files/run.sh']).toMatchObject({ status: 'failed', reason: expect.stringContaining('only documents') });
    expect(out['files/page.html']).toMatchObject({ status: 'attached', pdf: false });
  });
});
