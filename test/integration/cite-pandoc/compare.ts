// Formats the corpus with Citewise and with pandoc --citeproc (Haskell citeproc, an independent CSL
// processor) and compares the bibliographies entry by entry as normalised text.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CslItem } from '../../../shared/model/csl';
import type { CiteFormatter, StyleId } from '../../../electron/core/formats/cite';

export const DEBIAN_STYLES = '/usr/share/citation-style-language/styles';

export function pandocVersion(): string | undefined {
  try {
    return execFileSync('pandoc', ['--version'], { encoding: 'utf8' }).split('\n')[0];
  } catch {
    return undefined;
  }
}

/** Text as compared: Unicode NFC, runs of white space (including the tab after a citation number) as one space. */
export function normalise(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

export interface Difference {
  id: string;
  ours: string;
  pandoc: string;
}

export interface Comparison {
  style: StyleId;
  total: number;
  identical: number;
  /** Whether both list the entries in the same order. */
  sameOrder: boolean;
  differences: Difference[];
}

/** Runs pandoc on the corpus with one .csl file; returns its bibliography's entries as normalised text. */
export function pandocEntries(workDir: string, items: readonly CslItem[], cslFile: string): string[] {
  if (!existsSync(cslFile)) throw new Error(`no CSL style at ${cslFile}`);
  const bib = join(workDir, 'corpus.json');
  const doc = join(workDir, 'doc.md');
  writeFileSync(bib, JSON.stringify(items));
  writeFileSync(doc, '---\nnocite: "@*"\n---\n');
  const out = execFileSync(
    'pandoc',
    [doc, '--citeproc', '--bibliography', bib, '--csl', cslFile, '--to', 'plain', '--wrap=none'],
    { encoding: 'utf8' },
  );
  return out
    .split(/\n[ \t]*\n/)
    .map(normalise)
    .filter(Boolean);
}

export async function compare(
  formatter: CiteFormatter,
  style: StyleId,
  items: readonly CslItem[],
  pandoc: readonly string[],
): Promise<Comparison> {
  const ours = (await formatter.formatBibliography(items, { style, format: 'text' })).entries.map((e) => ({
    id: e.id,
    text: normalise(e.value),
  }));
  // pandoc's entries carry no ids: each is matched to an item, by identical text first, then (for the
  // entries that differ) by the item's title, so the two orders can be compared item by item too.
  const owner: Array<string | undefined> = pandoc.map(() => undefined);
  const open: Array<{ id: string; text: string }> = [];
  for (const e of ours) {
    const k = pandoc.findIndex((p, i) => owner[i] === undefined && p === e.text);
    if (k >= 0) owner[k] = e.id;
    else open.push(e);
  }
  const byId = new Map(items.map((i) => [i.id, i]));
  const differences = open.map((e): Difference => {
    const title = String(byId.get(e.id)?.title ?? '')
      .replace(/<[^>]+>/g, '')
      .slice(0, 24)
      .toLowerCase();
    const k = pandoc.findIndex((p, i) => owner[i] === undefined && p.toLowerCase().includes(title));
    if (k < 0) return { id: e.id, ours: e.text, pandoc: '(no entry for this item)' };
    owner[k] = e.id;
    return { id: e.id, ours: e.text, pandoc: pandoc[k]! };
  });
  return {
    style,
    total: ours.length,
    identical: ours.length - open.length,
    sameOrder: pandoc.length === ours.length && owner.every((id, i) => id === ours[i]!.id),
    differences,
  };
}

/** Runs pandoc on the corpus citing each item alone, in the order given; returns each citation as normalised text. */
export function pandocCitations(workDir: string, items: readonly CslItem[], cslFile: string): string[] {
  if (!existsSync(cslFile)) throw new Error(`no CSL style at ${cslFile}`);
  const bib = join(workDir, 'cited.json');
  const doc = join(workDir, 'cites.md');
  writeFileSync(bib, JSON.stringify(items));
  writeFileSync(doc, items.map((item, n) => `CITE${n}: [@${item.id}]\n\n`).join(''));
  const out = execFileSync(
    'pandoc',
    [doc, '--citeproc', '--bibliography', bib, '--csl', cslFile, '--to', 'plain', '--wrap=none'],
    { encoding: 'utf8' },
  );
  const cites = new Map(
    out
      .split('\n')
      .map((line) => /^CITE(\d+): (.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [Number(m[1]), normalise(m[2]!)]),
  );
  return items.map((item, n) => {
    const cite = cites.get(n);
    if (cite === undefined) throw new Error(`pandoc printed no citation for ${item.id}`);
    return cite;
  });
}
