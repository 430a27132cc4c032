// Issue 17, "a user's references come out as they went in": CSL-JSON ids as citation keys, every
// entry of a file arriving, dates kept, and what "the same entry" means on re-import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { importText, type ImportFormat } from '../../../electron/core/formats';
import { LibraryClient } from '../../../electron/core/library/client';
import { testLibrary, type TestLibrary } from './helpers/lib';
import { importThroughPort } from './helpers/port-import';

// Each test starts a library worker and imports through the formats worker: seconds on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

/** A file's text into the library the way the app does it (importSource's path: the formats worker, the import port, the library worker). */
function store(client: LibraryClient, file: { text: string; format: ImportFormat }, source = 'test') {
  return importThroughPort(client, { kind: 'text', text: file.text }, { format: file.format, source });
}

/** A library read in this thread, and the client (its worker) the app imports into it with. */
function libraryAndClient(): { t: () => TestLibrary; client: () => LibraryClient } {
  let t: TestLibrary;
  let client: LibraryClient;
  beforeEach(async () => {
    t = testLibrary();
    client = await LibraryClient.start({ file: t.file, durability: 'off' });
  });
  afterEach(async () => {
    await client.close();
    t.dispose();
  });
  return { t: () => t, client: () => client };
}

const cslText = (items: unknown[]) => ({ text: JSON.stringify(items, null, 1), format: 'csljson' as const });
const csl = (items: unknown[]) => importText(cslText(items).text, { format: 'csljson' });

describe('a CSL-JSON id is the citation key when there is no citation-key', () => {
  const lib = libraryAndClient();

  const file = [
    {
      id: 'smith2020deep',
      type: 'article-journal',
      title: 'Deep things',
      author: [{ family: 'Smith', given: 'A.' }],
      issued: { 'date-parts': [[2020]] },
    },
    { id: 'jones:2019', type: 'book', title: 'A book', author: [{ family: 'Jones' }] },
    {
      id: 'bbt-id',
      'citation-key': 'lee2018better',
      type: 'book',
      title: 'Better BibTeX keys',
      author: [{ family: 'Lee' }],
    },
    {
      id: 1234,
      type: 'book',
      title: 'Zotero numbers',
      author: [{ family: 'Kim' }],
      issued: { 'date-parts': [[2001]] },
    },
    {
      id: 'http://zotero.org/users/1/items/ABCD1234',
      type: 'book',
      title: 'Zotero URIs',
      author: [{ family: 'Park' }],
      issued: { 'date-parts': [[2002]] },
    },
    {
      id: '7654321/ABCDEFGH',
      type: 'book',
      title: 'Zotero ids',
      author: [{ family: 'Cho' }],
      issued: { 'date-parts': [[2003]] },
    },
    { id: 'has space', type: 'book', title: 'Spaces', author: [{ family: 'Roe' }], issued: { 'date-parts': [[2004]] } },
  ];

  it('keeps a usable id as the key and exports it as the id again', async () => {
    const parsed = csl(file);
    expect(parsed.items.map((i) => i.item['citation-key'])).toEqual([
      'smith2020deep',
      'jones:2019',
      'lee2018better',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const r = await store(lib.client(), cslText(file));
    const out = lib.t().library.cslOf(r.ids);
    expect(out.slice(0, 3).map((i) => [i.id, i['citation-key']])).toEqual([
      ['smith2020deep', 'smith2020deep'],
      ['jones:2019', 'jones:2019'],
      ['lee2018better', 'lee2018better'],
    ]);
  });

  it('makes a key for a number, a URL, a Zotero id or an unusable id, and reports old → new', async () => {
    const parsed = csl(file);
    expect(parsed.items.slice(3).map((i) => i.replacedId?.reason)).toEqual([
      'it is a number, as Zotero, Mendeley and EndNote number their records',
      'it is a URL',
      'it is a Zotero item id',
      'a citation key cannot contain spaces',
    ]);
    const r = await store(lib.client(), cslText(file));
    expect(
      lib
        .t()
        .library.cslOf(r.ids.slice(3))
        .map((i) => i.id),
    ).toEqual(['kimZoteroNumbers2001', 'parkZoteroUris2002', 'choZoteroIds2003', 'roeSpaces2004']);
    expect(r.warnings.map((w) => [w.index, w.reason])).toEqual([
      [
        3,
        'The id "1234" cannot be a citation key (it is a number, as Zotero, Mendeley and EndNote number their records); it became "kimZoteroNumbers2001" ("1234" → "kimZoteroNumbers2001").',
      ],
      [
        4,
        'The id "http://zotero.org/users/1/items/ABCD1234" cannot be a citation key (it is a URL); it became "parkZoteroUris2002" ("http://zotero.org/users/1/items/ABCD1234" → "parkZoteroUris2002").',
      ],
      [
        5,
        'The id "7654321/ABCDEFGH" cannot be a citation key (it is a Zotero item id); it became "choZoteroIds2003" ("7654321/ABCDEFGH" → "choZoteroIds2003").',
      ],
      [
        6,
        'The id "has space" cannot be a citation key (a citation key cannot contain spaces); it became "roeSpaces2004" ("has space" → "roeSpaces2004").',
      ],
    ]);
  });

  it('gives a repeated id that is a key a suffix in the library, and skips an exact repeat', async () => {
    const three = [file[0], { ...file[0], title: 'Other things' }, file[0]];
    const parsed = csl(three);
    expect(parsed.warnings).toEqual([]);
    const r = await store(lib.client(), cslText(three));
    expect(r.added).toBe(2);
    // The third is the first again, as the file wrote it.
    expect(r.duplicates.map((d) => [d.index, d.reason])).toEqual([[2, 'entry']]);
    expect(
      lib
        .t()
        .library.cslOf(r.ids)
        .map((i) => i.id),
    ).toEqual(['smith2020deep', 'smith2020deepa']);
  });
});

describe('every entry of a file arrives; the same entry is not added twice', () => {
  const lib = libraryAndClient();

  const bookAndChapter = [
    {
      id: 'doe2010book',
      type: 'book',
      title: 'The handbook',
      editor: [{ family: 'Doe' }],
      DOI: '10.1000/book',
      issued: { 'date-parts': [[2010]] },
    },
    {
      id: 'roe2010chapter',
      type: 'chapter',
      title: 'A chapter',
      author: [{ family: 'Roe' }],
      'container-title': 'The handbook',
      DOI: '10.1000/book',
      issued: { 'date-parts': [[2010]] },
    },
  ];

  it('imports a book and a chapter of it that share a DOI, and nothing on the second import', async () => {
    const first = await store(lib.client(), cslText(bookAndChapter));
    expect(first.added).toBe(2);
    expect(first.duplicates).toEqual([]);
    const again = await store(lib.client(), cslText(bookAndChapter));
    expect(again.added).toBe(0);
    expect(again.duplicates.map((d) => [d.index, d.existingId, d.reason])).toEqual([
      [0, first.ids[0], 'entry'],
      [1, first.ids[1], 'entry'],
    ]);
    expect(lib.t().library.stats().items).toBe(2);
  });

  it('keeps the same DOI under another key from another file, says so, and lists both as duplicates', async () => {
    const first = await store(lib.client(), cslText([bookAndChapter[0]]));
    const other = await store(lib.client(), cslText([{ ...bookAndChapter[0], id: 'handbook2010' }]));
    expect(other.added).toBe(1);
    expect(other.warnings.map((w) => w.reason)).toEqual([
      `“${lib.t().library.getItem(first.ids[0]!).citationKey}” has the same DOI (10.1000/book) under another citation key; both are kept, and the Duplicates view lists them to merge.`,
    ]);
    expect(lib.t().library.findDuplicates()).toEqual([{ ids: [first.ids[0], other.ids[0]], reason: 'doi' }]);
  });

  it('matches a keyed entry by key and DOI even when its title was edited since, and by key and title without a DOI', async () => {
    await store(lib.client(), cslText([bookAndChapter[0], { id: 'nodoi', type: 'book', title: 'No DOI here' }]));
    const again = await store(
      lib.client(),
      cslText([
        { ...bookAndChapter[0], title: 'The Handbook, 2nd printing' },
        { id: 'nodoi', type: 'book', title: 'No DOI here.' },
      ]),
    );
    expect(again.added).toBe(0);
    // The same key for a different work is another entry: kept with a suffixed key.
    const clash = await store(lib.client(), cslText([{ id: 'nodoi', type: 'book', title: 'Something else' }]));
    expect(clash.added).toBe(1);
    expect(lib.t().library.cslOf(clash.ids)[0]!.id).toBe('nodoia');
  });

  it('matches entries without keys by DOI, or by source, title, creators, year and type, on re-import', async () => {
    const ris =
      'TY  - BOOK\nTI  - Keyless book\nAU  - Poe, E.\nPY  - 1999\nER  - \n\nTY  - CHAP\nTI  - Keyless chapter\nDO  - 10.1000/ch\nER  - \n\nTY  - CHAP\nTI  - Its sibling\nDO  - 10.1000/ch\nER  - \n';
    const first = await store(lib.client(), { text: ris, format: 'ris' });
    expect(first.added).toBe(3);
    const again = await store(lib.client(), { text: ris, format: 'ris' });
    expect(again.added).toBe(0);
    expect(again.duplicates.map((d) => d.reason)).toEqual(['entry', 'entry', 'entry']);
    // Records written otherwise (another tool, a newer export): by the rules of title and DOI.
    const rewritten = ris.replace(/ER {2}- /g, 'DB  - Other tool\nER  - ');
    const reread = await store(lib.client(), { text: rewritten, format: 'ris' });
    expect(reread.added).toBe(0);
    expect(reread.duplicates.map((d) => d.reason)).toEqual(['title', 'doi', 'doi']);
    // Another year is another work.
    const other = await store(lib.client(), { text: ris.replace('PY  - 1999', 'PY  - 2005'), format: 'ris' });
    expect(other.added).toBe(1);
    // The same records from a file of another name are the same entries.
    expect((await store(lib.client(), { text: ris, format: 'ris' }, 'moved.ris')).added).toBe(0);
    // The same work without a DOI, written otherwise in another file, is a likely duplicate: kept, for
    // the Duplicates view.
    const elsewhere = await store(
      lib.client(),
      { text: rewritten.replace(/Other tool/g, 'A third tool'), format: 'ris' },
      'other.ris',
    );
    expect(elsewhere.added).toBe(1);
    expect(lib.t().library.findDuplicates()).toContainEqual({
      ids: [first.ids[0], elsewhere.ids[0]],
      reason: 'title-creator-year',
    });
  });

  it("imports Mendeley's keys used twice once each, however often the file comes back, after merges too", async () => {
    const text = readFileSync(
      join(import.meta.dirname, '../../fixtures/real-world/mendeley-duplicate-keys.bib'),
      'utf8',
    );
    const first = await store(lib.client(), { text, format: 'bibtex' }, 'My Collection.bib');
    const keys = lib
      .t()
      .library.cslOf(first.ids)
      .map((i) => i.id);
    expect(keys).toEqual(['Smith2020', 'Smith2020a', 'Smith2020b', 'Smith2020c', 'Berg2015', 'Berg2015a']);
    // Issue 32: one line per key used twice, not one per entry, and no internal ids.
    expect(first.warnings.map((w) => [w.line, w.reason])).toEqual([
      [
        20,
        'The citation key "Smith2020" is already used; 3 more entries asked for it and got "Smith2020a", "Smith2020b" and "Smith2020c" (lines 20, 33 and 41).',
      ],
      [61, 'The citation key "Berg2015" is already used; this entry got "Berg2015a" ("Berg2015" → "Berg2015a").'],
    ]);
    for (let round = 0; round < 2; round++) {
      const again = await store(lib.client(), { text, format: 'bibtex' }, 'My Collection.bib');
      expect(again.added).toBe(0);
      expect(again.duplicates.map((d) => d.existingId)).toEqual(first.ids);
      expect(again.duplicates.map((d) => d.existingKey)).toEqual(keys);
    }
    // The paper and its erratum merged into one item: both entries are that item now, and stay it
    // once the merge is undone and done again.
    lib.t().library.mergeItems(first.ids[0]!, [first.ids[3]!]);
    const merged = await store(lib.client(), { text, format: 'bibtex' }, 'My Collection.bib');
    expect(merged.added).toBe(0);
    expect(merged.duplicates.map((d) => d.existingId)).toEqual([
      first.ids[0],
      first.ids[1],
      first.ids[2],
      first.ids[0],
      first.ids[4],
      first.ids[5],
    ]);
    expect(lib.t().library.stats().items).toBe(5);
  });

  // Issue 32: an invalid DOI was reported twice (by the BibTeX reader and by the library).
  it('reports an invalid DOI once, naming it', async () => {
    const text = '@article{bad2020,\n  title = {A paper},\n  doi = {10.abc/xyz},\n  year = {2020}\n}\n';
    const r = await store(lib.client(), { text, format: 'bibtex' });
    expect(r.added).toBe(1);
    expect(r.warnings.map((w) => [w.line, w.reason])).toEqual([
      [
        1,
        expect.stringMatching(
          /^The DOI "10\.abc\/xyz" is not valid \(.+\); it is kept but not used to find duplicates or evidence\.$/,
        ),
      ],
    ]);
  });

  it('finds an entry merged into another item by its key alias', async () => {
    const r = await store(lib.client(), cslText([bookAndChapter[0], { ...bookAndChapter[0], id: 'copy2010' }]));
    lib.t().library.mergeItems(r.ids[0]!, [r.ids[1]!]);
    const again = await store(lib.client(), cslText([{ ...bookAndChapter[0], id: 'copy2010' }]));
    expect(again.added).toBe(0);
    expect(again.duplicates.map((d) => d.existingId)).toEqual([r.ids[0]]);
  });
});

describe('a CSL-JSON date that cannot be read is kept', () => {
  it('as a literal, with a warning naming the item and the field', () => {
    const r = csl([
      { id: 'a', type: 'book', title: 'Empty parts', issued: { 'date-parts': [[]] } },
      { id: 'b', type: 'book', title: 'Words', issued: { 'date-parts': [['Spring', '2015']] } },
      {
        id: 'c',
        type: 'book',
        title: 'Text part',
        issued: { 'date-parts': [['2015-10-12']] },
        accessed: { 'date-parts': [[2020, 'x']] },
      },
      { id: 'd', type: 'book', title: 'Raw', issued: { 'date-parts': [[2015, true]], raw: 'late 2015' } },
    ]);
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => [i.item.id, i.item.issued, i.item.accessed])).toEqual([
      ['a', undefined, undefined],
      ['b', { literal: 'Spring-2015' }, undefined],
      ['c', { 'date-parts': [[2015, 10, 12]] }, { literal: '2020-x' }],
      ['d', { literal: 'late 2015' }, undefined],
    ]);
    expect(r.warnings.map((w) => [w.line, w.reason])).toEqual([
      [2, 'Item 1 ("a"): "issued" holds no date ({"date-parts":[[]]}); it was left out.'],
      [
        12,
        'Item 2 ("b"): "issued" is not a CSL date ({"date-parts":[["Spring","2015"]]}); it was kept as the literal date "Spring-2015".',
      ],
      [
        25,
        'Item 3 ("c"): "issued" is not a CSL date ({"date-parts":[["2015-10-12"]]}); it was read as {"date-parts":[[2015,10,12]]}.',
      ],
      [
        25,
        'Item 3 ("c"): "accessed" is not a CSL date ({"date-parts":[[2020,"x"]]}); it was kept as the literal date "2020-x".',
      ],
      [
        45,
        'Item 4 ("d"): "issued" is not a CSL date ({"date-parts":[[2015,true]],"raw":"late 2015"}); it was kept as the literal date "late 2015".',
      ],
    ]);
  });

  it('says which name and which part is wrong when names cannot be read', () => {
    const r = csl([
      { id: 'n1', type: 'book', author: [{ family: 'Ok' }, { family: ['A', 'B'] }] },
      { id: 'n2', type: 'book', editor: [{ family: 'Ok' }, null] },
      { id: 'n3', type: 'book', author: 'Plato' },
    ]);
    expect(r.errors.map((e) => e.reason)).toEqual([
      'Item 1 ("n1"): "author" must be a list of names ([{"family": …, "given": …}] or [{"literal": …}]); name 2 has "family" as a list, not text.',
      'Item 2 ("n2"): "editor" must be a list of names ([{"family": …, "given": …}] or [{"literal": …}]); name 2 is null.',
      'Item 3 ("n3"): "author" must be a list of names ([{"family": …, "given": …}] or [{"literal": …}]); this is the text "Plato".',
    ]);
  });
});
