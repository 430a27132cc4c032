// The e2e tests' reading of displayed text (test/e2e/text.ts): Prettier's re-wrapping of the Svelte
// markup must not change it, and what the browser shows differently must still differ.
import { describe, expect, it } from 'vitest';
import { foldWhitespace } from '../../e2e/text';

describe('foldWhitespace', () => {
  it('reads re-wrapped text as the one-line text it shows', () => {
    expect(foldWhitespace('1–6 of 6\n      patent families')).toBe('1–6 of 6 patent families');
    expect(foldWhitespace('\n  Library\t(3)\r\n')).toBe('Library (3)');
  });

  it('keeps a no-break space, which the browser does not fold either', () => {
    expect(foldWhitespace('10\u00a0mg')).toBe('10\u00a0mg');
    expect(foldWhitespace('\u00a0x ')).toBe('\u00a0x');
  });

  it('keeps the absence of a space', () => {
    expect(foldWhitespace('Smith,')).not.toBe(foldWhitespace('Smith ,'));
  });
});
