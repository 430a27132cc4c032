// Issue 32, "names in Assistant drafts and the Reference check": a name given as one string ("Francesca
// M. Van der Berg", as the service's assistant answers and reference checks give authorName) was split
// at its last space, giving "Berg, F. M. V. der" in an APA draft and `Berg, Francesca M. Van der` in
// the draft's .bib. One reader of such names now serves RIS, the service's authors and evidence
// records, and agrees with the BibTeX name grammar on where a family name starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cslFromReference, type AssistantAnswerReference } from '../../../shared/model/assistant';
import { parsePersonName, serviceAuthorName } from '../../../shared/model/person-name';
import { referenceCheckRows } from '../../../shared/model/reference-check';
import { personName } from '../../../shared/model/evidence-records';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../electron/core/formats/cite';
import { importText, toBibtex } from '../../../electron/core/formats';
import { parseRisName } from '../../../electron/core/formats/ris/import';
import { buildCslDir } from '../formats/cite/helpers';

describe('parsePersonName', () => {
  it.each([
    // The service's authorName, as the assistant gives it.
    ['Francesca M. Van der Berg', { family: 'Van der Berg', given: 'Francesca M.' }],
    ['Jan van der Berg', { family: 'van der Berg', given: 'Jan' }],
    ['Ludwig van Beethoven', { family: 'van Beethoven', given: 'Ludwig' }],
    ['Jean de la Fontaine', { family: 'de la Fontaine', given: 'Jean' }],
    ['Vincent Van Gogh', { family: 'Van Gogh', given: 'Vincent' }],
    ['Anna De Luca', { family: 'De Luca', given: 'Anna' }],
    ['Ursula Von der Leyen', { family: 'Von der Leyen', given: 'Ursula' }],
    ['Maria Da la Cruz', { family: 'Da la Cruz', given: 'Maria' }],
    // Capitalised, the short ones are given names or syllables as often as particles.
    ['Wei Da Chen', { family: 'Chen', given: 'Wei Da' }],
    ['Xiao Bin Li', { family: 'Li', given: 'Xiao Bin' }],
    ['Di Wu', { family: 'Wu', given: 'Di' }],
    ['Van Morrison', { family: 'Morrison', given: 'Van' }],
    ['Hannah  Park', { family: 'Park', given: 'Hannah' }],
    ['Martin Luther King Jr.', { family: 'King', given: 'Martin Luther', suffix: 'Jr.' }],
    // PubMed's "Family INITIALS".
    ['Watson JD', { family: 'Watson', given: 'JD' }],
    ['Hopfield J J', { family: 'Hopfield', given: 'J J' }],
    // RIS and registries: "Family, Given[, Suffix]".
    ['Van der Berg, Francesca M.', { family: 'Van der Berg', given: 'Francesca M.' }],
    ['King, Martin Luther, Jr.', { family: 'King', given: 'Martin Luther', suffix: 'Jr.' }],
    ['Plato', { literal: 'Plato' }],
    ['World Health Organization', { literal: 'World Health Organization' }],
    ['ATLAS Collaboration', { literal: 'ATLAS Collaboration' }],
  ])('%s', (text, name) => {
    expect(parsePersonName(text)).toEqual(name);
  });

  it('gives null for an empty name', () => {
    expect(parsePersonName('  ')).toBeNull();
  });

  it('is the reader of RIS authors and evidence records', () => {
    expect(parseRisName('Francesca M. Van der Berg')).toEqual({ family: 'Van der Berg', given: 'Francesca M.' });
    expect(personName('FRANCESCA M. VAN DER BERG')).toEqual({ family: 'Van Der Berg', given: 'Francesca M.' });
  });

  it('agrees with the BibTeX name grammar on where the family name starts', () => {
    const bib = importText(
      '@book{a, author = {Jan van der Berg and {Van der Berg}, Francesca M. and Jean de la Fontaine}, title = {T}}',
    ).items[0]!.item.author!;
    const plain = ['Jan van der Berg', 'Francesca M. Van der Berg', 'Jean de la Fontaine'].map(parsePersonName);
    // BibTeX keeps a lower-case particle apart (non-dropping-particle); the words are the same.
    const words = (n: object | null) =>
      Object.values(n ?? {})
        .join(' ')
        .split(' ')
        .sort();
    expect(plain.map(words)).toEqual(bib.map(words));
    expect(bib[1]).toEqual({ family: 'Van der Berg', given: 'Francesca M.' });
  });

  it("prefers the service's family and given names when it gives them", () => {
    expect(serviceAuthorName({ authorName: 'F. M. Van der Berg', family: 'Van der Berg', given: 'F. M.' })).toEqual({
      family: 'Van der Berg',
      given: 'F. M.',
    });
    expect(serviceAuthorName({ authorName: 'Francesca M. Van der Berg' })).toEqual({
      family: 'Van der Berg',
      given: 'Francesca M.',
    });
    expect(serviceAuthorName({ authorName: '' })).toBeNull();
  });
});

describe('an assistant reference by Van der Berg in an APA draft, its .bib and the reference check', () => {
  let cite: CiteFormatter;
  beforeAll(() => {
    cite = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
  });
  afterAll(async () => cite.close());

  // An assistant answer's reference, shaped as the service gives it (authors with authorName only).
  const reference = {
    doi: '10.1016/j.jhydrol.2015.01.001',
    paper: {
      doi: '10.1016/j.jhydrol.2015.01.001',
      title: 'Water in the Low Countries',
      journal: 'Journal of Hydrology',
      volume: '523',
      page: '1-12',
      year: 2015,
      authors: [
        { authorName: 'Francesca M. Van der Berg', authorSlug: 'francesca-m-van-der-berg-x1', authorSequenceNumber: 1 },
        { authorName: 'Pieter de Vries', authorSlug: 'pieter-de-vries-x2', authorSequenceNumber: 2 },
      ],
    },
  } as unknown as AssistantAnswerReference;

  it('names them as APA and BibTeX do', async () => {
    const item = cslFromReference(reference, 'vanderberg2015');
    const bib = await cite.formatBibliography([item], { style: 'apa' });
    expect(bib.entries[0]!.value).toMatch(/^Van der Berg, F\. M\., & de Vries, P\. \(2015\)/);
    const tex = toBibtex([{ ...item, 'citation-key': 'vanderberg2015' }]);
    expect(tex).toContain('author = {{Van der Berg}, Francesca M. and {de Vries}, Pieter}');
    // And BibTeX reads it back to the same names.
    expect(importText(tex).items[0]!.item.author).toEqual([
      { family: 'Van der Berg', given: 'Francesca M.' },
      { family: 'de Vries', given: 'Pieter' },
    ]);
  });

  it('the reference check formats the same names', async () => {
    const rows = referenceCheckRows({
      status: 'completed',
      result: { citations: [{ target: reference.doi, source: 'manuscript' }] },
      papers: { [reference.doi!]: reference.paper },
    } as never);
    expect(rows[0]!.csl!.author).toEqual([
      { family: 'Van der Berg', given: 'Francesca M.' },
      { family: 'de Vries', given: 'Pieter' },
    ]);
  });
});
