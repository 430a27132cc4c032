// The three-way merge of one shared object (electron/core/sync/merge.ts): both sides of every rule.
import { describe, expect, it } from 'vitest';
import {
  changedKeys,
  mergeDocs,
  mergeSet,
  sameDoc,
  sameJson,
  withoutConflicts,
} from '../../../electron/core/sync/merge';

describe('three-way merge of a shared object', () => {
  const base = { title: 'T', volume: '1', tags: ['a', 'b'], added: 10 };

  it('takes what only one side changed, from that side', () => {
    const r = mergeDocs(base, { ...base, title: 'Local' }, { ...base, volume: '2' });
    expect(r).toEqual({ doc: { title: 'Local', volume: '2', tags: ['a', 'b'], added: 10 }, conflicts: [] });
  });

  it('is no conflict when both sides made the same change', () => {
    expect(mergeDocs(base, { ...base, title: 'Same' }, { ...base, title: 'Same' }).conflicts).toEqual([]);
  });

  it('keeps the local value of a field both changed differently, and reports both values', () => {
    const r = mergeDocs(base, { ...base, title: 'Mine' }, { ...base, title: 'Theirs' });
    expect(r.doc.title).toBe('Mine');
    expect(r.conflicts).toEqual([{ field: 'title', local: 'Mine', server: 'Theirs' }]);
  });

  it('treats a field removed on one side and changed on the other as a conflict, and a removal alone as a change', () => {
    const { title: _t, ...noTitle } = base;
    expect(mergeDocs(base, noTitle, { ...base, title: 'X' }).conflicts).toEqual([
      { field: 'title', local: undefined, server: 'X' },
    ]);
    expect(mergeDocs(base, noTitle, { ...base, volume: '3' })).toEqual({
      doc: { ...noTitle, volume: '3' },
      conflicts: [],
    });
  });

  it('merges sets by what each side added and removed', () => {
    expect(mergeSet(['a', 'b'], ['a', 'b', 'c'], ['b', 'd'])).toEqual(['b', 'c', 'd']);
    const r = mergeDocs(base, { ...base, tags: ['a', 'b', 'c'] }, { ...base, tags: ['b'] }, { tags: 'set' });
    expect(r).toEqual({ doc: { ...base, tags: ['b', 'c'] }, conflicts: [] });
    // Without the rule, the same edits are a conflict.
    expect(mergeDocs(base, { ...base, tags: ['a', 'b', 'c'] }, { ...base, tags: ['b'] }).conflicts).toHaveLength(1);
  });

  it('takes the smaller or larger of two numbers, and the server value, by rule', () => {
    expect(mergeDocs(base, { ...base, added: 5 }, { ...base, added: 7 }, { added: 'min' }).doc.added).toBe(5);
    expect(mergeDocs(base, { ...base, added: 5 }, { ...base, added: 7 }, { added: 'max' }).doc.added).toBe(7);
    expect(mergeDocs(base, { ...base, added: 5 }, { ...base, added: 7 }, { added: 'server' }).doc.added).toBe(7);
    // min on something that is not a number falls back to a conflict.
    expect(mergeDocs(base, { ...base, added: 'x' }, { ...base, added: 7 }, { added: 'min' }).conflicts).toHaveLength(1);
  });

  it('merges an object new on both sides (no base) field by field: equal fields agree, different ones conflict', () => {
    const r = mergeDocs(null, { a: 1, b: 2 }, { a: 1, b: 3 });
    expect(r.conflicts).toEqual([{ field: 'b', local: 2, server: 3 }]);
  });

  it('keeps a held field in conflict with the local value whatever the server says now', () => {
    const r = mergeDocs(
      { ...base, title: 'Theirs' },
      { ...base, title: 'Mine' },
      { ...base, title: 'Theirs 2' },
      {},
      new Set(['title']),
    );
    expect(r.doc.title).toBe('Mine');
    expect(r.conflicts).toEqual([{ field: 'title', local: 'Mine', server: 'Theirs 2' }]);
    // Held, and the server came round to the local value: no conflict any more.
    expect(
      mergeDocs(base, { ...base, title: 'Mine' }, { ...base, title: 'Mine' }, {}, new Set(['title'])).conflicts,
    ).toEqual([]);
  });

  it('compares JSON regardless of key order (jsonb reorders keys) but not of array order', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameDoc(null, null)).toBe(true);
    expect(sameDoc({}, null)).toBe(false);
    expect(changedKeys({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual(['b', 'c']);
  });

  it('sends the server values of conflicted fields, dropping a field the server does not have', () => {
    expect(withoutConflicts({ a: 1, b: 2 }, { a: 9 }, ['a', 'b'])).toEqual({ a: 9 });
    expect(withoutConflicts({ a: 1 }, null, [])).toEqual({ a: 1 });
  });
});
