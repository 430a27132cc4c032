/// <reference lib="dom" />
// A researcher's whole working session at a realistic size, in Chromium against browser mode and the
// local service: a .bib of 300 entries in the shapes Zotero, Better BibTeX and JabRef write (subtitles,
// braces, accents, @string abbreviations, trailing commas), 20 of them with DOIs the service knows and
// enriched; a 150-entry bibliography exported in APA; a citation graph of the 20; an assistant answer
// with one of its references added; a reference check of a .bib with its problems first; and the 20
// filed into a collection from the keyboard. A screenshot (light, and dark where it matters) at each step.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { shootThemes } from './axe';
import { openSession, RESULTS_DIR, type AppSession } from './harness';
import { pickDois } from './seed';
import { shownText, shownTexts } from './text';

const ENTRIES = 300;
const WITH_DOI = 20;
const CHAPTER = 150;
const NUMBER = new Intl.NumberFormat('en');

/** Authors as the three tools write them: TeX accents, UTF-8, a corporate name in braces, a particle. */
const AUTHORS = [
  'M{\\"u}ller, J{\\"o}rg and Garc{\\\'i}a-M{\\\'a}rquez, Ana',
  '{\\AA}str{\\"o}m, Karl',
  "Fran{\\c{c}}ois, Élodie and Nakamura, Yūki and O'Neil, Mary",
  '{World Health Organization}',
  'van der Berg, Pieter and Okafor, Ngozi A.',
];
const SUBJECTS = [
  'groundwater recharge',
  'soil microbiomes',
  'coral reef resilience',
  'urban heat islands',
  'peatland carbon',
];

interface Shape {
  key: string;
  /** What the title must read as in the library (braces gone, subtitle joined). */
  title: string;
  text: string;
}

/** Entry `i` in one of three exporters' shapes, tagged chapter2 for the first CHAPTER, with a known DOI for the first WITH_DOI. */
function entry(i: number, doi: string | undefined): Shape {
  const n = String(i).padStart(3, '0');
  const subject = SUBJECTS[i % SUBJECTS.length]!;
  const author = AUTHORS[i % AUTHORS.length]!;
  const year = 1995 + (i % 30);
  const tags = [i < CHAPTER ? 'chapter2' : 'background', ...(doi ? ['measured'] : [])];
  const doiLine = (indent: string, pad = '') => (doi ? `${indent}doi${pad} = {${doi}},\n` : '');
  switch (i % 3) {
    case 0: {
      // Zotero's own BibTeX export: tabs, protected capitals word by word, month as a macro, a trailing comma.
      const key = `zotero_${subject.split(' ')[0]}_${year}_${n}`;
      return {
        key,
        title: `${subject[0]!.toUpperCase()}${subject.slice(1)} in a changing climate: A field study ${n}`,
        text: `@article{${key},\n\ttitle = {${subject[0]!.toUpperCase()}${subject.slice(1)} in a changing climate: {A} field study ${n}},\n\tvolume = {${i % 40}},\n\tissn = {0022-1694},\n\tshorttitle = {${subject} in a changing climate},\n\turl = {https://example.org/${n}},\n${doiLine('\t')}\tlanguage = {en},\n\tnumber = {${(i % 4) + 1}},\n\turldate = {2023-01-05},\n\tjournal = {Journal of Hydrology},\n\tauthor = {${author}},\n\tmonth = mar,\n\tyear = {${year}},\n\tkeywords = {${tags.join(', ')}},\n\tpages = {${i + 1}--${i + 19}},\n\tfile = {Full Text:files/${i}/paper.pdf:application/pdf},\n}\n`,
      };
    }
    case 1: {
      // JabRef: capitalised entry type, aligned fields, an @string journal, groups and a comment.
      const key = `Jabref${year}${n}`;
      return {
        key,
        title: `Modelling ${subject} across Europe ${n}`,
        text: `@Article{${key},\n  author    = {${author}},\n  journal   = jhyd,\n  title     = {Modelling {${subject}} across {Europe} ${n}},\n  year      = {${year}},\n  month     = sep,\n  number    = {${(i % 6) + 1}},\n  pages     = {${i}--${i + 12}},\n  volume    = {${i % 50}},\n${doiLine('  ', '      ')}  comment   = {Read for chapter 2; see Table 3},\n  keywords  = {${tags.join(', ')}},\n  groups    = {thesis},\n}\n`,
      };
    }
    default: {
      // Better BibTeX (biblatex): double braces, a subtitle field, date, journaltitle or a book's location.
      const key = `bbt${subject.replace(/\s/g, '')}${year}${n}`;
      const book = i % 2 === 0;
      return {
        key,
        title: `The ${subject[0]!.toUpperCase()}${subject.slice(1)} Handbook ${n}: Methods and Cases`,
        text: `@${book ? 'book' : 'article'}{${key},\n  title = {The {{${subject[0]!.toUpperCase()}${subject.slice(1)}}} {{Handbook}} ${n}},\n  subtitle = {Methods and {{Cases}}},\n  author = {${author}},\n  date = {${year}-06-01},\n${book ? '  publisher = {{Riverside Press}},\n  location = {Lagos},\n' : '  journaltitle = {Environmental Research Letters},\n  volume = {7},\n'}${doiLine('  ')}  langid = {english},\n  keywords = {${tags.join(',')}}\n}\n`,
      };
    }
  }
}

describe('a researcher’s whole session at 300 items', () => {
  let service: RunningService;
  let session: AppSession;
  let page: Page;
  const started = Date.now();
  let dois: string[];
  let retracted: string;
  let shapes: Shape[];

  const count = () => shownText(page.getByTestId('item-count'));
  const search = () => page.getByRole('searchbox', { name: 'Search the library' });
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);
  const cell = (i: number, col: string) => rowAt(i).locator(`.cell.${col}`);
  const toast = () => shownText(page.getByTestId('toast'));
  const collection = (name: string) => page.locator('[data-collection]', { hasText: name });
  const shoot = (name: string, dark = false): Promise<void> =>
    shootThemes(page, `session-${name}`, { dark, settleMs: 300 });

  async function find(query: string, expected: number): Promise<void> {
    await search().fill(query);
    await expect.poll(count, { timeout: 20_000 }).toBe(`${NUMBER.format(expected)} item${expected === 1 ? '' : 's'}`);
  }

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 600, assistantStepMs: 300, referenceCheckMs: 500, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    retracted = pickDois(service).retracted;
    dois = service.corpus.db
      .prepare(`SELECT doi FROM papers WHERE retracted = 0 AND notice_flags = 0 ORDER BY id LIMIT ?`)
      .pluck()
      .all(WITH_DOI) as string[];
    expect(dois).toHaveLength(WITH_DOI);
    // Spread over the file, so every exporter's shape carries some of them.
    const doiAt = new Map(dois.map((d, k) => [k * 15 + (k % 3), d]));
    shapes = Array.from({ length: ENTRIES }, (_, i) => entry(i, doiAt.get(i)));
    expect(shapes.filter((s) => /\bdoi\s*=/.test(s.text))).toHaveLength(WITH_DOI);
    session = await openSession(service.url, fullKey);
    page = session.page;
    await page.getByTestId('first-run').waitFor();
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await service?.close();
    console.log(`whole session: ${Math.round((Date.now() - started) / 1000)} s`);
  });

  it('imports 300 entries as three tools export them, with titles, subtitles and accents read right', async () => {
    const bib = `% Encoding: UTF-8\n\n@String{jhyd = {Journal of Hydrology}}\n\n${shapes.map((s) => s.text).join('\n')}\n@Comment{jabref-meta: databaseType:bibtex;}\n`;
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'thesis.bib', mimeType: 'application/x-bibtex', buffer: Buffer.from(bib) });
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-summary').waitFor();
    await shoot('import-summary', true);
    // Names whole in the preview: the particle of “van der Berg” kept, accents decoded.
    expect(await shownText(dialog.locator('table'))).toContain('Pieter van der Berg; Ngozi A. Okafor');
    expect(await shownText(dialog.locator('table'))).toContain('Jörg Müller; Ana García-Márquez');
    await dialog.getByRole('button', { name: `Import ${ENTRIES} entries` }).click();
    await dialog.getByTestId('import-report').waitFor();
    expect(await shownText(dialog.getByTestId('import-report'))).toContain(`Added ${ENTRIES} items`);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES} items`);

    // One of each shape, as the library reads it.
    // (Each search answers one item, so the row, not the count, shows the search has run.)
    const title = async () => await shownText(cell(0, 'title'));
    for (const i of [0, 1, 2, 5]) {
      const s = shapes[i]!;
      await search().fill(`key:${s.key}`);
      await expect.poll(title, { timeout: 20_000, message: s.key }).toBe(s.title);
      expect(await count()).toBe('1 item');
    }
    for (const [query, creator] of [
      ['author:müller', /^Müller; García-Márquez/],
      ['author:åström', /^Åström$/],
      ['author:"World Health Organization"', /^World Health Organization$/],
    ] as const) {
      await search().fill(query);
      await expect
        .poll(async () => await shownText(cell(0, 'creators')), { timeout: 20_000, message: query })
        .toMatch(creator);
      await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES / AUTHORS.length} items`);
    }
    await search().fill('');
    await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES} items`);
    await shoot('library-300', true);
  });

  it('enriches the 20 with DOIs: their tallies equal the service’s', async () => {
    const res = await fetch(`${service.url}/tallies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(dois),
    });
    const tallies = (
      (await res.json()) as {
        tallies: Record<string, { supporting: number; contradicting: number; mentioning: number }>;
      }
    ).tallies;
    const byDoi = new Map(Object.entries(tallies).map(([d, t]) => [d.toLowerCase(), t]));
    await page.getByRole('button', { name: /^measured \d+/ }).click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${WITH_DOI} items`);
    await expect
      .poll(() => shownText(page.getByTestId('jobs')), { timeout: 60_000 })
      .toMatch(new RegExp(`Enrich ${ENTRIES} items \\(${WITH_DOI} DOIs\\)\\W+done|No background jobs`));
    for (let i = 0; i < WITH_DOI; i++) {
      const row = rowAt(i);
      await row.click();
      await page.keyboard.press('Enter');
      const doi = (await page.getByLabel('DOI', { exact: true }).inputValue()).toLowerCase();
      const t = byDoi.get(doi)!;
      expect(t, doi).toBeTruthy();
      await expect.poll(() => shownText(cell(i, 'supporting')), { timeout: 30_000 }).toBe(NUMBER.format(t.supporting));
      expect(await shownText(cell(i, 'contrasting'))).toBe(NUMBER.format(t.contradicting));
      expect(await shownText(cell(i, 'mentioning'))).toBe(NUMBER.format(t.mentioning));
      if (i >= 3) break;
    }
    await page.keyboard.press('Escape');
    await shoot('enriched', true);
  });

  it('exports the 150-entry chapter bibliography in APA, and copies it', async () => {
    await page.getByRole('button', { name: 'Remove tag filter measured' }).click();
    await page.getByRole('button', { name: /^chapter2 \d+/ }).click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${CHAPTER} items`);
    await page.getByTestId('export-button').click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    await page.getByTestId('export-format').selectOption('text');
    await page.getByTestId('export-style').selectOption('apa');
    await expect
      .poll(() => shownText(page.getByTestId('export-bibliography')), { timeout: 30_000 })
      .toMatch(/Müller, J\./);
    await shoot('export-150', true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Save to file…' }).click(),
    ]);
    const text = readFileSync((await download.path())!, 'utf8');
    await expect
      .poll(() => shownText(page.getByTestId('export-message')), { timeout: 30_000 })
      .toContain(`Saved ${CHAPTER} entries`);
    writeFileSync(join(RESULTS_DIR, 'session-bibliography-apa.txt'), text);
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(CHAPTER);
    // A few entries, whole: a Zotero article with two accented authors, a JabRef article with its
    // @string journal, a Better BibTeX book with its subtitle and publisher.
    // (Years take a letter where one author has two works in a year: 1996a, 1996b.)
    const one = (re: RegExp) =>
      expect(
        lines.filter((l) => re.test(l)),
        String(re),
      ).toHaveLength(1);
    one(
      /^Åström, K\. \(1996[a-c]?\)\. Modelling soil microbiomes across Europe 001\. Journal of Hydrology, 1\(2\), 1–13\.$/,
    );
    one(
      /^Åström, K\. \(2016[a-c]?\)\. Soil microbiomes in a changing climate: A field study 021\. Journal of Hydrology, 21\(2\), 22–40\. https:\/\/example\.org\/021$/,
    );
    one(/^Åström, K\. \(2021[a-c]?\)\. The Soil microbiomes Handbook 026: Methods and Cases\. Riverside Press\.$/);
    one(
      /^Müller, J\., & García-Márquez, A\. \(2000[a-c]?\)\. The Groundwater recharge Handbook 005: Methods and Cases\. Environmental Research Letters, 7\.$/,
    );
    one(
      /^François, É\., Nakamura, Y\., & O’Neil, M\. \(2002[a-c]?\)\. Modelling coral reef resilience across Europe 007\. Journal of Hydrology, 7\(2\), 7–19\.$/,
    );
    expect(lines.filter((l) => l.startsWith('World Health Organization. ('))).toHaveLength(CHAPTER / AUTHORS.length);
    await dialog.getByRole('button', { name: 'Copy to clipboard' }).click();
    await expect
      .poll(() => shownText(page.getByTestId('export-message')), { timeout: 30_000 })
      .toContain('Bibliography copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n').filter((l) => l.trim() !== '')).toEqual(lines);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Remove tag filter chapter2' }).click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES} items`);
  });

  it('opens a citation graph of the 20 from the selection', async () => {
    await page.getByRole('button', { name: /^measured \d+/ }).click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${WITH_DOI} items`);
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Shift+F10');
    await page.getByTestId('selection-menu').getByRole('menuitem', { name: 'Open in citation graph' }).click();
    const status = () => shownText(page.getByTestId('graph-status'));
    await expect.poll(status, { timeout: 30_000 }).toMatch(new RegExp(`^${WITH_DOI} papers · \\d+ citation links`));
    await expect.poll(status, { timeout: 30_000 }).not.toMatch(/laying out/);
    await shoot('graph', true);
    await page.keyboard.press('Control+1');
    await page.getByRole('button', { name: 'Remove tag filter measured' }).click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES} items`);
  });

  it('asks the assistant, and adds one reference of its answer to the library', async () => {
    await page.keyboard.press('Control+4');
    await page.getByTestId('assistant-question').fill('Does drought change soil microbiome diversity?');
    await page.getByTestId('assistant-ask').click();
    const turn = page.getByTestId('assistant-turn').last();
    await expect.poll(() => turn.getAttribute('data-status'), { timeout: 90_000 }).toBe('answered');
    expect(await turn.getByTestId('answer-marker').count()).toBeGreaterThan(0);
    await turn.getByLabel('Choose reference 1', { exact: true }).check();
    await expect.poll(() => shownText(turn.getByTestId('add-references'))).toMatch(/Add 1 chosen to library/);
    await turn.getByTestId('add-references').click();
    await expect.poll(() => shownText(turn.getByTestId('add-report')), { timeout: 20_000 }).toMatch(/^Added 1\b/);
    await expect
      .poll(() => turn.getByTestId('answer-reference').first().getByTestId('reference-in-library').count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await shoot('assistant-answer', true);
    await page.keyboard.press('Control+1');
    await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES + 1} items`);
  });

  it('checks the references of a .bib: problems first', async () => {
    await page.keyboard.press('Control+4');
    await page.getByTestId('tab-check').click();
    const db = service.corpus.db;
    const bad = db.prepare('SELECT title, year FROM papers WHERE doi = ?').get(retracted) as {
      title: string;
      year: number;
    };
    const bib = [
      `@article{fine1,\n  title = {${shapes[0]!.title}},\n  doi = {${dois[0]}}\n}\n`,
      `@article{gone,\n  title = {An entirely unrelated title about medieval pottery glazes},\n  year = {1999}\n}\n`,
      `@article{fine2,\n  title = {Second},\n  doi = {${dois[1]}}\n}\n`,
      `@article{bad,\n  title = {${bad.title}},\n  year = {${bad.year}},\n  doi = {${retracted}}\n}\n`,
    ].join('\n');
    await page
      .getByTestId('refcheck-file')
      .setInputFiles({ name: 'chapter2.bib', mimeType: 'application/x-bibtex', buffer: Buffer.from(bib) });
    await page.getByTestId('refcheck-start').click();
    await page.getByTestId('refcheck-result').waitFor({ timeout: 60_000 });
    const rows = page.getByTestId('refcheck-row');
    expect(await rows.count()).toBe(4);
    // Problems first: the retracted paper, then the one found nowhere, then any other problem, then the rest.
    const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-problem')));
    expect(order.slice(0, 2)).toEqual(['retracted', 'not-found']);
    expect(order.slice(2).every((p, k, rest) => p !== '' || rest.slice(k).every((q) => q === ''))).toBe(true);
    expect(await shownText(page.getByTestId('refcheck-retracted-count'))).toBe('1 retracted');
    await shoot('reference-check', true);
  });

  it('files the 20 into a collection from the keyboard, and the sidebar counts them', async () => {
    await page.keyboard.press('Control+1');
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('New collection name').fill('Chapter 2 — evidence');
    await page.getByLabel('New collection name').press('Enter');
    await collection('Chapter 2 — evidence').waitFor();
    await page.getByTestId('view-library').click();
    await find('tag:measured', WITH_DOI);
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+Shift+L');
    const picker = page.getByTestId('collection-picker');
    await picker.waitFor();
    await page.keyboard.type('chap');
    await shoot('collection-picker');
    await page.keyboard.press('Enter');
    await expect.poll(toast, { timeout: 20_000 }).toContain(`Added ${WITH_DOI} items to “Chapter 2 — evidence”`);
    await expect
      .poll(() => shownText(collection('Chapter 2 — evidence').locator('.count')), { timeout: 20_000 })
      .toBe(String(WITH_DOI));
    await collection('Chapter 2 — evidence').click();
    await expect.poll(count, { timeout: 20_000 }).toBe(`${WITH_DOI} items`);
    await shoot('collection', true);
  });

  it('adds another answer reference into that collection: the reference check’s and the sidebar’s counts follow', async () => {
    await page.keyboard.press('Control+4');
    await page.getByTestId('tab-ask').click();
    const turn = page.getByTestId('assistant-turn').last();
    await expect
      .poll(() => shownTexts(turn.getByTestId('add-collection').locator('option')), { timeout: 15_000 })
      .toContain('Chapter 2 — evidence');
    await turn.getByLabel('Choose reference 2', { exact: true }).check();
    await turn.getByTestId('add-collection').selectOption({ label: 'Chapter 2 — evidence' });
    await turn.getByTestId('add-references').click();
    await expect
      .poll(() => shownText(turn.getByTestId('add-report')), { timeout: 20_000 })
      .toMatch(/^Added 1\b.*in “Chapter 2 — evidence”/);
    await page.getByTestId('tab-check').click();
    const option = page.getByTestId('refcheck-source').locator('option', { hasText: 'Chapter 2 — evidence' });
    await expect
      .poll(() => shownText(option), { timeout: 10_000 })
      .toBe(`collection “Chapter 2 — evidence” (${WITH_DOI + 1})`);
    await page.keyboard.press('Control+1');
    await expect
      .poll(() => shownText(collection('Chapter 2 — evidence').locator('.count')), { timeout: 20_000 })
      .toBe(String(WITH_DOI + 1));
    await page.getByTestId('view-library').click();
    await search().fill('');
    await expect.poll(count, { timeout: 20_000 }).toBe(`${ENTRIES + 2} items`);
  });

  it('logged no console errors', () => {
    expect(session.problems.errors).toEqual([]);
  });
});
