// Files with Zotero field codes through the real LibreOffice (Debian's libreoffice-writer, headless):
// the drafts Citewise writes render with the right citation and bibliography text; the documents
// LibreOffice writes from them (.docx → .odt → .docx, and an .odt saved again) still hold codes
// Citewise reads and refreshes; and a document made from the fields a real Zotero writes round-trips.
// Skipped, saying why, only where `soffice` is not installed (CI installs libreoffice-writer-nogui).
import { execFileSync, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { directoryAssets } from '../../../electron/core/formats/cite/assets';
import { assetStyles, ITEM_URI_PREFIX } from '../../../electron/api/integration';
import { parseCitationCode, parseDocumentData } from '../../../electron/api/integration/codes';
import {
  FileDocument,
  draftDocumentFile,
  refreshDocumentFile,
  type DocumentFileKind,
  type FileSessionOptions,
} from '../../../electron/api/integration/file-document';
import type { IntegrationLibrary } from '../../../electron/api/integration/session';
import { ZipReader } from '../../../electron/core/manuscript/zip';
import { parseDocx } from '../../../electron/core/manuscript/docx';
import { buildCslDir } from '../../unit/formats/cite/helpers';
import { docx, paragraph, zip, zoteroField } from '../../unit/manuscript/docx-fixture';

const run = promisify(execFile);

function sofficeVersion(): string | null {
  try {
    return execFileSync('soffice', ['--version'], { encoding: 'utf8', timeout: 60_000 }).trim();
  } catch {
    return null;
  }
}
const version = sofficeVersion();
if (!version)
  console.warn('libreoffice.test.ts skipped: `soffice` is not installed (apt-get install libreoffice-writer-nogui)');

const item = (n: number, title: string): CslItem =>
  ({
    id: `k${n}`,
    type: 'article-journal',
    title,
    author: [{ family: ['Adams', 'Baker', 'Cole'][n - 1]!, given: 'Ann' }],
    issued: { 'date-parts': [[2000 + n]] },
    'container-title': 'Journal of Tests',
    volume: String(n),
  }) as CslItem;

const inLibrary = { ...item(3, 'A paper in the library'), id: '3' } as CslItem;
const library: IntegrationLibrary = {
  byKeys: async (keys) => new Map(keys.filter((k) => k === 'CCCC3333').map((k) => [k, { id: 3, csl: inLibrary }])),
  byIds: async (ids) => new Map(ids.filter((i) => i === 3).map((i) => [i, { key: 'CCCC3333', csl: inLibrary }])),
  importItems: async (items) => items.map(() => null),
};

describe.skipIf(!version)(`LibreOffice (${version ?? 'absent'}) opens what Citewise writes`, () => {
  let dir: string;
  let o: FileSessionOptions;
  /** One soffice conversion of several files, with its own profile and a time limit. */
  const convert = async (to: string, out: string, files: string[]): Promise<void> => {
    mkdirSync(out, { recursive: true });
    await run(
      'soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        to,
        '--outdir',
        out,
        ...files,
      ],
      { timeout: 240_000 },
    );
  };
  const txt = (path: string): string => readFileSync(path, 'utf8').replace(/^\uFEFF/, '');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'citewise-lo-'));
    o = { library, styles: assetStyles(directoryAssets(buildCslDir())), version: '7.0.0', uriPrefix: ITEM_URI_PREFIX };
    const paragraphs = [
      [
        'Evidence was mixed ',
        { citationItems: [{ id: 'k1', uris: [], itemData: item(1, 'On <mixed> evidence & doubt') }] },
        ', and later confirmed ',
        {
          citationItems: [
            { id: 'k2', uris: [], itemData: item(2, 'Confirmation') },
            { id: 3, uris: [`${ITEM_URI_PREFIX}CCCC3333`], itemData: inLibrary, locator: '7', label: 'page' },
          ],
        },
        '.',
      ],
    ];
    for (const kind of ['docx', 'odt'] as const) {
      const { bytes } = await draftDocumentFile(kind, { paragraphs, heading: 'References', styleID: 'apa' }, o);
      writeFileSync(join(dir, `draft-${kind}.${kind}`), bytes);
    }
    // A Word document as Zotero 7's Word plugin leaves it (fields, their text, the preferences in two properties).
    const base = new ZipReader(
      docx([
        paragraph(
          'As Zotero cited it ',
          zoteroField(
            [
              {
                itemData: {
                  type: 'book',
                  title: 'An Old Book',
                  author: [{ family: 'Zed', given: 'Zoe' }],
                  issued: { 'date-parts': [[1999]] },
                  publisher: 'Press',
                },
                locator: '5',
              },
            ],
            '(Zed, 1999, p. 5)',
          ),
          '.',
        ),
      ]),
    );
    const entries: Record<string, string | Buffer> = {};
    for (const n of base.names()) entries[n] = base.read(n, 1e7)!;
    entries['[Content_Types].xml'] =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>';
    entries['_rels/.rels'] =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="docProps/custom.xml"/></Relationships>';
    entries['docProps/custom.xml'] =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="ZOTERO_PREF_1"><vt:lpwstr>&lt;data data-version="3" zotero-version="7.0.11"&gt;&lt;session id="Zs9Kq2Lm"/&gt;&lt;style id="http://www.zotero.org/styles/apa" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="0"/&gt;&lt;prefs&gt;&lt;pref name="fieldType" value="Field"/&gt;&lt;pref name="automaticJour</vt:lpwstr></property><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="ZOTERO_PREF_2"><vt:lpwstr>nalAbbreviations" value="true"/&gt;&lt;/prefs&gt;&lt;/data&gt;</vt:lpwstr></property></Properties>';
    writeFileSync(join(dir, 'zotero.docx'), zip(entries));
    // 1) The three as LibreOffice renders them; 2) LibreOffice's .odt of each; 3) its .docx of its .odt.
    await convert(
      'txt:Text',
      join(dir, 'txt'),
      ['draft-docx.docx', 'draft-odt.odt', 'zotero.docx'].map((f) => join(dir, f)),
    );
    await convert(
      'odt',
      join(dir, 'lo-odt'),
      ['draft-docx.docx', 'draft-odt.odt', 'zotero.docx'].map((f) => join(dir, f)),
    );
    await convert('docx', join(dir, 'lo-docx'), [join(dir, 'lo-odt', 'draft-docx.odt')]);
  }, 900_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['docx', 'odt'])('renders the citations and the bibliography of the .%s draft', (kind) => {
    const text = txt(join(dir, 'txt', `draft-${kind}.txt`));
    expect(text).toContain('Evidence was mixed (Adams, 2001), and later confirmed (Baker, 2002; Cole, 2003, p. 7).');
    expect(text).toMatch(/References\n/);
    expect(text).toContain('Adams, A. (2001). On <mixed> evidence & doubt. Journal of Tests, 1.');
    expect(text).toContain('Baker, A. (2002). Confirmation. Journal of Tests, 2.');
    expect(text).toContain('Cole, A. (2003). A paper in the library. Journal of Tests, 3.');
  });

  it('renders the Zotero-written document with its citation', () => {
    expect(txt(join(dir, 'txt', 'zotero.txt'))).toContain('As Zotero cited it (Zed, 1999, p. 5).');
  });

  const files: [string, DocumentFileKind, number][] = [
    ['lo-odt/draft-docx.odt', 'odt', 3],
    ['lo-docx/draft-docx.docx', 'docx', 3],
    ['lo-odt/draft-odt.odt', 'odt', 3],
    ['lo-odt/zotero.odt', 'odt', 1],
  ];
  it.each(files)('reads the Zotero fields of LibreOffice’s %s and refreshes them', async (name, kind, count) => {
    const bytes = readFileSync(join(dir, name));
    const fields = FileDocument.read(bytes, kind).fields();
    expect(fields).toHaveLength(count);
    const first = parseCitationCode(fields[0]!.code, 'citation 1');
    // The code survived LibreOffice whole: what Zotero needs to continue (its item data, URIs, text).
    expect(first.citationItems[0]!.itemData?.title).toMatch(/mixed|Old Book/);
    expect(first.properties.plainCitation).toBe(fields[0]!.text);
    const out = await refreshDocumentFile(bytes, kind, { ...o, style: 'ieee' });
    expect(out.report.keptHandEdits).toEqual([]);
    const after = FileDocument.read(out.bytes, kind);
    expect(after.fields()[0]!.text).toBe(count === 1 ? '[1, p. 5]' : '[1]');
    const data = parseDocumentData(String(await after.call('Document.getDocumentData', ['file'])))!;
    expect(data.style.styleID).toBe('http://www.zotero.org/styles/ieee');
    writeFileSync(join(dir, `refreshed-${name.replace(/\W/g, '-')}.${kind}`), out.bytes);
  });

  it('renders the refreshed files in LibreOffice, and the manuscript check reads the refreshed .docx', async () => {
    const names = files.map(([name, kind]) => `refreshed-${name.replace(/\W/g, '-')}.${kind}`);
    await convert(
      'txt:Text',
      join(dir, 'txt2'),
      names.map((n) => join(dir, n)),
    );
    const draft = txt(join(dir, 'txt2', names[0]!.replace(/\.odt$/, '.txt')));
    expect(draft).toContain('Evidence was mixed [1], and later confirmed [2], [3, p. 7].');
    expect(draft).toMatch(/\[1\]\s+A\. Adams, “On <mixed> evidence & doubt,”/);
    expect(txt(join(dir, 'txt2', names[3]!.replace(/\.odt$/, '.txt')))).toContain('As Zotero cited it [1, p. 5].');
    const check = parseDocx(readFileSync(join(dir, names[1]!)));
    expect(check.citations.map((c) => c.title)).toEqual([
      'On <mixed> evidence & doubt',
      'Confirmation',
      'A paper in the library',
    ]);
  }, 600_000);
});
