// The generated corpus: deterministic per seed, and shaped like the real literature.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../service/corpus/generate';
import { issnIsValid } from '../../service/corpus/identifiers';
import { Corpus } from '../../service/store';

const dir = mkdtempSync(join(tmpdir(), 'citewise-corpus-test-'));
let a: Database.Database;
let b: Database.Database;
let c: Database.Database;

beforeAll(() => {
  generateCorpus(join(dir, 'a.db'), { papers: 800, seed: 42 });
  generateCorpus(join(dir, 'b.db'), { papers: 800, seed: 42 });
  generateCorpus(join(dir, 'c.db'), { papers: 800, seed: 43 });
  a = new Database(join(dir, 'a.db'), { readonly: true });
  b = new Database(join(dir, 'b.db'), { readonly: true });
  c = new Database(join(dir, 'c.db'), { readonly: true });
});
afterAll(() => {
  for (const db of [a, b, c]) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const digest = (db: Database.Database, sql: string): string => JSON.stringify(db.prepare(sql).all());

describe('corpus generation', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    for (const sql of [
      'SELECT * FROM papers ORDER BY id',
      'SELECT * FROM citations ORDER BY target, id',
      'SELECT * FROM authors ORDER BY id',
      'SELECT dataset, id, doc FROM evidence ORDER BY rowid',
    ]) {
      expect(digest(a, sql), sql).toBe(digest(b, sql));
    }
    expect(digest(a, 'SELECT title FROM papers ORDER BY id LIMIT 50')).not.toBe(
      digest(c, 'SELECT title FROM papers ORDER BY id LIMIT 50'),
    );
  });

  it('gives journals valid ISSNs and slugs, and papers unique lowercase DOIs', () => {
    const journals = a.prepare('SELECT issn_print, issn_e, slug FROM journals').all() as Array<{
      issn_print: string;
      issn_e: string | null;
      slug: string;
    }>;
    for (const j of journals) {
      expect(issnIsValid(j.issn_print)).toBe(true);
      if (j.issn_e) expect(issnIsValid(j.issn_e)).toBe(true);
      expect(j.slug).toMatch(/^[A-Za-z0-9]{5}$/);
    }
    const dois = a.prepare('SELECT doi FROM papers').pluck().all() as string[];
    expect(new Set(dois).size).toBe(dois.length);
    expect(dois.every((d) => d === d.toLowerCase() && d.startsWith('10.'))).toBe(true);
  });

  it('writes readable titles, abstracts for some papers and keywords for some', () => {
    const rows = a.prepare('SELECT title, abstract, keywords FROM papers').all() as Array<{
      title: string;
      abstract: string | null;
      keywords: string | null;
    }>;
    const withAbstract = rows.filter((r) => r.abstract).length / rows.length;
    const withKeywords = rows.filter((r) => r.keywords).length / rows.length;
    expect(withAbstract).toBeGreaterThan(0.4);
    expect(withAbstract).toBeLessThan(0.9);
    expect(withKeywords).toBeGreaterThan(0.2);
    expect(withKeywords).toBeLessThan(0.8);
    for (const r of rows) {
      expect(r.title).toMatch(/^[A-Z]/);
      expect(`${r.title} ${r.abstract ?? ''}`).not.toMatch(/undefined|null|NaN|\s{2}/);
      if (r.abstract) expect(r.abstract.split('. ').length).toBeGreaterThanOrEqual(4);
    }
  });

  it('has a heavy-tailed citation graph with some papers above 3,000 statements', () => {
    const counts = a
      .prepare('SELECT count(*) AS n FROM citations GROUP BY target ORDER BY n DESC')
      .pluck()
      .all() as number[];
    expect(counts[0]).toBeGreaterThan(3000);
    const median = counts[Math.floor(counts.length / 2)]!;
    expect(median).toBeLessThan(40);
    const cited = a.prepare('SELECT count(DISTINCT target) FROM refs').pluck().get() as number;
    expect(cited).toBeGreaterThan(300);
  });

  it('keeps tallies consistent with the statements and references', () => {
    const mismatches = a
      .prepare(
        `
      SELECT count(*) FROM papers p
      WHERE p.t_sup + p.t_con + p.t_men + p.t_unc != (SELECT count(*) FROM citations c WHERE c.target = p.id)
         OR p.t_citing != (SELECT count(*) FROM refs r WHERE r.target = p.id)
         OR p.c_cited != (SELECT count(*) FROM refs r WHERE r.source = p.id)`,
      )
      .pluck()
      .get();
    expect(mismatches).toBe(0);
    const older = a
      .prepare(
        'SELECT count(*) FROM refs r JOIN papers s ON s.id = r.source JOIN papers t ON t.id = r.target WHERE t.year > s.year',
      )
      .pluck()
      .get();
    expect(older).toBe(0);
  });

  it('marks self-citations only where authors are shared', () => {
    const corpus = new Corpus(join(dir, 'a.db'));
    try {
      const rows = corpus.db.prepare('SELECT * FROM citations LIMIT 4000').all() as Array<{
        target: number;
        id: number;
        source: number;
        kind: number;
      }>;
      const papers = corpus.papersByIds(rows.flatMap((r) => [r.source, r.target]));
      let self = 0;
      for (const r of rows) {
        const shared = corpus.selfCites(papers.get(r.source)!, papers.get(r.target)!).length > 0;
        expect(Boolean(r.kind & 32)).toBe(shared);
        if (shared) self++;
      }
      expect(self).toBeGreaterThan(0);
    } finally {
      corpus.close();
    }
  });

  it('gives every kind of editorial notice, with retracted papers flagged', () => {
    const statuses = a.prepare('SELECT DISTINCT status FROM notices ORDER BY status').pluck().all();
    expect(statuses).toEqual(['Has correction', 'Has erratum', 'Has expression of concern', 'Retracted', 'Withdrawn']);
    const unflagged = a
      .prepare(
        "SELECT count(*) FROM notices n JOIN papers p ON p.id = n.paper_id WHERE n.status = 'Retracted' AND p.retracted = 0",
      )
      .pluck()
      .get();
    expect(unflagged).toBe(0);
  });
});
