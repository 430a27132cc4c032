import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../electron/core/manuscript/markdown';

const keys = (text: string) => parseMarkdown(text).citations.map((c) => [c.key, c.line]);

describe('parseMarkdown (Pandoc citations)', () => {
  it('reads a Quarto manuscript: brackets, in-text, suppressed author, locators, front matter nocite', () => {
    const qmd = [
      '---', // 1
      'title: "Sleep and memory"',
      'author:',
      '  - name: Ada Lovelace',
      '    email: ada@example.org', // 5: not a citation
      'nocite: |',
      '  @walker2017, @stickgold2005',
      'bibliography: refs.bib',
      '---',
      '', // 10
      'Sleep consolidates memory [@walker2017; see @diekelmann2010, p. 3].',
      'As @rasch2013 [p. 12] show, and as -@rasch2013 later argued.',
      'Contact us at lab@uni.edu or https://example.org/@handle; see <mail@x.org>.',
      'Braced keys also work [@{smith:2020.a}].',
      'See @fig-plot and @tbl-results, and @sec-methods for details.', // 15: Quarto cross-references
      '',
      '```r',
      'plot(x) # @notacitation',
      '```',
      'Inline `code @nope` is not a citation either; \\@escaped neither.', // 20
      '',
      '    @indentedcode is code',
      '',
      '<!-- @commented',
      'out @too -->', // 25
      'A sentence ending with a key @walker2017.',
    ].join('\n');
    expect(keys(qmd)).toEqual([
      ['walker2017', 7],
      ['stickgold2005', 7],
      ['walker2017', 11],
      ['diekelmann2010', 11],
      ['rasch2013', 12],
      ['rasch2013', 12],
      ['smith:2020.a', 14],
      ['walker2017', 26],
    ]);
    expect(parseMarkdown(qmd).citations[0]!.part).toBe('front matter');
  });

  it('keeps internal punctuation between word characters and drops it at the end', () => {
    expect(keys('[@doe:2019-x; @a.b/c] and @key_1: then @end.')).toEqual([
      ['doe:2019-x', 1],
      ['a.b/c', 1],
      ['key_1', 1],
      ['end', 1],
    ]);
  });

  it('sees nocite: @* as citing every entry', () => {
    expect(parseMarkdown('---\nnocite: "@*"\n---\ntext').citesAll).toBe(true);
    expect(parseMarkdown('---\ntitle: x\n---\n@*').citesAll).toBe(false);
  });

  it('reads ~~~ fences and CRLF line ends', () => {
    expect(keys('a @one\r\n~~~\r\n@two\r\n~~~\r\n@three')).toEqual([
      ['one', 1],
      ['three', 5],
    ]);
  });
});
