// The Library pane's pure parts: how views, the search box and the tag filter become one query in the
// search language (checked with the same parser the core uses), and how evidence cells read.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { checkQuery, parseQuery } from '../../../shared/model/query';
import type { Collection, TallyState } from '../../../shared/model/library';
import {
  cellText,
  EVIDENCE_MARKS,
  evidenceCell,
  evidenceTitle,
  plainTitle,
} from '../../../renderer/src/lib/library/cells';
import type { LibraryRow } from '../../../shared/model/library';
import { noticeBadges } from '../../../renderer/src/lib/library/notices';
import { sanitizeColumns, DEFAULT_COLUMNS } from '../../../renderer/src/lib/library/columns';
import {
  collectionTree,
  combine,
  isWithin,
  tagTerms,
  whereOf,
  type Where,
} from '../../../renderer/src/lib/library/views';
import { libraryWhere, type InputOf, type LibraryWhere } from '../../../shared/ipc';

const strip = (n: unknown): unknown => JSON.parse(JSON.stringify(n, (k, v) => (k === 'span' ? undefined : v)));
const col = (id: number, name: string, parentId: number | null = null): Collection => ({
  id,
  name,
  parentId,
  itemCount: 0,
});

describe('library views as queries', () => {
  it('ANDs the parts, each in parentheses so an OR cannot leak', () => {
    expect(combine('a OR b', '', null, 'tag:"x"')).toBe('(a OR b) (tag:"x")');
    expect(combine('  ', undefined)).toBe('');
    expect(combine('only')).toBe('only');
  });

  it('turns chosen tags into quoted tag: terms', () => {
    expect(tagTerms(['review', 'machine learning'])).toBe('tag:"review" tag:"machine learning"');
  });

  it('builds a valid query for every view, with search and tags', () => {
    const views = [
      { kind: 'library' },
      { kind: 'collection', id: 1 },
      { kind: 'unfiled' },
      { kind: 'notices' },
      { kind: 'recent' },
      { kind: 'trash' },
    ] as const;
    for (const view of views) {
      const where = whereOf(view, 'author:smith OR year:2020', ['review', 'a b']);
      expect(checkQuery(where.query ?? '').ok, `${view.kind}: ${where.query}`).toBe(true);
    }
    expect(whereOf({ kind: 'trash' }, '', [])).toEqual({ trash: true });
    expect(whereOf({ kind: 'collection', id: 1 }, '', [])).toEqual({ collectionId: 1 });
    expect(whereOf({ kind: 'notices' }, '', [])).toEqual({ query: 'retracted:yes OR notice:any' });
  });

  it("gives every view a where the contract's schema accepts, the schema's own type", () => {
    // The pane's Where is the contract's (a second declaration drifted: it lacked includeSubcollections).
    expectTypeOf<Where>().toEqualTypeOf<LibraryWhere>();
    expectTypeOf<Where>().toEqualTypeOf<InputOf<'library.count'>>();
    const views = [
      { kind: 'library' },
      { kind: 'collection', id: 7 },
      { kind: 'unfiled' },
      { kind: 'notices' },
      { kind: 'recent' },
      { kind: 'trash' },
    ] as const;
    for (const view of views) {
      for (const [search, tags] of [
        ['', []],
        ['x OR y', ['t']],
      ] as const) {
        const where = whereOf(view, search, tags);
        expect(libraryWhere.safeParse(where).success, `${view.kind} ${JSON.stringify(where)}`).toBe(true);
      }
    }
    expect(libraryWhere.safeParse({ trash: true, folder: 1 }).success).toBe(false);
    expect(libraryWhere.safeParse({ collectionId: 0 }).success).toBe(false);
  });

  it('shows Unfiled as its own scope and quotes any tag, quote marks included', () => {
    expect(whereOf({ kind: 'unfiled' }, '', [])).toEqual({ unfiled: true });
    expect(whereOf({ kind: 'unfiled' }, 'neuro', [])).toEqual({ unfiled: true, query: 'neuro' });
    const terms = tagTerms(['say "hi"', 'back\\slash', '“curly”']);
    expect(terms).toBe('tag:"say \\"hi\\"" tag:"back\\\\slash" tag:"\\“curly\\”"');
    expect(strip(parseQuery(terms))).toMatchObject({
      kind: 'and',
      children: [
        { kind: 'tag', value: 'say "hi"' },
        { kind: 'tag', value: 'back\\slash' },
        { kind: 'tag', value: '“curly”' },
      ],
    });
  });

  it('builds the collection tree and refuses a move into its own subtree', () => {
    const cs = [col(1, 'B'), col(2, 'A'), col(3, 'child', 1), col(4, 'grandchild', 3)];
    const tree = collectionTree(cs);
    expect(tree.map((n) => n.collection.name)).toEqual(['A', 'B']);
    expect(tree[1]!.children[0]!.children[0]!.collection.name).toBe('grandchild');
    expect(isWithin(cs, 4, 1)).toBe(true);
    expect(isWithin(cs, 2, 1)).toBe(false);
  });
});

describe('titles in the table', () => {
  it('drops CSL rich-text markup and keeps any other angle brackets as text', () => {
    expect(plainTitle('Growth of <i>Escherichia coli</i> at 10<sup>5</sup> cells in H<sub>2</sub>O')).toBe(
      'Growth of Escherichia coli at 105 cells in H2O',
    );
    expect(
      plainTitle('The <span class="nocase">mRNA</span> of <span style="font-variant:small-caps;">Smith</span>'),
    ).toBe('The mRNA of Smith');
    expect(plainTitle('Payload <img src=x onerror="window.__pwned=1"> in a <i>title</i>')).toBe(
      'Payload <img src=x onerror="window.__pwned=1"> in a title',
    );
    expect(plainTitle('a < b and c > d')).toBe('a < b and c > d');
  });

  it('shows the container (a journal or book title with braced words) without its markup too', () => {
    const row: LibraryRow = {
      id: 1,
      type: 'chapter',
      citationKey: 'k',
      title: 'T',
      creators: null,
      year: null,
      container: 'Handbook of <span class="nocase">AI</span> and <i>E. coli</i>',
      doi: null,
      dateAdded: 0,
      dateModified: 0,
      trashedAt: null,
      evidence: { state: 'not-fetched' },
      retracted: null,
      notices: [],
      publisher: null,
      pages: null,
      extra: null,
      notesCount: 0,
      files: { count: 0, pdf: 0 },
    };
    expect(cellText(row, 'container')).toBe('Handbook of AI and E. coli');
    expect(cellText({ ...row, container: null }, 'container')).toBe('');
    expect(cellText({ ...row, container: 'a < b' }, 'container')).toBe('a < b');
  });
});

describe('evidence cells', () => {
  const now = Date.UTC(2026, 0, 10);
  const found: TallyState = {
    state: 'found',
    fetchedAt: now - 3 * 86_400_000,
    total: 12,
    supporting: 0,
    contrasting: 2,
    mentioning: 1_234,
    unclassified: 0,
    citingPublications: null,
  };

  it('keeps no DOI, not fetched, unknown and zero apart', () => {
    expect(evidenceCell({ state: 'not-fetched' }, 'supporting', false)).toEqual({ text: '—', state: 'no-doi' });
    expect(evidenceCell({ state: 'not-fetched' }, 'supporting')).toEqual({ text: '…', state: 'not-fetched' });
    expect(evidenceCell({ state: 'unknown', fetchedAt: now }, 'supporting')).toEqual({ text: '?', state: 'unknown' });
    expect(evidenceCell(found, 'supporting')).toEqual({ text: '0', state: 'zero' });
    expect(evidenceCell(found, 'mentioning')).toEqual({ text: '1,234', state: 'count' });
    expect(evidenceCell(found, 'citing')).toEqual({ text: '?', state: 'unknown' });
  });

  it("tells the data's age in the tooltip", () => {
    expect(evidenceTitle(found, 'contrasting', now)).toBe('2 contrasting citation statements (fetched 3 days ago)');
    expect(evidenceTitle({ state: 'unknown', fetchedAt: now - 7_200_000 }, 'citing', now)).toBe(
      'Unknown to the citation service: it has no citation data for this DOI (checked 2 hours ago)',
    );
    expect(evidenceTitle({ state: 'not-fetched' }, 'citing', now)).toBe('Not fetched from the citation service yet');
    expect(evidenceTitle({ state: 'not-fetched' }, 'citing', now, false)).toBe(
      'No DOI: the citation service can only be asked about items with a DOI',
    );
  });

  it('explains every mark a cell can show in the legend', () => {
    const marks = new Set<string>(EVIDENCE_MARKS.map((m) => m.mark));
    const cells = [
      evidenceCell({ state: 'not-fetched' }, 'citing', false),
      evidenceCell({ state: 'not-fetched' }, 'citing'),
      evidenceCell({ state: 'unknown', fetchedAt: now }, 'citing'),
      evidenceCell(found, 'citing'),
    ];
    for (const c of cells) expect(marks.has(c.text), c.text).toBe(true);
    expect(EVIDENCE_MARKS.map((m) => `${m.mark} ${m.meaning}`)).toEqual([
      '? not known to the citation service',
      '— no DOI',
      '… not fetched yet',
    ]);
  });
});

describe('notice badges', () => {
  const row = (notices: string[], retracted: boolean | null = null) => ({ notices, retracted });

  it('gives each kind of notice its own badge beside Retracted, most severe first, with a tooltip naming the notice', () => {
    const badges = noticeBadges(
      row(['has erratum', 'has expression of concern', 'retracted', 'has correction', 'withdrawn'], true),
    );
    expect(badges.map((b) => b.label)).toEqual(['Retracted', 'Withdrawn', 'Concern', 'Corrected', 'Erratum']);
    expect(badges.map((b) => b.tone)).toEqual(['danger', 'danger', 'warning', 'info', 'info']);
    expect(badges[2]!.title).toMatch(/^Expression of concern: /);
    expect(badges[3]!.title).toMatch(/^Correction notice: /);
  });

  it("flags the paper's own retracted flag without a notice, nothing for comments or no notices, and names an unknown kind", () => {
    expect(noticeBadges(row([], true)).map((b) => b.label)).toEqual(['Retracted']);
    expect(noticeBadges(row([], false))).toEqual([]);
    expect(noticeBadges(row(['comment']))).toEqual([]);
    expect(noticeBadges(row(['Has Expression of Concern'])).map((b) => b.label)).toEqual(['Concern']);
    expect(noticeBadges(row(['has addendum']))).toEqual([
      { kind: 'has addendum', label: 'Notice', title: 'Editorial notice: has addendum', tone: 'info' },
    ]);
  });
});

describe('column preferences', () => {
  it('keeps known, distinct columns from storage and falls back to the defaults', () => {
    expect(sanitizeColumns(['year', 'title', 'year', 'bogus', 3])).toEqual(['year', 'title']);
    expect(sanitizeColumns('nope')).toEqual([...DEFAULT_COLUMNS]);
    expect(sanitizeColumns([])).toEqual([...DEFAULT_COLUMNS]);
  });
});
