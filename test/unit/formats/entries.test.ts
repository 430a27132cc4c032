// One entry at a time, assembled, is byte for byte what exportItems writes for the same items.
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { exportItems, importText, type ExportFormat } from '../../../electron/core/formats';
import { assembleEntries, assembleEntryBytes, renderEntry } from '../../../electron/core/formats/entries';
import { generateItems } from '../library/helpers/generate-items';
import { generateBibtex } from './corpus';

const FORMATS: ExportFormat[] = ['bibtex', 'biblatex', 'csljson', 'ris'];

describe('per-entry export', () => {
  const generated = generateItems(300, 11).map(
    (item, i) => ({ ...item, 'citation-key': `k${i}`, id: `k${i}` }) as CslItem,
  );
  // Items as a .bib file brings them (aliases, braces, LaTeX, odd fields), keys as the file has them.
  const imported = importText(generateBibtex({ entries: 200, seed: 4 }), { format: 'bibtex' }).items.map((i) => i.item);
  const special: CslItem[] = [
    {
      id: 'u1',
      'citation-key': 'u1',
      type: 'book',
      title: 'Ünïcødé “quotes” — and a\nline break',
      note: 'multi\nline\n\ttab',
      author: [{ literal: 'Ωmega Group' }],
    },
    { id: 'e1', 'citation-key': 'e1', type: 'article' },
  ];

  for (const format of FORMATS) {
    it(`${format}: entries assembled as text and as bytes equal a full export`, () => {
      for (const items of [generated, imported, special, [], generated.slice(0, 1)]) {
        const entries = items.map((item) => renderEntry(item, format));
        const full = exportItems(items, format);
        expect(assembleEntries(entries, format)).toBe(full);
        expect(
          assembleEntryBytes(
            entries.map((e) => Buffer.from(e, 'utf8')),
            format,
          ).equals(Buffer.from(full, 'utf8')),
        ).toBe(true);
      }
    });
  }

  it('csljson entries parse back to the items', () => {
    const text = assembleEntries(
      special.map((i) => renderEntry(i, 'csljson')),
      'csljson',
    );
    expect(JSON.parse(text)).toEqual(special);
  });
});
