import { describe, expect, it } from 'vitest';
import { CSL_ITEM_TYPES, CSL_NAME_FIELDS } from '../../../shared/model/csl';
import { buildNewItem, fieldKey, fieldProblem, MAX_FIELD_CHARS, parseDate } from '../../../shared/model/item-form';
import {
  FIELD_VARIABLES,
  ITEM_TYPES,
  itemTypeLabel,
  itemTypeNamed,
  typeChoices,
  typeCreators,
  typeFields,
} from '../../../shared/model/item-types';

describe('item types', () => {
  it('gives every CSL type a name, fields it has and creator roles that are CSL names', () => {
    for (const type of CSL_ITEM_TYPES) {
      const spec = ITEM_TYPES[type];
      expect(spec.label.length).toBeGreaterThan(2);
      expect(spec.fields[0]!.key).toBe('title');
      const keys = spec.fields.map((f) => f.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const k of keys) expect(FIELD_VARIABLES).toContain(k);
      expect(spec.creators.length).toBeGreaterThan(0);
      for (const c of spec.creators) expect(CSL_NAME_FIELDS).toContain(c.role);
    }
    const { common, more } = typeChoices();
    expect(common.length + more.length).toBe(CSL_ITEM_TYPES.length);
    expect(common[0]!.type).toBe('article-journal');
  });

  it("reads a type by its CSL name, Zotero's name or its label, and nothing else", () => {
    expect(itemTypeNamed('article-journal')).toBe('article-journal');
    expect(itemTypeNamed('journalArticle')).toBe('article-journal');
    expect(itemTypeNamed('bookSection')).toBe('chapter');
    expect(itemTypeNamed('computerprogram')).toBe('software');
    expect(itemTypeNamed('Preprint')).toBe('article');
    expect(itemTypeNamed('videoRecording')).toBe('motion_picture');
    expect(itemTypeNamed(' Web page ')).toBe('webpage');
    expect(itemTypeNamed('Journal article')).toBe('article-journal');
    for (const type of CSL_ITEM_TYPES) {
      expect(itemTypeNamed(type)).toBe(type);
      expect(itemTypeNamed(ITEM_TYPES[type].label)).toBe(type);
    }
    for (const name of ['novel', '', 'constructor', '__proto__', 'toString', 'journal'])
      expect(itemTypeNamed(name)).toBeNull();
  });

  it('names fields as the type does: a thesis has a university, a dataset a repository', () => {
    const label = (type: string, key: string) => typeFields(type).find((f) => f.key === key)?.label;
    expect(label('thesis', 'publisher')).toBe('University');
    expect(label('dataset', 'publisher')).toBe('Repository');
    expect(label('webpage', 'container-title')).toBe('Website');
    expect(label('manuscript', 'archive_location')).toBe('Location in archive');
    expect(typeFields('book').map((f) => f.key)).toContain('ISBN');
    expect(typeFields('book').map((f) => f.key)).not.toContain('DOI'.toLowerCase());
    expect(typeCreators('software')[0]).toEqual({ role: 'author', label: 'Programmer' });
    expect(itemTypeLabel('article')).toBe('Preprint');
    expect(itemTypeLabel('made-up-type')).toBe('made up type');
  });
});

describe('a new item from typed fields', () => {
  it('builds a book without a DOI, with its ISBN checked, date parsed and creators kept', () => {
    const r = buildNewItem(
      'book',
      {
        title: ' The Structure of Scientific Revolutions ',
        issued: '1962',
        ISBN: '0-226-45808-3',
        publisher: 'University of Chicago Press',
      },
      [
        { role: 'author', family: 'Kuhn', given: 'Thomas S.' },
        { role: 'editor', literal: '' },
      ],
    );
    expect(r).toEqual({
      ok: true,
      item: {
        id: 'new',
        type: 'book',
        title: 'The Structure of Scientific Revolutions',
        issued: { 'date-parts': [[1962]] },
        ISBN: '0-226-45808-3',
        publisher: 'University of Chicago Press',
        author: [{ family: 'Kuhn', given: 'Thomas S.' }],
      },
    });
  });

  it('refuses what cannot be stored, naming the field: a bad ISBN, a field the type lacks, an unknown role', () => {
    const r = buildNewItem('webpage', { title: 'A page', ISBN: '0-226-45808-4', URL: 'javascript:alert(1)' }, [
      { role: 'director', family: 'X' },
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      { field: 'ISBN', message: 'A web page has no field "ISBN".' },
      { field: 'URL', message: 'URL: A URL starts with http://, https:// or ftp://.' },
      { field: 'creators', message: expect.stringContaining('A web page has no "director"') },
    ]);
    expect(buildNewItem('thesis', { title: 'T', thesisType: 'PhD' })).toMatchObject({
      ok: false,
      problems: [{ field: 'thesisType', message: '"thesisType" is not a field Citewise knows.' }],
    });
    expect(buildNewItem('nonsense', {})).toMatchObject({ ok: false, problems: [{ field: 'type' }] });
  });

  it('needs a title or a creator, either one being enough', () => {
    expect(buildNewItem('personal_communication', {})).toMatchObject({ ok: false, problems: [{ field: 'title' }] });
    expect(buildNewItem('personal_communication', {}, [{ role: 'author', family: 'Darwin' }]).ok).toBe(true);
    expect(buildNewItem('personal_communication', { title: 'Letter' }).ok).toBe(true);
  });

  it('checks identifiers as everywhere else, several ISBNs or ISSNs included', () => {
    expect(fieldProblem('DOI', 'https://doi.org/10.1000/xyz')).toBeNull();
    expect(fieldProblem('DOI', '10.12/x')).toContain('four digits');
    expect(fieldProblem('ISBN', '0-306-40615-2, 978 0 306 40615 7')).toBeNull();
    expect(fieldProblem('ISBN', '0-306-40615-2; 0-306-40615-3')).toContain('0-306-40615-3: The ISBN-10 check digit');
    expect(fieldProblem('ISSN', '1935-8237 1935-8245')).toBeNull();
    expect(fieldProblem('ISSN', '1935-8238')).toContain('check digit');
    expect(fieldProblem('PMID', '123456789')).toBeNull();
    expect(fieldProblem('PMID', '1234567890')).toContain('one to nine');
    expect(fieldProblem('PMCID', 'pmc123')).toBeNull();
    expect(fieldProblem('citation-key', 'a b')).toContain('spaces');
    expect(fieldProblem('title', 'x'.repeat(MAX_FIELD_CHARS))).toBeNull();
    expect(fieldProblem('title', 'x'.repeat(MAX_FIELD_CHARS + 1))).toContain('longer than');
    expect(buildNewItem('article-journal', { title: 'T', DOI: 'doi:10.1038/NATURE1' })).toMatchObject({
      ok: true,
      item: { DOI: '10.1038/NATURE1' },
    });
  });

  it('reads command-line field names: CSL, Zotero and BibTeX spellings', () => {
    expect(
      ['title', 'date', 'URL', 'url', 'journal', 'university', 'extra', 'archiveLocation', 'key'].map(fieldKey),
    ).toEqual([
      'title',
      'issued',
      'URL',
      'URL',
      'container-title',
      'publisher',
      'note',
      'archive_location',
      'citation-key',
    ]);
    expect(fieldKey('container-title')).toBe('container-title');
    expect(fieldKey('nonsense')).toBe('nonsense');
    expect(parseDate('2020-13')).toEqual({ literal: '2020-13' });
    expect(parseDate('2020-12')).toEqual({ 'date-parts': [[2020, 12]] });
  });
});
