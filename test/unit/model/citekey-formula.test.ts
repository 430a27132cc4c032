import { describe, expect, it } from 'vitest';
import { citationKeyBase } from '../../../shared/model/citekey';
import {
  compileKeyFormula,
  DEFAULT_KEY_FORMULA,
  isDefaultFormula,
  KEY_FILTERS,
  KEY_FUNCTIONS,
  keyFormulaOf,
  legacyToFormula,
  MAX_FORMULA_LENGTH,
  MAX_GENERATED_KEY_LENGTH,
} from '../../../shared/model/citekey-formula';
import type { CslItem } from '../../../shared/model/csl';

const item = (over: Partial<CslItem>): CslItem => ({ id: 'x', type: 'article-journal', ...over });
const smith = item({
  author: [
    { family: 'Smith', given: 'Jane' },
    { family: 'Jones', given: 'Bo' },
    { family: 'Berg', given: 'Anna', 'non-dropping-particle': 'van der' },
  ],
  title: 'The Quick Brown Fox Jumps over the Lazy Dog',
  issued: { 'date-parts': [[2020, 5, 17]] },
  'container-title': 'Journal of Foxes',
  'container-title-short': 'J. Foxes',
  page: '117-129',
});

function key(formula: string, it: CslItem = smith): string {
  const parsed = compileKeyFormula(formula);
  if (!parsed.ok) throw new Error(`${parsed.error.message} at ${parsed.error.at}`);
  return parsed.formula.keyOf(it);
}

function error(formula: string): { message: string; at: number } {
  const parsed = compileKeyFormula(formula);
  if (parsed.ok) throw new Error(`${formula} compiled`);
  return parsed.error;
}

describe('citation key formulas', () => {
  it('gives the keys the library always gave with the default formula', () => {
    const items = [
      smith,
      item({
        author: [{ family: 'Müller-Lüdenscheidt' }],
        title: 'Über die Ästhetik',
        issued: { 'date-parts': [[1999]] },
      }),
      item({ author: [{ literal: 'World Health Organization' }], title: 'Report', issued: { raw: 'circa 1850' } }),
      item({ editor: [{ family: 'Doe' }], title: 'Handbook' }),
      item({}),
    ];
    for (const it of items) expect(key(DEFAULT_KEY_FORMULA, it)).toBe(citationKeyBase(it));
    expect(key(DEFAULT_KEY_FORMULA)).toBe('smithQuickBrownFox2020');
    expect(isDefaultFormula(' auth.lower+shorttitle(3, 3)+year ')).toBe(true);
    expect(isDefaultFormula('auth + year')).toBe(false);
  });

  it('evaluates the documented functions the way the engine beside the default does', () => {
    // A formula that differs from the default by one space is still the engine's, so the two agree.
    expect(key('auth.lower + shorttitle(3,3) + year + ""')).toBe('smithQuickBrownFox2020');
    expect(key('auth + year')).toBe('Smith2020');
    expect(key('auth(3) + shortyear')).toBe('Smi20');
    expect(key('auth(0,2)')).toBe('Jones');
    expect(key('authors')).toBe('SmithJonesBerg');
    expect(key('authors(2)')).toBe('SmithJonesEtAl');
    expect(key('authEtAl')).toBe('SmithEtAl');
    expect(key('authEtal2')).toBe('Smith.etal');
    expect(key('authAuthEa')).toBe('Smith.Jones.ea');
    expect(key('authshort')).toBe('S.J.B');
    expect(key('authorsAlpha + shortyear')).toBe('SJB20');
    expect(key('authIni(2)')).toBe('Sm.Jo.Be');
    expect(key('authorIni')).toBe('Smith.J.B');
    expect(key('authorLast')).toBe('Berg');
    expect(key('authForeIni + auth')).toBe('JSmith');
    expect(key('title')).toBe('QuickBrownFoxJumpsLazyDog');
    expect(key('shorttitle')).toBe('QuickBrownFox');
    expect(key('veryshorttitle.lower')).toBe('quick');
    expect(key('year + month')).toBe('2020may');
    expect(key('journal.condense')).toBe('J.Foxes');
    expect(key('firstpage + "-" + lastpage')).toBe('117-129');
    expect(key('zotero')).toBe('smith_quick_2020');
    expect(
      key("auth(0,1,'editor') + year", item({ editor: [{ family: 'Doe' }], issued: { 'date-parts': [[2001]] } })),
    ).toBe('Doe2001');
  });

  it('applies filters left to right', () => {
    expect(key('title.select(2,2)')).toBe('BrownFox');
    expect(key('title.abbr')).toBe('QBFJLD');
    expect(key('title.substring(1,5).upper')).toBe('QUICK');
    expect(key("auth.prefix('x') + year.postfix('_')")).toBe('xSmith2020_');
    expect(key("auth.replace('SMI', 'Schmi')")).toBe('Schmith');
    expect(key("journal.replace('.', '').condense('_')")).toBe('J_Foxes');
    expect(key("auth(0,9).default('nobody')")).toBe('nobody');
    expect(key("shorttitle(2).lower.capitalize.condense('-')")).toBe('Quick-Brown');
    expect(key('shorttitle(4).skipwords')).toBe('QuickBrownFoxJumps');
  });

  it('moves to the next alternative when one gives nothing, or len says so (both sides of the length)', () => {
    const anonymous = item({ title: 'Untitled Work', issued: { 'date-parts': [[1990]] } });
    // An alternative is passed over only when all of it is empty, as in Better BibTeX.
    expect(key('auth + year | shorttitle(1) + year', anonymous)).toBe('1990');
    expect(key('auth | shorttitle(1) + year', anonymous)).toBe('Untitled1990');
    expect(key('auth ; shorttitle(1) + year', anonymous)).toBe('Untitled1990');
    expect(key("auth.len('>', 4) + year | 'short' + year")).toBe('Smith2020');
    expect(key("auth.len('>', 5) + year | 'short' + year")).toBe('short2020');
    expect(key("auth.len('>=', 5) + year | 'short' + year")).toBe('Smith2020');
    expect(key("auth.len('<', 5) | 'long'")).toBe('long');
    expect(key("auth.len('==', 5) | 'x'")).toBe('Smith');
    expect(key('auth', item({}))).toBe('anon');
    // Separators alone name nothing: the next alternative, else anon.
    expect(key("auth + '_' + year", item({}))).toBe('anon');
    expect(key("auth + '_' + year | shorttitle(1)", item({ title: 'Solo' }))).toBe('Solo');
    expect(key("auth + '_' + year", item({ issued: { 'date-parts': [[1999]] } }))).toBe('_1999');
  });

  it('keeps only what a key can hold, folded to ASCII, and cuts long keys', () => {
    expect(key("'Ça va {ok}, #1 = ~yes'")).toBe('Cavaok1yes');
    expect(key("auth + ':' + year")).toBe('Smith:2020');
    const long = key('title + title + title + title + title', item({ title: 'Word '.repeat(60) }));
    expect(long.length).toBe(MAX_GENERATED_KEY_LENGTH);
  });

  it('reads the legacy bracket form', () => {
    expect(legacyToFormula('[auth:lower][shorttitle3_3][year]')).toBe(
      'auth:lower'.replace(':', '.') + ' + shorttitle(3,3) + year',
    );
    expect(key('[auth:lower][shorttitle3_3][year]')).toBe('smithQuickBrownFox2020');
    expect(key('[auth:lower]_[year]')).toBe('smith_2020');
    expect(key('[title:select,1,2:lower]')).toBe('quickbrown');
    expect(legacyToFormula('auth + year')).toBeNull();
  });

  it('explains what is wrong, and where', () => {
    expect(error('autor + year')).toEqual({ message: 'There is no function "autor"; did you mean auth?', at: 0 });
    expect(error('auth.lowr')).toEqual({ message: 'There is no filter "lowr"; did you mean lower?', at: 5 });
    expect(error('auth +')).toMatchObject({ at: 6, message: expect.stringContaining('Expected a function') });
    expect(error("auth + 'x")).toMatchObject({ at: 7, message: expect.stringContaining('no closing') });
    expect(error('auth(1,2,3,4)')).toMatchObject({ message: expect.stringContaining('at most 3') });
    expect(error("auth('x')")).toMatchObject({ message: 'n of auth must be a whole number.' });
    expect(error("auth(0,1,'boss')")).toMatchObject({ message: expect.stringContaining("'editor'") });
    expect(error("auth.len('~', 3)")).toMatchObject({ message: expect.stringContaining('relation of len') });
    expect(error('auth # year')).toMatchObject({ at: 5 });
    expect(error('auth year')).toMatchObject({ at: 5 });
    expect(error('')).toMatchObject({ message: 'The formula is empty.' });
    expect(compileKeyFormula(`'${'x'.repeat(MAX_FORMULA_LENGTH - 2)}'`).ok).toBe(true);
    expect(error(`'${'x'.repeat(MAX_FORMULA_LENGTH - 1)}'`)).toMatchObject({ at: MAX_FORMULA_LENGTH });
  });

  it('falls back to the default for a stored formula that no longer compiles', () => {
    expect(keyFormulaOf('autor').keyOf(smith)).toBe('smithQuickBrownFox2020');
    expect(keyFormulaOf(null).text).toBe(DEFAULT_KEY_FORMULA);
    expect(keyFormulaOf('auth + year').keyOf(smith)).toBe('Smith2020');
  });

  it('documents every function and filter', () => {
    for (const spec of [...Object.values(KEY_FUNCTIONS), ...Object.values(KEY_FILTERS)])
      expect(spec.help.length).toBeGreaterThan(5);
  });
});
