// GET /search with its filters and sorts, and collections from DOIs or a query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse, Collection } from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { call, startTestService, TOKENS } from './helpers';

let service: RunningService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const search = (query: Record<string, string | number | boolean | string[]>) =>
  call<SearchResponse>(service, 'search', { query, token: null });

describe('GET /search', () => {
  it('finds papers by term with highlighted titles and abstracts, aggregations and matching statements', async () => {
    const res = await search({ term: 'working memory', limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body.count).toBeGreaterThan(0);
    expect(res.body.hits.length).toBeLessThanOrEqual(5);
    const first = res.body.hits[0]!;
    expect(`${first.title} ${first.abstract ?? ''}`).toContain('<strong class="highlight">');
    expect(first.highlightedFields!.length).toBeGreaterThan(0);
    expect(res.body.aggregations!.topics![0]!.key).toBe('Neuroscience');
    const withStatements = res.body.hits.find((h) => h.citations!.length > 0);
    if (withStatements) expect(withStatements.citations![0]!.snippet).toMatch(/\w+ \w+/);
  });

  it('pages with limit and offset', async () => {
    const all = await search({ term: 'cancer', limit: 10 });
    const second = await search({ term: 'cancer', limit: 5, offset: 5 });
    expect(second.body.hits.map((h) => h.doi)).toEqual(all.body.hits.slice(5, 10).map((h) => h.doi));
    expect(second.body.count).toBe(all.body.count);
  });

  it('sorts by tallies and date in either direction', async () => {
    const sup = await search({ sort: 'total_supported', limit: 20 });
    const s = sup.body.hits.map((h) => h.tally!.supporting);
    expect(s).toEqual([...s].sort((a, b) => b - a));
    const asc = await search({ sort: 'date', sort_order: 'asc', limit: 20 });
    const years = asc.body.hits.map((h) => h.year!);
    expect(years).toEqual([...years].sort((a, b) => a - b));
    const con = await search({ sort: 'total_contrasted', limit: 5 });
    expect(con.body.hits[0]!.tally!.contradicting).toBeGreaterThan(0);
    expect((await search({ sort: 'popularity' })).status).toBe(422);
  });

  it('applies the filters', async () => {
    const retracted = await search({ has_retraction: true, limit: 50 });
    const expected = service.corpus.db
      .prepare('SELECT count(*) FROM papers WHERE retracted = 1')
      .pluck()
      .get() as number;
    expect(retracted.body.count).toBe(expected);
    expect(retracted.body.hits.every((h) => h.editorialNotices!.some((n) => n.status === 'Retracted'))).toBe(true);
    const dated = await search({ date_from: '2015', date_to: '2016-12-31', limit: 50 });
    expect(dated.body.hits.every((h) => h.year! >= 2015 && h.year! <= 2016)).toBe(true);
    const ranged = await search({ supporting_from: 5, contrasting_from: 1, limit: 50 });
    expect(ranged.body.hits.every((h) => h.tally!.supporting >= 5 && h.tally!.contradicting >= 1)).toBe(true);
    const typed = await search({ citation_types: ['contrasting'], limit: 50 });
    expect(typed.body.hits.every((h) => h.tally!.contradicting > 0)).toBe(true);
    const topic = await search({ topic: 'Economics', limit: 5 });
    expect(topic.body.count).toBeGreaterThan(0);
    expect(topic.body.aggregations!.topics).toEqual([{ key: 'Economics', docCount: Math.min(topic.body.count, 2000) }]);
    const journal = [...service.corpus.journals.values()][2]!;
    const byJournal = await search({ journal: journal.name, limit: 5 });
    expect(byJournal.body.hits.every((h) => h.journal === journal.name)).toBe(true);
    const author = service.corpus.db
      .prepare(
        "SELECT given || ' ' || family FROM authors WHERE id = (SELECT author_id FROM paper_authors GROUP BY author_id ORDER BY count(*) DESC LIMIT 1)",
      )
      .pluck()
      .get() as string;
    const byAuthor = await search({ author, limit: 5 });
    expect(byAuthor.body.hits.every((h) => h.authors!.some((a) => a.authorName!.includes(author)))).toBe(true);
    const reviews = await search({ paper_type: 'review', limit: 10 });
    expect(reviews.body.hits.every((h) => h.normalizedTypes!.includes('review'))).toBe(true);
    const title = await search({ title: 'role', limit: 10 });
    expect(title.body.hits.every((h) => /role/i.test(h.title!))).toBe(true);
    const none = await search({ term: 'zzzzqqq' });
    expect(none.body).toMatchObject({ count: 0, hits: [] });
  });
});

describe('collections', () => {
  it('creates a collection from DOIs with matched and unmatched counts and a generated slug', async () => {
    const dois = service.corpus.db.prepare('SELECT doi FROM papers LIMIT 3').pluck().all() as string[];
    const res = await call<Collection>(service, 'createCollection', {
      body: {
        name: 'Amygdala reading list',
        description: 'Methods chapter',
        isPublic: false,
        dois: [...dois, '10.9999/missing'],
      },
    });
    expect(res.status).toBe(200);
    const c = res.body;
    expect(c.slug).toMatch(/^amygdala-reading-list-[A-Za-z0-9]{6}$/);
    expect(c).toMatchObject({
      name: 'Amygdala reading list',
      totalDoiCount: 4,
      matchedDoiCount: 3,
      unmatchedDoiCount: 1,
      unmatchedDois: ['10.9999/missing'],
      accessType: 'VIEWER',
      refreshStatus: '-',
    });
    expect(c.doiQuery).toEqual({ query: { dois }, queryType: 'list' });
    expect(c.warning).toContain('could not be matched');
    const again = await call<Collection>(service, 'getCollection', { params: { collection_slug: c.slug } });
    expect(again.body).toEqual(c);
  });

  it('uses the query when both dois and query are given', async () => {
    const res = await call<Collection>(service, 'createCollection', {
      body: {
        name: 'Retractions',
        dois: ['10.9999/x'],
        query: { hasRetraction: true, limit: 100, sort: 'total_supported' },
      },
    });
    const expected = service.corpus.db
      .prepare('SELECT count(*) FROM papers WHERE retracted = 1')
      .pluck()
      .get() as number;
    expect(res.body.matchedDoiCount).toBe(Math.min(100, expected));
    expect(res.body.unmatchedDoiCount).toBe(0);
    expect(res.body.doiQuery!.queryType).toBe('search');
  });

  it('validates the body, needs the collections scope, and answers 404 for an unknown slug', async () => {
    expect((await call(service, 'createCollection', { body: { dois: ['10.1/x'] } })).status).toBe(422);
    expect((await call(service, 'createCollection', { body: { name: 'x', colour: 'red' } })).status).toBe(422);
    expect((await call(service, 'createCollection', { body: { name: 'x' } })).status).toBe(422);
    expect(
      (await call(service, 'createCollection', { body: { name: 'x', dois: [] }, token: TOKENS.citations })).status,
    ).toBe(403);
    expect((await call(service, 'getCollection', { params: { collection_slug: 'nope' } })).status).toBe(404);
  });
});
