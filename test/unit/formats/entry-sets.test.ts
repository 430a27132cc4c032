// Issues 42 (point 10) and 32: a biblatex @set became an empty item, which styles print as an empty
// "(n.d.-a)." line, or (crossref'ing its first member, as biblatex's BibTeX backend wants) a second
// copy of that member. Its members are ordinary items; the set is no item, and the report says so.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importFile, importText, toBibtex, type ParseResult } from '../../../electron/core/formats';
import { createCiteFormatter, directoryAssets } from '../../../electron/core/formats/cite';
import { buildCslDir } from './cite/helpers';

const FIXTURE = join(import.meta.dirname, '../../fixtures/formats/biblatex-sets.bib');
const text = readFileSync(FIXTURE, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'citewise-sets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keysOf = (r: ParseResult) => r.items.map((i) => i.item['citation-key']);

describe('biblatex entry sets', () => {
  const r = importText(text, { format: 'bibtex' });

  it('import the members as items, and no item for a set', () => {
    expect(r.errors).toEqual([]);
    expect(keysOf(r)).toEqual(['glashow1961', 'weinberg1967', 'salam1968', 'kibble1967']);
    expect(r.items.every((i) => i.item.type !== 'document' && typeof i.item.title === 'string')).toBe(true);
    // The member a set crossrefs is there once, as itself.
    expect(r.items.filter((i) => i.item.title === 'Weak and Electromagnetic Interactions')).toHaveLength(1);
  });

  it('say what became of each set, on its line', () => {
    const sets = r.warnings.filter((w) => w.reason.includes('(@set)'));
    expect(sets).toEqual([
      {
        line: 5,
        reason:
          'The entry set "electroweak" (@set) groups "glashow1961", "weinberg1967", imported as items of their own; the set is not an item: where a document cites [@electroweak], cite [@glashow1961; @weinberg1967].',
      },
      {
        line: 28,
        reason:
          'The entry set "bibtexbackend" (@set) groups "salam1968", "kibble1967", imported as items of their own; the set is not an item: where a document cites [@bibtexbackend], cite [@salam1968; @kibble1967]; "missing1970" is not in the file.',
      },
      { line: 55, reason: 'The entry set "empty" (@set) lists no members (entryset); it was left out.' },
    ]);
    // Not reported as an unknown entry type either.
    expect(r.warnings.some((w) => w.reason.includes('@set is not'))).toBe(false);
  });

  it('the same when the file is read in pieces', () => {
    // Without the crossref set (which needs the whole file), so the pieces path is the one taken.
    const streamed = text.slice(0, text.indexOf('@Set{bibtexbackend'));
    const path = join(dir, 'sets.bib');
    writeFileSync(path, streamed);
    const whole = importText(streamed, { format: 'bibtex' });
    const pieces = importFile(path, { format: 'bibtex', pieceBytes: 64 });
    expect(keysOf(pieces)).toEqual(['glashow1961', 'weinberg1967']);
    expect(pieces.warnings).toEqual(whole.warnings);
  });

  it('a bibliography has no empty "(n.d.)" line and no second copy', async () => {
    const f = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
    try {
      const items: CslItem[] = r.items.map((i) => i.item);
      const apa = await f.formatBibliography(items, { style: 'apa' });
      expect(apa.entries).toHaveLength(4);
      for (const e of apa.entries) {
        expect(e.value).not.toMatch(/n\.d\./i);
        expect(e.value).toMatch(/^[A-Z][a-z]+, /);
      }
    } finally {
      await f.close();
    }
  });

  it('BibLaTeX export writes the members back, each with its entryset field', () => {
    const out = toBibtex(
      r.items.map((i) => i.item),
      { biblatex: true },
    );
    expect(out).not.toMatch(/@set/i);
    expect(out).toContain('@inproceedings{salam1968,');
    expect(out).toContain('entryset = {bibtexbackend}');
    expect(keysOf(importText(out, { format: 'bibtex' }))).toEqual(keysOf(r));
  });
});
