// Word and LibreOffice files with Zotero's field codes, written, read and refreshed by the integration
// commands through the file adapter (electron/api/integration/file-document.ts). The documents made
// from Zotero's own shapes: docx fields as its Word plugin writes them (test/unit/manuscript/docx-fixture.ts),
// the document preferences in custom properties ZOTERO_PREF_n of 255 characters.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import { directoryAssets } from '../../../../electron/core/formats/cite/assets';
import { assetStyles, ITEM_URI_PREFIX } from '../../../../electron/api/integration';
import { parseCitationCode, parseDocumentData, CSL_CITATION_SCHEMA } from '../../../../electron/api/integration/codes';
import {
  DocumentFileError,
  FileDocument,
  draftDocumentFile,
  htmlParagraphs,
  refreshDocumentFile,
  type FileSessionOptions,
} from '../../../../electron/api/integration/file-document';
import { plainText, type IntegrationLibrary } from '../../../../electron/api/integration/session';
import { ZipReader, writeZip } from '../../../../electron/core/manuscript/zip';
import { parseDocx } from '../../../../electron/core/manuscript/docx';
import { buildCslDir } from '../../formats/cite/helpers';
import { docx, paragraph, zip, zoteroField } from '../../manuscript/docx-fixture';

const item = (n: number, title = `Paper ${n}`): CslItem =>
  ({
    id: `k${n}`,
    type: 'article-journal',
    title,
    author: [{ family: `Adams${n}`, given: 'Ann' }],
    issued: { 'date-parts': [[2000 + n]] },
    'container-title': 'Journal of Tests',
  }) as CslItem;

/** The library: one item known by its Zotero key (as a library with imported Zotero items has). */
const library: IntegrationLibrary = {
  byKeys: async (keys) =>
    new Map(keys.filter((k) => k === 'ABCD2345').map((k) => [k, { id: 7, csl: { ...item(7), id: '7' } as CslItem }])),
  byIds: async (ids) =>
    new Map(ids.filter((i) => i === 7).map((i) => [i, { key: 'ABCD2345', csl: { ...item(7), id: '7' } as CslItem }])),
  importItems: async (items) => items.map(() => null),
};

let o: FileSessionOptions;
beforeAll(() => {
  o = { library, styles: assetStyles(directoryAssets(buildCslDir())), version: '7.0.0', uriPrefix: ITEM_URI_PREFIX };
}, 120_000);

const draft = (styleID = 'apa') => ({
  paragraphs: [
    ['Intro text ', { citationItems: [{ id: 'k1', uris: [], itemData: item(1, 'Costs of $& and $1 <tags>') }] }, '.'],
    [
      'Second ',
      {
        citationItems: [
          { id: 7, uris: ['http://zotero.org/users/local/citewise/items/ABCD2345'], itemData: item(7) },
          { id: 'k2', uris: [], itemData: item(2), locator: '12', label: 'page' },
        ],
      },
    ],
  ],
  heading: 'References',
  styleID,
});

describe('citeproc HTML as formatted paragraphs', () => {
  it('keeps a citation one paragraph whose text is its plainCitation', () => {
    const html = '(<i>Adams</i> &amp; Baker, 2001; <span style="font-variant:small-caps;">Cole</span>)';
    const p = htmlParagraphs(html);
    expect(p).toHaveLength(1);
    expect(p[0]!.map((r) => r.text).join('')).toBe(plainText(html));
    expect(p[0]!.find((r) => r.text === 'Adams')?.italic).toBe(true);
    expect(p[0]!.find((r) => r.text === 'Cole')?.smallCaps).toBe(true);
  });
  it('makes one paragraph per bibliography entry, a tab after a numeric label', () => {
    const html =
      '<div class="csl-bib-body">\n  <div class="csl-entry"><div class="csl-left-margin">[1]</div><div class="csl-right-inline">A. <i>T</i>.</div></div>\n  <div class="csl-entry">B.</div>\n</div>';
    const p = htmlParagraphs(html).map((x) => x.map((r) => r.text).join(''));
    expect(p).toEqual(['[1]\tA. T.', 'B.']);
  });
});

describe('the zip writer', () => {
  it('writes entries the reader reads back, the stored one first and uncompressed', () => {
    const bytes = writeZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
      { name: 'content.xml', data: 'x'.repeat(10_000) },
    ]);
    // OpenDocument: "mimetype" at offset 30, stored, so the type is readable at a fixed place.
    expect(bytes.toString('latin1', 30, 38)).toBe('mimetype');
    expect(bytes.toString('latin1', 38, 38 + 39)).toBe('application/vnd.oasis.opendocument.text');
    const z = new ZipReader(bytes);
    expect(z.names()).toEqual(['mimetype', 'content.xml']);
    expect(z.read('content.xml', 1e6)!.toString()).toBe('x'.repeat(10_000));
    expect(bytes.length).toBeLessThan(1000);
  });
});

describe.each(['docx', 'odt'] as const)('a draft written as .%s', (kind) => {
  it('holds live citations and a bibliography with the codes a plugin session writes', async () => {
    const { bytes, report } = await draftDocumentFile(kind, draft(), o);
    expect(report).toMatchObject({ citations: 2, bibliographies: 1, keptHandEdits: [] });
    const doc = FileDocument.read(bytes, kind);
    const fields = doc.fields();
    expect(fields.map((f) => f.code.split(' ')[0])).toEqual(['ITEM', 'ITEM', 'BIBL']);
    for (const [i, f] of fields.slice(0, 2).entries()) {
      // What Zotero's parser requires (integration.js Citation.loadItemData / the CSL citation schema).
      const json = JSON.parse(f.code.slice(f.code.indexOf('{'))) as Record<string, unknown>;
      expect(Object.keys(json)).toEqual(['citationID', 'properties', 'citationItems', 'schema']);
      expect(json.schema).toBe(CSL_CITATION_SCHEMA);
      const code = parseCitationCode(f.code, `citation ${i + 1}`);
      expect(code.properties.plainCitation).toBe(f.text);
      expect(code.properties.noteIndex).toBe(0);
      for (const it of code.citationItems) {
        expect(Array.isArray(it.uris)).toBe(true);
        expect(it.itemData?.title).toBeTruthy();
      }
    }
    expect(fields[0]!.text).toBe('(Adams1, 2001)');
    expect(fields[1]!.text).toBe('(Adams2, 2002, p. 12; Adams7, 2007)');
    // The library item keeps its URI (Zotero and Citewise find it again by its key).
    expect(JSON.stringify(parseCitationCode(fields[1]!.code, 'c').citationItems)).toContain('items/ABCD2345');
    expect(fields[2]!.text).toContain('Adams1, A. (2001). Costs of $& and $1 <tags>. Journal of Tests.');
    const text = doc.text();
    expect(text).toContain('Intro text (Adams1, 2001).');
    expect(text).toContain('References');
    // The document preferences, where the plugins keep them.
    const data = parseDocumentData(String(await doc.call('Document.getDocumentData', ['file'])))!;
    expect(data.style.styleID).toBe('http://www.zotero.org/styles/apa');
    expect(data.prefs.fieldType).toBe(kind === 'docx' ? 'Field' : 'ReferenceMark');
  });

  it('splits the document data into ZOTERO_PREF_n of 255 characters: 255 is one, 256 two', async () => {
    for (const [length, parts] of [
      [254, 1],
      [255, 1],
      [256, 2],
      [700, 3],
    ] as const) {
      const doc = FileDocument.create(kind);
      const make = (style: string): string =>
        `<data data-version="3" zotero-version="7.0"><session id="s"/><style id="${style}" hasBibliography="1" bibliographyStyleHasBeenSet="0"/><prefs/></data>`;
      const text = make('x'.repeat(length - make('').length));
      expect(text.length).toBe(length);
      await doc.call('Document.setDocumentData', ['file', text]);
      const bytes = doc.bytes();
      const part = new ZipReader(bytes).read(kind === 'docx' ? 'docProps/custom.xml' : 'meta.xml', 1e6)!.toString();
      expect(part.match(/ZOTERO_PREF_\d+/g)).toEqual(Array.from({ length: parts }, (_, i) => `ZOTERO_PREF_${i + 1}`));
      expect(await FileDocument.read(bytes, kind).call('Document.getDocumentData', ['file'])).toBe(text);
    }
  });

  it('refreshes in a new style, and keeps a citation changed by hand', async () => {
    const { bytes } = await draftDocumentFile(kind, draft(), o);
    // The writer changes the first citation's text by hand (as in the word processor).
    const edited = Buffer.from(bytes);
    const doc = FileDocument.read(edited, kind);
    const first = doc.fields()[0]!;
    expect(first.text).toBe('(Adams1, 2001)');
    const z = new ZipReader(edited);
    const main = kind === 'docx' ? 'word/document.xml' : 'content.xml';
    const parts = z.names().map((name) => ({
      name,
      data:
        name === main
          ? z.read(name, 1e7)!.toString().replace('>(Adams1, 2001)<', '>(Adams, first)<')
          : z.read(name, 1e7)!,
      ...(name === 'mimetype' ? { store: true } : {}),
    }));
    const handEdited = writeZip(parts);
    const out = await refreshDocumentFile(handEdited, kind, { ...o, style: 'ieee' });
    expect(out.report.keptHandEdits).toEqual(['(Adams, first)']);
    const after = FileDocument.read(out.bytes, kind).fields();
    expect(after[0]!.text).toBe('(Adams, first)');
    expect(parseCitationCode(after[0]!.code, 'c').properties.dontUpdate).toBe(true);
    expect(after[1]!.text).toBe('[2], [3, p. 12]');
    expect(after[2]!.text).toMatch(/^\[1\]\tA\. Adams1/);
    const data = parseDocumentData(
      String(await FileDocument.read(out.bytes, kind).call('Document.getDocumentData', ['file'])),
    )!;
    expect(data.style.styleID).toBe('http://www.zotero.org/styles/ieee');
  });

  it('refuses a damaged citation code, naming it, and changes nothing', async () => {
    const { bytes } = await draftDocumentFile(kind, draft(), o);
    const z = new ZipReader(bytes);
    const main = kind === 'docx' ? 'word/document.xml' : 'content.xml';
    const broken = writeZip(
      z.names().map((name) => ({
        name,
        data:
          name === main
            ? z.read(name, 1e7)!.toString().replaceAll('&quot;citationItems&quot;:[', '&quot;citationItems&quot;:[[')
            : z.read(name, 1e7)!,
        ...(name === 'mimetype' ? { store: true } : {}),
      })),
    );
    await expect(refreshDocumentFile(broken, kind, o)).rejects.toThrow(/citation 1 \(“\(Adams1, 2001\)”\)/);
  });
});

describe('a .docx as Zotero writes it', () => {
  const zoteroDocx = (withPrefs: boolean): Buffer => {
    const body = [
      paragraph(
        'As shown ',
        zoteroField(
          [
            {
              itemData: {
                type: 'book',
                title: 'Old Book',
                author: [{ family: 'Zed', given: 'Z.' }],
                issued: { 'date-parts': [[1999]] },
              },
            },
          ],
          '(Zed, 1999)',
        ),
        '.',
      ),
    ];
    const base = new ZipReader(docx(body));
    const entries: Record<string, string | Buffer> = {};
    for (const n of base.names()) entries[n] = base.read(n, 1e7)!;
    if (withPrefs)
      entries['docProps/custom.xml'] =
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="ZOTERO_PREF_1"><vt:lpwstr>&lt;data data-version="3" zotero-version="7.0.5"&gt;&lt;session id="Ab12Cd34"/&gt;&lt;style id="http://www.zotero.org/styles/chicago-author-date" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="0"/&gt;&lt;prefs&gt;&lt;pref name="fieldType" value="Field"/&gt;&lt;pref name="automaticJour</vt:lpwstr></property><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="ZOTERO_PREF_2"><vt:lpwstr>nalAbbreviations" value="true"/&gt;&lt;/prefs&gt;&lt;/data&gt;</vt:lpwstr></property></Properties>';
    return zip(entries);
  };

  it('is refreshed in its own style (from ZOTERO_PREF_1 + _2), and still read by the manuscript check', async () => {
    const out = await refreshDocumentFile(zoteroDocx(true), 'docx', o);
    const fields = FileDocument.read(out.bytes, 'docx').fields();
    expect(fields[0]!.text).toBe('(Zed 1999)');
    expect(out.report.alerts.map((a) => a.message).join()).toContain('not in your Citewise library');
    expect(parseDocx(out.bytes).citations).toEqual([expect.objectContaining({ title: 'Old Book' })]);
  });

  it('without its preferences, needs a style, and takes the one given', async () => {
    await expect(refreshDocumentFile(zoteroDocx(false), 'docx', o)).rejects.toThrow(DocumentFileError);
    const out = await refreshDocumentFile(zoteroDocx(false), 'docx', { ...o, style: 'apa' });
    expect(FileDocument.read(out.bytes, 'docx').fields()[0]!.text).toBe('(Zed, 1999)');
    // The custom properties part was added, with its relationship and content type.
    const z = new ZipReader(out.bytes);
    expect(z.read('_rels/.rels', 1e6)!.toString()).toContain('docProps/custom.xml');
    expect(z.read('[Content_Types].xml', 1e6)!.toString()).toContain('/docProps/custom.xml');
  });

  it('refuses citations in footnotes rather than half-refresh them', () => {
    const withNotes = docx([paragraph('Text')], [paragraph(zoteroField([{ itemData: { title: 'N' } }], '1'))]);
    expect(() => FileDocument.read(withNotes, 'docx')).toThrow(/footnotes/);
  });

  it('says what a file that is not a document is', () => {
    expect(() => FileDocument.read(Buffer.from('not a zip at all, really not'), 'odt')).toThrow(
      /not an OpenDocument \.odt file/,
    );
  });
});
