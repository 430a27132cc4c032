// The paper query a researcher fills in once and uses twice: as a service collection's query object
// (camelCase, POST /api_partner/collections/create) and as the paper search's parameters (snake_case,
// GET /search). The form holds text as typed; `buildPaperQuery` checks it and says what is wrong
// and where, and the same checks guard the IPC boundary (`paperQueryProblems`).
import type { CollectionQuery, QueryParams } from '../service';
import { GUESSES } from '../service';
import { grouped } from './numbers';

export const CITATION_TYPES = ['supporting', 'contrasting', 'mentioning'] as const;
export type QueryCitationType = (typeof CITATION_TYPES)[number];
export const NOTICE_FLAGS = ['hasRetraction', 'hasConcern', 'hasCorrection', 'hasErratum', 'hasWithdrawn'] as const;
export type NoticeFlag = (typeof NOTICE_FLAGS)[number];
export const NOTICE_FLAG_LABELS: Record<NoticeFlag | 'hasTally', string> = {
  hasRetraction: 'Retraction',
  hasConcern: 'Expression of concern',
  hasCorrection: 'Correction',
  hasErratum: 'Erratum',
  hasWithdrawn: 'Withdrawal',
  hasTally: 'Smart citations',
};
export const TALLY_RANGES = ['supporting', 'contrasting', 'mentioning', 'citingPublications'] as const;
export type TallyRange = (typeof TALLY_RANGES)[number];
export const TALLY_RANGE_LABELS: Record<TallyRange, string> = {
  supporting: 'Supporting',
  contrasting: 'Contrasting',
  mentioning: 'Mentioning',
  citingPublications: 'Citing publications',
};
export const TEXT_FILTERS = ['author', 'journal', 'publisher', 'section', 'paperType', 'affiliation', 'topic'] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];
export const TEXT_FILTER_LABELS: Record<TextFilter, string> = {
  author: 'Author',
  journal: 'Journal',
  publisher: 'Publisher',
  section: 'Section of the citing text',
  paperType: 'Paper type',
  affiliation: 'Affiliation',
  topic: 'Topic',
};
export const SECTIONS = ['introduction', 'methods', 'results', 'discussion', 'other'] as const;
export const QUERY_SORTS = [
  'date',
  'total_cited',
  'total_supported',
  'total_contrasted',
  'total_mentioned',
  'total_citing_publications',
] as const;
export type QuerySort = (typeof QUERY_SORTS)[number];
export const QUERY_SORT_LABELS: Record<QuerySort | '', string> = {
  '': 'Relevance',
  date: 'Date',
  total_cited: 'Citation statements',
  total_supported: 'Supporting',
  total_contrasted: 'Contrasting',
  total_mentioned: 'Mentioning',
  total_citing_publications: 'Citing publications',
};
export const AGGREGATIONS = ['authors', 'journals'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
/** The most papers a collection made from a query may take (the service's page limit on search). */
export const MAX_QUERY_LIMIT = 10_000;

/** Each notice flag: any paper, only papers with it, or only papers without it. */
export type TriState = 'any' | 'yes' | 'no';

/** The form as typed: text fields stay text until `buildPaperQuery` checks them. */
export interface PaperQueryForm {
  term: string;
  title: string;
  abstract: string;
  dateFrom: string;
  dateTo: string;
  citationTypes: QueryCitationType[];
  flags: Record<NoticeFlag | 'hasTally', TriState>;
  ranges: Record<TallyRange, { from: string; to: string }>;
  text: Record<TextFilter, string>;
  sort: QuerySort | '';
  sortOrder: 'asc' | 'desc';
  aggregations: Aggregation[];
  /** How many papers a collection built from the query takes; blank: the service's default. */
  limit: string;
}

/** The query object sent for a collection: the service's camelCase names, only the fields set. */
export type PaperQuery = Pick<
  CollectionQuery,
  | 'term'
  | 'title'
  | 'abstract'
  | 'dateFrom'
  | 'dateTo'
  | 'hasRetraction'
  | 'hasConcern'
  | 'hasCorrection'
  | 'hasErratum'
  | 'hasWithdrawn'
  | 'hasTally'
  | 'supportingFrom'
  | 'supportingTo'
  | 'mentioningFrom'
  | 'mentioningTo'
  | 'contrastingFrom'
  | 'contrastingTo'
  | 'citingPublicationsFrom'
  | 'citingPublicationsTo'
  | 'author'
  | 'journal'
  | 'publisher'
  | 'section'
  | 'paperType'
  | 'affiliation'
  | 'topic'
  | 'computeAggregations'
  | 'limit'
> & { citationTypes?: QueryCitationType[]; sort?: QuerySort; sortOrder?: 'asc' | 'desc'; aggregations?: Aggregation[] };

export interface QueryProblem {
  /** The form field: 'dateFrom', 'ranges.supporting', 'limit'… */
  field: string;
  message: string;
}

export function emptyPaperQueryForm(): PaperQueryForm {
  const tri = (): TriState => 'any';
  return {
    term: '',
    title: '',
    abstract: '',
    dateFrom: '',
    dateTo: '',
    citationTypes: [],
    flags: {
      hasRetraction: tri(),
      hasConcern: tri(),
      hasCorrection: tri(),
      hasErratum: tri(),
      hasWithdrawn: tri(),
      hasTally: tri(),
    },
    ranges: {
      supporting: { from: '', to: '' },
      contrasting: { from: '', to: '' },
      mentioning: { from: '', to: '' },
      citingPublications: { from: '', to: '' },
    },
    text: { author: '', journal: '', publisher: '', section: '', paperType: '', affiliation: '', topic: '' },
    sort: '',
    sortOrder: 'desc',
    aggregations: [],
    limit: '',
  };
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** A date the service accepts: YYYY, YYYY-MM or YYYY-MM-DD, and a real one. Null when fine. */
export function dateProblem(value: string): string | null {
  const m = DATE.exec(value);
  if (!m) return `"${value}" is not a date: write it as 2019, 2019-03 or 2019-03-14.`;
  const year = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  if (year < 1600 || year > 2200) return `${year} is not a plausible publication year.`;
  if (month < 1 || month > 12) return `"${value}" has no month ${m[2]}.`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `"${value}" is not a day of that month.`;
  return null;
}

/** Compares two valid dates of any precision by their first day. */
function dateKey(value: string): string {
  const [y, m = '01', d = '01'] = value.split('-');
  return `${y}-${m}-${d}`;
}

const RANGE_KEYS: Record<TallyRange, [keyof PaperQuery, keyof PaperQuery]> = {
  supporting: ['supportingFrom', 'supportingTo'],
  contrasting: ['contrastingFrom', 'contrastingTo'],
  mentioning: ['mentioningFrom', 'mentioningTo'],
  citingPublications: ['citingPublicationsFrom', 'citingPublicationsTo'],
};

function count(text: string, field: string, what: string, problems: QueryProblem[]): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t))) {
    problems.push({ field, message: `${what}: "${t}" is not a whole number of 0 or more.` });
    return undefined;
  }
  return Number(t);
}

/** The checks that hold for a query however it was made (the form, or an IPC caller). */
export function paperQueryProblems(q: PaperQuery): QueryProblem[] {
  const problems: QueryProblem[] = [];
  for (const field of ['dateFrom', 'dateTo'] as const) {
    const v = q[field];
    if (v !== undefined) {
      const p = dateProblem(v);
      if (p) problems.push({ field, message: `${field === 'dateFrom' ? 'Published from' : 'Published until'}: ${p}` });
    }
  }
  if (
    q.dateFrom &&
    q.dateTo &&
    !dateProblem(q.dateFrom) &&
    !dateProblem(q.dateTo) &&
    dateKey(q.dateFrom) > dateKey(q.dateTo)
  ) {
    problems.push({
      field: 'dateTo',
      message: `Published until (${q.dateTo}) is before published from (${q.dateFrom}).`,
    });
  }
  for (const range of TALLY_RANGES) {
    const [fromKey, toKey] = RANGE_KEYS[range];
    const from = q[fromKey] as number | undefined;
    const to = q[toKey] as number | undefined;
    for (const v of [from, to]) {
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 0))
        problems.push({
          field: `ranges.${range}`,
          message: `${TALLY_RANGE_LABELS[range]}: counts are whole numbers of 0 or more.`,
        });
    }
    if (from !== undefined && to !== undefined && from > to)
      problems.push({
        field: `ranges.${range}`,
        message: `${TALLY_RANGE_LABELS[range]}: the lower bound (${from}) is above the upper bound (${to}).`,
      });
  }
  if (q.limit !== undefined && (!Number.isSafeInteger(q.limit) || q.limit < 1 || q.limit > MAX_QUERY_LIMIT)) {
    problems.push({ field: 'limit', message: `Papers to take: between 1 and ${grouped(MAX_QUERY_LIMIT)}.` });
  }
  if (q.aggregations?.length && q.computeAggregations === false)
    problems.push({ field: 'aggregations', message: 'Aggregations were asked for with computeAggregations off.' });
  if (!hasCriteria(q))
    problems.push({
      field: 'term',
      message: 'Give a search term or at least one filter: a query without any would match the whole literature.',
    });
  return problems;
}

/** Whether the query narrows the literature at all (sort, order, limit and aggregations do not). */
export function hasCriteria(q: PaperQuery): boolean {
  const notCriteria = new Set(['sort', 'sortOrder', 'limit', 'aggregations', 'computeAggregations']);
  return Object.entries(q).some(
    ([k, v]) => !notCriteria.has(k) && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
}

export type BuiltQuery = { ok: true; query: PaperQuery } | { ok: false; problems: QueryProblem[] };

/** The form → the query object, or every problem with the field it belongs to. */
export function buildPaperQuery(form: PaperQueryForm, options: { forCollection?: boolean } = {}): BuiltQuery {
  const problems: QueryProblem[] = [];
  const q: PaperQuery = {};
  const text = (v: string): string | undefined => (v.trim() === '' ? undefined : v.trim());
  const set = <K extends keyof PaperQuery>(key: K, value: PaperQuery[K] | undefined): void => {
    if (value !== undefined) q[key] = value;
  };
  set('term', text(form.term));
  set('title', text(form.title));
  set('abstract', text(form.abstract));
  set('dateFrom', text(form.dateFrom));
  set('dateTo', text(form.dateTo));
  const types = CITATION_TYPES.filter((t) => form.citationTypes.includes(t));
  if (types.length) q.citationTypes = types;
  for (const flag of [...NOTICE_FLAGS, 'hasTally'] as const) {
    const v = form.flags[flag];
    if (v !== 'any') q[flag] = v === 'yes';
  }
  for (const range of TALLY_RANGES) {
    const [fromKey, toKey] = RANGE_KEYS[range];
    const field = `ranges.${range}`;
    set(fromKey, count(form.ranges[range].from, field, `${TALLY_RANGE_LABELS[range]} from`, problems) as never);
    set(toKey, count(form.ranges[range].to, field, `${TALLY_RANGE_LABELS[range]} to`, problems) as never);
  }
  for (const key of TEXT_FILTERS) set(key, text(form.text[key]));
  if (form.sort) {
    q.sort = form.sort;
    q.sortOrder = form.sortOrder;
  }
  if (options.forCollection) {
    const aggs = AGGREGATIONS.filter((a) => form.aggregations.includes(a));
    if (aggs.length) {
      q.computeAggregations = true;
      q.aggregations = aggs;
    }
    set('limit', count(form.limit, 'limit', 'Papers to take', problems));
  }
  const all = [...problems, ...paperQueryProblems(q).filter((p) => !problems.some((x) => x.field === p.field))];
  return all.length ? { ok: false, problems: all } : { ok: true, query: q };
}

/** The GET /search parameters of a query (snake_case; the citation-type name is a guess, from the guess table). */
export function toSearchParams(q: PaperQuery, page: { offset: number; limit: number }): QueryParams<'search'> {
  const out: Record<string, unknown> = { offset: page.offset, limit: page.limit };
  const put = (name: string, value: unknown): void => {
    if (value !== undefined) out[name] = value;
  };
  put('term', q.term);
  put('title', q.title);
  put('abstract', q.abstract);
  put('date_from', q.dateFrom);
  put('date_to', q.dateTo);
  put(GUESSES.searchCitationTypesParam, q.citationTypes);
  put('has_retraction', q.hasRetraction);
  put('has_concern', q.hasConcern);
  put('has_correction', q.hasCorrection);
  put('has_erratum', q.hasErratum);
  put('has_withdrawn', q.hasWithdrawn);
  put('has_tally', q.hasTally);
  put('supporting_from', q.supportingFrom);
  put('supporting_to', q.supportingTo);
  put('mentioning_from', q.mentioningFrom);
  put('mentioning_to', q.mentioningTo);
  put('contrasting_from', q.contrastingFrom);
  put('contrasting_to', q.contrastingTo);
  put('citing_publications_from', q.citingPublicationsFrom);
  put('citing_publications_to', q.citingPublicationsTo);
  put('author', q.author);
  put('journal', q.journal);
  put('publisher', q.publisher);
  put('section', q.section);
  put('paper_type', q.paperType);
  put('affiliation', q.affiliation);
  put('topic', q.topic);
  put('sort', q.sort);
  if (q.sort) put('sort_order', q.sortOrder ?? 'desc');
  return out as QueryParams<'search'>;
}

/** The collection's query object on the wire: the sort order is not one of its fields. */
export function toCollectionQuery(q: PaperQuery): CollectionQuery {
  const { sortOrder, ...rest } = q;
  void sortOrder;
  return rest;
}

/** One line saying what a query asks for, for lists and headings. */
export function describePaperQuery(q: PaperQuery): string {
  const parts: string[] = [];
  if (q.term) parts.push(`“${q.term}”`);
  if (q.title) parts.push(`title: “${q.title}”`);
  if (q.abstract) parts.push(`abstract: “${q.abstract}”`);
  if (q.dateFrom || q.dateTo) parts.push(`published ${q.dateFrom ?? '…'}–${q.dateTo ?? '…'}`);
  if (q.citationTypes?.length) parts.push(`with ${q.citationTypes.join(' or ')} citations`);
  for (const flag of [...NOTICE_FLAGS, 'hasTally'] as const) {
    if (q[flag] !== undefined) parts.push(`${q[flag] ? 'with' : 'without'} ${NOTICE_FLAG_LABELS[flag].toLowerCase()}`);
  }
  for (const range of TALLY_RANGES) {
    const [fromKey, toKey] = RANGE_KEYS[range];
    const from = q[fromKey];
    const to = q[toKey];
    if (from !== undefined || to !== undefined)
      parts.push(`${TALLY_RANGE_LABELS[range].toLowerCase()} ${from ?? 0}–${to ?? '∞'}`);
  }
  for (const key of TEXT_FILTERS) if (q[key]) parts.push(`${TEXT_FILTER_LABELS[key].toLowerCase()}: ${q[key]}`);
  if (q.sort)
    parts.push(`sorted by ${QUERY_SORT_LABELS[q.sort].toLowerCase()}${q.sortOrder === 'asc' ? ', ascending' : ''}`);
  if (q.limit) parts.push(`first ${q.limit}`);
  if (q.aggregations?.length) parts.push(`aggregated by ${q.aggregations.join(' and ')}`);
  return parts.join(', ');
}
