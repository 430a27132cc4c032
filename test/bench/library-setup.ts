// A generated library of n items for the cases that measure a big library rather than its import: the
// BibTeX is imported in files of at most CHUNK entries, each within the parser's time limit (60 s),
// which one 100,000-entry file overran on a machine loaded by other work (library-import measures
// the import of one big file).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CHUNK = 25_000;

/** Imports n generated entries (seed 1) into a new library in `dataDir`, through `importFile`. */
export async function importGenerated(
  n: number,
  tmpDir: string,
  dataDir: string,
  importFile: (file: string, dataDir: string) => Promise<unknown>,
): Promise<void> {
  const { generateBibtex } = await import('../unit/formats/corpus');
  const blocks = generateBibtex({ entries: n, seed: 1 }).split(/\n(?=@)/);
  // @string and @preamble go into every file, so each one's macros resolve as in the whole.
  const header = blocks.filter((b) => /^@(?:string|preamble)\s*\{/i.test(b));
  const entries = blocks.filter((b) => !header.includes(b));
  for (let i = 0; i < entries.length; i += CHUNK) {
    const file = join(tmpDir, `lib-${n}-${i / CHUNK}.bib`);
    writeFileSync(file, `${[...header, ...entries.slice(i, i + CHUNK)].join('\n')}\n`);
    await importFile(file, dataDir);
  }
}
