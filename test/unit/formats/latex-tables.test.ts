import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LATEX_TABLES } from '../../../electron/core/formats/bibtex/latex-tables';

// The tables are vendored from citation-js (a dev dependency now, kept for the parse benchmark): when
// that package is upgraded and its table changes, this says so, and the vendored copy is updated on purpose.
describe('vendored LaTeX tables', () => {
  it('are citation-js plugin-bibtex’s unicode.json, entry for entry', () => {
    const upstream = createRequire(import.meta.url)('@citation-js/plugin-bibtex/lib/input/unicode.json') as unknown;
    expect(LATEX_TABLES).toEqual(upstream);
    expect(Object.keys(LATEX_TABLES.commands).length).toBeGreaterThan(100);
  });
});
