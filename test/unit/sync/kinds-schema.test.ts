// What a replica accepts from the server as an object's fields (kinds.ts): every value a JSON value
// within the limits, on both sides of each limit, with the reason and the field when it is not.
import { describe, expect, it } from 'vitest';
import { KIND_BY_NAME } from '../../../electron/core/sync/kinds';

const item = KIND_BY_NAME.get('item')!;
const doc = {
  key: 'smith2020',
  'csl.type': 'article-journal',
  'csl.title': 'On limits',
  'csl.issued': { 'date-parts': [[2020, 5]] },
  'csl.author': [{ family: 'Smith', given: 'Ann' }],
  dateAdded: 1_700_000_000_000,
  trashed: false,
  source: null,
  tags: ['a'],
  aliases: [],
  edited: [],
};

function problem(extra: Record<string, unknown>): string | null {
  const r = item.schema.safeParse({ ...doc, ...extra });
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

/** A value nested `depth` lists deep: [[[…]]]. */
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe("an item's fields from the server", () => {
  it('takes a document as Citewise writes it, keeping every value', () => {
    const r = item.schema.safeParse(doc);
    expect(r.success && r.data).toEqual(doc);
  });

  it('takes text up to 1,000,000 characters, and refuses longer', () => {
    expect(problem({ 'csl.note': 'x'.repeat(999_999) })).toBeNull();
    expect(problem({ 'csl.note': 'x'.repeat(1_000_000) })).toBeNull();
    expect(problem({ 'csl.note': 'x'.repeat(1_000_001) })).toBe('csl.note: text longer than 1000000 characters');
  });

  it('takes lists up to 10,000 values, and refuses longer', () => {
    expect(problem({ 'csl.x': Array(9_999).fill(1) })).toBeNull();
    expect(problem({ 'csl.x': Array(10_000).fill(1) })).toBeNull();
    expect(problem({ 'csl.x': Array(10_001).fill(1) })).toBe('csl.x: a list of more than 10000 values');
  });

  it('takes names up to 200 characters inside a value, and refuses longer', () => {
    expect(problem({ 'csl.x': { ['n'.repeat(199)]: 1 } })).toBeNull();
    expect(problem({ 'csl.x': { ['n'.repeat(200)]: 1 } })).toBeNull();
    expect(problem({ 'csl.x': { ['n'.repeat(201)]: 1 } })).toBe('csl.x: a name longer than 200 characters');
  });

  it('takes values nested up to 64 levels, and refuses deeper (no stack overflow on a hostile one)', () => {
    expect(problem({ 'csl.x': nested(63) })).toBeNull();
    expect(problem({ 'csl.x': nested(64) })).toBeNull();
    expect(problem({ 'csl.x': nested(65) })).toMatch(/^csl\.x: (\[0\]: ){4}nested more than 64 levels deep$/);
    expect(problem({ 'csl.x': nested(100_000) })).toMatch(/nested more than 64 levels deep$/);
  });

  it('names the place of a bad value inside a field', () => {
    expect(problem({ 'csl.author': [{ family: 'Smith' }, { family: 'x'.repeat(1_000_001) }] })).toBe(
      'csl.author: [1]: family: text longer than 1000000 characters',
    );
  });

  it('refuses what JSON cannot hold, and the fields every item has when missing or of the wrong type', () => {
    expect(problem({ 'csl.volume': Number.POSITIVE_INFINITY })).toBe('csl.volume: not a finite number');
    expect(problem({ 'csl.volume': Number.NaN })).toBe('csl.volume: not a finite number');
    expect(problem({ trashed: 'no' })).toMatch(/^trashed: /);
    expect(problem({ key: 'has space' })).toMatch(/^key: not a usable citation key/);
  });
});
