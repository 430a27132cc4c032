// Issue 42 point 8: maths in titles leaked as words ("mathbfRn"). Math is read as what it prints:
// symbols as Unicode, bold and italic alphabets as markup, \frac as a/b, accents as combining marks.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../electron/core/formats';

const title = (t: string) => {
  const r = importText(`@misc{k, title = {{${t}}}}`, { format: 'bibtex' });
  expect(r.errors).toEqual([]);
  return { title: r.items[0]!.item.title, warnings: r.warnings.map((w) => w.reason) };
};

describe('maths in titles', () => {
  it.each([
    ['Spaces of $\\mathbf{R}^n$', 'Spaces of <b>R</b><sup>n</sup>'],
    ['Critical $T_\\mathrm{c}$ of cuprates', 'Critical T<sub>c</sub> of cuprates'],
    ['Critical $T_{\\mathrm{c}}$ again', 'Critical T<sub>c</sub> again'],
    ['A $\\frac{1}{2}$ spin', 'A 1/2 spin'],
    ['$\\mathcal{O}(n^2)$ sorting', 'O(n<sup>2</sup>) sorting'],
    ['The mean $\\bar{x}$', 'The mean x̄'],
    ['Fields over $\\mathbb{R}$', 'Fields over ℝ'],
  ])('%s', (source, expected) => {
    const r = title(source);
    expect(r.title).toBe(`<span class="nocase">${expected}</span>`);
    expect(r.warnings).toEqual([]);
  });
});
