// Reading a paper record's preprint and publication links (the service's records are not validated
// on the way in): the contract's own example shape, empty and missing lists, and malformed entries,
// each skipped with where and why.
import { describe, expect, it } from 'vitest';
import { paperLinks, versionLabel } from '../../../shared/model/paper-versions';
import { isObject, loadContract, type JsonObject } from '../service-contract/contract';

const example = (
  (((loadContract().components as JsonObject).schemas as JsonObject).Paper as JsonObject).examples as unknown[]
)[0];
const paperExample = (): JsonObject => {
  if (!isObject(example)) throw new Error('the contract has no Paper example');
  return structuredClone(example);
};

describe('paperLinks', () => {
  it("reads the contract's Paper example: one preprint, no published version", () => {
    expect(paperLinks(paperExample())).toEqual({
      preprints: ['10.1101/2019.01.01.000001'],
      published: [],
      skipped: [],
    });
  });

  it('reads a preprint record: its published versions, normalised and without repeats', () => {
    const preprint = {
      ...paperExample(),
      preprintLinks: [],
      publicationLinks: [
        { publishedDoi: 'https://doi.org/10.1038/NATURE1' },
        { publishedDoi: '10.1038/nature1' },
        { publishedDoi: '10.1038/nature2' },
      ],
    };
    expect(paperLinks(preprint)).toEqual({
      preprints: [],
      published: ['10.1038/nature1', '10.1038/nature2'],
      skipped: [],
    });
  });

  it('takes missing, null and empty lists as no links', () => {
    expect(paperLinks({})).toEqual({ preprints: [], published: [], skipped: [] });
    expect(paperLinks({ preprintLinks: null, publicationLinks: [] })).toEqual({
      preprints: [],
      published: [],
      skipped: [],
    });
    expect(paperLinks(undefined)).toEqual({ preprints: [], published: [], skipped: [] });
  });

  it('skips malformed lists and entries, saying where and why, and keeps the good ones', () => {
    const r = paperLinks({
      preprintLinks: [
        null,
        'x',
        [],
        { preprintDoi: 5 },
        {},
        { preprintDoi: 'not a doi' },
        { preprintDoi: '10.1101/ok' },
      ],
      publicationLinks: { publishedDoi: '10.1000/x' },
    });
    expect(r.preprints).toEqual(['10.1101/ok']);
    expect(r.published).toEqual([]);
    expect(r.skipped).toEqual([
      'preprintLinks[0]: not an object',
      'preprintLinks[1]: not an object',
      'preprintLinks[2]: not an object',
      'preprintLinks[3]: preprintDoi is not text',
      'preprintLinks[4]: preprintDoi is missing',
      expect.stringMatching(/^preprintLinks\[5\]: A DOI starts with "10\."/),
      'publicationLinks: not a list',
    ]);
    expect(paperLinks('a string').skipped).toEqual(['the paper record is not an object']);
    expect(paperLinks({ publicationLinks: 7 }).skipped).toEqual(['publicationLinks: not a list']);
  });
});

describe('versionLabel', () => {
  it('names a version with what is known', () => {
    expect(versionLabel({ title: 'Dreams', journal: 'Nature', year: 2021 })).toBe('Dreams. Nature, 2021');
    expect(versionLabel({ title: null, journal: 'Nature', year: null })).toBe('Nature');
    expect(versionLabel({ title: null, journal: null, year: null })).toBe('');
  });
});
