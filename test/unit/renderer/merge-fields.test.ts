import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { defaultChoice, differingFields, mergedCsl } from '../../../renderer/src/panes/library/merge-fields';

const a: CslItem = {
  id: 'a',
  type: 'article-journal',
  title: 'Ocean carbon uptake',
  author: [{ family: 'Smith', given: 'Alex' }],
  issued: { 'date-parts': [[2019, 3]] },
  'container-title': 'Journal of Tests',
  volume: '12',
  abstract:
    '<jats:sec><jats:title>Aims</jats:title><jats:p>Carbon <jats:italic>sinks</jats:italic>.</jats:p></jats:sec>',
};
const b: CslItem = {
  id: 'b',
  type: 'article-journal',
  title: 'Ocean carbon uptake',
  author: [
    { family: 'Smith', given: 'A.' },
    { family: 'Doe', given: 'Jamie' },
  ],
  issued: { 'date-parts': [[2019]] },
  'container-title': 'Journal of Tests',
  page: '100-110',
  editor: [{ family: 'Ed', given: 'Ida' }],
};

describe('merge field chooser', () => {
  it('lists only the fields that differ, with how each side reads', () => {
    const fields = differingFields([a, b]);
    expect(fields.map((f) => f.key)).toEqual(['creators', 'abstract', 'issued', 'volume', 'page']);
    expect(fields[0]!.values).toEqual(['Smith, Alex', 'Smith, A.; Doe, Jamie; Ed, Ida (editor)']);
    expect(fields[1]!.values).toEqual(['Aims Carbon sinks.', '']);
    expect(fields.find((f) => f.key === 'issued')!.values).toEqual(['2019-03', '2019']);
  });

  it("starts each field with the kept item's value, or the first item that has one", () => {
    const fields = differingFields([a, b]);
    const page = fields.find((f) => f.key === 'page')!;
    expect(defaultChoice(page, 0)).toBe(1);
    expect(
      defaultChoice(
        fields.find((f) => f.key === 'volume')!,
        0,
      ),
    ).toBe(0);
    expect(
      defaultChoice(
        fields.find((f) => f.key === 'volume')!,
        1,
      ),
    ).toBe(0);
  });

  it("builds the kept item's metadata from the choice, names of every role from one side, stored values kept", () => {
    const fields = differingFields([a, b]);
    const csl = mergedCsl([a, b], 0, fields, { creators: 1, issued: 0, volume: 1 });
    expect(csl.author).toEqual(b.author);
    expect(csl.editor).toEqual(b.editor);
    expect(csl.issued).toEqual({ 'date-parts': [[2019, 3]] });
    // The volume chosen from an item that has none: the merged item has none.
    expect(csl.volume).toBeUndefined();
    expect(csl.page).toBe('100-110');
    expect(csl.abstract).toBe(a.abstract);
    expect(csl.id).toBe('a');
  });
});
