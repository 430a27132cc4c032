import { describe, expect, it } from 'vitest';
import { paperQuerySchema } from '../../../shared/ipc/collections';
import {
  buildPaperQuery,
  dateProblem,
  describePaperQuery,
  emptyPaperQueryForm,
  toCollectionQuery,
  toSearchParams,
  type PaperQueryForm,
} from '../../../shared/model/paper-query';

function form(patch: (f: PaperQueryForm) => void): PaperQueryForm {
  const f = emptyPaperQueryForm();
  patch(f);
  return f;
}

describe('the paper query builder', () => {
  it('turns every part of the form into the collection query object, camelCase, only what was set', () => {
    const built = buildPaperQuery(
      form((f) => {
        f.term = '  coral reefs ';
        f.title = 'bleaching';
        f.dateFrom = '2015';
        f.dateTo = '2020-06-30';
        f.citationTypes = ['mentioning', 'supporting'];
        f.flags.hasRetraction = 'no';
        f.flags.hasConcern = 'yes';
        f.flags.hasTally = 'yes';
        f.ranges.supporting = { from: '3', to: '40' };
        f.ranges.citingPublications = { from: '', to: '100' };
        f.text.author = 'Moreau';
        f.text.journal = 'Marine';
        f.text.publisher = 'Elsevier';
        f.text.section = 'discussion';
        f.text.paperType = 'article';
        f.text.affiliation = 'Kyoto';
        f.text.topic = 'ecology';
        f.sort = 'total_supported';
        f.aggregations = ['journals', 'authors'];
        f.limit = '250';
      }),
      { forCollection: true },
    );
    expect(built).toEqual({
      ok: true,
      query: {
        term: 'coral reefs',
        title: 'bleaching',
        dateFrom: '2015',
        dateTo: '2020-06-30',
        citationTypes: ['supporting', 'mentioning'],
        hasRetraction: false,
        hasConcern: true,
        hasTally: true,
        supportingFrom: 3,
        supportingTo: 40,
        citingPublicationsTo: 100,
        author: 'Moreau',
        journal: 'Marine',
        publisher: 'Elsevier',
        section: 'discussion',
        paperType: 'article',
        affiliation: 'Kyoto',
        topic: 'ecology',
        sort: 'total_supported',
        sortOrder: 'desc',
        computeAggregations: true,
        aggregations: ['authors', 'journals'],
        limit: 250,
      },
    });
    if (!built.ok) return;
    // The collection body has no sort order; the search takes the snake_case names.
    expect(toCollectionQuery(built.query)).not.toHaveProperty('sortOrder');
    expect(paperQuerySchema.safeParse(built.query).success).toBe(true);
    expect(toSearchParams(built.query, { offset: 20, limit: 20 })).toEqual({
      offset: 20,
      limit: 20,
      term: 'coral reefs',
      title: 'bleaching',
      date_from: '2015',
      date_to: '2020-06-30',
      citation_types: ['supporting', 'mentioning'],
      has_retraction: false,
      has_concern: true,
      has_tally: true,
      supporting_from: 3,
      supporting_to: 40,
      citing_publications_to: 100,
      author: 'Moreau',
      journal: 'Marine',
      publisher: 'Elsevier',
      section: 'discussion',
      paper_type: 'article',
      affiliation: 'Kyoto',
      topic: 'ecology',
      sort: 'total_supported',
      sort_order: 'desc',
    });
    expect(describePaperQuery(built.query)).toBe(
      '“coral reefs”, title: “bleaching”, published 2015–2020-06-30, with supporting or mentioning citations, without retraction, with expression of concern, with smart citations, supporting 3–40, citing publications 0–100, author: Moreau, journal: Marine, publisher: Elsevier, section of the citing text: discussion, paper type: article, affiliation: Kyoto, topic: ecology, sorted by supporting, first 250, aggregated by authors and journals',
    );
  });

  it('leaves aggregations and the paper limit out of a search', () => {
    const built = buildPaperQuery(form((f) => ((f.term = 'x'), (f.aggregations = ['authors']), (f.limit = '5'))));
    expect(built).toEqual({ ok: true, query: { term: 'x' } });
  });

  it('says what is wrong and where: bad dates, reversed ranges, non-numbers, a limit out of range, nothing to search for', () => {
    const built = buildPaperQuery(
      form((f) => {
        f.term = 'x';
        f.dateFrom = '2020-02-30';
        f.dateTo = '19';
        f.ranges.mentioning = { from: 'ten', to: '' };
        f.ranges.contrasting = { from: '9', to: '2' };
        f.limit = '0';
      }),
      { forCollection: true },
    );
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.problems).toEqual([
      { field: 'ranges.mentioning', message: 'Mentioning from: "ten" is not a whole number of 0 or more.' },
      { field: 'dateFrom', message: 'Published from: "2020-02-30" is not a day of that month.' },
      { field: 'dateTo', message: 'Published until: "19" is not a date: write it as 2019, 2019-03 or 2019-03-14.' },
      { field: 'ranges.contrasting', message: 'Contrasting: the lower bound (9) is above the upper bound (2).' },
      { field: 'limit', message: 'Papers to take: between 1 and 10,000.' },
    ]);
    expect(buildPaperQuery(form((f) => ((f.dateFrom = '2021'), (f.dateTo = '2020-12'))))).toEqual({
      ok: false,
      problems: [{ field: 'dateTo', message: 'Published until (2020-12) is before published from (2021).' }],
    });
    expect(buildPaperQuery(form((f) => (f.sort = 'date')))).toEqual({
      ok: false,
      problems: [
        {
          field: 'term',
          message: 'Give a search term or at least one filter: a query without any would match the whole literature.',
        },
      ],
    });
  });

  it('accepts the date forms the service takes and nothing else', () => {
    for (const ok of ['2019', '2019-03', '2019-03-14', '2024-02-29']) expect(dateProblem(ok)).toBeNull();
    for (const bad of ['2019-3', '2019/03/14', '2023-02-29', '2019-13', '1200', 'yesterday'])
      expect(dateProblem(bad)).not.toBeNull();
  });

  it('is enforced at the IPC boundary too: unknown fields, wrong types and the same problems are refused', () => {
    expect(paperQuerySchema.safeParse({ term: 'x', dois: ['10.1/a'] }).success).toBe(false);
    expect(paperQuerySchema.safeParse({ term: 'x', supportingFrom: -1 }).success).toBe(false);
    expect(paperQuerySchema.safeParse({ term: 'x', citationTypes: ['contradicting'] }).success).toBe(false);
    const reversed = paperQuerySchema.safeParse({ term: 'x', supportingFrom: 5, supportingTo: 1 });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]).toMatchObject({
      path: ['ranges', 'supporting'],
      message: 'Supporting: the lower bound (5) is above the upper bound (1).',
    });
    expect(paperQuerySchema.safeParse({}).success).toBe(false);
  });
});
