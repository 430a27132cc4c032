// Issue 17, the BibTeX side: a user's references come out as they went in. Each block is one point of
// the issue; the fixtures under test/fixtures/real-world/ are shaped like what JabRef, Zotero/Better
// BibTeX, biblatex users, Google Scholar, Mendeley and hand-written theses produce.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import type { SentenceCaseMode } from '../../../shared/model/settings';
import { citationKeyProblem } from '../../../shared/model/citekey';
import { importText, toBibtex } from '../../../electron/core/formats';
import { titlesAsWritten } from '../../../electron/core/formats/bibtex/as-written';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../electron/core/formats/cite';
import { testLibrary, type TestLibrary, importItems } from '../library/helpers/lib';
import { buildCslDir } from './cite/helpers';

const REAL_WORLD = join(import.meta.dirname, '../../fixtures/real-world');
const bibFixtures = readdirSync(REAL_WORLD)
  .filter((f) => f.endsWith('.bib'))
  .sort();
const fixture = (name: string) => readFileSync(join(REAL_WORLD, name), 'utf8');

function bib(text: string, sentenceCase?: SentenceCaseMode) {
  return importText(text, { format: 'bibtex', sentenceCase });
}
function items(text: string): CslItem[] {
  const r = bib(text);
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}
function one(text: string): CslItem {
  const all = items(text);
  expect(all).toHaveLength(1);
  return all[0]!;
}

function byKey(list: CslItem[], key: string): CslItem {
  const found = list.find((i) => i['citation-key'] === key);
  if (!found) throw new Error(`no item ${key}`);
  return found;
}

/** The item without what only says which field names the source used (a flavour change renames them). */
function withoutAliases(item: CslItem): CslItem {
  const bibtex = { ...(item.custom?.['bibtex'] as Record<string, unknown>) };
  delete bibtex['aliases'];
  return { ...item, custom: { ...item.custom, bibtex } };
}

/**
 * What survives classic BibTeX: the item without the source names, and with a biblatex list ("IEEE; ACM",
 * kept as its fields) read as the one text classic BibTeX has for it ("IEEE and ACM").
 */
function classicView(item: CslItem): CslItem {
  const plain = withoutSourceNames(item);
  const bibtex = { ...(plain.custom?.['bibtex'] as Record<string, unknown>) };
  const kept = { ...(bibtex['kept'] as Record<string, unknown> | undefined) };
  const out: CslItem = { ...plain };
  for (const csl of ['publisher', 'publisher-place']) {
    delete kept[csl];
    if (typeof out[csl] === 'string') out[csl] = (out[csl] as string).replace(/; /g, ' and ');
  }
  if (Object.keys(kept).length > 0) bibtex['kept'] = kept;
  else delete bibtex['kept'];
  return { ...out, custom: { ...plain.custom, bibtex } };
}

/** …and without the entry type it came with (classic BibTeX export turns @online into @misc). */
function withoutSourceNames(item: CslItem): CslItem {
  const plain = withoutAliases(item);
  const bibtex = { ...(plain.custom?.['bibtex'] as Record<string, unknown>) };
  delete bibtex['type'];
  return { ...plain, custom: { ...plain.custom, bibtex } };
}

// Written by biblatex users: the BibLaTeX round trip keeps them whole; BibTeX export makes them classic.
const BIBLATEX_BORN = new Set(['bbt-export.bib', 'biblatex-multivolume.bib', 'jabref-biblatex.bib']);

describe('the real-world fixtures survive import → export → import', () => {
  it('has fixtures of every source shape', () => {
    expect(bibFixtures).toEqual([
      'bbt-export.bib',
      'biblatex-multivolume.bib',
      'google-scholar.bib',
      'jabref-biblatex.bib',
      'mendeley-duplicate-keys.bib',
      'mendeley-export.bib',
      'nasa-ads.bib',
      'thesis-handwritten.bib',
      'web-of-science.bib',
    ]);
  });

  for (const file of bibFixtures) {
    it(file, () => {
      const r = bib(fixture(file));
      expect(r.errors).toEqual([]);
      // Mendeley gives every paper of an author and year one key: said, and each entry kept.
      expect(
        r.warnings.filter((w) => !/^The citation key "\w+" is used by more than one entry\.$/.test(w.reason)),
      ).toEqual([]);
      const first = r.items.map((i) => i.item);
      expect(first.map((i) => i['citation-key'])).toEqual(r.items.map((i) => i.sourceKey));
      // A key used twice cannot be written twice: export makes the repeats unique (Smith2020_2); the
      // library has given them their own keys already (Smith2020a). The rest is the same.
      const keyless = (list: CslItem[]) =>
        r.warnings.length === 0 ? list : list.map(({ id: _id, 'citation-key': _key, ...rest }) => rest);
      // BibTeX out: the same items, keys and ids; a biblatex-born entry is written as classic BibTeX
      // (issue 32), so only the source type and field names it records may change.
      const classic = items(toBibtex(first));
      if (BIBLATEX_BORN.has(file)) {
        // Classic BibTeX has no @online, no lists, no maintitle: what a reader sees of each paper stays.
        const seen = (i: CslItem) => [i['citation-key'], i.title, i.author, i.editor, i.issued, i.DOI, i.URL, i.page];
        expect(classic.map(seen)).toEqual(first.map(seen));
      } else expect(keyless(classic.map(classicView))).toEqual(keyless(first.map(classicView)));
      // BibLaTeX out: the same CSL, only the source field names recorded may change (journal → journaltitle).
      expect(keyless(items(toBibtex(first, { biblatex: true })).map(withoutAliases))).toEqual(
        keyless(first.map(withoutAliases)),
      );
    });
  }

  it('JabRef (biblatex): comments, @string, crossref, an apostrophe key, subtitles, lists, particles', () => {
    const list = items(fixture('jabref-biblatex.bib'));
    const ohara = byKey(list, "O'Hara_1999");
    expect(ohara.title).toBe(
      'Market microstructure and the role of <span class="nocase">NASDAQ</span> dealers: Evidence from quote revisions',
    );
    expect(ohara.DOI).toBe('10.1016/S1386-4181(98)00018-2');
    expect(ohara.author).toEqual([
      { family: "O'Hara", given: 'Maureen' },
      { 'non-dropping-particle': 'van der', family: 'Berg', given: 'Jan' },
      { family: 'López de Molina', given: 'Ana' },
    ]);
    const proc = byKey(list, 'ICSE2019');
    expect(proc['container-title']).toBeUndefined();
    expect(proc).toMatchObject({ 'publisher-place': 'Montréal; Québec', publisher: 'IEEE; ACM' });
    const paper = byKey(list, 'Smith2019:icse');
    expect(paper).toMatchObject({
      'container-title': 'Proceedings of the 41st International Conference on Software Engineering',
      title: 'Mining fix patterns for <span class="nocase">FindBugs</span> violations',
    });
    expect(paper.author![1]).toEqual({ family: 'Nguyễn', given: 'Văn' });
    expect(paper.keyword).toBeUndefined(); // commented out
    expect(byKey(list, 'PythonDocs')['container-title']).toBe('Python Software Foundation');
    const handbuch = byKey(list, 'Mueller2020');
    expect(handbuch).toMatchObject({
      title: 'Handbuch der Wissenschaftstheorie: Methoden und Begriffe',
      'publisher-place': 'München; Berlin',
    });
  });

  it('Better BibTeX: double-braced words, extended names, howpublished URL, organization', () => {
    const list = items(fixture('bbt-export.bib'));
    const zhang = byKey(list, 'zhangDeepLearningDNA2021');
    expect(zhang.title).toBe(
      'Deep <span class="nocase">Learning</span> for <span class="nocase">DNA Sequencing</span>: <span class="nocase">A Review</span>',
    );
    expect(zhang.DOI).toBe('10.1038/S41592-021-01143-2');
    expect(zhang.author![1]).toEqual({ 'non-dropping-particle': 'van', family: 'Beethoven', given: 'Ludwig' });
    // No lower-case function word ("of", "for"…) to tell Title Case from a name: left as written.
    expect(byKey(list, 'wickhamTidyverseStyleGuide2019')).toMatchObject({
      'container-title': 'RStudio',
      title: 'The Tidyverse Style Guide',
    });
    expect(byKey(list, 'rcoreteamLanguageEnvironmentStatistical2023')).toMatchObject({
      URL: 'https://www.R-project.org/',
      publisher: 'R Foundation for Statistical Computing',
    });
    expect(byKey(list, 'garciaygassetRebelionMasas1930').title).toBe('La Rebelión de Las Masas'); // Spanish: not converted
    expect(byKey(list, 'tranHocMayUng2022').author).toEqual([{ family: 'Trần', given: 'Thị Hương' }]);
  });

  it('a hand-written thesis file: @preamble, @string with #, % lines, bare @comment, BibTeX address kept whole', () => {
    const r = bib(fixture('thesis-handwritten.bib'));
    expect(r.preambles).toEqual(['\\newcommand{\\noopsort}[1]{}']);
    const list = r.items.map((i) => i.item);
    // Title Case without braced words: kept as written (Settings → Import, "protected"); with "always",
    // sentence case.
    expect(
      bib(fixture('thesis-handwritten.bib'), 'always').items.find((i) => i.sourceKey === 'batchelor67')!.item.title,
    ).toBe('An introduction to fluid dynamics');
    expect(byKey(list, 'batchelor67')).toMatchObject({
      title: 'An Introduction to Fluid Dynamics',
      'container-title': 'Journal of Fluid Mechanics',
      note: 'Reprinted 2000',
    });
    expect(byKey(list, 'landau-lifshitz')).toMatchObject({
      publisher: 'Cambridge University Press (reprint)',
      'publisher-place': 'Oxford and New York',
    });
    expect(byKey(list, 'Dupont:2015').title).toBe('Écoulements turbulents en conduite');
    expect(byKey(list, 'webpage-cfd').URL).toBe('https://www.grc.nasa.gov/www/k-12/airplane/nseqs.html');
    expect(byKey(list, 'Huynh:TR-07').author).toEqual([
      { family: 'Huụnh', given: 'Thị' },
      { family: 'Ṣri', given: 'A.' },
    ]);
  });

  it('Google Scholar and Mendeley: sentence case left alone, a fully braced title kept, a capitalised von', () => {
    const scholar = items(fixture('google-scholar.bib'));
    expect(byKey(scholar, 'he2016deep').title).toBe('Deep residual learning for image recognition');
    expect(byKey(scholar, 'van2008visualizing').author![0]).toEqual({ family: 'Van der Maaten', given: 'Laurens' });
    const mendeley = items(fixture('mendeley-export.bib'));
    expect(byKey(mendeley, 'Watson1953')).toMatchObject({
      DOI: '10.1038/171737A0',
      title:
        '<span class="nocase">Molecular Structure of Nucleic Acids: A Structure for Deoxyribose Nucleic Acid</span>',
    });
    expect(byKey(mendeley, 'Vaswani2017').title).toBe('Attention Is All You Need'); // no function word: left as written
  });
});

describe('1. keys are the user’s', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('keeps a key BibTeX and biber accept (an apostrophe) through import, library and export', () => {
    expect(citationKeyProblem("O'Hara_1999")).toBeNull();
    const item = one("@article{O'Hara_1999, author = {O'Hara, Maureen}, title = {Tides}, year = 1999}");
    expect(item['citation-key']).toBe("O'Hara_1999");
    const r = importItems(t.library, [item]);
    expect(r.warnings).toEqual([]);
    expect(t.library.getItem(r.ids[0]!).citationKey).toBe("O'Hara_1999");
    expect(toBibtex([t.library.getItem(r.ids[0]!).csl])).toMatch(/^@article\{O'Hara_1999,/);
  });

  it('still refuses what cannot work, and the report says old → new', () => {
    for (const bad of ['a b', 'a,b', 'a{b', 'a}b', 'a(b', 'a)b', 'a"b', 'a#b', 'a%b', 'a~b', 'a=b', 'a\\b'])
      expect(citationKeyProblem(bad), bad).not.toBeNull();
    const item = one('@article{smith~2020, author = {Smith, Ann}, title = {Quick Brown Fox}, year = 2020}');
    const r = importItems(t.library, [item]);
    const key = t.library.getItem(r.ids[0]!).citationKey;
    expect(key).toBe('smithQuickBrownFox2020');
    expect(r.warnings).toEqual([
      { index: 0, line: 0, reason: expect.stringContaining('"smith~2020" → "smithQuickBrownFox2020"') },
    ]);
  });
});

describe('2. read leniently, as Better BibTeX and pandoc do', () => {
  it('skips a % comment line inside an entry instead of dropping the entry', () => {
    const item = one(`@article{k,
  author = {Doe, Jane},
  % note = {commented out by hand},
  title = {Kept},   % a trailing remark
  %
  year = 2001
}`);
    expect(item).toMatchObject({
      title: 'Kept',
      issued: { 'date-parts': [[2001]] },
      author: [{ family: 'Doe', given: 'Jane' }],
    });
    expect(item.note).toBeUndefined();
  });

  it('keeps a % inside a value as text', () => {
    expect(one('@misc{k, title = {50\\% off}, note = {a % b}}')).toMatchObject({ title: '50% off', note: 'a % b' });
  });

  it('ignores unbracketed @comment lines without an error', () => {
    const r = bib('@comment jabref-meta: databaseType:biblatex;\n@Comment Last edited 2021\n@book{b, title = {T}}\n');
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.items.map((i) => i.item['citation-key'])).toEqual(['b']);
  });

  it('still reports "@article" without a body', () => {
    expect(bib('@article no body here\n@book{b, title = {T}}\n').errors).toEqual([
      expect.objectContaining({ line: 1, reason: expect.stringMatching(/no body/) }),
    ]);
  });
});

function hasPandoc(): boolean {
  try {
    execFileSync('pandoc', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** The CSL-JSON pandoc reads from biblatex `text`. */
function pandocCsl(text: string): CslItem[] {
  return JSON.parse(
    execFileSync('pandoc', ['-f', 'biblatex', '-t', 'csljson'], { input: text, encoding: 'utf8' }),
  ) as CslItem[];
}

/** A title as text, case aside (pandoc and Citewise mark case and italics differently). */
const titleText = (v: unknown) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '').toLowerCase() : v);

/** import → BibTeX export → import: the items must be the same. */
/** One entry read with Settings → Import at "always" (every Title Case title). */
function always(text: string): CslItem {
  const r = bib(text, 'always');
  expect(r.errors).toEqual([]);
  expect(r.items).toHaveLength(1);
  return r.items[0]!.item;
}

function roundTrip(text: string, biblatex = false): { first: CslItem[]; exported: string; second: CslItem[] } {
  const first = items(text);
  const exported = toBibtex(first, { biblatex });
  return { first, exported, second: items(exported) };
}

describe('3. fields are not lost', () => {
  it('joins subtitle and titleaddon to the title, booksubtitle to the container, and writes them back as they were', () => {
    const source = `@incollection{k,
  title = {Deep Learning},
  subtitle = {A Review},
  titleaddon = {Extended Version},
  booktitle = {Handbook of {AI}},
  booksubtitle = {Methods and Practice},
  year = 2020
}`;
    const { first, exported, second } = roundTrip(source);
    expect(first[0]).toMatchObject({
      title: 'Deep Learning: A Review. Extended Version',
      // The booktitle braces a word, so (Settings → Import, by default) it is in sentence case as a
      // title that braces one would be; the title braces none and stays as written.
      'container-title': 'Handbook of <span class="nocase">AI</span>: Methods and practice',
    });
    expect(second).toEqual(first);
    expect(exported).toContain(
      '  title = {Deep Learning},\n  subtitle = {A Review},\n  titleaddon = {Extended Version},',
    );
    expect(exported).toContain('  booktitle = {Handbook of {AI}},\n  booksubtitle = {Methods and Practice},');
  });

  it('maintitle: a volume of a multi-volume work and a chapter in one read as pandoc reads them, and export gives maintitle back', () => {
    const { first, exported, second } = roundTrip(fixture('biblatex-multivolume.bib'), true);
    // @book with maintitle: the work is the title, the volume's own title is volume-title (sentence case as for any title: here as written, nothing being braced).
    expect(byKey(first, 'knuth:taocp:1')).toMatchObject({
      type: 'book',
      title: 'The Art of Computer Programming',
      'volume-title': 'Fundamental Algorithms',
      volume: '1',
    });
    expect(byKey(first, 'knuth:taocp:1')['container-title']).toBeUndefined();
    // maintitle: mainsubtitle. maintitleaddon, as pandoc and biblatex punctuate it; German stays as written.
    expect(byKey(first, 'goethe:werke:3')).toMatchObject({
      title: 'Werke: Hamburger Ausgabe. In vierzehn Bänden',
      'volume-title': 'Dramatische Dichtungen: Erster Teil',
    });
    // A chapter: the multi-volume work is the container, booktitle (+ booksubtitle) the volume.
    expect(byKey(first, 'weber:cambridge:2')).toMatchObject({
      type: 'chapter',
      'container-title': 'The Collected Works in Sociology: A Critical Edition',
      'volume-title': 'Economy and Society: An Outline of Interpretive Sociology',
    });
    expect(byKey(first, 'kant:kritik')).toMatchObject({
      'container-title': 'Gesammelte Schriften',
      'volume-title': 'Kritik der reinen Vernunft',
    });
    // A volume that takes the rest from its @mvbook by crossref: the @mvbook's title is its maintitle (biblatex appendix B).
    expect(byKey(first, 'shakespeare:works:2')).toMatchObject({
      title: 'The Complete Works: Original-Spelling Edition',
      'volume-title': 'The Comedies',
      volume: '2',
      publisher: 'Clarendon Press',
    });
    expect(byKey(first, 'shakespeare:works')).toMatchObject({
      title: 'The Complete Works: Original-Spelling Edition',
      'number-of-volumes': '4',
    });
    for (const item of first) expect(item.custom?.['bibtex']).not.toHaveProperty('fields.maintitle');
    // Back to biblatex: maintitle, mainsubtitle and maintitleaddon as written, and the same items again.
    expect(exported).toContain(
      '  maintitle = {Werke},\n  mainsubtitle = {Hamburger Ausgabe},\n  maintitleaddon = {In vierzehn Bänden},\n  title = {Dramatische Dichtungen},\n  subtitle = {Erster Teil},',
    );
    expect(exported).toContain(
      '  maintitle = {The Collected Works in Sociology},\n  mainsubtitle = {A Critical Edition},\n  booktitle = {Economy and Society},',
    );
    expect(exported.match(/^ {2}maintitle = /gm)).toHaveLength(5);
    expect(second).toEqual(first);
  });

  it('maintitle: an edited work or volume title is written back under maintitle or title, not lost', () => {
    const [item] = items(fixture('biblatex-multivolume.bib'));
    const out = toBibtex([{ ...item!, title: 'TAOCP', 'volume-title': 'Volume One' }], { biblatex: true });
    expect(out).toContain('maintitle = {TAOCP}');
    expect(out).toContain('  title = {Volume One}');
    expect(one(out)).toMatchObject({ title: 'TAOCP', 'volume-title': 'Volume One' });
  });

  it('maintitle: a CSL-JSON volume (container-title + volume-title, as pandoc writes it) goes to biblatex as maintitle', () => {
    const csl = importText(
      JSON.stringify([
        {
          id: 'c',
          type: 'chapter',
          title: 'A chapter',
          'container-title': 'Main work',
          'volume-title': 'Volume title',
          volume: '2',
        },
        { id: 'b', type: 'book', title: 'Main work', 'volume-title': 'Volume title', volume: '2' },
        { id: 'v', type: 'chapter', title: 'A chapter', 'volume-title': 'Volume title' },
      ]),
      { format: 'csljson' },
    ).items.map((i) => i.item);
    const out = toBibtex(csl, { biblatex: true });
    expect(out.match(/^ {2}maintitle = \{Main work\}/gm)).toHaveLength(2);
    expect(out).toContain('  booktitle = {Volume title}');
    const back = items(out);
    for (const [i, item] of csl.entries())
      for (const v of ['title', 'container-title', 'volume-title'])
        expect(back[i]![v], `${item.id} ${v}`).toBe(item[v]);
    // BibTeX has no maintitle: there the variables keep their plain names.
    expect(toBibtex(csl)).not.toContain('maintitle');
  });

  it.skipIf(!hasPandoc())('maintitle: the same titles as pandoc -f biblatex -t csljson, case aside', () => {
    const text = fixture('biblatex-multivolume.bib');
    const theirs = pandocCsl(text);
    const ours = items(text);
    expect(theirs).toHaveLength(ours.length);
    for (const p of theirs) {
      const mine = byKey(ours, String(p.id));
      for (const v of ['title', 'container-title', 'volume-title', 'volume'])
        expect(titleText(mine[v]), `${p.id} ${v}`).toBe(titleText(p[v]));
    }
  });

  // Issue 32 ("Act. of 1990"): titleaddon follows the title as biblatex prints it (\newunit, i.e. a
  // period and a space unless the title ends in punctuation) and as pandoc reads it.
  const ADDONS = `@legislation{ada1990,
  title        = {Americans with Disabilities Act},
  titleaddon   = {of 1990},
  number       = {Pub. L. 101-336},
  date         = {1990-07-26},
}
@misc{comma, title = {Hello,}, titleaddon = {World}, date = {1990}}
@misc{semicolon, title = {Hello;}, titleaddon = {World}, date = {1990}}
@misc{question, title = {Why Now?}, titleaddon = {A Reply}, date = {1990}}
@misc{period, title = {Notes on Things.}, titleaddon = {Second Edition}, date = {1990}}
@misc{emph, title = {Hello \\emph{World}}, titleaddon = {Again}, date = {1990}}
`;

  it('titleaddon: a period and a space after the title, only a space after its own punctuation', () => {
    const got = Object.fromEntries(items(ADDONS).map((i) => [i.id, i.title]));
    expect(got).toEqual({
      ada1990: 'Americans with Disabilities Act. of 1990',
      comma: 'Hello, World',
      semicolon: 'Hello; World',
      question: 'Why Now? A Reply',
      period: 'Notes on Things. Second Edition',
      emph: 'Hello <i>World</i>. Again',
    });
  });

  it.skipIf(!hasPandoc())('titleaddon: the same titles as pandoc -f biblatex -t csljson, case aside', () => {
    const theirs = pandocCsl(ADDONS);
    const ours = items(ADDONS);
    expect(theirs).toHaveLength(ours.length);
    for (const p of theirs) expect(titleText(byKey(ours, String(p.id)).title), String(p.id)).toBe(titleText(p.title));
  });

  it('joins after a title that ends in its own mark with a space only', () => {
    expect(one('@book{k, title = {Why Now?}, subtitle = {An Essay}}').title).toBe('Why Now? An Essay');
  });

  it('writes an edited title as it now is, without the old subtitle', () => {
    const [item] = items('@book{k, title = {Old}, subtitle = {Part}}');
    const out = toBibtex([{ ...item!, title: 'New Title' }]);
    expect(out).toContain('title = {New Title}');
    expect(out).not.toContain('subtitle');
  });

  it('takes the URL out of howpublished = {\\url{…}} and gives it back there', () => {
    const { first, exported, second } = roundTrip(
      '@misc{k, title = {Page}, howpublished = {\\url{https://example.org/a_b?x=1}}, year = 2021}',
    );
    expect(first[0]!.URL).toBe('https://example.org/a_b?x=1');
    expect(exported).toContain('howpublished = {\\url{https://example.org/a_b?x=1}}');
    expect(exported).not.toMatch(/\burl = /);
    expect(second).toEqual(first);
    // Other howpublished text is the publisher, as pandoc reads it (issue 42), and goes back there.
    expect(one('@misc{k, title = {Page}, howpublished = {Privately printed}}')).toMatchObject({
      publisher: 'Privately printed',
      custom: { bibtex: { aliases: { publisher: 'howpublished' } } },
    });
  });

  it('keeps organization: the site of an @online page, the publisher of anything else', () => {
    const web = one(
      '@online{w, title = {Docs}, organization = {Python Software Foundation}, url = {https://docs.python.org}}',
    );
    expect(web['container-title']).toBe('Python Software Foundation');
    const manual = one('@manual{m, title = {R: A Language}, organization = {R Core Team}, year = 2023}');
    expect(manual.publisher).toBe('R Core Team');
    // with a publisher already there it stays a field of its own
    expect(
      one('@inproceedings{p, title = {T}, booktitle = {B}, organization = {IEEE}, publisher = {Springer}}'),
    ).toMatchObject({ publisher: 'Springer', custom: { bibtex: { fields: { organization: 'IEEE' } } } });
    for (const text of [
      '@online{w, title = {Docs}, organization = {PSF}}',
      '@manual{m, title = {R}, organization = {R Core Team}}',
    ]) {
      // @online is biblatex: its round trip is through BibLaTeX (BibTeX export makes it a @misc).
      const { exported, second, first } = roundTrip(text, text.startsWith('@online'));
      expect(exported).toContain('organization = {');
      expect(second).toEqual(first);
    }
  });

  it('a @proceedings or @book whose booktitle repeats its title is not its own container', () => {
    const proc = one(
      '@proceedings{p, title = {Proceedings of the 12th Conference on X}, booktitle = {Proceedings of the 12th Conference on {X}.}, year = 2019}',
    );
    expect(proc['container-title']).toBeUndefined();
    expect(one('@book{b, title = {Same}, booktitle = {Same}}')['container-title']).toBeUndefined();
    // a different booktitle stays the container; an @inproceedings always has one
    expect(one('@book{b, title = {Volume 2}, booktitle = {Collected Works}}')['container-title']).toBe(
      'Collected Works',
    );
    expect(one('@inproceedings{i, title = {Same}, booktitle = {Same}}')['container-title']).toBe('Same');
    const { exported, first, second } = roundTrip(
      '@proceedings{p, title = {Proc X}, booktitle = {Proc X}, year = 2019}',
    );
    expect(exported).toContain('booktitle = {Proc X}');
    expect(second).toEqual(first);
  });

  it('reads biblatex lists as "A; B": location always, publisher in a biblatex entry', () => {
    const { first, exported, second } = roundTrip(
      '@book{b, title = {T}, location = {München and Berlin}, publisher = {Springer and {Taylor and Francis}}, date = {2020}}',
      true,
    );
    expect(first[0]).toMatchObject({ 'publisher-place': 'München; Berlin', publisher: 'Springer; Taylor and Francis' });
    expect(exported).toContain('location = {München and Berlin}');
    expect(exported).toContain('publisher = {Springer and {Taylor and Francis}}');
    expect(second).toEqual(first);
    // In a plain BibTeX entry "and" in publisher or address is part of the name.
    expect(
      one('@book{b, title = {T}, publisher = {Taylor and Francis}, address = {London and New York}, year = 2020}'),
    ).toMatchObject({ publisher: 'Taylor and Francis', 'publisher-place': 'London and New York' });
  });
});

describe('4. English Title Case titles are stored in sentence case, as the setting says', () => {
  let dir: string;
  let f: CiteFormatter;
  beforeAll(() => {
    dir = buildCslDir();
    f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
  });
  afterAll(async () => {
    await f.close();
  });

  it('converts, protecting braced words, acronyms and words with inner capitals; export gives the title back exactly', () => {
    const source =
      '@article{k, author = {Doe, Jane}, title = {Deep Learning for {DNA} Sequencing with {GPUs} and iPhone Apps}, journal = {Nature Methods}, year = 2020}';
    const { first, exported, second } = roundTrip(source);
    expect(first[0]!.title).toBe(
      'Deep learning for <span class="nocase">DNA</span> sequencing with <span class="nocase">GPUs</span> and iPhone apps',
    );
    expect(first[0]!['container-title']).toBe('Nature Methods');
    expect(exported).toContain('title = {Deep Learning for {DNA} Sequencing with {GPUs} and iPhone Apps}');
    expect(second).toEqual(first);
    const unbraced = '@article{k, title = {Deep Learning for DNA Sequencing: A Review of the Field}}';
    expect(always(unbraced).title).toBe('Deep learning for DNA sequencing: A review of the field');
  });

  // Issue 32: sentence case lowered proper nouns ("keira drake's apology", "in america - the new york
  // times"), and there was no way out.
  it('by default only a title that braces the words whose case matters; "always" as Better BibTeX; "off" never', () => {
    const names = "@article{k, title = {Keira Drake's Apology for the Book}}";
    const braced = '@article{k, title = {In {America}: The Rise of the {New York Times} Reporting}}';
    expect(one(names).title).toBe("Keira Drake's Apology for the Book");
    expect(one(braced).title).toBe(
      'In <span class="nocase">America</span>: The rise of the <span class="nocase">New York Times</span> reporting',
    );
    // Mendeley braces every title whole: nothing is marked, nothing changes.
    expect(one("@article{k, title = {{Keira Drake's Apology for the Book}}}").title).toBe(
      '<span class="nocase">Keira Drake\'s Apology for the Book</span>',
    );
    expect(always(names).title).toBe("Keira drake's apology for the book");
    expect(importText(braced, { sentenceCase: 'off' }).items[0]!.item.title).toBe(
      'In <span class="nocase">America</span>: The Rise of the <span class="nocase">New York Times</span> Reporting',
    );
    // The title as written is kept for "Use the title as written" and for BibTeX export.
    const kept = (one(braced).custom!['bibtex'] as { kept: Record<string, { written?: string }> }).kept;
    expect(kept['title']!.written).toBe(
      'In <span class="nocase">America</span>: The Rise of the <span class="nocase">New York Times</span> Reporting',
    );
    expect(toBibtex([one(braced)])).toContain('title = {In {America}: The Rise of the {New York Times} Reporting}');
  });

  // Issue 32: a booktitle inherited through crossref stayed in Title Case while the book's own entry,
  // and the chapter's title, were in sentence case. biblatex's documentation's shape: a collection and
  // its chapters by crossref, one chapter with the booktitle written out.
  it("a book part's booktitle, written or inherited by crossref, is cased as the book's own title", () => {
    const source = `@collection{handbook,
  editor    = {Doe, Jane},
  title     = {Handbook of Deep Learning for {Europe}},
  publisher = {Springer},
  location  = {Berlin},
  date      = {2020},
}
@incollection{roe,
  author    = {Roe, Ann},
  title     = {Networks That Learn in {Paris}},
  crossref  = {handbook},
  pages     = {1--10},
}
@incollection{poe,
  author    = {Poe, Ed},
  title     = {Networks That Forget in {Rome}},
  booktitle = {Handbook of Deep Learning for {Europe}},
  publisher = {Springer},
  date      = {2020},
}
@article{art,
  author       = {Roe, Ann},
  title        = {Networks That Learn in {Paris}},
  journaltitle = {Journal of Machine Learning Research},
  date         = {2020},
}
`;
    const all = items(source);
    const book = 'Handbook of deep learning for <span class="nocase">Europe</span>';
    expect(byKey(all, 'handbook').title).toBe(book);
    expect(byKey(all, 'roe')['container-title']).toBe(book);
    expect(byKey(all, 'poe')['container-title']).toBe(book);
    // A journal's name is a name: never cased.
    expect(byKey(all, 'art')['container-title']).toBe('Journal of Machine Learning Research');
    // "Use the title as written" gives the booktitle back too, and BibTeX export writes it as it was.
    expect(titlesAsWritten(byKey(all, 'poe'))['container-title']).toBe(
      'Handbook of Deep Learning for <span class="nocase">Europe</span>',
    );
    expect(toBibtex([byKey(all, 'poe')])).toContain('booktitle = {Handbook of Deep Learning for {Europe}}');
    // Off: as written.
    const off = importText(source, { format: 'bibtex', sentenceCase: 'off' }).items.map((i) => i.item);
    expect(byKey(off, 'roe')['container-title']).toBe(
      'Handbook of Deep Learning for <span class="nocase">Europe</span>',
    );
  });

  it.skipIf(!hasPandoc())('a crossref-inherited booktitle is cased as pandoc -f biblatex cases it', () => {
    const source = `@collection{handbook, editor = {Doe, Jane}, title = {Handbook of Deep Learning for {Europe}}, publisher = {Springer}, date = {2020}}
@incollection{roe, author = {Roe, Ann}, title = {Networks That Learn in {Paris}}, crossref = {handbook}, pages = {1--10}}
`;
    const theirs = pandocCsl(source);
    const plain = (v: unknown) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '') : v);
    const ours = byKey(items(source), 'roe');
    const pandoc = theirs.find((p) => p.id === 'roe')!;
    expect(plain(ours['container-title'])).toBe(plain(pandoc['container-title']));
    expect(plain(ours.title)).toBe(plain(pandoc.title));
  });

  it('never lowers a word capitalised inside a sentence: one lower-case word, however short, says sentence case', () => {
    for (const title of [
      'In America: the New York Times on the war',
      'How Darwin Read Lyell in the sea',
      "Keira Drake's apology for the book",
    ])
      expect(always(`@article{k, title = {${title}}}`).title).toBe(title);
    // A spaced dash starts a subtitle, as a colon does.
    expect(always('@article{k, title = {In America - The New York Times Reports on the Economy}}').title).toBe(
      'In america - The new york times reports on the economy',
    );
  });

  it('counts the titles it changed, for the import report and preview', () => {
    const file =
      '@article{a, title = {Deep Learning for {DNA} Sequencing}}\n@article{b, title = {Deep Learning for Protein Folding}}\n@article{c, title = {A sentence-case title}}';
    expect(importText(file).titlesCased).toBe(1);
    expect(importText(file, { sentenceCase: 'always' }).titlesCased).toBe(2);
    expect(importText(file, { sentenceCase: 'off' }).titlesCased).toBeUndefined();
  });

  it('only for English or unmarked entries (langid, then language), as Better BibTeX does', () => {
    const one = always;
    const title = 'Deep Learning for Protein Folding';
    expect(one(`@article{k, title = {${title}}, langid = {english}}`).title).toBe('Deep learning for protein folding');
    expect(one(`@article{k, title = {${title}}, language = {British}}`).title).toBe(
      'Deep learning for protein folding',
    );
    expect(one(`@article{k, title = {${title}}, langid = {en-US}}`).title).toBe('Deep learning for protein folding');
    expect(one(`@article{k, title = {${title}}, langid = {ngerman}}`).title).toBe(title);
    expect(one(`@article{k, title = {${title}}, language = {French}}`).title).toBe(title);
  });

  it('leaves titles that are not Title Case alone', () => {
    for (const title of [
      'The role of Darwin in modern biology',
      'Gödel and Ångström',
      'Ångström, Gödel, Dvořák, Straße',
      'DNA',
      'Deep Residual Learning',
    ])
      expect(always(`@article{k, title = {${title}}}`).title).toBe(title);
  });

  it('APA, AMA and Vancouver print the sentence-case title, with the subtitle and without a repeated booktitle', async () => {
    const list =
      items(`@article{dl, author = {Doe, Jane}, title = {Deep Learning for {DNA} Sequencing}, subtitle = {A Review of the Methods}, journal = {Nature Methods}, volume = 17, pages = {1--10}, year = 2020, doi = {10.1038/S41592-020-0001-X}}
@proceedings{pr, editor = {Roe, Richard}, title = {Proceedings of the Tenth Workshop on Parsing}, booktitle = {Proceedings of the Tenth Workshop on Parsing}, publisher = {ACL}, year = 2019}`);
    for (const style of ['apa', 'ama', 'vancouver'] as const) {
      const bib = await f.formatBibliography(list, { style, format: 'text' });
      const dl = bib.entries.find((e) => e.id === 'dl')!.value;
      expect(dl, style).toContain('Deep learning for DNA sequencing: A review of the methods');
      if (style === 'apa') expect(dl).toContain('https://doi.org/10.1038/S41592-020-0001-X');
      const pr = bib.entries.find((e) => e.id === 'pr')!.value;
      expect(pr.match(/Proceedings of the tenth workshop on parsing/gi), `${style}: ${pr}`).toHaveLength(1);
    }
  });
});

describe('5. DOIs keep their case', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('keeps the DOI as written (without a resolver prefix) and still compares it case-insensitively', () => {
    const item = one('@article{k, title = {T}, doi = {https://doi.org/10.1038/NATURE12373}}');
    expect(item.DOI).toBe('10.1038/NATURE12373');
    expect(toBibtex([item])).toContain('doi = {10.1038/NATURE12373}');
    const r = importItems(t.library, [item]);
    expect(r.added).toBe(1);
    // The same entry again, its DOI in another case: the same DOI, so nothing is added.
    const again = importItems(t.library, [one('@article{k, title = {T}, doi = {10.1038/nature12373}}')]);
    expect(again.added).toBe(0);
    expect(again.duplicates).toHaveLength(1);
    expect(t.library.getItem(r.ids[0]!).doi).toBe('10.1038/nature12373');
    expect(t.library.getItem(r.ids[0]!).csl.DOI).toBe('10.1038/NATURE12373');
  });
});

describe('6. names', () => {
  it('reads particles as CSL non-dropping particles', () => {
    expect(
      one('@book{b, author = {van der Berg, Jan and Ludwig van Beethoven and de la Fontaine, Jean}}').author,
    ).toEqual([
      { 'non-dropping-particle': 'van der', family: 'Berg', given: 'Jan' },
      { given: 'Ludwig', 'non-dropping-particle': 'van', family: 'Beethoven' },
      { 'non-dropping-particle': 'de la', family: 'Fontaine', given: 'Jean' },
    ]);
  });

  it('reads a compound family name in "Family, Given" form as one family name, and writes it back the same', () => {
    const { first, second } = roundTrip(
      "@book{b, author = {L{\\'o}pez de Molina, Ana and Garc{\\'i}a y Gasset, J. and Ortega y Gasset, Jos{\\'e}}}",
    );
    expect(first[0]!.author).toEqual([
      { family: 'López de Molina', given: 'Ana' },
      { family: 'García y Gasset', given: 'J.' },
      { family: 'Ortega y Gasset', given: 'José' },
    ]);
    expect(second).toEqual(first);
  });

  it('stacks accents in the order written and leaves no brace behind', () => {
    const item = one(
      '@book{b, author = {Nguy{\\~\\^e}n, {\\d U}y and Hu{\\d u}nh, Th{\\d{i}} and Tr\\`{\\^a}n, V\\u{a}n and Ph{\\h u}, A}, title = {{\\d{D}}{\\~\\^e} {\\h{o}}}}',
    );
    expect(item.author).toEqual([
      { family: 'Nguyễn', given: 'Ụy' },
      { family: 'Huụnh', given: 'Thị' },
      { family: 'Trần', given: 'Văn' },
      { family: 'Phủ', given: 'A' },
    ]);
    expect(item.title).toBe('Ḍễ ỏ');
    for (const text of [item.title, ...item.author!.flatMap((n) => Object.values(n))])
      expect(String(text)).not.toMatch(/[{}\\]/);
    for (const ascii of [false, true]) expect(items(toBibtex([item], { ascii }))).toEqual([item]);
  });
});
