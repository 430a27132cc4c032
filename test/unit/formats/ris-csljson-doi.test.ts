import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importBytes,
  importFile,
  importText,
  itemFingerprint,
  paperToCsl,
  toCslJson,
  toRis,
} from '../../../electron/core/formats';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('RIS import', () => {
  const result = importText(fixture('sample.ris'), { format: 'ris' });

  it('reads every record (CRLF and LF, multi-line values, repeated tags)', () => {
    expect(result.errors).toEqual([]);
    expect(result.items.map((i) => [i.item.type, i.line])).toEqual([
      ['article-journal', 1],
      ['book', 20],
      ['chapter', 29],
      ['thesis', 40],
      ['webpage', 48],
    ]);
  });

  it('maps AU, TI, T2, PY/DA, SP/EP, VL, IS, DO, KW, AB and keeps tags CSL lacks', () => {
    expect(result.items[0]!.item).toMatchObject({
      author: [
        { family: 'Watson', given: 'J. D.' },
        { family: 'Crick', given: 'F. H. C.' },
      ],
      title: 'Molecular Structure of Nucleic Acids',
      'container-title': 'Nature',
      issued: { 'date-parts': [[1953, 4, 25]] },
      page: '737-738',
      volume: '171',
      issue: '4356',
      DOI: '10.1038/171737a0',
      keyword: 'DNA, double helix',
      abstract: 'We wish to suggest a structure for the salt of deoxyribose nucleic acid (D.N.A.).',
      custom: { ris: { type: 'JOUR', fields: { C1: ['custom one'] }, keywords: ['DNA', 'double helix'] } },
    });
  });

  it('tells ISBN from ISSN, reads A2 as the book editor and names without a comma as organisations', () => {
    expect(result.items[1]!.item).toMatchObject({
      ISBN: '0-201-13447-0',
      publisher: 'Addison-Wesley',
      'publisher-place': 'Reading, MA',
    });
    expect(result.items[2]!.item).toMatchObject({
      editor: [{ family: 'Dietterich', given: 'T. G.' }],
      'container-title': 'Advances in Neural Information Processing Systems 14',
      page: '841-848',
    });
    expect(result.items[4]!.item).toMatchObject({
      author: [{ literal: 'World Health Organization' }],
      accessed: { 'date-parts': [[2024, 1, 15]] },
    });
  });

  it('reports records with their line: a tag outside a record, a record without ER, an unknown type', () => {
    const r = importText(
      'AU  - Stray, Line\nTY  - JOUR\nTI  - Good\nER  - \nTY  - XXXX\nTI  - Odd type\nER  - \nTY  - BOOK\nTI  - No ER',
      { format: 'ris' },
    );
    // The last record without ER is kept, with a warning (as Zotero, EndNote and JabRef read it).
    expect(r.items.map((i) => i.item.title)).toEqual(['Good', 'Odd type', 'No ER']);
    expect(r.errors.map((e) => [e.line, e.reason.slice(0, 24)])).toEqual([[1, 'The AU line is outside a']]);
    expect(r.warnings).toEqual([
      { line: 5, reason: expect.stringMatching(/"XXXX" is not an RIS reference type/) },
      {
        line: 8,
        reason:
          'The file ends before this record\'s "ER  - " line; it was imported as it stands (check that it is complete).',
      },
    ]);
    // A TY line and nothing else is no record.
    const cut = importText('TY  - JOUR\nTI  - Good\nER  - \nTY  - BOOK\n', { format: 'ris' });
    expect(cut.errors.map((e) => [e.line, e.reason])).toEqual([
      [4, 'The record is cut off: the file ends right after its "TY  - " line.'],
    ]);
  });

  it('reads a record whose TY line is repeated, without ER, as one item', () => {
    const r = importText(
      [
        'TY  - JOUR',
        'TY  - JOUR',
        'TY  - JOUR',
        'TY  - JOUR',
        'AU  - Catarina Barata',
        'TI  - One record',
        'PY  - 2015',
        '',
      ].join('\n'),
      { format: 'ris' },
    );
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => [i.line, i.item.title, i.item.author])).toEqual([
      [1, 'One record', [{ family: 'Barata', given: 'Catarina' }]],
    ]);
    const typed = importText('TY  - \nTY  - BOOK\nTY  - CHAP\nTI  - Typed late\nER  - \n', { format: 'ris' });
    expect(typed.items.map((i) => i.item.type)).toEqual(['book']);
    expect(typed.warnings).toEqual([
      { line: 3, reason: 'The record\'s type is given twice ("BOOK", then "CHAP"); the first was used.' },
    ]);
  });

  it('reads names without a comma as given + family, PubMed initials, particles and organisations', () => {
    const names = [
      'Catarina Barata',
      'J. D. Watson',
      'Barata C',
      'Watson JD',
      'Hopfield J J',
      'Ludwig van Beethoven',
      'Martin Luther King Jr.',
      'World Health Organization',
      'ATLAS Collaboration',
      'Plato',
      'Smith, John',
    ];
    const r = importText(`TY  - JOUR\n${names.map((n) => `AU  - ${n}`).join('\n')}\nER  - \n`, { format: 'ris' });
    expect(r.items[0]!.item.author).toEqual([
      { family: 'Barata', given: 'Catarina' },
      { family: 'Watson', given: 'J. D.' },
      { family: 'Barata', given: 'C' },
      { family: 'Watson', given: 'JD' },
      { family: 'Hopfield', given: 'J J' },
      { family: 'van Beethoven', given: 'Ludwig' },
      { family: 'King', given: 'Martin Luther', suffix: 'Jr.' },
      { literal: 'World Health Organization' },
      { literal: 'ATLAS Collaboration' },
      { literal: 'Plato' },
      { family: 'Smith', given: 'John' },
    ]);
  });

  it.each([
    ['Y1  - 2015/october', [[2015, 10]]],
    ['Y1  - 2015/Oct/12', [[2015, 10, 12]]],
    ['DA  - 2015/10/', [[2015, 10]]],
    ['DA  - 2015///', [[2015]]],
    ['PY  - 2015', [[2015]]],
    ['PY  - 2015///\nDA  - OCT 12', [[2015, 10, 12]]],
    ['DA  - 2015 Oct 12', [[2015, 10, 12]]],
    ['DA  - Oct 2015', [[2015, 10]]],
    ['DA  - 2020-05-17', [[2020, 5, 17]]],
  ])('reads the date %j', (lines, parts) => {
    const r = importText(`TY  - JOUR\nTI  - T\n${lines}\nER  - \n`, { format: 'ris' });
    expect(r.items[0]!.item.issued).toEqual({ 'date-parts': parts });
    expect(r.items[0]!.item.custom).toEqual({ ris: { type: 'JOUR' } });
  });

  it('keeps a date it cannot read as a literal, and a month without a year verbatim', () => {
    const r = importText('TY  - JOUR\nPY  - 2015/13/\nER  - \nTY  - JOUR\nDA  - OCT\nER  - \n', { format: 'ris' });
    expect(r.items[0]!.item.issued).toEqual({ literal: '2015/13/' });
    expect(r.items[1]!.item).toMatchObject({ custom: { ris: { fields: { DA: ['OCT'] } } } });
    expect(r.items[1]!.item.issued).toBeUndefined();
  });

  it('writes a single KW line with separators in it back as one line', () => {
    const first = importText('TY  - JOUR\nKW  - dermoscopy; melanoma\nER  - \n', { format: 'ris' });
    const again = importText(toRis(first.items.map((i) => i.item)), { format: 'ris' });
    expect(again.items[0]!.item).toEqual(first.items[0]!.item);
  });

  it('reads an ISSN with the medium PubMed adds as an ISSN', () => {
    const r = importText('TY  - JOUR\nSN  - 0028-0836 (Print)\nSN  - 978-0-262-03561-3\nER  - \n', { format: 'ris' });
    expect(r.items[0]!.item).toMatchObject({ ISSN: '0028-0836 (Print)', ISBN: '978-0-262-03561-3' });
  });

  it('does not take a record number for a citation key, and keeps it as the ID tag', () => {
    const r = importText(
      'TY  - JOUR\nID  - 123\nTI  - EndNote\nER  - \nTY  - JOUR\nID  - smith2020\nTI  - Keyed\nER  - \n',
      { format: 'ris' },
    );
    expect(r.items.map((i) => [i.item['citation-key'], i.replacedId?.id, i.sourceKey])).toEqual([
      [undefined, '123', undefined],
      ['smith2020', undefined, 'smith2020'],
    ]);
    expect(toRis([r.items[0]!.item])).toContain('ID  - 123\n');
  });

  it('exports every CSL item as a record ending in ER', () => {
    const text = toRis([
      {
        id: 'a',
        type: 'paper-conference',
        title: 'T',
        author: [{ family: 'A', given: 'B', suffix: 'Jr.' }, { literal: 'Org' }],
        page: '1-9',
        issued: { 'date-parts': [[2020, 5]] },
        'citation-key': 'k',
      },
    ]);
    expect(text).toBe(
      'TY  - CPAPER\nAU  - A, B, Jr.\nAU  - Org\nTI  - T\nPY  - 2020\nDA  - 2020/05//\nSP  - 1\nEP  - 9\nID  - k\nER  - \n\n',
    );
  });
});

describe('RIS export', () => {
  it('writes plain text: no CSL markup (nocase spans, italics, sub/superscripts) in TI, T2 or any field', () => {
    const text = toRis([
      {
        id: 'k',
        type: 'chapter',
        title: 'Deep <span class="nocase">DNA</span> sequencing of <i>E. coli</i> in H<sub>2</sub>O',
        'container-title': 'Handbook of <span class="nocase">AI</span>',
        'collection-title': 'Lecture Notes in <span style="font-variant:small-caps;">Cs</span>',
        note: 'a < b and c > d',
      },
    ]);
    expect(text).toContain('TI  - Deep DNA sequencing of E. coli in H2O\n');
    expect(text).toContain('T2  - Handbook of AI\n');
    expect(text).toContain('Lecture Notes in Cs\n');
    expect(text).not.toMatch(/<span|<i>|<sub>/);
    // Angle brackets that are not CSL markup are text and stay.
    expect(text).toContain('a < b and c > d');
    // and RIS → RIS still reads the same titles
    expect(importText(text, { format: 'ris' }).items[0]!.item.title).toBe('Deep DNA sequencing of E. coli in H2O');
  });
});

describe('CSL-JSON import', () => {
  const result = importText(fixture('sample.json'), { format: 'csljson' });

  it('keeps good items, reports a bad one with its line, normalises ids, DOIs, dates and types', () => {
    expect(result.items.map((i) => [i.item.id, i.line])).toEqual([
      ['watson1953', 2],
      ['42', 14],
      ['who2020', 28],
      ['odd-type', 36],
    ]);
    expect(result.errors).toEqual([
      {
        line: 22,
        reason:
          'Item 3 ("bad-names"): "author" must be a list of names ([{"family": …, "given": …}] or [{"literal": …}]); this is an object.',
      },
    ]);
    // The resolver prefix goes; the case written in the file stays (lookups compare lower-cased).
    expect(result.items[0]!.item.DOI).toBe('10.1038/171737A0');
    expect(result.items[1]!.item.issued).toEqual({ 'date-parts': [[1984]] });
    expect(result.items[2]!.item.accessed).toEqual({ 'date-parts': [[2024, 1, 15]] });
    // Crossref's and Mendeley's "journal-article" is read as the journal article it names (the name kept).
    expect(result.items[3]!.item).toMatchObject({ type: 'article-journal', custom: { 'csl-type': 'journal-article' } });
    expect(result.warnings).toEqual([]);
    // A type no tool defines is still a document, said on its line.
    const odd = importText('[{"id": "x", "type": "scroll", "title": "T"}]', { format: 'csljson' });
    expect(odd.items[0]!.item).toMatchObject({ type: 'document', custom: { 'csl-type': 'scroll' } });
    expect(odd.warnings).toEqual([{ line: 1, reason: expect.stringMatching(/not a CSL type/) }]);
  });

  it('accepts a single item, an {items: […]} wrapper and names as strings', () => {
    expect(importText('{"id": "a", "type": "book", "title": "One"}', { format: 'csljson' }).items).toHaveLength(1);
    const wrapped = importText(
      '{"meta": {"x": [1]},\n "items": [\n {"id": "a", "type": "book"},\n {"id": "b", "type": "book", "author": ["Plato"]}\n]}',
      { format: 'csljson' },
    );
    expect(wrapped.items.map((i) => i.line)).toEqual([3, 4]);
    expect(wrapped.items[1]!.item.author).toEqual([{ literal: 'Plato' }]);
  });

  it('rejects JSON that is not JSON, or not items, with a line', () => {
    expect(() => importText('[{"id": "a",\n "type": "book",\n}]', { format: 'csljson' })).toThrow(/not valid JSON/);
    expect(() => importText('[{"id": "a", "title": "x\n"}]', { format: 'csljson' })).toThrow(
      /Line 1: .*string is not closed/,
    );
    expect(() => importText('42', { format: 'csljson' })).toThrow(/array of items/);
    const r = importText('[1, "x", null, {"id": "ok", "type": "book"}]', { format: 'csljson' });
    expect(r.items).toHaveLength(1);
    expect(r.errors.map((e) => e.reason)).toEqual([
      'Item 1: an item must be a JSON object, not number.',
      'Item 2: an item must be a JSON object, not string.',
      'Item 3: an item must be a JSON object, not null.',
    ]);
  });

  it('exports JSON that reads back the same', () => {
    const items = result.items.map((i) => i.item);
    expect(JSON.parse(toCslJson(items))).toEqual(items);
    expect(JSON.parse(toCslJson(items, { withoutCustom: true }))[3]).not.toHaveProperty('custom');
  });
});

describe('DOI lists', () => {
  it('reads one DOI per line, normalised and de-duplicated, reporting lines that are not DOIs', () => {
    const r = importText(fixture('dois.txt'), { fileName: 'dois.txt' });
    expect(r.format).toBe('doi-list');
    expect(r.dois).toEqual([
      { doi: '10.1038/171737a0', line: 2 },
      { doi: '10.1002/andp.19053221004', line: 3 },
      { doi: '10.17487/rfc2119', line: 4 },
    ]);
    expect(r.errors).toEqual([{ line: 5, reason: expect.stringMatching(/starts with "10\."/), excerpt: 'not-a-doi' }]);
    expect(r.warnings).toEqual([{ line: 6, reason: '10.1038/171737a0 is already on line 2; it is imported once.' }]);
  });

  it('finds DOIs in running text, trimming sentence punctuation and unmatched brackets', () => {
    const text =
      'See Watson & Crick (https://doi.org/10.1038/171737a0), and also doi:10.1000/xyz(123).\nLater work [10.1126/science.1234567].';
    expect(importText(text, { format: 'doi-list' }).dois).toEqual([
      { doi: '10.1038/171737a0', line: 1 },
      { doi: '10.1000/xyz(123)', line: 1 },
      { doi: '10.1126/science.1234567', line: 2 },
    ]);
  });

  it('says so when there is no DOI at all', () => {
    expect(importText('hello world\nnothing here', { format: 'doi-list' }).errors).toEqual([
      { line: 1, reason: expect.stringMatching(/No DOI was found/) },
    ]);
  });
});

describe('detection and encodings', () => {
  const bib = '@article{k, title = {Gödel and Ångström}, year = 2020}\n';

  it('detects the format by extension, then by content', () => {
    expect(importText(bib).format).toBe('bibtex');
    expect(importText('TY  - JOUR\nER  - \n').format).toBe('ris');
    expect(importText('[]').format).toBe('csljson');
    expect(importText('10.1000/abc').format).toBe('doi-list');
    expect(importText('[]', { fileName: 'x.bib' }).format).toBe('bibtex');
    expect(() => importText('just some words')).toThrow(/format was not recognised/);
  });

  it.each([
    ['UTF-8', Buffer.from(bib, 'utf8'), 'utf-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(bib, 'utf8')]), 'utf-8'],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bib, 'utf16le')]), 'utf-16le'],
    [
      'UTF-16 BE with BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(bib, 'utf16le').swap16()]),
      'utf-16be',
    ],
    ['UTF-16 LE without BOM', Buffer.from(bib, 'utf16le'), 'utf-16le'],
    ['Latin-1', Buffer.from(bib, 'latin1'), 'windows-1252'],
  ])('reads %s', (_name, bytes, encoding) => {
    const r = importBytes(bytes, { fileName: 'lib.bib' });
    expect(r.encoding).toBe(encoding);
    expect(r.items[0]!.item.title).toBe('Gödel and Ångström');
    if (encoding === 'windows-1252')
      expect(r.warnings[0]!.reason).toMatch(/not valid UTF-8; it was read as Windows-1252/);
  });

  it('imports a file from disk', () => {
    const r = importFile(join(FIXTURES, 'library.bib'));
    expect(r.format).toBe('bibtex');
    expect(r.count).toBe(13);
  });
});

describe('service papers and fingerprints', () => {
  it('maps a paper from the service to a CSL item', () => {
    const paper = {
      doi: '10.1038/NATURE14539',
      id: 7,
      title: 'Deep learning',
      slug: 'deep-learning',
      authors: [
        {
          authorName: 'Geoffrey Hinton',
          family: 'Hinton',
          given: 'Geoffrey',
          authorID: 'c',
          authorSlug: 'c',
          authorSequenceNumber: 3,
        },
        {
          authorName: 'Yann LeCun',
          family: 'LeCun',
          given: 'Yann',
          authorID: 'a',
          authorSlug: 'a',
          authorSequenceNumber: 1,
        },
        {
          authorName: 'Some Consortium',
          family: '',
          given: '',
          authorID: 'b',
          authorSlug: 'b',
          authorSequenceNumber: 2,
        },
      ],
      journal: 'Nature',
      journalSlug: 'nature',
      publisher: 'Springer Nature',
      memberId: 1,
      issns: ['0028-0836'],
      volume: '521',
      issue: '7553',
      page: '436-444',
      year: 2015,
      type: 'journal-article',
      normalizedTypes: ['article'],
      editorialNotices: [],
      preprintLinks: [],
      publicationLinks: [],
    } satisfies Parameters<typeof paperToCsl>[0];
    expect(paperToCsl(paper)).toEqual({
      id: '10.1038/nature14539',
      type: 'article-journal',
      title: 'Deep learning',
      author: [
        { family: 'LeCun', given: 'Yann' },
        { literal: 'Some Consortium' },
        { family: 'Hinton', given: 'Geoffrey' },
      ],
      'container-title': 'Nature',
      publisher: 'Springer Nature',
      ISSN: '0028-0836',
      volume: '521',
      issue: '7553',
      page: '436-444',
      issued: { 'date-parts': [[2015]] },
      DOI: '10.1038/nature14539',
    });
  });

  it('gives the same fingerprint to the same item from two imports, and distinct ones within a library', () => {
    const a = importText(fixture('library.bib')).items.map((i) => itemFingerprint(i.item));
    const b = importText(fixture('library.bib')).items.map((i) => itemFingerprint(i.item));
    expect(b).toEqual(a);
    expect(new Set(a).size).toBe(a.length);
    expect(a[0]).toBe('doi:10.1038/171737a0');
  });

  it('matches items across formats and spellings', () => {
    const fromBib = importText('@article{x, author={G{\\"o}del, Kurt}, title={{\\"U}ber {DNA}}, year=1931}').items[0]!
      .item;
    const fromJson = importText(
      '[{"id":"y","type":"article-journal","author":[{"family":"Godel","given":"K."}],"title":"Uber DNA","issued":{"date-parts":[[1931]]}}]',
    ).items[0]!.item;
    expect(itemFingerprint(fromBib)).toBe(itemFingerprint(fromJson));
  });
});
