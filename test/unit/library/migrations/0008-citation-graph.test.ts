import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0008 citation graph', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds the graph store to a populated version-7 database, which then opens as a working library with graphs', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 7);
    h.db
      .prepare("INSERT INTO service_papers (doi, found, data, fetched_at) VALUES ('10.1000/cited', 1, ?, 5)")
      .run(JSON.stringify({ doi: '10.1000/cited', title: 'Cited paper', year: 2001, authors: [], journal: 'J' }));
    migrateTo(h.db, 8);
    expect(h.db.pragma('user_version', { simple: true })).toBe(8);
    expect(h.db.prepare('SELECT count(*) FROM graph_statements').pluck().get()).toBe(0);
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO graph_statements (origin, source, target, key, type, fetched_at) VALUES ('citing', 'a', 'b', 'k', 'contradicting', 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO graph_fetches (doi, direction, fetched, total, fetched_at) VALUES ('a', 'sideways', 0, 0, 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true, now: () => 1000 });
    try {
      expect(opened.library.getItem(1)).toMatchObject({ citationKey: 'mullerDeep2020' });
      const page = opened.graph.putPage({
        doi: '10.1000/cited',
        direction: 'citing',
        offset: 0,
        total: 2,
        statements: [
          {
            source: '10.1000/citer',
            target: '10.1000/cited',
            id: 1,
            type: 'contrasting',
            section: 'results',
            selfCite: false,
          },
          {
            source: '10.1000/citer',
            target: '10.1000/cited',
            id: 2,
            type: 'mentioning',
            section: 'introduction',
            selfCite: true,
          },
        ],
        papers: {},
        tallies: {},
        histogram: { '2020': { supporting: 0, contrasting: 1, mentioning: 1, total: 2 } },
        fetchedAt: 900,
      });
      expect(page.data.edges).toEqual([
        {
          source: '10.1000/citer',
          target: '10.1000/cited',
          statements: [
            { key: 'c:1', type: 'contrasting', section: 'results', selfCite: false, snippet: null },
            { key: 'c:2', type: 'mentioning', section: 'introduction', selfCite: true, snippet: null },
          ],
        },
      ]);
      // The cached paper from before the migration names the node.
      expect(page.data.nodes.find((n) => n.doi === '10.1000/cited')).toMatchObject({
        title: 'Cited paper',
        year: 2001,
        citing: { fetched: 2, total: 2, fetchedAt: 900 },
      });
      const saved = opened.graph.saveGraph({
        name: 'First',
        seed: { kind: 'dois', dois: ['10.1000/cited'] },
        seedDois: ['10.1000/cited'],
        dois: ['10.1000/cited', '10.1000/citer'],
      });
      expect(opened.graph.getGraph(saved.id)).toMatchObject({ name: 'First', nodeCount: 2, createdAt: 1000 });
      expect(opened.graph.graphData(['10.1000/cited', '10.1000/citer']).edges).toHaveLength(1);
    } finally {
      opened.close();
    }
  });
});
