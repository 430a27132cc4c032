// "Use the title as written": the titles a BibTeX import stored in sentence case (Settings → Import),
// as the file wrote them. The import keeps them (custom.bibtex.kept, see refine.ts); an item imported
// before they were kept gets its one title field decoded again, as the import read it.
import type { CslItem } from '../../../../shared/model/csl';
import { decodeLatex } from './latex-decode';
import { bibtexCustomOf } from './mapping';

/** The CSL variables sentence case may change (refine.ts, sentenceCaseTitle). */
const TITLE_VARIABLES = ['title', 'volume-title', 'container-title'] as const;

/**
 * Each title variable the import put in sentence case and that still holds what the import made of
 * it → the title as the file wrote it (with its markup). Empty when there is none (nothing was
 * changed, or the user edited the title since).
 */
export function titlesAsWritten(item: CslItem): Partial<Record<(typeof TITLE_VARIABLES)[number], string>> {
  const kept = bibtexCustomOf(item.custom).kept ?? {};
  const out: Partial<Record<(typeof TITLE_VARIABLES)[number], string>> = {};
  for (const csl of TITLE_VARIABLES) {
    const k = kept[csl];
    const now = item[csl];
    if (!k || typeof now !== 'string' || now !== k.as) continue;
    let written = k.written;
    if (written === undefined) {
      const names = Object.keys(k.fields);
      if (names.length !== 1 || (names[0] !== 'title' && names[0] !== 'maintitle')) continue;
      written = decodeLatex(k.fields[names[0]]!, { rich: true });
    }
    if (written !== now) out[csl] = written;
  }
  return out;
}

/**
 * The item with its titles as written, or null when it has none to change. The kept fields now make
 * the title as written, so a BibTeX export still writes the fields back exactly.
 */
export function withTitlesAsWritten(item: CslItem): CslItem | null {
  const written = titlesAsWritten(item);
  const vars = Object.keys(written) as (keyof typeof written)[];
  if (vars.length === 0) return null;
  const custom = bibtexCustomOf(item.custom);
  const kept = { ...custom.kept };
  for (const csl of vars) {
    const { written: _was, ...rest } = kept[csl]!;
    kept[csl] = { ...rest, as: written[csl]! };
  }
  const next: CslItem = { ...item, ...written, custom: { ...item.custom, bibtex: { ...custom, kept } } };
  return next;
}
