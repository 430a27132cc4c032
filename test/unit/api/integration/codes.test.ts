// Zotero's field codes and document data, read and written as Zotero's integration.js does
// (CitationField.unserialize, Citation.toJSON, Bibliography.serialize, DocumentData.serialize).
import { describe, expect, it } from 'vitest';
import {
  bibliographyCode,
  citationCode,
  CSL_CITATION_SCHEMA,
  DocumentDataError,
  fieldKind,
  itemKeyOfUri,
  parseBibliographyCode,
  parseCitationCode,
  parseDocumentData,
  serializeDocumentData,
} from '../../../../electron/api/integration/codes';

/** A citation's code as Zotero 7 writes it into a Word document (the ADDIN ZOTERO_ prefix included). */
const ZOTERO_WORD_CODE =
  'ADDIN ZOTERO_ITEM CSL_CITATION {"citationID":"a1b2c3d4e5","properties":{"formattedCitation":"(Franklin &amp; Wilkins, 2023, p. 12)","plainCitation":"(Franklin & Wilkins, 2023, p. 12)","noteIndex":0},"citationItems":[{"id":412,"uris":["http://zotero.org/users/local/Xy12AbCd/items/8QJ3MZ2K"],"itemData":{"id":412,"type":"article-journal","title":"Quorum sensing","container-title":"Journal of Microbial Studies","author":[{"family":"Franklin","given":"Rosalind"},{"family":"Wilkins","given":"Maurice"}],"issued":{"date-parts":[["2023",5,17]]}},"locator":"12","label":"page"}],"schema":"https://github.com/citation-style-language/schema/raw/master/csl-citation.json"}';

/** What Zotero 7 stores as a document's data (DocumentData.serialize). */
const ZOTERO_DATA =
  '<data data-version="3" zotero-version="7.0.11"><session id="Qb8XkT2p"/><style id="http://www.zotero.org/styles/apa" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="1"/><prefs><pref name="fieldType" value="Http"/><pref name="automaticJournalAbbreviations" value="true"/><pref name="dontAskDelayCitationUpdates" value="true"/></prefs></data>';

describe('citation codes', () => {
  it('reads a code Zotero wrote, with or without the ADDIN ZOTERO_ prefix', () => {
    for (const code of [ZOTERO_WORD_CODE, ZOTERO_WORD_CODE.replace('ADDIN ZOTERO_', '')]) {
      expect(fieldKind(code)).toBe('citation');
      const c = parseCitationCode(code, 'citation 1');
      expect(c.citationID).toBe('a1b2c3d4e5');
      expect(c.properties.plainCitation).toBe('(Franklin & Wilkins, 2023, p. 12)');
      expect(c.citationItems[0]).toMatchObject({ id: 412, locator: '12', label: 'page' });
      expect(c.citationItems[0]!.uris).toEqual(['http://zotero.org/users/local/Xy12AbCd/items/8QJ3MZ2K']);
      expect(c.citationItems[0]!.itemData?.title).toBe('Quorum sensing');
    }
  });

  it('writes the keys Zotero writes, in its order, with its schema, as ITEM CSL_CITATION', () => {
    const code = citationCode({
      citationID: 'X',
      properties: { formattedCitation: '(A, 2001)', plainCitation: '(A, 2001)', noteIndex: 0 },
      citationItems: [
        {
          id: 7,
          uris: ['http://zotero.org/users/local/citewise/items/ABCD2345'],
          itemData: { id: '7', type: 'book', title: 'T' },
          locator: '3',
          label: 'page',
          prefix: 'see',
          suffix: 'ff.',
          'suppress-author': true,
        },
      ],
    });
    expect(code.startsWith('ITEM CSL_CITATION {')).toBe(true);
    const json = JSON.parse(code.slice('ITEM CSL_CITATION '.length)) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['citationID', 'properties', 'citationItems', 'schema']);
    expect(json.schema).toBe(CSL_CITATION_SCHEMA);
    const item = (json.citationItems as Record<string, unknown>[])[0]!;
    expect(Object.keys(item)).toEqual([
      'id',
      'uris',
      'itemData',
      'locator',
      'label',
      'suppress-author',
      'prefix',
      'suffix',
    ]);
    // Zotero's own parser takes it back unchanged (round trip through our reader, which follows it).
    expect(parseCitationCode(code, 'c').citationItems[0]).toMatchObject({
      id: 7,
      prefix: 'see',
      'suppress-author': true,
    });
  });

  it('upgrades the older shapes Zotero still reads', () => {
    const old = parseCitationCode(
      '{"citationItems":[{"id":3,"uri":"http://zotero.org/users/1/items/ABCD2345","locatorType":"chapter","locator":2},{"id":4,"suppressAuthor":true,"label":"1"}],"custom":"hand","sort":false}',
      'citation 2',
    );
    expect(old.citationItems[0]).toMatchObject({
      uris: ['http://zotero.org/users/1/items/ABCD2345'],
      label: 'chapter',
      locator: '2',
    });
    expect(old.citationItems[1]).toMatchObject({ 'suppress-author': true, label: 'book' });
    expect(old.properties).toMatchObject({ custom: 'hand', unsorted: true });
    const upper = parseCitationCode('{"CITATIONITEMS":[{"ITEMID":5,"LOCATOR":"9"}]}', 'citation 3');
    expect(upper.citationItems[0]).toMatchObject({ itemID: 5, locator: '9', id: 5 });
  });

  it('names the field whose JSON is corrupt, and what is wrong', () => {
    expect(() =>
      parseCitationCode(
        'ITEM CSL_CITATION {"citationID":"x","citationItems":[{"id":1,}]}',
        'citation 4 (“(Adams, 2001)”)',
      ),
    ).toThrow(/citation 4 \(“\(Adams, 2001\)”\) is not valid JSON/);
    expect(() => parseCitationCode('ITEM CSL_CITATION {"citationItems":{"id":1}}', 'citation 5')).toThrow(
      DocumentDataError,
    );
    expect(() => parseCitationCode('ITEM CSL_CITATION {"citationItems":[{"id":1,"uris":"x"}]}', 'citation 6')).toThrow(
      /Item 1 of citation 6 has uris/,
    );
  });

  it('tells citations, bibliographies and placeholders apart as Zotero does', () => {
    expect(fieldKind('BIBL {"uncited":[],"omitted":[],"custom":[]} CSL_BIBLIOGRAPHY')).toBe('bibliography');
    expect(fieldKind('ADDIN ZOTERO_BIBL {"uncited":[],"omitted":[],"custom":[]} CSL_BIBLIOGRAPHY')).toBe(
      'bibliography',
    );
    expect(fieldKind('TEMP')).toBe('temp');
    expect(fieldKind('{}')).toBe('temp');
  });
});

describe('bibliography codes', () => {
  it('round-trips uncited, omitted and custom entries', () => {
    const b = {
      uncited: [['http://zotero.org/users/1/items/ABCD2345']],
      omitted: [],
      custom: [[['http://zotero.org/users/1/items/ZZZZ2345'], 'Hand text']] as [string[], string][],
    };
    const code = bibliographyCode(b);
    expect(code).toBe(`BIBL ${JSON.stringify(b)} CSL_BIBLIOGRAPHY`);
    expect(parseBibliographyCode(code, 'the bibliography')).toEqual(b);
    expect(parseBibliographyCode('BIBL {} CSL_BIBLIOGRAPHY', 'b')).toEqual({ uncited: [], omitted: [], custom: [] });
    expect(() => parseBibliographyCode('BIBL {"uncited":[1]} CSL_BIBLIOGRAPHY', 'the bibliography (field 9)')).toThrow(
      /field 9/,
    );
  });
});

describe('document data', () => {
  it('reads what Zotero stores and writes it back byte for byte', () => {
    const d = parseDocumentData(ZOTERO_DATA)!;
    expect(d).toMatchObject({
      sessionID: 'Qb8XkT2p',
      dataVersion: 3,
      zoteroVersion: '7.0.11',
      style: {
        styleID: 'http://www.zotero.org/styles/apa',
        locale: 'en-US',
        hasBibliography: true,
        bibliographyStyleHasBeenSet: true,
      },
      prefs: { fieldType: 'Http', automaticJournalAbbreviations: true, noteType: 0 },
    });
    // noteType 0 is not written (Zotero skips falsy prefs), so the XML is Zotero's own.
    expect(serializeDocumentData(d, '7.0.11')).toBe(ZOTERO_DATA);
  });

  it('writes note styles, escapes attributes, and reads the JSON form (data-version 4)', () => {
    const xml = serializeDocumentData(
      {
        sessionID: 's"1',
        zoteroVersion: '',
        dataVersion: 3,
        style: {
          styleID: 'http://www.zotero.org/styles/chicago-note-bibliography',
          hasBibliography: true,
          bibliographyStyleHasBeenSet: false,
        },
        prefs: { fieldType: 'Http', noteType: 1 },
      },
      '7.0.0',
    );
    expect(xml).toContain('<session id="s&quot;1"/>');
    expect(xml).toContain('<pref name="noteType" value="1"/>');
    expect(xml).not.toContain('locale=');
    expect(parseDocumentData(xml)).toMatchObject({ sessionID: 's"1', prefs: { noteType: 1 } });
    const json = parseDocumentData(
      '{"style":{"styleID":"http://www.zotero.org/styles/ieee","hasBibliography":true},"prefs":{"fieldType":"Http","noteType":0},"sessionID":"J","zoteroVersion":"5.0","dataVersion":4}',
    );
    expect(json).toMatchObject({ dataVersion: 4, style: { styleID: 'http://www.zotero.org/styles/ieee' } });
  });

  it('an empty document has no data; broken data is an error saying so', () => {
    expect(parseDocumentData('')).toBeNull();
    expect(() => parseDocumentData('<data data-version="3"><sess')).toThrow(/incomplete XML/);
    expect(() => parseDocumentData('hello')).toThrow(DocumentDataError);
  });
});

describe('item URIs', () => {
  it('finds the Zotero key of local, user and group URIs, and nothing else', () => {
    expect(itemKeyOfUri('http://zotero.org/users/local/Xy12AbCd/items/8QJ3MZ2K')).toBe('8QJ3MZ2K');
    expect(itemKeyOfUri('http://zotero.org/users/123456/items/8QJ3MZ2K')).toBe('8QJ3MZ2K');
    expect(itemKeyOfUri('http://zotero.org/groups/42/items/8QJ3MZ2K')).toBe('8QJ3MZ2K');
    expect(itemKeyOfUri('http://zotero.org/users/1/items/8qj3mz2k')).toBeNull();
    expect(itemKeyOfUri('https://example.org/items/8QJ3MZ2K')).toBeNull();
  });
});
