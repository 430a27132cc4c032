// Braced BibTeX words arrive as <span class="nocase">; every style, in every output format, renders
// the word (case kept) and never the markup. BibTeX output gives the braces back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import {
  createCiteFormatter,
  directoryAssets,
  OUTPUT_FORMATS,
  type CiteFormatter,
} from '../../../../electron/core/formats/cite';
import { CITATION_STYLE_IDS } from '../../../../shared/model/csl';
import { buildCslDir } from './helpers';

let f: CiteFormatter;
beforeAll(() => {
  f = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
});
afterAll(() => f.close());

const nc = (w: string) => `<span class="nocase">${w}</span>`;
const items: CslItem[] = [
  {
    id: 'p',
    type: 'paper-conference',
    title: `On ${nc('DNA')} repair in ${nc('iPhone')} users`,
    'title-short': `${nc('DNA')} repair`,
    'container-title': `Proceedings of ${nc('ACM')} ${nc('SIGMOD')}`,
    'collection-title': `Lecture Notes in ${nc('CS')}`,
    'event-title': `${nc('SIGMOD')} 2020`,
    author: [{ family: 'Lee', given: 'Alice' }],
    issued: { 'date-parts': [[2020]] },
    publisher: 'ACM',
    page: '1-2',
  },
  {
    id: 'q',
    type: 'chapter',
    title: `${nc('RNA')} folding`,
    'container-title': `Handbook of ${nc('RNA')}`,
    author: [{ family: 'Lee', given: 'Alice' }],
    issued: { 'date-parts': [[2021]] },
    publisher: 'Press',
  },
];

describe('nocase markup in formatted output', () => {
  for (const style of CITATION_STYLE_IDS) {
    it(`${style}: bibliographies and citations show the words, not the markup`, async () => {
      for (const format of OUTPUT_FORMATS) {
        const doc = (await f.formatBibliography(items, { style, format })).document;
        expect(doc, `${style} ${format}`).not.toMatch(/nocase|&lt;span|<span class/);
        // BibTeX gives the braces back (RTF escapes them: \{).
        expect(doc.replace(/\\([{}])/g, '$1'), `${style} ${format}`).toMatch(style === 'bibtex' ? /\{DNA\}/ : /DNA/);
        expect(doc, `${style} ${format}`).toMatch(/iPhone/);
        const cites = await f.formatCitations(items, [[{ id: 'p' }], [{ id: 'q' }]], { style, format });
        for (const c of cites) expect(c.value, `${style} ${format} citation`).not.toMatch(/nocase/);
      }
    });
  }
});
