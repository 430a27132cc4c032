import { describe, expect, it } from 'vitest';
import { CITATION_STYLE_IDS, isBuiltInStyle, STYLE_LABELS } from '../../../shared/model/csl';
import {
  CITATION_LOCALES,
  CITATION_LOCALES_BY_NAME,
  isCitationLocale,
  localeLabel,
} from '../../../shared/model/settings';

describe('built-in styles and locales, said once', () => {
  it('names every built-in style and locale, and nothing else', () => {
    expect(Object.keys(STYLE_LABELS)).toEqual([...CITATION_STYLE_IDS]);
    for (const label of [...Object.values(STYLE_LABELS), ...CITATION_LOCALES.map(localeLabel)])
      expect(label.trim()).not.toBe('');
    expect([...CITATION_LOCALES_BY_NAME].sort()).toEqual([...CITATION_LOCALES].sort());
  });

  it('names each locale in English with its code, the code alone when it has no name', () => {
    expect(localeLabel('de-AT')).toBe('Austrian German — de-AT');
    expect(localeLabel('en-US')).toBe('American English — en-US');
    expect(localeLabel('la')).toBe('Latin — la');
    expect(localeLabel('qq')).toBe('qq');
    expect(localeLabel('not a tag')).toBe('not a tag');
    expect(localeLabel('')).toBe('');
    expect(isCitationLocale('pt-BR')).toBe(true);
    expect(isCitationLocale('pt-br')).toBe(false);
    expect(isCitationLocale('toString')).toBe(false);
  });

  it('tells a built-in id from a user style id', () => {
    for (const id of CITATION_STYLE_IDS) expect(isBuiltInStyle(id)).toBe(true);
    for (const id of ['APA', 'apa7', 'tiny-lab', '', 'toString', '__proto__']) expect(isBuiltInStyle(id)).toBe(false);
  });
});
