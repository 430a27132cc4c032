// "New collection…" in the collection picker: which name it offers for the text typed.
import { describe, expect, it } from 'vitest';
import { newCollectionName } from '../../../renderer/src/lib/library/selection-commands';
import { MAX_COLLECTION_NAME, type Collection } from '../../../shared/model/library';

const collection = (id: number, name: string, parentId: number | null = null): Collection =>
  ({ id, name, parentId, itemCount: 0 }) as Collection;

const library = [collection(1, 'Thesis'), collection(2, 'Chapter 1', 1), collection(3, 'Reading')];

describe('the name a picker offers to create', () => {
  it('is the text trimmed, when no top-level collection has it', () => {
    expect(newCollectionName(library, '  Chapter 3 ')).toBe('Chapter 3');
    // A subcollection's name is free at the top: the picker creates at the top.
    expect(newCollectionName(library, 'Chapter 1')).toBe('Chapter 1');
    expect(newCollectionName([], 'Anything')).toBe('Anything');
  });

  it('is not offered for nothing typed, or for a name taken in any case', () => {
    expect(newCollectionName(library, '')).toBeNull();
    expect(newCollectionName(library, '   ')).toBeNull();
    expect(newCollectionName(library, 'thesis')).toBeNull();
    expect(newCollectionName(library, ' READING ')).toBeNull();
  });

  it('takes a name up to the longest a collection may have, and not one longer', () => {
    expect(newCollectionName(library, 'x'.repeat(MAX_COLLECTION_NAME - 1))).toHaveLength(MAX_COLLECTION_NAME - 1);
    expect(newCollectionName(library, 'x'.repeat(MAX_COLLECTION_NAME))).toHaveLength(MAX_COLLECTION_NAME);
    expect(newCollectionName(library, 'x'.repeat(MAX_COLLECTION_NAME + 1))).toBeNull();
    // Spaces around do not count.
    expect(newCollectionName(library, ` ${'x'.repeat(MAX_COLLECTION_NAME)} `)).toHaveLength(MAX_COLLECTION_NAME);
  });
});
