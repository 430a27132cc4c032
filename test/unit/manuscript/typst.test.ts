import { describe, expect, it } from 'vitest';
import { parseTypst } from '../../../electron/core/manuscript/typst';

const keys = (text: string) => parseTypst(text).citations.map((c) => [c.key, c.line]);

describe('parseTypst', () => {
  it('reads @key, #cite(<key>) and #cite(label("…")), leaving out labels of the document', () => {
    const typ = [
      '#set document(title: "Sleep")', // 1
      '= Introduction <intro>',
      'Sleep matters @walker2017[p. 7], see also #cite(<rasch2013>).',
      'As said in @intro, and #cite(label("doe:2020")).',
      '// @commented',
      '/* @block', // 6
      '   comment */ Mail ada@example.org, or https://x.org/@user.',
      '```',
      '@inraw',
      '```',
      '#figure(image("a.png"), caption: [A]) <fig-a>', // 11
      'See @fig-a and @smith.2020: done @last.',
      '#let who = "a@b.c"',
    ].join('\n');
    expect(keys(typ)).toEqual([
      ['walker2017', 3],
      ['rasch2013', 3],
      ['doe:2020', 4],
      ['smith.2020', 12],
      ['last', 12],
    ]);
  });
});
