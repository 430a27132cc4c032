// The `file` field as Better BibTeX, JabRef and Mendeley write it (shapes taken from their writers and
// their own tests: BBT's enc_attachments, JabRef's FileFieldWriter and FileFieldParserTest).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../electron/core/formats';
import { bibtexCustomOf } from '../../../electron/core/formats/bibtex/mapping';
import {
  fileFieldValues,
  isPdfLink,
  isRelativeLink,
  parseFileField,
  type LinkedFile,
} from '../../../electron/core/formats/bibtex/file-field';
import { candidatePaths, jabrefFileDirectories } from '../../../electron/core/pdf/attach-files';

const links = (field: string): string[] => parseFileField(field).map((f) => f.link);
const one = (field: string): LinkedFile => {
  const files = parseFileField(field);
  expect(files).toHaveLength(1);
  return files[0]!;
};

describe('the file field', () => {
  it("reads Better BibTeX's one path as it is, on Linux and on Windows", () => {
    expect(links('/home/u/Zotero/storage/AB12CD34/Smith - 2020 - Deep learning.pdf')).toEqual([
      '/home/u/Zotero/storage/AB12CD34/Smith - 2020 - Deep learning.pdf',
    ]);
    expect(links('~/BBTTEST/storage/Adams_Huaynaputina.pdf')).toEqual(['~/BBTTEST/storage/Adams_Huaynaputina.pdf']);
    // Zotero's Windows path, not escaped (BBT writes one attachment verbatim).
    expect(links('C:\\Users\\u\\Zotero\\storage\\AB12CD34\\a.pdf')).toEqual([
      'C:\\Users\\u\\Zotero\\storage\\AB12CD34\\a.pdf',
    ]);
  });

  it("reads Better BibTeX's several paths, escaped and joined by ;", () => {
    expect(
      links("~/BBTTEST/MobileHCI '10 2010 Pielot.pdf;files/Anonymous\\:2010p7822/MobileHCI '10 2010 Pielot.pdf"),
    ).toEqual(["~/BBTTEST/MobileHCI '10 2010 Pielot.pdf", "files/Anonymous:2010p7822/MobileHCI '10 2010 Pielot.pdf"]);
    expect(links('C\\:\\\\Users\\\\u\\\\a.pdf;C\\:\\\\Users\\\\u\\\\b.html')).toEqual([
      'C:\\Users\\u\\a.pdf',
      'C:\\Users\\u\\b.html',
    ]);
    expect(links('~/x/Literature\\; Or, Shoul.pdf')).toEqual(['~/x/Literature; Or, Shoul.pdf']);
  });

  it("reads JabRef's description:path:type triples, as Better BibTeX writes them in JabRef format too", () => {
    expect(
      parseFileField(
        'Full Text PDF:/home/u/Zotero/storage/F64PVIN4/Robinson_2007.pdf:application/pdf;Snapshot:/home/u/Zotero/storage/F64PVIN4/page.html:text/html',
      ),
    ).toEqual([
      {
        description: 'Full Text PDF',
        link: '/home/u/Zotero/storage/F64PVIN4/Robinson_2007.pdf',
        type: 'application/pdf',
        online: false,
      },
      { description: 'Snapshot', link: '/home/u/Zotero/storage/F64PVIN4/page.html', type: 'text/html', online: false },
    ]);
    expect(one('Desc:File.PDF:PDF')).toMatchObject({ description: 'Desc', link: 'File.PDF', type: 'PDF' });
    expect(one(':wei2005ahp.pdf:PDF')).toMatchObject({ description: '', link: 'wei2005ahp.pdf' });
    expect(links('wei2005ahp.pdf;other.pdf')).toEqual(['wei2005ahp.pdf', 'other.pdf']);
    expect(one('test\\:\\;:wei2005ahp.pdf:PDF')).toMatchObject({ description: 'test:;', link: 'wei2005ahp.pdf' });
    expect(one('desc:C\\:\\\\test.pdf:PDF')).toMatchObject({ link: 'C:\\test.pdf' });
    expect(one('desc:C:\\test.pdf:PDF')).toMatchObject({ link: 'C:\\test.pdf' });
    expect(one('Boyd2012.pdf:C\\:\\\\Users\\\\Literature_database\\\\Boyd2012.pdf:PDF')).toMatchObject({
      link: 'C:\\Users\\Literature_database\\Boyd2012.pdf',
    });
    expect(one(':A:\\Zotero\\storage\\test.pdf')).toMatchObject({ link: 'A:\\Zotero\\storage\\test.pdf' });
    expect(one('file.pdf::')).toMatchObject({ link: 'file.pdf' });
    expect(one('::file.pdf')).toMatchObject({ link: 'file.pdf' });
    expect(one('desc:file.pdf:PDF:qwer:asdf')).toMatchObject({ link: 'file.pdf', type: 'PDF' });
    expect(one('test&#44\\;st\\:\\;:wei2005ahp.pdf:PDF')).toMatchObject({ description: 'test&#44;st:;' });
  });

  it("reads Mendeley's paths, the $\\backslash$ kind and the ones without their leading slash", () => {
    expect(
      one(
        ':C$\\backslash$:/Users/XX/AppData/Local/Mendeley Ltd./Mendeley Desktop/Downloaded/Brown - 2017 - Physical test.pdf:pdf',
      ),
    ).toMatchObject({
      link: 'C:/Users/XX/AppData/Local/Mendeley Ltd./Mendeley Desktop/Downloaded/Brown - 2017 - Physical test.pdf',
      type: 'pdf',
    });
    expect(one(':home/u/.local/share/data/Mendeley Ltd./Mendeley Desktop/Downloaded/x.pdf:pdf').link).toBe(
      'home/u/.local/share/data/Mendeley Ltd./Mendeley Desktop/Downloaded/x.pdf',
    );
  });

  it('tells web links from files, PDFs from other files, relative paths from absolute ones', () => {
    expect(one(':http\\://arxiv.org/pdf/2010.08497v1:PDF')).toMatchObject({ online: true });
    expect(one('https://books.google.de/')).toMatchObject({ online: true });
    expect(one(':/home/www.google.de.pdf')).toMatchObject({ online: false });
    expect(isPdfLink(one('Full Text:/x/a.pdf:application/pdf'))).toBe(true);
    expect(isPdfLink(one(':a.html:text/html'))).toBe(false);
    expect(isPdfLink(one('a.PDF'))).toBe(true);
    expect(isPdfLink(one(':paper.pdf:pdf'))).toBe(true);
    expect(isRelativeLink(one('files/a.pdf'))).toBe(true);
    for (const abs of ['/x/a.pdf', '~/a.pdf', 'C:\\a.pdf', 'file:///x/a.pdf', ':home/u/a.pdf:pdf'])
      expect(isRelativeLink(one(abs))).toBe(false);
    expect(parseFileField('')).toEqual([]);
    expect(parseFileField('  ')).toEqual([]);
  });

  it('finds the file fields of a .bib without parsing it', () => {
    const bib = `@article{a, title = {T}, file = {:a.pdf:PDF;Snap:b{x}.html:text/html}}\n@book{b,\n  file = "c.pdf",\n  profile = {no}}`;
    expect(fileFieldValues(bib)).toEqual([':a.pdf:PDF;Snap:b{x}.html:text/html', 'c.pdf']);
  });
});

describe('the file field through the BibTeX import', () => {
  const fieldsOf = (text: string): string[] =>
    importText(text, { format: 'bibtex' }).items.flatMap((i) => {
      const file = bibtexCustomOf(i.item.custom).fields?.['file'];
      return file === undefined ? [] : parseFileField(file).map((f) => f.link);
    });
  const fixture = (name: string): string =>
    readFileSync(join(import.meta.dirname, '../../fixtures/real-world', name), 'utf8');

  it('keeps the field as written, so the paths of the real-world exports come out whole', () => {
    expect(fieldsOf(fixture('bbt-export.bib'))).toEqual(['/home/wei/Zotero/storage/ABCD1234/Zhang et al. - 2021.pdf']);
    expect(fieldsOf(fixture('mendeley-export.bib'))).toEqual([
      'C:/Users/lab/Mendeley/Watson, Crick - 1953 - Molecular Structure.pdf',
    ]);
    // Escapes and braces survive the parser: BBT's several paths, its JabRef format, a Windows path.
    expect(
      fieldsOf(
        '@article{a, title = {T}, file = {C\\:\\\\Users\\\\u\\\\a.pdf;files/Smith\\:2020/b {x}.pdf}}\n@book{b, title = {U}, file = {Full Text:/x/a.pdf:application/pdf}}',
      ),
    ).toEqual(['C:\\Users\\u\\a.pdf', 'files/Smith:2020/b {x}.pdf', '/x/a.pdf']);
  });
});

describe('where a linked file is looked for', () => {
  it('tries each folder for a relative path, then the Mendeley root; absolute paths as they are', () => {
    expect(candidatePaths('files/a.pdf', ['/lib', '/bib'], '/home/me', 'linux').paths).toEqual([
      '/lib/files/a.pdf',
      '/bib/files/a.pdf',
    ]);
    expect(candidatePaths('home/u/Mendeley/a.pdf', ['/bib'], '/home/me', 'linux').paths).toEqual([
      '/bib/home/u/Mendeley/a.pdf',
      '/home/u/Mendeley/a.pdf',
    ]);
    expect(candidatePaths('files\\sub\\a.pdf', ['/bib'], '/home/me', 'linux').paths[0]).toBe('/bib/files/sub/a.pdf');
    expect(candidatePaths('~/Zotero/a.pdf', ['/bib'], '/home/me', 'linux').paths).toEqual(['/home/me/Zotero/a.pdf']);
    expect(candidatePaths('/x/a.pdf', ['/bib'], '/home/me', 'linux').paths).toEqual(['/x/a.pdf']);
    expect(candidatePaths('file:///x/a%20b.pdf', ['/bib'], '/home/me', 'linux').paths).toEqual(['/x/a b.pdf']);
  });

  it('knows a Windows path is not on Linux, and uses it on Windows', () => {
    expect(candidatePaths('C:\\Users\\u\\a.pdf', ['/bib'], '/home/me', 'linux')).toEqual({
      paths: [],
      windowsElsewhere: true,
    });
    expect(candidatePaths('C:\\Users\\u\\a.pdf', ['C:\\bib'], 'C:\\Users\\u', 'win32')).toEqual({
      paths: ['C:\\Users\\u\\a.pdf'],
      windowsElsewhere: false,
    });
  });

  it("reads JabRef's fileDirectory, relative ones from the .bib's folder", () => {
    const bib = `@comment{jabref-meta: databaseType:biblatex;}\n@Comment{jabref-meta: fileDirectory:papers;}\n@Comment{jabref-meta: fileDirectory-me-laptop:/home/me/pdfs;}`;
    expect(jabrefFileDirectories(bib, '/work/thesis')).toEqual(['/work/thesis/papers', '/home/me/pdfs']);
    expect(jabrefFileDirectories(bib, null)).toEqual(['/home/me/pdfs']);
  });
});
