// Issue 42 point 10: BCE years were off by one. biblatex's date is ISO 8601/EDTF, which numbers years
// astronomically (0000 is 1 BCE, -0043 is 44 BCE); CSL has no year 0 (-44 is 44 BC). Checked against
// pandoc, which reads biblatex dates so.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText, toBibtex } from '../../../electron/core/formats';

const BIB = String.raw`@book{caesar, author = {Caesar, Gaius Iulius}, title = {Commentarii de bello Gallico}, date = {-0057}}
@letter{ides, title = {A letter}, date = {-0043-03-15}}
@book{ce1, title = {Year one}, date = {0001}}
@book{plain, title = {A year field}, year = {-44}}
@book{range, title = {A range}, date = {-0099/-0043}}`;

function items(text: string): CslItem[] {
  const r = importText(text, { format: 'bibtex' });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}

describe('BCE years', () => {
  it('read as CSL counts them, as pandoc reads them', () => {
    const list = items(BIB);
    expect(list.map((i) => i.issued)).toEqual([
      { 'date-parts': [[-58]] },
      { 'date-parts': [[-44, 3, 15]] },
      { 'date-parts': [[1]] },
      { 'date-parts': [[-44]] },
      { 'date-parts': [[-100], [-44]] },
    ]);
    const pandoc = JSON.parse(
      execFileSync('pandoc', ['-f', 'biblatex', '-t', 'csljson'], { input: BIB }).toString(),
    ) as CslItem[];
    expect(list.map((i) => i.issued)).toEqual(pandoc.map((i) => i.issued));
  });

  it('write back as the dates they were, and read back the same', () => {
    const list = items(BIB);
    const out = toBibtex(list, { biblatex: true });
    expect(out).toContain('date = {-0057}');
    expect(out).toContain('date = {-0043-03-15}');
    expect(out).toContain('date = {0001}');
    expect(out).toContain('date = {-0099/-0043}');
    expect(items(out).map((i) => i.issued)).toEqual(list.map((i) => i.issued));
  });
});
