// `citewise add` beyond DOIs, against the local citation service: a mixed list (a DOI, arXiv ids in
// both forms, a PMID, a PMCID, ISBNs), each added where the service or an offline rule can resolve it
// and refused with its reason otherwise; an arXiv paper the service knows comes with its arXiv number
// and link; offline, an arXiv id waits as a placeholder. Also `add --type` and `add --duplicate`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceClient } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import type { IdentifierOutcome } from '../../../shared/model/add-by-identifier';
import { service } from '../service-client/helpers';
import { run, runWith, tempDir } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let corpusDir: ReturnType<typeof tempDir>;
let data: ReturnType<typeof tempDir>;
let known: { doi: string; title: string };
const ARXIV = '2101.00001';

beforeAll(async () => {
  // A corpus of this test's own, in which one preprint is an arXiv paper (registered under arXiv's
  // DataCite DOI), as the real service indexes them: the test plants the data, the service is the real one.
  corpusDir = tempDir('citewise-corpus-');
  const db = join(corpusDir.path, 'corpus.db');
  const first = await service({ papers: 400, seed: 5, dbPath: db });
  await first.close();
  const corpus = new Database(db);
  const row = corpus.prepare("SELECT id, doi FROM papers WHERE ntypes LIKE '%preprint%' ORDER BY id LIMIT 1").get() as {
    id: number;
  };
  corpus.prepare('UPDATE papers SET doi = ? WHERE id = ?').run(`10.48550/arxiv.${ARXIV}`, row.id);
  corpus.close();
  svc = await service({ papers: 400, seed: 5, dbPath: db });
  known = svc.corpus.db
    .prepare('SELECT doi, title FROM papers WHERE doi NOT LIKE ? ORDER BY id LIMIT 1')
    .get('10.48550/%') as {
    doi: string;
    title: string;
  };
  data = tempDir();
});
afterAll(async () => {
  await svc?.close();
  data?.remove();
  corpusDir?.remove();
});

const openServiceAt = (url: string) => () =>
  openServiceClient({
    dataDir: data.path,
    mode: 'cli',
    logger: silentLogger,
    serviceUrl: url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
  });

interface Report {
  outcomes: IdentifierOutcome[];
  added: { doi: string }[];
}

describe('citewise add ID…', () => {
  it('adds DOIs and arXiv ids through the service and refuses PMIDs, PMCIDs, ISBNs and malformed ids with the reason', async () => {
    const book = await run(data.path, 'add', '--type', 'book', 'title=Logik der Forschung', 'ISBN=0-306-40615-2');
    expect(book.code).toBe(0);
    const r = await runWith(
      { openService: openServiceAt(svc.url) },
      data.path,
      'add',
      known.doi,
      `arXiv:${ARXIV}v2`,
      'hep-th/9901001',
      'PMID: 31452104',
      'PMC6704497',
      '978-0-306-40615-7',
      '978-3-16-148410-0',
      '978-3-16-148410-1',
      '0703.1234',
      '--json',
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    const o = (label: string) => report.outcomes.find((x) => x.input === label)!;
    expect(o(known.doi)).toMatchObject({ kind: 'doi', status: 'added' });
    expect(o(`arXiv:${ARXIV}v2`)).toMatchObject({
      kind: 'arxiv',
      label: `arXiv:${ARXIV}v2`,
      status: 'added',
      doi: `10.48550/arxiv.${ARXIV}`,
    });
    expect(o('hep-th/9901001')).toMatchObject({
      status: 'not-added',
      code: 'NOT_FOUND',
      reason:
        'the citation service does not know this arXiv paper (its DOI 10.48550/arXiv.hep-th/9901001); New item → Preprint adds it by hand',
    });
    expect(o('PMID: 31452104')).toMatchObject({ kind: 'pmid', status: 'not-added', code: 'NO_SOURCE' });
    expect(o('PMC6704497')).toMatchObject({ kind: 'pmcid', status: 'not-added', code: 'NO_SOURCE' });
    // The same book as the ISBN-10 typed in above: already in the library.
    expect(o('978-0-306-40615-7')).toMatchObject({ kind: 'isbn', status: 'duplicate', itemId: 1 });
    expect(o('978-3-16-148410-0')).toMatchObject({ status: 'not-added', code: 'NO_SOURCE', isbn: '9783161484100' });
    expect(o('978-3-16-148410-1')).toMatchObject({
      kind: 'invalid',
      code: 'INVALID_INPUT',
      reason: expect.stringContaining('check digit should be 0'),
    });
    expect(o('0703.1234')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('April 2007') });
    // The DOI-only report's fields are still there for scripts.
    expect(report.added.map((a) => a.doi)).toEqual([known.doi.toLowerCase(), `10.48550/arxiv.${ARXIV}`]);

    const arxiv = JSON.parse((await run(data.path, 'search', `doi:10.48550/arxiv.${ARXIV}`, '--json')).stdout) as {
      items: { id: number }[];
    };
    expect(arxiv.items).toHaveLength(1);

    // The text report: one line each, the refusals on stderr with a way forward.
    const text = await runWith(
      { openService: openServiceAt(svc.url) },
      data.path,
      'add',
      `https://arxiv.org/abs/${ARXIV}`,
      'ISBN 9783161484100',
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`arXiv:${ARXIV}: already in the library`);
    expect(text.stderr).toContain(
      'citewise: ISBN 9783161484100: not added: the citation service finds papers by DOI only, and there is no source of book metadata here to look up an ISBN; create the book by hand (its ISBN filled in) (citewise add --type book ISBN=9783161484100 title="…")',
    );
  }, 300_000);

  it('keeps an arXiv id as a placeholder with its number and link when the service cannot be reached (exit 4)', async () => {
    const offline = tempDir();
    try {
      const r = await runWith(
        {
          openService: () =>
            openServiceClient({
              dataDir: offline.path,
              mode: 'cli',
              logger: silentLogger,
              serviceUrl: 'http://127.0.0.1:9',
              secrets: createMemorySecretStore(),
            }),
        },
        offline.path,
        'add',
        '2301.01234v3',
        '--json',
      );
      expect(r.code).toBe(4);
      const report = JSON.parse(r.stdout) as Report;
      expect(report.outcomes[0]).toMatchObject({ status: 'queued', label: 'arXiv:2301.01234v3' });
      const item = JSON.parse(
        (await run(offline.path, 'search', 'doi:10.48550/arxiv.2301.01234', '--json')).stdout,
      ) as {
        items: { id: number; type: string }[];
      };
      expect(item.items[0]).toMatchObject({ type: 'article' });
      const bib = (await run(offline.path, 'export', '--format', 'csl-json')).stdout;
      expect(JSON.parse(bib)[0]).toMatchObject({
        number: 'arXiv:2301.01234',
        URL: 'https://arxiv.org/abs/2301.01234v3',
        version: '3',
        publisher: 'arXiv',
        DOI: '10.48550/arxiv.2301.01234',
      });
    } finally {
      offline.remove();
    }
  }, 300_000);
});

describe('citewise add --type and --duplicate', () => {
  it('adds an item of any type by hand, checks its fields, and copies one', async () => {
    const dir = tempDir();
    try {
      const thesis = await run(
        dir.path,
        'add',
        '--type',
        'thesis',
        'title=On the Origin of Errors',
        'author=Darwin, Charles',
        'university=University of Cambridge',
        'genre=PhD thesis',
        'date=1859-11',
        'archive=Cambridge University Library',
        'archive_location=MS DAR 1',
        '--json',
      );
      expect(thesis.code).toBe(0);
      const made = JSON.parse(thesis.stdout) as { id: number; citationKey: string; item: Record<string, unknown> };
      expect(made.citationKey).toBe('darwinOriginErrors1859');
      expect(made.item).toMatchObject({
        type: 'thesis',
        publisher: 'University of Cambridge',
        genre: 'PhD thesis',
        issued: { 'date-parts': [[1859, 11]] },
        author: [{ family: 'Darwin', given: 'Charles' }],
        archive_location: 'MS DAR 1',
      });

      const web = await run(
        dir.path,
        'add',
        '--type',
        'webpage',
        'title=Citewise',
        'author={World Health Organization}',
        'url=https://example.org/',
        'accessed=2024-02-01',
      );
      expect(web.code).toBe(0);
      expect(web.stdout).toMatch(/^added item 2 as worldCitewise: web page “Citewise”\n$/);

      const software = await run(
        dir.path,
        'add',
        '--type',
        'computerProgram',
        'title=Citewise',
        'version=0.1',
        'programmer=Doe, Jo',
      );
      expect(software.code).toBe(0);
      // Zotero's name for the type: a computer program is CSL's software.
      expect(software.stdout).toContain(': software “Citewise”');

      // Wrong usage: exit 2, saying what and where.
      const cases: [string[], string][] = [
        [['--type', 'novel', 'title=x'], '"novel" is not an item type'],
        [['--type', 'journalArticl', 'title=x'], "Zotero's names"],
        [
          ['--type', 'book', 'title=x', 'ISBN=0-306-40615-3'],
          'ISBN: 0-306-40615-3: The ISBN-10 check digit should be 2',
        ],
        [['--type', 'webpage', 'title=x', 'ISBN=0-306-40615-2'], 'A web page has no field "ISBN"'],
        [['--type', 'book', 'title=x', 'colour=red'], '"colour" is not a field Citewise knows'],
        [['--type', 'book', 'director=Doe, J'], '"director" is not a field Citewise knows'],
        [['--type', 'book', 'no-equals-sign'], 'is not FIELD=VALUE'],
        [['--type', 'book', 'publisher=X'], 'needs a title or a creator'],
        [['--type', 'book'], 'needs fields'],
        [['--type', 'book', 'title=x', 'title=y'], 'given twice'],
      ];
      for (const [args, message] of cases) {
        const r = await run(dir.path, 'add', ...args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toContain(message);
      }
      const fields = await run(dir.path, 'add', '--type', 'dataset', '--fields');
      expect(fields.code).toBe(0);
      expect(fields.stdout).toContain('publisher                 Repository');

      const copy = await run(dir.path, 'add', '--duplicate', 'darwinOriginErrors1859', '--json');
      expect(copy.code).toBe(0);
      expect(JSON.parse(copy.stdout)).toMatchObject({ citationKey: 'darwinOriginErrors1859a', copyOf: made.id });
      expect((await run(dir.path, 'add', '--duplicate', 'nobody')).code).toBe(1);
    } finally {
      dir.remove();
    }
  }, 300_000);
});

describe('citewise keys', () => {
  it('sets the formula (refusing one that does not compile), previews it, and regenerates chosen keys', async () => {
    const dir = tempDir();
    try {
      mkdirSync(dir.path, { recursive: true });
      await run(dir.path, 'add', '--type', 'book', 'title=Alpha Book', 'author=Smith, A', 'date=2020');
      await run(dir.path, 'add', '--type', 'book', 'title=Beta Book', 'author=Smith, B', 'date=2020');
      expect((await run(dir.path, 'keys', 'formula')).stdout).toBe(
        'auth.lower + shorttitle(3,3) + year (the default)\n',
      );
      const bad = await run(dir.path, 'keys', 'formula', 'autor + year');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('did you mean auth?\n  autor + year\n  ^');
      const set = await run(dir.path, 'keys', 'formula', 'auth.lower + year');
      expect(set.code).toBe(0);
      expect(set.stdout).toContain('New keys are now made with: auth.lower + year');
      // Existing keys are pinned: the preview shows what the formula would give, nothing changes.
      const preview = await run(dir.path, 'keys', 'preview');
      expect(preview.stdout).toBe(
        'auth.lower + year\nsmithAlphaBook2020\tsmith2020\tAlpha Book\nsmithBetaBook2020\tsmith2020\tBeta Book\n',
      );
      const dry = await run(dir.path, 'keys', 'regenerate', '--all', '--dry-run');
      expect(dry.stdout).toContain('2 keys would change');
      const again = await run(dir.path, 'keys', 'preview', "auth.upper + '-' + shortyear", '--limit', '1');
      expect(again.stdout).toBe("auth.upper + '-' + shortyear\nsmithAlphaBook2020\tSMITH-20\tAlpha Book\n");
      const regen = await run(dir.path, 'keys', 'regenerate', 'smithAlphaBook2020', 'smithBetaBook2020');
      expect(regen.stdout).toBe(
        'smithAlphaBook2020 → smith2020\nsmithBetaBook2020 → smith2020a\n2 keys changed, 0 keys already as the formula gives.\n',
      );
      // A new item takes the formula, and the first free suffix whatever the case.
      const third = await run(dir.path, 'add', '--type', 'book', 'title=Gamma', 'author=SMITH, C', 'date=2020');
      expect(third.stdout).toContain('as smith2020b');
      expect((await run(dir.path, 'keys', 'formula', '--default')).stdout).toContain('(the default)');
      expect((await run(dir.path, 'keys', 'regenerate')).code).toBe(2);
      expect((await run(dir.path, 'keys', 'regenerate', 'nope')).code).toBe(1);
      expect((await run(dir.path, 'keys', 'preview', '--limit', '0')).code).toBe(2);
      expect((await run(dir.path, 'keys', 'frobnicate')).code).toBe(2);
    } finally {
      dir.remove();
    }
  }, 300_000);
});
