import { describe, expect, it } from 'vitest';
import { flagsOf, groupCitations, MANY_CONTRASTING, type CitedItemFacts } from '../../../shared/model/manuscript';
import { requests } from '../../../shared/ipc';

const item = (over: Partial<CitedItemFacts> = {}): CitedItemFacts => ({
  id: 1,
  citationKey: 'k',
  title: 't',
  creators: 'c',
  year: 2000,
  doi: '10.1/x',
  trashed: false,
  status: 'none',
  notices: [],
  tallies: { supporting: 0, contrasting: 0, mentioning: 0, total: 0 },
  publishedVersions: [],
  ...over,
});

describe('flagsOf', () => {
  it('flags many contrasting statements at the threshold, not one below', () => {
    const t = (contrasting: number) => ({ supporting: 0, contrasting, mentioning: 0, total: contrasting });
    expect(flagsOf(item({ tallies: t(MANY_CONTRASTING) }), MANY_CONTRASTING)).toEqual(['contrasting']);
    expect(flagsOf(item({ tallies: t(MANY_CONTRASTING - 1) }), MANY_CONTRASTING)).toEqual([]);
    expect(flagsOf(item({ tallies: null }), MANY_CONTRASTING)).toEqual([]);
  });

  it('flags notices, published versions and missing items', () => {
    expect(flagsOf(null, 5)).toEqual(['missing']);
    expect(flagsOf(item({ status: 'withdrawn' }), 5)).toEqual(['withdrawn']);
    expect(flagsOf(item({ status: 'correction' }), 5)).toEqual(['corrected']);
    expect(flagsOf(item({ publishedVersions: [{ doi: '10.1/y', citationKey: null }] }), 5)).toEqual([
      'published-version',
    ]);
  });
});

describe('groupCitations', () => {
  it('gives one entry per reference, with every place it is cited', () => {
    const g = groupCitations([
      { key: 'a', line: 3 },
      { doi: '10.1/X', line: 2, part: 'paragraph' },
      { key: 'a', line: 9 },
      { key: 'a', line: 9 },
      { doi: '10.1/x', line: 4, part: 'footnotes paragraph' },
    ]);
    expect(g.map((e) => [e.ref, e.places, e.line])).toEqual([
      ['a', ['line 3', 'line 9'], 3],
      ['10.1/X', ['paragraph 2', 'footnotes paragraph 4'], 2],
    ]);
  });
});

describe('manuscript.check input', () => {
  const schema = requests['manuscript.check'].input;
  it('takes a named file or pasted text, and refuses other extensions', () => {
    expect(schema.safeParse({ source: { kind: 'text', name: 'pasted.md', text: '@a' } }).success).toBe(true);
    expect(schema.safeParse({ source: { kind: 'file', name: 'a.docx', base64: 'UEsDBA==' } }).success).toBe(true);
    const bad = schema.safeParse({ source: { kind: 'file', name: 'a.pdf', base64: 'UEsDBA==' } });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('The file must be .md');
    expect(schema.safeParse({ source: { kind: 'text', name: 'a.md', text: '@a' }, contrasting: 0 }).success).toBe(
      false,
    );
  });
});
