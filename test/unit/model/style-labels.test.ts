import { describe, expect, it } from 'vitest';
import { CITATION_STYLE_IDS, isBuiltInStyle, STYLE_LABELS } from '../../../shared/model/csl';
import { CITATION_LOCALES, LOCALE_LABELS } from '../../../shared/model/settings';

describe('built-in styles and locales, said once', () => {
  it('names every built-in style and locale, and nothing else', () => {
    expect(Object.keys(STYLE_LABELS)).toEqual([...CITATION_STYLE_IDS]);
    expect(Object.keys(LOCALE_LABELS)).toEqual([...CITATION_LOCALES]);
    for (const label of [...Object.values(STYLE_LABELS), ...Object.values(LOCALE_LABELS)])
      expect(label.trim()).not.toBe('');
  });

  it('tells a built-in id from a user style id', () => {
    for (const id of CITATION_STYLE_IDS) expect(isBuiltInStyle(id)).toBe(true);
    for (const id of ['APA', 'apa7', 'tiny-lab', '', 'toString', '__proto__']) expect(isBuiltInStyle(id)).toBe(false);
  });
});
