// Migration keeps files: `citewise import refs.bib` attaches the PDFs the entries' `file` fields name,
// written as Better BibTeX (one path; several escaped and joined by ";"; its JabRef format), JabRef
// (description:path:type, a fileDirectory in @Comment{jabref-meta:…}) and Mendeley (no leading slash)
// write them, through capture's checksum and copy, their text then searchable; every file not found is
// reported with its entry and path. A second import attaches nothing twice.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttachedFile } from '../../../shared/model/linked-files';
import { makePdf } from '../../helpers/pdfs';
import { run, tempDir } from './helpers';

let data: ReturnType<typeof tempDir>;
let linked: ReturnType<typeof tempDir>;
let root: ReturnType<typeof tempDir>;

beforeAll(() => {
  data = tempDir();
  linked = tempDir();
  root = tempDir('citewise-bib-files-');
});
afterAll(() => {
  data?.remove();
  linked?.remove();
  root?.remove();
});

/** A PDF whose text holds one word no other file has, to find it by full-text search. */
async function pdf(path: string, word: string): Promise<void> {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, await makePdf({ title: `About ${word}`, pages: [[`This paper studies ${word} at length.`]] }));
}

// BBT escapes \ : ; { } with a backslash when it joins several paths (and in its JabRef format).
const bbtEscape = (path: string): string => path.replace(/([\\{}:;])/g, '\\$1');

interface FileReport {
  files: {
    added: number;
    duplicates: unknown[];
    files?: {
      attached: number;
      missing: number;
      failed: number;
      online: number;
      pdfs: number;
      duplicates: number;
      files: AttachedFile[];
    };
  }[];
}

describe('citewise import keeps the files a .bib names', () => {
  it('attaches them in every shape, reports the ones it cannot, makes their text searchable, and adds nothing twice', async () => {
    const lib = join(root.path, 'Zotero export');
    const abs = join(root.path, 'elsewhere');
    await pdf(join(lib, 'files', 'Smith:2020', 'Smith - 2020 - Deep learning.pdf'), 'quokkas');
    await pdf(join(lib, 'files', 'Smith:2020', 'Smith - 2020 - Supplement.pdf'), 'wombats');
    writeFileSync(join(lib, 'files', 'Smith:2020', 'Snapshot.html'), '<html><body>Snapshot</body></html>');
    await pdf(join(abs, 'Jones 2019.pdf'), 'platypuses');
    await pdf(join(abs, 'Brown; a study.pdf'), 'echidnas');
    await pdf(join(abs, 'Mendeley', 'Lee - 2018.pdf'), 'numbats');
    await pdf(join(lib, 'pdfdir', 'papers', 'wei2005.pdf'), 'bilbies');
    writeFileSync(join(abs, 'not really.pdf'), 'These are notes saved with the wrong name.\n');
    writeFileSync(join(abs, 'run.sh'), '#!/bin/sh\necho hello\n');
    const shared = join(abs, 'Shared.pdf');
    await pdf(shared, 'dingoes');

    const bib = join(lib, 'refs.bib');
    writeFileSync(
      bib,
      [
        '% Better BibTeX, several files: relative to the .bib, escaped, joined by ;',
        '@article{smith2020,',
        '  title = {Deep Learning},',
        '  author = {Smith, Ann},',
        '  year = {2020},',
        `  file = {files/Smith\\:2020/Smith - 2020 - Deep learning.pdf;files/Smith\\:2020/Smith - 2020 - Supplement.pdf;files/Smith\\:2020/Snapshot.html}`,
        '}',
        '% Better BibTeX, one file: the absolute path as it is',
        '@book{jones2019,',
        '  title = {Monotremes},',
        '  year = {2019},',
        `  file = {${join(abs, 'Jones 2019.pdf')}}`,
        '}',
        '% Better BibTeX in JabRef format: Title:path:mime-type triples',
        '@article{brown2017,',
        '  title = {A Study},',
        '  year = {2017},',
        `  file = {Full Text PDF:${bbtEscape(join(abs, 'Brown; a study.pdf'))}:application/pdf;Snapshot:https\\://example.org/brown:text/html}`,
        '}',
        "% Mendeley: ':path:pdf', the path without its leading slash",
        '@article{lee2018,',
        '  title = {Marsupials},',
        '  year = {2018},',
        `  file = {:${join(abs, 'Mendeley', 'Lee - 2018.pdf').slice(1)}:pdf}`,
        '}',
        "% JabRef: ':path:PDF', relative to the library's fileDirectory",
        '@article{wei2005,',
        '  title = {AHP},',
        '  year = {2005},',
        '  file = {:papers/wei2005.pdf:PDF}',
        '}',
        '% A Windows path (a .bib from a Windows machine), a missing file, a file that is no PDF',
        '@article{gone2001,',
        '  title = {Gone},',
        '  year = {2001},',
        '  file = {C\\:\\\\Users\\\\ann\\\\Zotero\\\\storage\\\\AB12CD34\\\\w.pdf;files/missing.pdf}',
        '}',
        '@article{fake2002,',
        '  title = {Fake},',
        '  year = {2002},',
        `  file = {:${bbtEscape(join(abs, 'not really.pdf'))}:PDF}`,
        '}',
        '% A file that is no document: never attached',
        `@misc{script2004, title = {Script}, year = {2004}, file = {${join(abs, 'run.sh')}}}`,
        '% Two entries naming the same file',
        `@article{one2003, title = {One}, year = {2003}, file = {${shared}}}`,
        `@article{two2003, title = {Two}, year = {2003}, file = {${shared}}}`,
        '@Comment{jabref-meta: fileDirectory:pdfdir;}',
        '',
      ].join('\n'),
    );

    const first = await run(data.path, 'import', bib, '--json');
    expect(first.stderr).toContain('indexing the text of 8 attached PDFs');
    expect(first.code).toBe(0);
    const report = (JSON.parse(first.stdout) as FileReport).files[0]!;
    expect(report.added).toBe(10);
    const files = report.files!;
    const by = (key: string) => files.files.filter((f) => f.key === key);
    expect(by('smith2020').map((f) => [f.written, f.status, f.pdf])).toEqual([
      ['files/Smith:2020/Smith - 2020 - Deep learning.pdf', 'attached', true],
      ['files/Smith:2020/Smith - 2020 - Supplement.pdf', 'attached', true],
      ['files/Smith:2020/Snapshot.html', 'attached', false],
    ]);
    expect(by('jones2019').map((f) => f.status)).toEqual(['attached']);
    expect(by('brown2017').map((f) => [f.written, f.status])).toEqual([
      [join(abs, 'Brown; a study.pdf'), 'attached'],
      ['https://example.org/brown', 'online'],
    ]);
    expect(by('lee2018')[0]).toMatchObject({ status: 'attached', path: join(abs, 'Mendeley', 'Lee - 2018.pdf') });
    expect(by('wei2005')[0]).toMatchObject({ status: 'attached', path: join(lib, 'pdfdir', 'papers', 'wei2005.pdf') });
    expect(by('gone2001')).toEqual([
      expect.objectContaining({
        written: 'C:\\Users\\ann\\Zotero\\storage\\AB12CD34\\w.pdf',
        status: 'missing',
        reason: 'a Windows path, which is not on this computer',
      }),
      expect.objectContaining({
        written: 'files/missing.pdf',
        status: 'missing',
        reason: expect.stringContaining(join(lib, 'files', 'missing.pdf')),
      }),
    ]);
    expect(by('fake2002')[0]).toMatchObject({ status: 'failed', reason: expect.stringContaining('not one') });
    expect(by('script2004')[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('only documents are attached'),
    });
    expect(by('one2003')[0]!.status).toBe('attached');
    expect(by('two2003')[0]).toMatchObject({ status: 'attached', alsoOn: by('one2003')[0]!.itemId });
    expect(files).toMatchObject({ attached: 9, missing: 2, failed: 2, online: 1, duplicates: 0, pdfs: 8 });

    // Copied into the library folder under their checksum (Settings → PDFs' default), the HTML linked.
    const item = JSON.parse((await run(data.path, 'search', 'key:smith2020', '--json')).stdout) as {
      items: { id: number }[];
    };
    expect(item.items).toHaveLength(1);
    expect(existsSync(join(data.path, 'attachments'))).toBe(true);

    // The PDFs' text is searchable at once, as a dropped PDF's is.
    for (const [word, key] of [
      ['quokkas', 'smith2020'],
      ['wombats', 'smith2020'],
      ['echidnas', 'brown2017'],
      ['numbats', 'lee2018'],
      ['bilbies', 'wei2005'],
    ]) {
      const found = JSON.parse((await run(data.path, 'search', `fulltext:${word}`, '--json')).stdout) as {
        items: { citationKey: string }[];
      };
      expect(found.items.map((i) => i.citationKey)).toEqual([key]);
    }

    // The text report names each file not attached, with its entry and path.
    const again = await run(data.path, 'import', bib);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('10 duplicates skipped');
    expect(again.stdout).toContain(
      ': 9 already attached, 2 not found, 2 not attached, 1 web link left in the entries.',
    );
    expect(again.stdout).toContain(
      `${bib}: smith2020: files/Smith:2020/Smith - 2020 - Deep learning.pdf: already attached`,
    );
    expect(again.stderr).toContain(
      `${bib}: gone2001: C:\\Users\\ann\\Zotero\\storage\\AB12CD34\\w.pdf: not attached: a Windows path, which is not on this computer`,
    );
    expect(again.stderr).toContain(`${bib}: gone2001: files/missing.pdf: not attached: not found (looked for`);
    expect(again.stderr).not.toContain('indexing the text');
    // A dozen CLI runs, each starting its workers: minutes on a loaded machine, not a timing check.
  }, 300_000);

  it('links the PDFs where they are with --link, starts relative paths at --files-from, and attaches nothing with --no-files', async () => {
    const dir = join(root.path, 'linkme');
    await pdf(join(dir, 'pdfs', 'a.pdf'), 'kangaroos');
    const bib = join(root.path, 'elsewhere.bib');
    writeFileSync(bib, '@article{a1, title = {Kangaroos}, year = {2020}, file = {pdfs/a.pdf}}\n');
    const none = await run(linked.path, 'import', bib, '--no-files', '--json');
    expect((JSON.parse(none.stdout) as FileReport).files[0]!.files).toBeUndefined();
    const notThere = await run(linked.path, 'import', bib, '--files-from', join(root.path, 'nope'));
    expect(notThere.code).toBe(2);
    expect(notThere.stderr).toContain('there is no folder there');
    const r = await run(linked.path, 'import', bib, '--link', '--files-from', dir, '--json');
    expect(r.code).toBe(0);
    const files = (JSON.parse(r.stdout) as FileReport).files[0]!.files!;
    expect(files.files[0]).toMatchObject({ status: 'attached', path: join(dir, 'pdfs', 'a.pdf') });
    expect(existsSync(join(linked.path, 'attachments'))).toBe(false);
  }, 300_000);
});
