// Output agrees with an independent CSL processor: the corpus (one item of every CSL type plus edge
// cases) is formatted with every built-in style by Citewise and by `pandoc --citeproc` with Debian's
// citation-style-language-styles, and compared entry by entry as normalised text. Every difference is
// listed with its reason in expected-differences.ts; the test fails on any difference that is not
// listed, and on any listed one that has gone (so the list stays true).
//
// A second, diagnostic run gives pandoc the very style files the app ships (out/csl, copied from
// resources/csl: a later snapshot of the CSL styles), which separates processor differences from
// style-version differences.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILT_IN_CSL_STYLES,
  createCiteFormatter,
  directoryAssets,
  type CiteFormatter,
} from '../../../electron/core/formats/cite';
import { buildCslDir, corpus } from '../../unit/formats/cite/helpers';
import { compare, DEBIAN_STYLES, pandocEntries, pandocVersion, type Comparison } from './compare';
import { EXPECTED_DIFFERENCES, EXPECTED_ORDER } from './expected-differences';

const version = pandocVersion();
if (!version)
  console.warn(
    'cite-pandoc: SKIPPED — pandoc is not installed (apt-get install pandoc citation-style-language-styles); CI installs it.',
  );

describe.skipIf(!version)('bibliographies agree with pandoc --citeproc', () => {
  const items = corpus();
  const work = mkdtempSync(join(tmpdir(), 'citewise-pandoc-'));
  let dir: string;
  let f: CiteFormatter;
  const debian: Comparison[] = [];
  const shipped: Comparison[] = [];

  beforeAll(() => {
    dir = buildCslDir();
    f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
  });
  afterAll(async () => {
    await f.close();
    const row = (c: Comparison): string =>
      `${c.style.padEnd(10)} ${String(c.identical).padStart(3)}/${c.total} identical${c.sameOrder ? '' : ' (order differs)'}`;
    if (debian.length) console.log(`cite-pandoc (${version}), Debian styles:\n${debian.map(row).join('\n')}`);
    if (shipped.length)
      console.log(
        `cite-pandoc, the app's own style files through pandoc (diagnostic):\n${shipped.map(row).join('\n')}`,
      );
  });

  for (const [style, name] of Object.entries(BUILT_IN_CSL_STYLES)) {
    it(`${style} (${name}.csl): every difference is an explained one`, async () => {
      const c = await compare(f, style, items, pandocEntries(work, items, join(DEBIAN_STYLES, `${name}.csl`)));
      debian.push(c);
      const expected = EXPECTED_DIFFERENCES[style] ?? {};
      const unexplained = c.differences.filter((d) => !(d.id in expected));
      expect(unexplained, `unexplained differences in ${style}:\n${JSON.stringify(unexplained, null, 2)}`).toEqual([]);
      const gone = Object.keys(expected).filter((id) => !c.differences.some((d) => d.id === id));
      expect(
        gone,
        `${style}: listed differences that no longer occur; remove them from expected-differences.ts`,
      ).toEqual([]);
      expect(c.sameOrder, `${style}: the entry order differs: ${EXPECTED_ORDER[style] ?? 'unexplained'}`).toBe(
        !(style in EXPECTED_ORDER),
      );
      const shippedRun = await compare(f, style, items, pandocEntries(work, items, join(dir, `styles/${name}.csl`)));
      shipped.push(shippedRun);
    });
  }
});
