// The library through the IPC contract, as the panes use it: a real core (library worker, formats
// worker, citation formatter) and the local citation service. Every call goes through invoke, so
// input validation, errors as data and change events are part of what is tested.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi, LibraryChange, Result } from '../../../shared/ipc';
import type { UndoTops } from '../../../shared/model/library';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { quoteTitle } from '../../../electron/core/library/undo-labels';
import { tempDir } from '../../helpers/tmp';
import { sampleDois, service } from '../service-client/helpers';

const LIBRARY_BIB = readFileSync(new URL('../../fixtures/formats/library.bib', import.meta.url), 'utf8');

let svc: Awaited<ReturnType<typeof service>>;
let dir: ReturnType<typeof tempDir>;
let core: Core;
let api: CitewiseApi;
const changes: LibraryChange[] = [];

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

beforeAll(async () => {
  svc = await service();
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: svc.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
  });
  api = createInProcessApi(core);
  api.on('library.changed', (c) => changes.push(c));
}, 60_000);
afterAll(async () => {
  await core?.close();
  await svc?.close();
  dir?.remove();
});

describe('library over IPC', () => {
  it('imports a BibTeX file in one go, reporting bad entries by line, and adds nothing the second time', async () => {
    const text = `${LIBRARY_BIB}\n@article{broken2020,\n  title = {Unterminated\n`;
    const preview = value(await api.invoke('library.import.preview', { text, fileName: 'library.bib', sample: 3 }));
    expect(preview.format).toBe('bibtex');
    expect(preview.sample).toHaveLength(3);
    expect(preview.duplicates).toBe(0);
    expect(value(await api.invoke('library.count', {}))).toBe(0);

    const report = value(await api.invoke('library.import', { text, fileName: 'library.bib' }));
    // Every entry of the file is counted, the unreadable one too; all the others are added.
    expect(preview.errors).toHaveLength(1);
    expect(report.entries).toBe(preview.entries);
    expect(report.added).toBe(preview.entries - 1);
    expect(report.added).toBe(
      (LIBRARY_BIB.match(/^@\w+[{(]/gm) ?? []).filter((e) => !/^@(string|preamble|comment)[{(]/i.test(e)).length,
    );
    const lastLine = text.split('\n').findIndex((l) => l.startsWith('@article{broken2020')) + 1;
    expect(report.errors.some((e) => e.line === lastLine)).toBe(true);
    expect(changes.some((c) => c.kind === 'items' && c.ids?.length === report.added)).toBe(true);
    expect(
      value(await api.invoke('jobs.list', {})).some((j) => j.kind === 'library.import' && j.state === 'done'),
    ).toBe(true);

    const again = value(await api.invoke('library.import', { text: LIBRARY_BIB, fileName: 'library.bib' }));
    expect(again.added).toBe(0);
    expect(again.duplicates).toHaveLength(report.added);
    expect(again.duplicates[0]!.line).toBeGreaterThan(0);
    // The preview counts what the import skips: every entry, by key and DOI or title (not only those with a DOI).
    expect(
      value(await api.invoke('library.import.preview', { text: LIBRARY_BIB, fileName: 'library.bib' })).duplicates,
    ).toBe(report.added);
  });

  it('cancels an import through jobs.cancel and keeps none of it', async () => {
    const before = value(await api.invoke('library.count', {}));
    const big = Array.from(
      { length: 20_000 },
      (_, i) => `@article{c${i}, title = {Cancelled entry ${i}}, author = {Doe, Jane}, year = 2001}`,
    ).join('\n');
    const started = api.invoke('library.import', { text: big, fileName: 'big.bib' });
    let job;
    for (let i = 0; i < 200 && !job; i++) {
      job = value(await api.invoke('jobs.list', {})).find((j) => j.kind === 'library.import' && j.state === 'running');
      if (!job) await new Promise((r) => setTimeout(r, 10));
    }
    expect(job).toBeDefined();
    value(await api.invoke('jobs.cancel', { id: job!.id }));
    const r = await started;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('CANCELLED');
    expect(value(await api.invoke('library.count', {}))).toBe(before);
  });

  it('refuses an unreadable file as a whole and writes nothing', async () => {
    const before = value(await api.invoke('library.count', {}));
    const r = await api.invoke('library.import', {
      text: '\u0000\u0001\u0002 binary garbage \u0000',
      fileName: 'x.bib',
    });
    expect(r.ok).toBe(false);
    expect(value(await api.invoke('library.count', {}))).toBe(before);
  });

  it('lists, sorts, pages and searches with the fielded language; a malformed query is INVALID_INPUT with its position', async () => {
    const all = value(await api.invoke('library.count', {}));
    const first = value(await api.invoke('library.list', { sort: { column: 'year', direction: 'asc' }, limit: 5 }));
    expect(first.rows).toHaveLength(5);
    const years = first.rows.map((r) => r.year ?? Infinity);
    expect([...years].sort((a, b) => a - b)).toEqual(years);
    let seen = first.rows.length;
    let cursor = first.nextCursor;
    while (cursor) {
      const page = value(
        await api.invoke('library.list', { sort: { column: 'year', direction: 'asc' }, limit: 5, cursor }),
      );
      seen += page.rows.length;
      cursor = page.nextCursor;
    }
    expect(seen).toBe(all);

    const found = value(await api.invoke('library.list', { query: 'author:watson year:1950..1960' }));
    expect(found.rows.map((r) => r.citationKey)).toContain('watson1953');
    expect(found.rows.every((r) => r.year !== null && r.year >= 1950 && r.year <= 1960)).toBe(true);

    const bad = await api.invoke('library.list', { query: 'title:(neural AND' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('INVALID_INPUT');
      expect(bad.error.details).toMatchObject({ start: expect.any(Number) });
    }
    const wrong = await api.invoke('library.list', { limit: 5000 } as never);
    expect(wrong.ok).toBe(false);
  });

  it('tells every Undo offer which step undo would revert (library.undoChanged), and refuses an offer that went stale', async () => {
    const tops: UndoTops[] = [];
    const off = api.on('library.undoChanged', (t) => tops.push(t));
    const heard = async (pred: (t: UndoTops) => boolean): Promise<UndoTops> => {
      for (let i = 0; i < 200 && !tops.some(pred); i++) await new Promise((r) => setTimeout(r, 10));
      const found = tops.find(pred);
      if (!found) throw new Error(`no library.undoChanged like that among ${JSON.stringify(tops)}`);
      return found;
    };
    try {
      const [x, y] = value(
        await api.invoke('library.list', { sort: { column: 'citationKey', direction: 'asc' }, limit: 2 }),
      ).rows;
      value(await api.invoke('library.tags.add', { ids: [x!.id], tags: ['offer'] }));
      const first = (await heard((t) => t.undo?.label === `Add tag offer to ${quoteTitle(x!.title!)}`)).undo!;
      expect(value(await api.invoke('library.undo.tops', {})).undo).toEqual(first);
      value(await api.invoke('library.tags.add', { ids: [x!.id, y!.id], tags: ['later'] }));
      await heard((t) => t.undo?.label === 'Add tag later to 2 items');
      // The first offer is stale: undoing through it would revert "later" instead.
      const stale = await api.invoke('library.undo', { id: first.id });
      expect(stale.ok || stale.error.code).toBe('CONFLICT');
      expect(value(await api.invoke('library.item.get', { id: y!.id })).tags).toContain('later');
      expect(value(await api.invoke('library.undo', {}))).toMatchObject({
        label: 'Add tag later to 2 items',
        trashed: [],
      });
      await heard((t) => t.undo?.id === first.id && t.redo?.label === 'Add tag later to 2 items');
      expect(value(await api.invoke('library.undo', { id: first.id })).label).toBe(
        `Add tag offer to ${quoteTitle(x!.title!)}`,
      );
      expect(value(await api.invoke('library.item.get', { id: x!.id })).tags).not.toContain('offer');
    } finally {
      off();
    }
  });

  it('edits an item and undoes the edit; changes a citation key and refuses a taken one', async () => {
    const [row] = value(await api.invoke('library.list', { query: 'key:watson1953' })).rows;
    const item = value(await api.invoke('library.item.get', { id: row!.id }));
    const edited = value(
      await api.invoke('library.item.update', { id: item.id, csl: { ...item.csl, title: 'A new title' } }),
    );
    expect(edited.title).toBe('A new title');
    const label = `Edit title of ${quoteTitle(item.title!)}`;
    expect(value(await api.invoke('library.history', {})).undo[0]).toMatchObject({
      label,
      itemIds: [item.id],
      itemCount: 1,
    });
    expect(value(await api.invoke('library.undo', {}))).toEqual({ label, itemIds: [item.id], trashed: [] });
    expect(value(await api.invoke('library.item.get', { id: item.id })).title).toBe(item.title);

    const other = value(
      await api.invoke('library.list', { sort: { column: 'citationKey', direction: 'asc' }, limit: 2 }),
    ).rows.find((r) => r.id !== item.id)!;
    const taken = await api.invoke('library.item.setKey', { id: item.id, key: other.citationKey });
    expect(taken.ok).toBe(false);
    if (!taken.ok) expect(taken.error.code).toBe('CONFLICT');
    expect(value(await api.invoke('library.item.setKey', { id: item.id, key: 'watsonCrick1953' })).citationKey).toBe(
      'watsonCrick1953',
    );
  });

  it('tags, files into nested collections, trashes and restores', async () => {
    const rows = value(await api.invoke('library.list', { limit: 3 })).rows;
    const ids = rows.map((r) => r.id);
    value(await api.invoke('library.tags.add', { ids, tags: ['to-read', 'thesis'] }));
    expect(value(await api.invoke('library.tags.list', {}))).toEqual(
      expect.arrayContaining([{ name: 'to-read', count: 3 }]),
    );
    expect(value(await api.invoke('library.count', { query: 'tag:to-read' }))).toBe(3);

    const parent = value(await api.invoke('library.collections.create', { name: 'Thesis' })).id;
    const child = value(await api.invoke('library.collections.create', { name: 'Chapter 1', parentId: parent })).id;
    value(await api.invoke('library.collections.addItems', { collectionId: child, ids: ids.slice(0, 2) }));
    expect(value(await api.invoke('library.count', { collectionId: parent }))).toBe(2);
    expect(value(await api.invoke('library.count', { collectionId: parent, includeSubcollections: false }))).toBe(0);
    const bad = await api.invoke('library.collections.create', { name: '   ' });
    expect(bad.ok).toBe(false);

    value(await api.invoke('library.trash', { ids: [ids[0]!] }));
    expect(value(await api.invoke('library.count', { trash: true }))).toBe(1);
    value(await api.invoke('library.restore', { ids: [ids[0]!] }));
    expect(value(await api.invoke('library.count', { trash: true }))).toBe(0);
    expect(changes.some((c) => c.kind === 'trash')).toBe(true);
  });

  it('finds a duplicate and merges it with the chosen fields, keeping tags', async () => {
    const [row] = value(await api.invoke('library.list', { query: 'doi:10.1038/171737a0' })).rows;
    const copy = `@article{dup, author = {Watson, J. D.}, title = {Molecular structure of nucleic acids: a structure for deoxyribose nucleic acid}, journal = {Nature}, year = 1953, note = {a copy}}`;
    const imported = value(await api.invoke('library.import', { text: copy, fileName: 'copy.bib' }));
    expect(imported.added).toBe(1);
    value(await api.invoke('library.tags.add', { ids: imported.ids, tags: ['from-copy'] }));
    const groups = value(await api.invoke('library.duplicates', {}));
    const group = groups.find((g) => g.ids.includes(row!.id));
    expect(group?.ids).toContain(imported.ids[0]);
    const keep = value(await api.invoke('library.item.get', { id: row!.id }));
    const merged = value(
      await api.invoke('library.merge', {
        keepId: keep.id,
        otherIds: imported.ids,
        csl: { ...keep.csl, note: 'chosen note' },
      }),
    );
    expect(merged.tags).toContain('from-copy');
    expect(merged.csl.note).toBe('chosen note');
    expect((await api.invoke('library.item.get', { id: imported.ids[0]! })).ok).toBe(false);
  });

  it('exports the library in every file format and every style, and cites items in text', async () => {
    const n = value(await api.invoke('library.count', {}));
    const bib = value(await api.invoke('library.export', { scope: { kind: 'library' }, format: 'bibtex' }));
    expect(bib.items).toBe(n);
    expect(bib.total).toBe(n);
    expect(bib.content).toContain('watsonCrick1953');
    expect(bib.extension).toBe('bib');
    // A preview formats only the first items, and says how many the export would hold.
    for (const format of ['bibtex', 'html'] as const) {
      const preview = value(
        await api.invoke('library.export', { scope: { kind: 'library' }, format, style: 'ieee', limit: 3 }),
      );
      expect(preview).toMatchObject({ items: 3, total: n });
      expect(
        format === 'bibtex'
          ? (preview.content.match(/^@\w+\{/gm) ?? []).length
          : (preview.content.match(/class="csl-entry"/g) ?? []).length,
      ).toBe(3);
    }
    expect((await api.invoke('library.export', { scope: { kind: 'library' }, format: 'bibtex', limit: 0 })).ok).toBe(
      false,
    );
    // A view exports what the table shows: here Unfiled with a search.
    const where = { unfiled: true, query: 'year:1900..1960' };
    const view = value(await api.invoke('library.export', { scope: { kind: 'view', where }, format: 'csl-json' }));
    expect(view.items).toBe(value(await api.invoke('library.count', where)));
    expect(view.items).toBeGreaterThan(0);
    expect(view.items).toBeLessThan(n);
    const json = value(
      await api.invoke('library.export', {
        scope: { kind: 'query', query: 'key:watsonCrick1953' },
        format: 'csl-json',
      }),
    );
    expect(JSON.parse(json.content)).toHaveLength(1);
    expect(value(await api.invoke('library.export', { scope: { kind: 'library' }, format: 'ris' })).content).toMatch(
      /^TY {2}- /m,
    );

    // Notes go along when asked for: an N1 line of HTML per note in RIS, their text in BibTeX's annote.
    const [watson] = value(await api.invoke('library.list', { query: 'key:watsonCrick1953' })).rows;
    const note = value(
      await api.invoke('library.notes.add', { itemId: watson!.id, body: '<h2>Helix</h2><p>Two <em>chains</em></p>' }),
    );
    const scope = { kind: 'query', query: 'key:watsonCrick1953' } as const;
    const withNotes = value(await api.invoke('library.export', { scope, format: 'ris', notes: true })).content;
    expect(withNotes).toContain('N1  - <h2>Helix</h2><p>Two <em>chains</em></p>\nER  - ');
    expect(value(await api.invoke('library.export', { scope, format: 'ris' })).content).not.toContain('Helix');
    expect(value(await api.invoke('library.export', { scope, format: 'bibtex', notes: true })).content).toContain(
      'annote = {Helix\n\nTwo chains}',
    );
    value(await api.invoke('library.notes.delete', { id: note.id }));

    const [row] = value(await api.invoke('library.list', { query: 'key:watsonCrick1953' })).rows;
    const expectations: Record<string, RegExp> = {
      apa: /Watson, J\. D\., & Crick, F\. H\. C\. \(1953\)/,
      ieee: /J\. D\. Watson and F\. H\. C\. Crick/,
      mla: /Watson, J\. D\., and F\. H\. C\. Crick/,
      ama: /Watson JD, Crick FHC/,
      chicago: /Watson, J\. D\., and F\. H\. C\. Crick\. 1953/,
      harvard: /Watson, J\.D\. and Crick, F\.H\.C\. \(1953\)/,
      vancouver: /Watson JD, Crick FHC/,
      bibtex: /@article\{watsonCrick1953,/,
    };
    for (const [style, pattern] of Object.entries(expectations)) {
      const out = value(
        await api.invoke('library.export', {
          scope: { kind: 'items', ids: [row!.id] },
          format: 'text',
          style: style as never,
        }),
      );
      expect(out.content, style).toMatch(pattern);
    }
    const cite = value(await api.invoke('library.cite', { ids: [row!.id], style: 'apa', kind: 'citation' }));
    expect(cite.text).toBe('(Watson & Crick, 1953)');
    const entry = value(await api.invoke('library.cite', { ids: [row!.id], style: 'apa' }));
    expect(entry.html).toContain('<i>');
    expect(entry.text).not.toContain('<');
  });

  it('adds a citation style from a .csl file, exports with it, and removes it', async () => {
    const xml = readFileSync(new URL('../../fixtures/cite/tiny-lab.csl', import.meta.url), 'utf8');
    expect(value(await api.invoke('library.styles.add', { xml }))).toEqual({
      id: 'tiny-lab',
      title: 'Tiny Lab Style',
      builtIn: false,
    });
    expect(value(await api.invoke('library.styles.list', {})).map((s) => s.id)).toEqual([
      'apa',
      'ieee',
      'mla',
      'ama',
      'chicago',
      'harvard',
      'vancouver',
      'bibtex',
      'tiny-lab',
    ]);
    const out = value(
      await api.invoke('library.export', {
        scope: { kind: 'query', query: 'author:watson' },
        format: 'text',
        style: 'tiny-lab',
      }),
    );
    expect(out.content).toContain('MOLECULAR STRUCTURE OF NUCLEIC ACIDS');
    expect(readFileSync(`${dir.path}/styles/tiny-lab.csl`, 'utf8')).toBe(xml);

    const refused = await api.invoke('library.styles.add', { xml: '<html>not a style</html>' });
    expect(!refused.ok && refused.error.code).toBe('INVALID_INPUT');
    const badId = await api.invoke('library.export', { scope: { kind: 'library' }, format: 'text', style: '../x' });
    expect(!badId.ok && badId.error.code).toBe('INVALID_INPUT');
    value(await api.invoke('library.styles.remove', { id: 'tiny-lab' }));
    const unknown = await api.invoke('library.export', {
      scope: { kind: 'library' },
      format: 'text',
      style: 'tiny-lab',
    });
    expect(!unknown.ok && unknown.error.code).toBe('NOT_FOUND');
    const builtIn = await api.invoke('library.styles.remove', { id: 'apa' });
    expect(!builtIn.ok && builtIn.error.code).toBe('CONFLICT');
  });

  it('adds papers by DOI with their metadata and tallies from the service; reports what it could not add', async () => {
    const [a] = sampleDois(svc, 1) as [string];
    const report = value(
      await api.invoke('library.addDois', { dois: [a, 'not a doi', '10.9999/unknown-to-the-service-xyz'] }),
    );
    expect(report.added.map((x) => x.doi)).toEqual([a]);
    expect(report.notAdded.map((x) => x.code).sort()).toEqual(['INVALID_INPUT', 'NOT_FOUND']);
    const [row] = value(await api.invoke('library.list', { query: `doi:${a}` })).rows;
    expect(row!.evidence.state).toBe('found');
    expect(row!.citationKey).toBe(report.added[0]!.citationKey);
    const again = value(await api.invoke('library.addDois', { dois: [a] }));
    expect(again.duplicates).toEqual([{ doi: a, existingId: row!.id }]);

    // What was fetched is the library's: the details read it offline, and a refresh writes it back.
    const title = svc.corpus.db.prepare('SELECT title FROM papers WHERE doi = ?').pluck().get(a) as string;
    const cached = value(await api.invoke('library.item.service', { id: row!.id }));
    expect(cached).toMatchObject({ doi: a, paper: { state: 'found', paper: { doi: a, title } } });
    const before = cached.paper.state === 'found' ? cached.paper.fetchedAt : 0;
    await new Promise((r) => setTimeout(r, 5));
    const seen = changes.length;
    const refreshed = value(await api.invoke('library.item.refresh', { id: row!.id }));
    expect(refreshed.problem).toBeUndefined();
    expect(refreshed.paper.state === 'found' && refreshed.paper.fetchedAt).toBeGreaterThan(before);
    expect(value(await api.invoke('library.item.get', { id: row!.id })).evidence).toMatchObject({
      state: 'found',
      fetchedAt: expect.any(Number),
    });
    expect(changes.slice(seen).some((c) => c.kind === 'cache')).toBe(true);
    expect((await api.invoke('library.item.refresh', { id: 999_999 })).ok).toBe(false);
  });

  it('reports its status and writes a verified backup on demand', async () => {
    const status = value(await api.invoke('library.status', {}));
    expect(status.items).toBe(value(await api.invoke('library.count', {})));
    expect(status.recovery).toBeNull();
    const backup = value(await api.invoke('library.backup', {}));
    expect(backup.reason).toBe('manual');
    expect(value(await api.invoke('library.backups', {})).map((b) => b.file)).toContain(backup.file);
  });
});

describe('enrichment after import', () => {
  it('fetches tallies and fills missing fields of imported items in the background, keeping what the file had', async () => {
    const [doi] = sampleDois(svc, 6).slice(5) as [string];
    const bib = `@article{enrichme, title = {A title the user typed}, doi = {${doi}}}`;
    const report = value(await api.invoke('library.import', { text: bib, fileName: 'enrich.bib' }));
    expect(report.added).toBe(1);
    const id = report.ids[0]!;
    let item = value(await api.invoke('library.item.get', { id }));
    for (let i = 0; i < 300 && item.evidence.state === 'not-fetched'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      item = value(await api.invoke('library.item.get', { id }));
    }
    expect(item.evidence.state).toBe('found');
    expect(item.title).toBe('A title the user typed');
    expect(item.creatorsList.length).toBeGreaterThan(0);
    expect(changes.some((c) => c.kind === 'cache')).toBe(true);
    expect(value(await api.invoke('library.watch.flagged', {}))).toEqual(expect.any(Array));
  });
});

describe('DOI lists', () => {
  it('imports a pasted DOI list with metadata from the service, reporting lines it could not read', async () => {
    const [a, b] = sampleDois(svc, 3).slice(1) as [string, string];
    const report = value(
      await api.invoke('library.import', {
        text: `${a}\nnot-a-doi\nhttps://doi.org/${b.toUpperCase()}\n`,
        format: 'doi-list',
      }),
    );
    expect(report.format).toBe('doi-list');
    expect(report.byDoi?.added.map((x) => x.doi).sort()).toEqual([a, b].sort());
    expect(report.errors.map((e) => e.line)).toEqual([2]);
    expect(report.added).toBe(2);
    const rows = value(await api.invoke('library.list', { query: `doi:${a}` })).rows;
    expect(rows[0]!.title).toBeTruthy();
  });

  it('keeps DOIs as placeholders when the service cannot be reached, so nothing pasted is lost', async () => {
    const offlineDir = tempDir();
    // A port nothing listens on: every lookup fails to connect.
    const offline = await createCore({
      dataDir: offlineDir.path,
      mode: 'test',
      logger: silentLogger,
      serviceUrl: 'http://127.0.0.1:9',
      service: { maxAttempts: 1 },
    });
    try {
      const offlineApi = createInProcessApi(offline);
      const report = value(
        await offlineApi.invoke('library.addDois', { dois: ['10.1000/queued.1', '10.1000/queued.2'] }),
      );
      expect(report.added).toEqual([]);
      expect(report.queued.map((q) => q.doi)).toEqual(['10.1000/queued.1', '10.1000/queued.2']);
      const item = value(await offlineApi.invoke('library.item.get', { id: report.queued[0]!.id }));
      expect(item.doi).toBe('10.1000/queued.1');
      expect(item.evidence.state).toBe('not-fetched');
      expect(value(await offlineApi.invoke('library.item.service', { id: item.id }))).toEqual({
        doi: '10.1000/queued.1',
        paper: { state: 'not-fetched' },
      });
      // A refresh says why it could not fetch, and keeps what the library has.
      const refreshed = value(await offlineApi.invoke('library.item.refresh', { id: item.id }));
      expect(refreshed).toMatchObject({
        doi: '10.1000/queued.1',
        paper: { state: 'not-fetched' },
        problem: { code: 'OFFLINE' },
      });
      // Adding them again (still offline) finds the placeholders: no second copy.
      const again = value(await offlineApi.invoke('library.addDois', { dois: ['10.1000/queued.1'] }));
      expect(again.duplicates.map((d) => d.existingId)).toEqual([report.queued[0]!.id]);
    } finally {
      await offline.close();
      offlineDir.remove();
    }
  });
});
