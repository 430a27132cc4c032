// What an editor types, as the library's search language: the one-letter rule (a whole word, not a
// prefix that matches nearly everything) on both sides of its threshold, and what stays as it was.
import { describe, expect, it } from 'vitest';
import { freeTextQuery } from '../../../electron/api/search-query';
import { parseQuery } from '../../../shared/model/query/parser';

describe('freeTextQuery', () => {
  it('keeps words of two or more characters as prefixes, and four-digit numbers as years', () => {
    expect(freeTextQuery('sm')).toBe('sm');
    expect(freeTextQuery('Smith 2020')).toBe('smith year:2020');
    expect(freeTextQuery('smith and jones & co')).toBe('smith jones co');
  });

  it('matches a one-character word whole: as a prefix it matched nearly every item', () => {
    expect(freeTextQuery('s')).toBe('"s"');
    expect(freeTextQuery('J Smith')).toBe('"j" smith');
    expect(freeTextQuery('Adams:2001-x')).toBe('adams 2001 "x"');
    expect(freeTextQuery('7')).toBe('"7"');
  });

  it('asks each word once, in the order first typed', () => {
    expect(freeTextQuery('Smith smith SMITH 2020 j J 2020')).toBe('smith year:2020 "j"');
    expect(freeTextQuery('adams '.repeat(300))).toBe('adams');
  });

  it('gives queries the library parses', () => {
    for (const terms of ['s', 'J Smith 2019', 'Adams:2001-x', 'a b c'])
      expect(() => parseQuery(freeTextQuery(terms)), terms).not.toThrow();
  });
});
