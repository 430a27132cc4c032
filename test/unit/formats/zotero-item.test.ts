// Zotero item JSON ↔ CSL: the one mapping of the Connector, the data-folder import and the local API.
import { describe, expect, it } from 'vitest';
import {
  cslToZotero,
  extraCitationKey,
  zoteroDate,
  zoteroToCsl,
  type ZoteroItemJson,
} from '../../../electron/core/formats/zotero/item';

/** What a translator (Embedded Metadata on a journal page) hands the Connector. */
const article: ZoteroItemJson = {
  itemType: 'journalArticle',
  title: 'Cooperative behaviour in groups of bacteria',
  creators: [
    { firstName: 'Ada', lastName: 'Lovelace', creatorType: 'author' },
    { firstName: 'Alan', lastName: 'Turing', creatorType: 'author' },
    { name: 'The Consortium', creatorType: 'author' },
    { firstName: 'Grace', lastName: 'Hopper', creatorType: 'editor' },
  ],
  date: 'March 4, 2021',
  publicationTitle: 'Journal of Microbial Things',
  journalAbbreviation: 'J. Microb. Things',
  volume: '12',
  issue: '3',
  pages: '101-119',
  DOI: '10.1234/jmt.2021.5',
  ISSN: '1234-5678',
  url: 'https://example.org/article/5',
  accessDate: '2024-05-06T07:08:09Z',
  libraryCatalog: 'example.org',
  callNumber: 'QR 100',
  language: 'en',
  abstractNote: 'We show that bacteria cooperate.',
  extra: 'PMID: 123456',
  tags: [{ tag: 'bacteria' }, { tag: 'cooperation', type: 1 }, 'groups'],
};

describe('zoteroToCsl', () => {
  it('maps the fields Zotero maps to CSL and keeps the rest', () => {
    const { csl, tags } = zoteroToCsl(article, 'x');
    expect(csl).toMatchObject({
      id: 'x',
      type: 'article-journal',
      title: 'Cooperative behaviour in groups of bacteria',
      'container-title': 'Journal of Microbial Things',
      'container-title-short': 'J. Microb. Things',
      volume: '12',
      issue: '3',
      page: '101-119',
      DOI: '10.1234/jmt.2021.5',
      URL: 'https://example.org/article/5',
      source: 'example.org',
      'call-number': 'QR 100',
      issued: { 'date-parts': [[2021, 3, 4]] },
      accessed: { 'date-parts': [[2024, 5, 6]] },
      author: [
        { family: 'Lovelace', given: 'Ada' },
        { family: 'Turing', given: 'Alan' },
        { literal: 'The Consortium' },
      ],
      editor: [{ family: 'Hopper', given: 'Grace' }],
      note: 'PMID: 123456',
    });
    expect(tags).toEqual(['bacteria', 'cooperation', 'groups']);
    // The date as written and the access time, which CSL's date parts cannot give back.
    expect(csl.custom).toEqual({
      zotero: { itemType: 'journalArticle', dates: { date: 'March 4, 2021', accessDate: '2024-05-06T07:08:09Z' } },
    });
  });

  it('gives the item back as Zotero gave it', () => {
    const { csl } = zoteroToCsl(article, 'x');
    const back = cslToZotero(csl);
    const { itemType, creators, tags: _tags, ...fields } = article;
    expect(back.itemType).toBe(itemType);
    expect(back.creators).toEqual(creators);
    expect(back.fields).toEqual(fields);
  });

  it('keeps item types CSL folds together, type-specific fields and roles CSL lacks', () => {
    const podcast: ZoteroItemJson = {
      itemType: 'podcast',
      title: 'Episode 4',
      seriesTitle: 'Science Talk',
      episodeNumber: '4',
      audioFileType: 'MP3',
      creators: [
        { firstName: 'Pat', lastName: 'Host', creatorType: 'podcaster' },
        { firstName: 'Gus', lastName: 'Guest', creatorType: 'guest' },
        { firstName: 'Col', lastName: 'Lab', creatorType: 'contributor' },
      ],
    };
    const { csl } = zoteroToCsl(podcast, 'p');
    expect(csl.type).toBe('broadcast');
    expect(csl.author).toEqual([{ family: 'Host', given: 'Pat' }]);
    const back = cslToZotero(csl);
    expect(back.itemType).toBe('podcast');
    expect(back.fields).toEqual({
      title: 'Episode 4',
      seriesTitle: 'Science Talk',
      episodeNumber: '4',
      audioFileType: 'MP3',
    });
    expect(back.creators).toEqual(podcast.creators);

    // A role no CSL variable takes (an audio recording's "wordsBy") stays, in its place among the others.
    const song: ZoteroItemJson = {
      itemType: 'audioRecording',
      title: 'Song',
      creators: [
        { firstName: 'A', lastName: 'Performer', creatorType: 'performer' },
        { firstName: 'B', lastName: 'Writer', creatorType: 'wordsBy' },
        { firstName: 'C', lastName: 'Composer', creatorType: 'composer' },
      ],
    };
    const s = zoteroToCsl(song, 's').csl;
    expect(s.author).toEqual([{ family: 'Performer', given: 'A' }]);
    expect(s.composer).toEqual([{ family: 'Composer', given: 'C' }]);
    expect(cslToZotero(s).creators).toEqual(song.creators);

    // A book section's bookTitle is its publicationTitle (CSL container-title).
    const section = zoteroToCsl({ itemType: 'bookSection', title: 'Ch', bookTitle: 'The Book' }, 'b').csl;
    expect(section['container-title']).toBe('The Book');
    expect(cslToZotero(section).fields).toEqual({ title: 'Ch', bookTitle: 'The Book' });
  });

  it('reads the citation key from Zotero 7’s field or Better BibTeX’s Extra line', () => {
    expect(zoteroToCsl({ itemType: 'book', title: 'T', citationKey: 'lovelace1843' }, 'i').csl['citation-key']).toBe(
      'lovelace1843',
    );
    const extra = zoteroToCsl({ itemType: 'book', title: 'T', extra: 'tex.x: y\nCitation Key: turing1950\n' }, 'i').csl;
    expect(extra['citation-key']).toBe('turing1950');
    expect(extraCitationKey('Citation Key:  a:b-1 ')).toBe('a:b-1');
    expect(extraCitationKey('Citation Keys: a')).toBeNull();
  });

  it('follows an edit made in Citewise rather than the stash', () => {
    const { csl } = zoteroToCsl(article, 'x');
    const edited = { ...csl, issued: { 'date-parts': [[2022]] }, author: [{ family: 'Solo', given: 'Han' }] };
    const back = cslToZotero(edited as typeof csl);
    expect(back.fields.date).toBe('2022');
    expect(back.creators).toEqual([
      { creatorType: 'author', firstName: 'Han', lastName: 'Solo' },
      { creatorType: 'editor', firstName: 'Grace', lastName: 'Hopper' },
    ]);
  });

  it('reads the dates Zotero writes and keeps what it cannot read', () => {
    expect(zoteroDate('2021-03-04 March 4, 2021')).toEqual({ 'date-parts': [[2021, 3, 4]] });
    expect(zoteroDate('2021-00-00 2021')).toEqual({ 'date-parts': [[2021]] });
    expect(zoteroDate('2021-03')).toEqual({ 'date-parts': [[2021, 3]] });
    expect(zoteroDate('Spring semester, sometime')).toEqual({ literal: 'Spring semester, sometime' });
  });
});

describe('cslToZotero', () => {
  it('puts CSL variables the type has no field for into Extra', () => {
    const back = cslToZotero({
      id: 'k',
      type: 'article-journal',
      title: 'T',
      'citation-key': 'k2020',
      PMID: '42',
      'event-title': 'Meeting',
      'original-date': { 'date-parts': [[1900]] },
      note: 'kept note',
      keyword: 'a, b',
    });
    expect(back.itemType).toBe('journalArticle');
    expect(back.fields).toEqual({
      title: 'T',
      citationKey: 'k2020',
      PMID: '42',
      extra: 'kept note\nevent-title: Meeting\noriginal-date: 1900',
    });
  });
});
