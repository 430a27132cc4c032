import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

describe('library items', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('keeps the complete CSL-JSON of every item type beside its typed columns', () => {
    const types = [
      'article-journal',
      'book',
      'chapter',
      'paper-conference',
      'thesis',
      'report',
      'dataset',
      'article',
      'webpage',
      'patent',
      'software',
    ] as const;
    const items = types.map((type, i) => ({
      id: `x${i}`,
      type,
      title: `A ${type} title`,
      author: [{ family: 'Doe', given: 'Jane', 'non-dropping-particle': 'van' }],
      editor: [{ literal: 'The Editors' }],
      issued: { 'date-parts': [[2000 + i, 3, 4]] as [number, number, number][] },
      'container-title': 'Container',
      publisher: 'Pub',
      number: `N-${i}`,
      genre: type === 'article' ? 'preprint' : undefined,
      custom: { bibtexType: 'misc', arbitrary: [1, 2] },
      'original-date': { 'date-parts': [[1900]] },
    }));
    const r = importItems(t.library, items);
    expect(r.added).toBe(types.length);
    types.forEach((type, i) => {
      const d = t.library.getItem(r.ids[i]!);
      expect(d.type).toBe(type);
      expect(d.year).toBe(2000 + i);
      expect(d.creators).toBe('van Doe');
      expect(d.csl).toMatchObject({ ...JSON.parse(JSON.stringify(items[i])), 'citation-key': d.citationKey });
      expect(d.creatorsList).toEqual([
        { role: 'author', family: 'Doe', given: 'Jane', literal: null },
        { role: 'editor', family: null, given: null, literal: 'The Editors' },
      ]);
    });
  });

  it('keeps creators in order', () => {
    const id = t.library.addItem({
      id: 'a',
      type: 'book',
      title: 'T',
      author: ['Zed', 'Alpha', 'Mid'].map((family) => ({ family })),
    });
    expect(t.library.getItem(id).creatorsList.map((c) => c.family)).toEqual(['Zed', 'Alpha', 'Mid']);
    expect(t.library.getItem(id).creators).toBe('Zed; Alpha; Mid');
  });

  it('generates unique citation keys with suffixes and keeps imported ones', () => {
    const r = importItems(t.library, [
      article('Deep Learning for Cats', 'Smith', 2020),
      article('Deep Learning for Cats', 'Smith', 2020, { DOI: '10.1000/b' }),
      article('Deep learning for cats!', 'Smith', 2020, { DOI: '10.1000/c' }),
      article('Other', 'Jones', 2019, { 'citation-key': 'MyOwnKey' }),
      article('Other 2', 'Jones', 2019, { 'citation-key': 'myownkey' }),
    ]);
    const keys = r.ids.map((id) => t.library.getItem(id).citationKey);
    expect(keys).toEqual([
      'smithDeepLearningCats2020',
      'smithDeepLearningCats2020a',
      'smithDeepLearningCats2020b',
      'MyOwnKey',
      'myownkeya',
    ]);
    expect(r.warnings).toEqual([
      { index: 4, line: 0, reason: expect.stringMatching(/"myownkey" is already used; this entry got "myownkeya"/) },
    ]);
  });

  it('never changes a key silently: edits keep it, the user can change or regenerate it', () => {
    const id = t.library.addItem(article('Original Title Here', 'Smith', 2020));
    const key = t.library.getItem(id).citationKey;
    expect(key).toBe('smithOriginalTitleHere2020');
    const csl = t.library.getItem(id).csl;
    t.library.updateItem(id, { ...csl, title: 'A Completely New Title', issued: { 'date-parts': [[2021]] } });
    expect(t.library.getItem(id).citationKey).toBe(key);
    expect(t.library.getItem(id).title).toBe('A Completely New Title');

    const other = t.library.addItem(article('Else', 'Jones', 2001));
    expect(() => t.library.setCitationKey(other, key.toUpperCase())).toThrow(CoreError);
    expect(() => t.library.setCitationKey(other, 'has space')).toThrow(/spaces/);
    expect(t.library.setCitationKey(other, 'jones:else')).toBe('jones:else');
    expect(t.library.findByCitationKey('JONES:ELSE')).toBe(other);
    expect(t.library.regenerateCitationKey(id)).toBe('smithCompletelyNewTitle2021');
  });

  it('imports the same file twice and adds nothing the second time', () => {
    const file = [
      article('With DOI', 'A', 2001, { DOI: 'https://doi.org/10.1000/XYZ' }),
      article('With key', 'B', 2002, { 'citation-key': 'b2002' }),
      article('With DOI again in the same file', 'C', 2003, { DOI: 'doi:10.1000/xyz' }),
    ];
    // Every entry of a file arrives, two sharing a DOI included (they go to the Duplicates view).
    const first = importItems(t.library, file, { source: 'refs.bib' });
    expect(first.added).toBe(3);
    expect(first.duplicates).toEqual([]);
    expect(t.library.findDuplicates()).toEqual([{ ids: [first.ids[0], first.ids[2]], reason: 'doi' }]);
    const second = importItems(t.library, file, { source: 'refs.bib' });
    expect(second.added).toBe(0);
    expect(second.duplicates.map((d) => d.reason)).toEqual(['doi', 'key-title', 'doi']);
    expect(t.library.stats().items).toBe(3);
    expect(t.library.getItem(first.ids[0]!)).toMatchObject({ doi: '10.1000/xyz', source: 'refs.bib' });
  });

  it('reports bad entries and invalid DOIs without losing the good ones', () => {
    const r = importItems(t.library, [
      article('Good', 'A', 2000),
      { id: 'bad' } as never,
      article('Bad DOI', 'B', 2001, { DOI: 'not-a-doi' }),
    ]);
    expect(r.added).toBe(2);
    expect(r.errors).toEqual([{ index: 1, line: 0, reason: 'The entry has no item type.' }]);
    expect(r.warnings[0]).toMatchObject({ index: 2, reason: expect.stringMatching(/not valid/) });
    expect(t.library.getItem(r.ids[1]!)).toMatchObject({ doi: null, csl: { DOI: 'not-a-doi' } });
  });

  it('rolls an aborted import back whole', () => {
    const controller = new AbortController();
    const items = Array.from({ length: 1500 }, (_, i) => article(`Item ${i}`, 'A', 2000));
    let calls = 0;
    expect(() =>
      importItems(t.library, items, {
        signal: controller.signal,
        onProgress: () => {
          if (++calls === 1) controller.abort();
        },
      }),
    ).toThrow(/cancel|abort/i);
    expect(t.library.stats().items).toBe(0);
    expect(importItems(t.library, items.slice(0, 3)).added).toBe(3);
  });

  it('turns CSL keywords into tags; adds and removes tags', () => {
    const [a, b] = importItems(t.library, [
      article('A', 'X', 2000, { keyword: 'ML, review; ML' }),
      article('B', 'Y', 2001),
    ]).ids as [number, number];
    expect(t.library.getItem(a).tags).toEqual(['ML', 'review']);
    t.library.addTags([a, b], ['to read', 'ml']);
    expect(t.library.getItem(b).tags).toEqual(['ML', 'to read']);
    t.library.removeTags([a], ['ML']);
    expect(t.library.getItem(a).tags).toEqual(['review', 'to read']);
    expect(t.library.listTags()).toEqual([
      { name: 'ML', count: 1 },
      { name: 'review', count: 1 },
      { name: 'to read', count: 2 },
    ]);
  });

  it('keeps notes and attachments', () => {
    const id = t.library.addItem(article('A', 'X', 2000));
    const n = t.library.addNote(id, 'First thought');
    t.library.updateNote(n, 'Better thought');
    const n2 = t.library.addNote(id, 'Second');
    t.library.deleteNote(n2);
    const att = t.library.addAttachment(id, {
      path: '/papers/a.pdf',
      sha256: 'ab'.repeat(32),
      size: 1234,
      mime: 'application/pdf',
    });
    const d = t.library.getItem(id);
    expect(d.notes.map((x) => x.body)).toEqual(['<p>Better thought</p>']);
    expect(d.notes.map((x) => x.text)).toEqual(['Better thought']);
    expect(d.attachments).toEqual([
      {
        id: att,
        path: '/papers/a.pdf',
        sha256: 'ab'.repeat(32),
        size: 1234,
        mime: 'application/pdf',
        addedAt: expect.any(Number),
        stored: 'linked',
        originalName: 'a.pdf',
      },
    ]);
    t.library.removeAttachment(att);
    expect(t.library.getItem(id).attachments).toEqual([]);
  });

  it('has nested collections; an item may be in several', () => {
    const [a, b] = importItems(t.library, [article('A', 'X', 2000), article('B', 'Y', 2001)]).ids as [number, number];
    const thesis = t.library.createCollection('Thesis');
    const ch1 = t.library.createCollection('Chapter 1', thesis);
    const reading = t.library.createCollection('Reading');
    expect(() => t.library.createCollection('chapter 1', thesis)).toThrow(/already a collection/);
    t.library.addToCollection(ch1, [a]);
    t.library.addToCollection(reading, [a, b]);
    expect(t.library.getItem(a).collections).toEqual([ch1, reading]);
    expect(t.library.listing.list({ collectionId: thesis }).rows.map((r) => r.id)).toEqual([a]);
    expect(t.library.listing.list({ collectionId: thesis, includeSubcollections: false }).rows).toEqual([]);
    t.library.moveToCollection([b], reading, ch1);
    expect(t.library.getItem(b).collections).toEqual([ch1]);
    expect(() => t.library.moveCollection(thesis, ch1)).toThrow(/into itself/);
    t.library.moveCollection(ch1, null);
    expect(t.library.listCollections().find((c) => c.id === ch1)).toMatchObject({ parentId: null, itemCount: 2 });
    t.library.deleteCollection(thesis);
    expect(t.library.stats()).toMatchObject({ items: 2, collections: 2 });
  });

  it('lists Unfiled as the items in no collection at all, whatever the collections are called', () => {
    const [a, b, c] = importItems(t.library, [
      article('A', 'X', 2000),
      article('B', 'Y', 2001),
      article('C', 'Z', 2002),
    ]).ids as [number, number, number];
    const quoted = t.library.createCollection('My "best" papers');
    const sub = t.library.createCollection('Sub \\ folder', quoted);
    t.library.addToCollection(sub, [a]);
    expect(
      t.library.listing
        .list({ unfiled: true })
        .rows.map((r) => r.id)
        .sort(),
    ).toEqual([b, c]);
    expect(t.library.listing.count({ unfiled: true })).toBe(2);
    expect(t.library.listing.count({ unfiled: true, query: 'author:Z' })).toBe(1);
    t.library.trashItems([c]);
    expect(t.library.listing.list({ unfiled: true }).rows.map((r) => r.id)).toEqual([b]);
    expect(t.library.listing.list({ unfiled: true, trash: true }).rows.map((r) => r.id)).toEqual([c]);
  });

  it('moves items to the trash and restores them', () => {
    const [a, b] = importItems(t.library, [article('A', 'X', 2000), article('B', 'Y', 2001)]).ids as [number, number];
    t.library.trashItems([a]);
    expect(t.library.listing.list().rows.map((r) => r.id)).toEqual([b]);
    expect(t.library.listing.list({ trash: true }).rows.map((r) => r.id)).toEqual([a]);
    expect(t.library.listing.list({ query: 'A' }).rows.map((r) => r.id)).not.toContain(a);
    t.library.restoreItems([a]);
    expect(t.library.listing.list({ trash: true }).rows).toEqual([]);
    t.library.trashItems([a, b]);
    expect(t.library.emptyTrash()).toBe(2);
    expect(t.library.stats()).toMatchObject({ items: 0, trashed: 0 });
  });
});
