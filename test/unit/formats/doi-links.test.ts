// Issue 32: "DOIs written as links are lost". Every DOI a tool writes is read, in every format: resolver
// links (http://dx.doi.org/…, https://doi.org/…, ACM's http://doi.acm.org/…), "DOI: 10…", "doi:10…",
// Web of Science's "DOI 10…" and its double braces {{10.1016/…}}, and a DOI given only as the URL. The
// fixtures are shaped as Web of Science (BibTeX), Embase/Ovid (RIS) and Mendeley write them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { doiFromUrl, parseDoi, writtenDoi } from '../../../shared/model/doi';
import {
  detectFormat,
  importText,
  toBibtex,
  toCslJson,
  toRis,
  type ImportFormat,
} from '../../../electron/core/formats';
import { importItems, testLibrary, type TestLibrary } from '../library/helpers/lib';

const REAL_WORLD = join(import.meta.dirname, '../../fixtures/real-world');
const fixture = (name: string) => readFileSync(join(REAL_WORLD, name), 'utf8');

function parse(text: string, format: ImportFormat) {
  const r = importText(text, { format });
  expect(r.errors).toEqual([]);
  return r;
}
const items = (text: string, format: ImportFormat): CslItem[] => parse(text, format).items.map((i) => i.item);

describe('the DOI normaliser reads every form a tool writes', () => {
  it.each([
    ['http://dx.doi.org/10.1063/1.119013', '10.1063/1.119013'],
    ['https://doi.org/10.1063/1.119013', '10.1063/1.119013'],
    ['https://dx.doi.org/10.1016/j.envres.2019.108908', '10.1016/j.envres.2019.108908'],
    ['http://doi.acm.org/10.1145/1327452.1327492', '10.1145/1327452.1327492'],
    ['DOI: 10.1063/1.119013', '10.1063/1.119013'],
    ['doi:10.1063/1.119013', '10.1063/1.119013'],
    ['DOI 10.1007/s00134-020-05991-x', '10.1007/s00134-020-05991-x'],
    ['{{10.1016/j.cell.2020.01.001}}', '10.1016/j.cell.2020.01.001'],
    ['{10.1016/j.cell.2020.01.001}', '10.1016/j.cell.2020.01.001'],
    ['info:doi/10.1000/xyz123', '10.1000/xyz123'],
    ['urn:doi:10.1000/xyz123', '10.1000/xyz123'],
  ])('%s → %s', (input, doi) => {
    expect(parseDoi(input)).toEqual({ ok: true, doi });
    expect(writtenDoi(input)).toBe(doi);
  });

  it('keeps the case written and refuses what is not a DOI', () => {
    expect(writtenDoi('{{10.1109/JSYST.2013.2271540}}')).toBe('10.1109/JSYST.2013.2271540');
    // Braces that do not pair are not a wrapping: refused, not guessed.
    expect(parseDoi('{10.1016/j.cell.2020.01.001}}').ok).toBe(false);
    expect(parseDoi('DOI10.1016/x').ok).toBe(false);
    expect(parseDoi('doi 11.1016/x').ok).toBe(false);
  });

  it('takes a DOI out of a resolver link only, not out of a publisher page', () => {
    expect(doiFromUrl('https://doi.org/10.1038/nature21056')).toBe('10.1038/nature21056');
    expect(doiFromUrl('http://dx.doi.org/10.1063/1.119013')).toBe('10.1063/1.119013');
    expect(doiFromUrl('http://www.nature.com/doifinder/10.1038/171737a0')).toBeNull();
    expect(doiFromUrl('https://example.org/doi.org/10.1/x')).toBeNull();
  });
});

describe('BibTeX', () => {
  it('reads Web of Science export: {{10.…}} and {{DOI 10.…}}, and its {{SEP 1}} month', () => {
    const r = parse(fixture('web-of-science.bib'), 'bibtex');
    expect(r.warnings).toEqual([]);
    const list = r.items.map((i) => i.item);
    expect(list.map((i) => i.DOI)).toEqual(['10.1109/JSYST.2013.2271540', '10.1109/CVPR.2016.90', '10.1063/1.368415']);
    expect(list[2]!.issued).toEqual({ 'date-parts': [[1998, 9, 1]] });
  });

  it('reads DOIs written as links or with a prefix, and a DOI given only as the url', () => {
    const bib = String.raw`@article{a, title = {A}, doi = {http://dx.doi.org/10.1063/1.119013}}
@article{b, title = {B}, doi = {https://doi.org/10.1063/1.119014}}
@article{c, title = {C}, doi = {DOI: 10.1063/1.119015}}
@article{d, title = {D}, doi = {doi:10.1063/1.119016}}
@article{e, title = {E}, doi = {10.1002/(SICI)1097-4636(199706)35:4\textless{}479::AID-JBM8\textgreater{}3.0.CO;2-F}}
@inproceedings{f, title = {F}, url = {http://doi.acm.org/10.1145/1327452.1327492}}
@misc{g, title = {G}, howpublished = {\url{https://doi.org/10.5281/zenodo.1234567}}}
@article{h, title = {H}, url = {http://www.nature.com/doifinder/10.1038/171737a0}}`;
    const list = items(bib, 'bibtex');
    expect(list.map((i) => [i.id, i.DOI ?? null, i.URL ?? null])).toEqual([
      ['a', '10.1063/1.119013', null],
      ['b', '10.1063/1.119014', null],
      ['c', '10.1063/1.119015', null],
      ['d', '10.1063/1.119016', null],
      ['e', '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F', null],
      ['f', '10.1145/1327452.1327492', 'http://doi.acm.org/10.1145/1327452.1327492'],
      ['g', '10.5281/zenodo.1234567', 'https://doi.org/10.5281/zenodo.1234567'],
      // A publisher's page is not a resolver: no DOI is made up from it.
      ['h', null, 'http://www.nature.com/doifinder/10.1038/171737a0'],
    ]);
    // The DOI survives export and import in every format.
    expect(items(toBibtex(list), 'bibtex').map((i) => i.DOI ?? null)).toEqual(list.map((i) => i.DOI ?? null));
    expect(items(toRis(list), 'ris').map((i) => i.DOI ?? null)).toEqual(list.map((i) => i.DOI ?? null));
    expect(items(toCslJson(list), 'csljson').map((i) => i.DOI ?? null)).toEqual(list.map((i) => i.DOI ?? null));
  });
});

describe('RIS', () => {
  it('reads Embase/Ovid export: DO as http://dx.doi.org/… and https://dx.doi.org/…', () => {
    const list = items(fixture('embase-ovid.ris'), 'ris');
    expect(list.map((i) => i.DOI)).toEqual(['10.1089/neu.2019.6566', '10.1016/j.envres.2019.108908']);
  });

  it('reads DO with "DOI:" or braces, and a DOI given only as UR', () => {
    const ris = [
      ['TY  - JOUR', 'TI  - A', 'DO  - DOI: 10.1063/1.119014', 'ER  - '],
      ['TY  - JOUR', 'TI  - B', 'DO  - {10.1063/1.119015}', 'ER  - '],
      ['TY  - JOUR', 'TI  - C', 'UR  - https://doi.org/10.1063/1.119017', 'ER  - '],
    ]
      .map((r) => r.join('\n'))
      .join('\n\n');
    const r = parse(ris, 'ris');
    expect(r.warnings).toEqual([]);
    expect(r.items.map((i) => i.item.DOI)).toEqual(['10.1063/1.119014', '10.1063/1.119015', '10.1063/1.119017']);
  });
});

describe('CSL-JSON', () => {
  it('reads DOI links and prefixes, and a DOI given only as the URL', () => {
    const json = JSON.stringify([
      { id: 'a', type: 'article-journal', title: 'A', DOI: 'https://doi.org/10.1063/1.119013' },
      { id: 'b', type: 'article-journal', title: 'B', DOI: 'DOI: 10.1063/1.119014' },
      { id: 'c', type: 'article-journal', title: 'C', DOI: '{{10.1063/1.119015}}' },
      { id: 'd', type: 'article-journal', title: 'D', URL: 'http://dx.doi.org/10.1063/1.119016' },
    ]);
    const r = parse(json, 'csljson');
    expect(r.warnings).toEqual([]);
    expect(r.items.map((i) => i.item.DOI)).toEqual([
      '10.1063/1.119013',
      '10.1063/1.119014',
      '10.1063/1.119015',
      '10.1063/1.119016',
    ]);
  });
});

describe('DOI lists', () => {
  const list = [
    'http://dx.doi.org/10.1063/1.119013',
    'DOI: 10.1063/1.119014',
    'doi:10.1063/1.119015',
    '{{10.1016/j.cell.2020.01.001}}',
    'https://doi.org/10.1063/1.119016',
    'DOI 10.1007/s00134-020-05991-x',
  ].join('\n');

  it('reads every form, one a line, and detects a list that starts with {{10.…}} as one', () => {
    const r = parse(list, 'doi-list');
    expect(r.dois!.map((d) => d.doi)).toEqual([
      '10.1063/1.119013',
      '10.1063/1.119014',
      '10.1063/1.119015',
      '10.1016/j.cell.2020.01.001',
      '10.1063/1.119016',
      '10.1007/s00134-020-05991-x',
    ]);
    const braced = '{{10.1016/j.cell.2020.01.001}}\n{{10.1016/j.cell.2020.01.002}}\n';
    expect(detectFormat(braced)).toBe('doi-list');
    expect(importText(braced).dois!.map((d) => d.doi)).toEqual([
      '10.1016/j.cell.2020.01.001',
      '10.1016/j.cell.2020.01.002',
    ]);
    // JSON still reads as JSON.
    expect(detectFormat('{"items": []}')).toBe('csljson');
  });
});

describe('the item then gets enrichment and the duplicate check', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
  });
  afterEach(() => t.dispose());

  it('indexes the DOI read from a link, so the item is enriched and found as a duplicate', () => {
    const known = importItems(t.library, [
      {
        id: 'x',
        'citation-key': 'barata2014',
        type: 'article-journal',
        title: 'Known',
        DOI: '10.1109/jsyst.2013.2271540',
      },
    ]);
    expect(known.added).toBe(1);
    const wos = importItems(
      t.library,
      items(fixture('web-of-science.bib'), 'bibtex').map((i) => ({ ...i })),
    );
    const ovid = importItems(t.library, items(fixture('embase-ovid.ris'), 'ris'));
    expect(wos.added + ovid.added).toBe(5);
    const byDoi = t.library.idsByDoi(['10.1063/1.368415', '10.1089/neu.2019.6566', '10.1016/j.envres.2019.108908']);
    expect(Object.keys(byDoi).sort()).toEqual([
      '10.1016/j.envres.2019.108908',
      '10.1063/1.368415',
      '10.1089/neu.2019.6566',
    ]);
    // Every item with a DOI is queued for the service; none is counted as without one.
    const run = t.enrichment.enqueue({ kind: 'items', ids: [...wos.ids, ...ovid.ids] });
    expect(run.withoutDoi).toBe(0);
    expect(run.run).not.toBeNull();
    // The Web of Science copy of a paper already in the library is found as its duplicate.
    expect(t.library.findDuplicates()).toContainEqual({ ids: [known.ids[0], wos.ids[0]], reason: 'doi' });
  });
});
