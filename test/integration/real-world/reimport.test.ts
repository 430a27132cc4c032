// Issue 32, "re-importing a file adds duplicates": every reference file in test/fixtures (the
// real-world exports of Zotero, Mendeley, EndNote, PubMed, Web of Science, pandoc and Better BibTeX,
// the format samples, the citation corpus) imported into one library, then imported again, must add
// nothing: not on the second or third import, and not after every item's title and citation key were
// edited. The entries are parsed and stored as the app stores a file (the import session, fed the
// parser's prepared entries with their origins); trust-import.test.ts runs the same through the
// formats and library workers.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../../electron/core/formats';
import { importParsed, testLibrary, type TestLibrary } from '../../unit/library/helpers/lib';

const ROOT = join(import.meta.dirname, '../../fixtures');

function walk(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
    .sort();
}

/**
 * The reference files among the fixtures: those that read as BibTeX, RIS or CSL-JSON with entries.
 * Formatted bibliographies (cite/pinned) and styles are not; nor is a DOI list, whose items come from
 * the service and are the same item by their DOI (add-by-DOI's tests).
 */
const FILES = walk(ROOT).filter((path) => {
  try {
    const parsed = importFile(path);
    return parsed.format !== 'doi-list' && parsed.count > 0;
  } catch {
    return false;
  }
});

describe('a re-import of every fixture adds nothing', () => {
  let t: TestLibrary;
  const firstAdded = new Map<string, number>();
  const ids: number[] = [];

  /** Each file imported once more; what each added, as "file: n added" (none when all is well). */
  const importAll = (): string[] => {
    const added: string[] = [];
    for (const path of FILES) {
      const name = relative(ROOT, path);
      const result = importParsed(t.library, importFile(path).items, { source: name });
      if (!firstAdded.has(name)) {
        firstAdded.set(name, result.added);
        ids.push(...result.ids);
      } else if (result.added > 0) added.push(`${name}: ${result.added} added`);
    }
    return added;
  };

  beforeAll(() => {
    t = testLibrary();
    importAll();
  });
  afterAll(() => t.dispose());

  it('covers every fixture, the Mendeley export with keys used twice among them', () => {
    const names = [...firstAdded.keys()];
    expect(names.length).toBeGreaterThanOrEqual(20);
    expect(names).toContain(join('real-world', 'mendeley-duplicate-keys.bib'));
    expect(names).toContain(join('cite', 'corpus.json'));
    // Every entry of the Mendeley file arrived the first time, those sharing a key included.
    expect(firstAdded.get(join('real-world', 'mendeley-duplicate-keys.bib'))).toBe(6);
  });

  it('the same files again, twice: 0 added', () => {
    expect(importAll()).toEqual([]);
    expect(importAll()).toEqual([]);
  });

  it('after every title and citation key was edited in the library: still 0 added', () => {
    for (const id of ids) {
      const { csl } = t.library.getItem(id);
      t.library.updateItem(id, { ...csl, title: `${typeof csl.title === 'string' ? csl.title : ''} (revised)` });
      t.library.setCitationKey(id, `edited${id}`);
    }
    expect(importAll()).toEqual([]);
  });
});
