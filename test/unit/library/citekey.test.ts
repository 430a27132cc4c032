import { describe, expect, it } from 'vitest';
import {
  citationKeyBase,
  citationKeyProblem,
  foldText,
  keySuffix,
  transliterate,
  uniqueCitationKey,
} from '../../../shared/model/citekey';
import type { CslItem } from '../../../shared/model/csl';

const item = (over: Partial<CslItem>): CslItem => ({ id: 'x', type: 'article-journal', ...over });

describe('citation key formula', () => {
  it('takes the lowercased first author, three significant title words and the year', () => {
    expect(
      citationKeyBase(
        item({
          author: [{ family: 'Smith', given: 'J' }],
          title: 'The Quick Brown Fox Jumps',
          issued: { 'date-parts': [[2020]] },
        }),
      ),
    ).toBe('smithQuickBrownFox2020');
  });

  it('folds diacritics and drops particles spaces and punctuation', () => {
    expect(
      citationKeyBase(
        item({
          author: [{ family: 'Müller-Lüdenscheidt' }],
          title: 'Über die Ästhetik',
          issued: { 'date-parts': [[1999]] },
        }),
      ),
    ).toBe('mullerludenscheidtUberAsthetik1999');
    expect(
      citationKeyBase(
        item({ author: [{ family: 'Łukasz' }], title: 'Ørsted: a <i>study</i>', issued: { raw: 'circa 1850' } }),
      ),
    ).toBe('lukaszOrstedStudy1850');
  });

  it('falls back to the editor, a literal name, and never gives an empty key', () => {
    expect(citationKeyBase(item({ editor: [{ family: 'Doe' }], title: 'Handbook' }))).toBe('doeHandbook');
    expect(
      citationKeyBase(
        item({
          author: [{ literal: 'World Health Organization' }],
          title: 'Report',
          issued: { 'date-parts': [[2021]] },
        }),
      ),
    ).toBe('worldReport2021');
    expect(citationKeyBase(item({}))).toBe('anon');
  });

  it('makes keys unique with a, b, … z, aa suffixes, case-insensitively', () => {
    expect([1, 2, 26, 27, 28, 52, 53].map(keySuffix)).toEqual(['a', 'b', 'z', 'aa', 'ab', 'az', 'ba']);
    const taken = new Set(['smith2020', 'smith2020a']);
    expect(uniqueCitationKey('Smith2020', (k) => taken.has(k.toLowerCase()))).toBe('Smith2020b');
    expect(uniqueCitationKey('jones2020', (k) => taken.has(k.toLowerCase()))).toBe('jones2020');
  });

  it('rejects keys BibTeX would misread, with the reason', () => {
    expect(citationKeyProblem('ok:key_1-2')).toBeNull();
    expect(citationKeyProblem('')).toMatch(/empty/);
    expect(citationKeyProblem('a b')).toMatch(/spaces/);
    expect(citationKeyProblem('a{b')).toMatch(/"\{"/);
  });

  it('folds text for sorting', () => {
    expect(transliterate('Straße Œuvre')).toBe('Strasse Oeuvre');
    expect(foldText('  Émile   ZOLA ')).toBe('emile zola');
  });
});
