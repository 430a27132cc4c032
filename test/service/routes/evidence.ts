// Evidence datasets: search (q with AND/OR/NOT/"phrases", a field:"value" filter string, sort and
// direction, pages), schema discovery, detail records and MAUDE facets.
import {
  GUESSES,
  type OperationId,
  type HighlightedValue,
  type MaudeFacetsRequest,
} from '../../../shared/service/index';
import { SORT_COLUMNS, type Dataset } from '../corpus/evidence';
import { slugify } from '../corpus/rng';
import { HttpError, notFound, ok, unprocessable, type ApiRequest, type Handler } from '../http';
import type { Corpus } from '../store';
import { highlight } from './search';

const PAGE_SIZE = 10;
type Doc = Record<string, unknown>;

/** Turns the evidence query language into an FTS5 expression; `negate` when it starts with NOT. */
export function ftsQuery(q: string): { match: string | null; negate: string | null; terms: string[] } {
  const tokens = q.match(/"[^"]*"|\(|\)|[^\s()"]+/g) ?? [];
  const out: string[] = [];
  const terms: string[] = [];
  let pendingOp: string | null = null;
  for (const raw of tokens) {
    if (raw === 'AND' || raw === 'OR' || raw === 'NOT') {
      pendingOp = pendingOp === 'AND' && raw === 'NOT' ? 'NOT' : raw;
      continue;
    }
    let term: string;
    if (raw === '(' || raw === ')') {
      term = raw;
    } else if (raw.startsWith('"')) {
      const words =
        raw
          .slice(1, -1)
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? [];
      if (words.length === 0) continue;
      terms.push(...words);
      term = `"${words.join(' ')}"`;
    } else {
      const words = raw.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      if (words.length === 0) continue;
      terms.push(...words);
      term = words.length === 1 ? `"${words[0]}"*` : `"${words.join(' ')}"`;
    }
    const last = out[out.length - 1];
    if (term !== ')' && last !== undefined && last !== '(' && !['AND', 'OR', 'NOT'].includes(last))
      out.push(pendingOp ?? 'AND');
    else if (pendingOp === 'NOT' && term !== ')') out.push('NOT');
    out.push(term);
    pendingOp = null;
  }
  // Balance parentheses and drop dangling operators.
  let depth = 0;
  const balanced: string[] = [];
  for (const t of out) {
    if (t === ')' && depth === 0) continue;
    if (t === '(') depth++;
    if (t === ')') depth--;
    balanced.push(t);
  }
  while (depth-- > 0) balanced.push(')');
  // Drop empty groups and operators with nothing on one side, until nothing changes.
  const isOp = (t: string | undefined): boolean => t === 'AND' || t === 'OR' || t === 'NOT';
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < balanced.length; i++) {
      const [t, next] = [balanced[i], balanced[i + 1]];
      const drop =
        t === '(' && next === ')'
          ? 2
          : t === '(' && (next === 'AND' || next === 'OR')
            ? -1
            : isOp(t) && (next === ')' || next === undefined || isOp(next))
              ? 1
              : isOp(t) && t !== 'NOT' && (i === 0 || balanced[i - 1] === '(')
                ? 1
                : 0;
      if (drop === 0) continue;
      if (drop === -1) balanced.splice(i + 1, 1);
      else balanced.splice(i, drop);
      changed = true;
      break;
    }
  }
  if (balanced.length === 0) return { match: null, negate: null, terms };
  if (balanced[0] === 'NOT') {
    // "NOT x rest": FTS5 has no unary NOT, so match the rest and exclude x (or everything but x).
    const rest = balanced.slice(2);
    while (rest.length && ['AND', 'OR'].includes(rest[0]!)) rest.shift();
    return { match: rest.length ? rest.join(' ') : null, negate: balanced[1]!, terms };
  }
  return { match: balanced.join(' '), negate: null, terms };
}

export function parseFilter(f: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of f.matchAll(/([\w.\-[\]]+):(?:"((?:[^"\\]|\\.)*)"|(\S+))/g))
    out.push([m[1]!, (m[2] ?? m[3]!).replace(/\\"/g, '"')]);
  return out;
}

function filterable(corpus: Corpus, dataset: Dataset): string[] {
  return corpus.db
    .prepare('SELECT DISTINCT field FROM evidence_fields WHERE dataset = ? ORDER BY field')
    .pluck()
    .all(dataset) as string[];
}

/** The rowids matching q and f, ranked or sorted, with the total. */
function searchRows(
  corpus: Corpus,
  dataset: Dataset,
  q: string | undefined,
  f: string | undefined,
  sort: string | undefined,
  dir: string | undefined,
  page: number,
  pageSize: number | null,
  where: 'query' | 'body' = 'query',
): { total: number; rows: Array<{ rowid: number; doc: string }>; terms: string[]; rids: string; params: unknown[] } {
  const clauses: string[] = ['e.dataset = ?'];
  const params: unknown[] = [dataset];
  const parsed = q ? ftsQuery(q) : { match: null, negate: null, terms: [] };
  let from = 'evidence e';
  if (parsed.match) {
    from = 'evidence_fts JOIN evidence e ON e.rowid = evidence_fts.rowid';
    clauses.push('evidence_fts MATCH ?');
    params.push(parsed.match);
  }
  if (parsed.negate) {
    clauses.push('e.rowid NOT IN (SELECT rowid FROM evidence_fts WHERE evidence_fts MATCH ?)');
    params.push(parsed.negate);
  }
  if (f) {
    const pairs = parseFilter(f);
    const known = new Set(filterable(corpus, dataset));
    const byField = new Map<string, string[]>();
    for (const [field, value] of pairs) {
      if (!known.has(field))
        throw unprocessable(
          [where, where === 'query' ? GUESSES.evidenceFilterParam : 'fs'],
          `unknown filter field "${field}"; filterable fields: ${[...known].join(', ')}`,
          'value_error.filter_field',
        );
      byField.set(field, [...(byField.get(field) ?? []), value.toLowerCase()]);
    }
    for (const [field, values] of byField) {
      clauses.push(
        `e.rowid IN (SELECT rid FROM evidence_fields WHERE dataset = ? AND field = ? AND value IN (${values.map(() => '?').join(',')}))`,
      );
      params.push(dataset, field, ...values);
    }
  }
  let order = parsed.match ? 'evidence_fts.rank' : 'e.seq';
  if (sort && sort !== '_relevance') {
    const index = SORT_COLUMNS[dataset].indexOf(sort);
    if (index < 0)
      throw unprocessable(
        [where, 's'],
        `value is not a valid sort field; permitted: '_relevance', ${SORT_COLUMNS[dataset].map((s) => `'${s}'`).join(', ')}`,
        'type_error.enum',
      );
    const col = `e.sort${index + 1}`;
    order = `${col} IS NULL, ${col} ${dir === 'asc' ? 'ASC' : 'DESC'}, e.seq`;
  }
  const whereSql = clauses.join(' AND ');
  try {
    const total = corpus.db
      .prepare(`SELECT count(*) FROM ${from} WHERE ${whereSql}`)
      .pluck()
      .get(...params) as number;
    const rows =
      pageSize === null
        ? []
        : (corpus.db
            .prepare(
              `SELECT e.rowid AS rowid, e.doc AS doc FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`,
            )
            .all(...params, pageSize, (page - 1) * pageSize) as Array<{ rowid: number; doc: string }>);
    return { total, rows, terms: parsed.terms, rids: `SELECT e.rowid FROM ${from} WHERE ${whereSql}`, params };
  } catch (e) {
    if (/fts5|syntax/i.test((e as Error).message))
      throw unprocessable(
        [where, where === 'query' ? 'q' : 'qs'],
        `the query could not be parsed: ${(e as Error).message}`,
        'value_error.query',
      );
    throw e;
  }
}

const hv = (value: unknown, terms: readonly string[]): HighlightedValue => {
  const name = String(value);
  return { id: slugify(name, 12) || name, name, highlighted: highlight(name, terms) };
};
const hvs = (values: unknown, terms: readonly string[]): HighlightedValue[] =>
  Array.isArray(values) ? values.map((v) => hv(v, terms)) : [];

function render(dataset: Dataset, doc: Doc, terms: readonly string[]): Doc {
  switch (dataset) {
    case 'patents': {
      const patents = (doc.patents as Doc[]).map((p) => ({
        ...p,
        title: hv(p.title, terms),
        abstract: hv(p.abstract, terms),
        filingStatus: hv(p.filingStatus, terms),
        tags: hvs(p.tags, terms),
        publications: (p.publications as Doc[]).map((pub) => ({
          ...pub,
          filingStatus: hv(pub.filingStatus, terms),
          usptoPath: pub.usptoPath ?? undefined,
        })),
      }));
      return {
        ...doc,
        patents,
        uid: hv(doc.uid, terms),
        forwardCitationCount: hv(doc.forwardCitationCount, terms),
        familySize: hv(doc.familySize, terms),
      };
    }
    case 'clinical-trials':
      return {
        ...doc,
        id: hv(doc.id, terms),
        title: hv(doc.title, terms),
        uid: hv(doc.uid, terms),
        dataSource: hv(doc.dataSource, terms),
        registry: hv(doc.registry, terms),
        hasResults: hv(doc.hasResults, terms),
        briefDescription: doc.briefDescription === null ? null : hv(doc.briefDescription, terms),
        description: doc.description === null ? null : hv(doc.description, terms),
        sponsors: hvs(doc.sponsors, terms),
        conditions: hvs(doc.conditions, terms),
        interventions: hvs(doc.interventions, terms),
        tags: hvs(doc.tags, terms),
        reportedEvents: doc.reportedEvents ?? undefined,
      };
    case 'grants':
      return {
        ...doc,
        grants: (doc.grants as Doc[]).map((g) => {
          const out: Doc = {
            awardStartDate: g.awardStartDate,
            awardCloseDate: g.awardCloseDate,
            awardNoticeDate: g.awardNoticeDate,
            externalLink: g.externalLink,
          };
          for (const k of [
            'id',
            'slug',
            'title',
            'organization',
            'country',
            'state',
            'piName',
            'awardAmount',
            'agency',
            'branch',
            'dataSource',
            'phase',
            'program',
          ])
            if (g[k] !== null && g[k] !== undefined) out[k] = hv(g[k], terms);
          out.abstract = g.abstract === null ? null : hv(g.abstract, terms);
          out.researchKeywords = hvs(g.researchKeywords, terms);
          out.tags = hvs(g.tags, terms);
          return out;
        }),
      };
    case 'device510k-summaries': {
      const { device: _device, ...rest } = doc;
      return {
        ...rest,
        attachments: (doc.attachments as Doc[]).map((a) => {
          const file = a.file as Doc;
          return {
            ...a,
            file: {
              ...file,
              filename: hv(file.filename, terms),
              fileSize: hv(file.fileSize, terms),
              mimeType: hv(file.mimeType, terms),
              isDuplicate: hv(file.isDuplicate, terms),
            },
          };
        }),
      };
    }
    default:
      return doc;
  }
}

function search(dataset: Dataset): Handler {
  return (req: ApiRequest, { corpus }) => {
    const started = Date.now();
    const page = (req.query[GUESSES.evidencePageParam] as number | undefined) ?? GUESSES.evidencePageBase;
    const { total, rows, terms } = searchRows(
      corpus,
      dataset,
      req.query.q as string | undefined,
      req.query[GUESSES.evidenceFilterParam] as string | undefined,
      req.query.s as string | undefined,
      req.query[GUESSES.evidenceSortDirectionParam] as string | undefined,
      page,
      PAGE_SIZE,
    );
    return ok({
      totalResults: total,
      delay: Date.now() - started,
      resultsPerPage: PAGE_SIZE,
      from: (page - 1) * PAGE_SIZE,
      results: rows.map((r) => render(dataset, JSON.parse(r.doc) as Doc, terms)),
    });
  };
}

function schema(dataset: Dataset): Handler {
  return (_req, { corpus }) => {
    const fields = filterable(corpus, dataset).map((name) => {
      const values = corpus.db
        .prepare(
          'SELECT display, count(*) AS n FROM evidence_fields WHERE dataset = ? AND field = ? GROUP BY value ORDER BY n DESC LIMIT 51',
        )
        .all(dataset, name) as Array<{ display: string; n: number }>;
      return {
        name,
        type: 'keyword',
        description: `Exact match on ${name} (case-insensitive)`,
        ...(values.length <= 50 ? { values: values.map((v) => v.display) } : {}),
      };
    });
    return ok({ dataset, filterable: fields, sortable: ['_relevance', ...SORT_COLUMNS[dataset]] });
  };
}

function detail(dataset: Dataset, param: string, flatten: (doc: Doc) => Doc): Handler {
  return (req, { corpus }) => {
    const id = req.params[param]!;
    const row = corpus.db.prepare('SELECT doc FROM evidence WHERE dataset = ? AND id = ?').pluck().get(dataset, id) as
      string | undefined;
    if (!row) throw notFound(`No ${dataset} record with id ${id}`);
    return ok(flatten(JSON.parse(row) as Doc));
  };
}

export const evidenceHandlers = {
  searchPatents: search('patents'),
  getPatentsSchema: schema('patents'),
  searchClinicalTrials: search('clinical-trials'),
  getClinicalTrialsSchema: schema('clinical-trials'),
  searchGrants: search('grants'),
  getGrantsSchema: schema('grants'),
  getGrant: detail('grants', 'grant_id', (doc) => ({ ...(doc.grants as Doc[])[0]! })),
  searchDevice510kSummaries: search('device510k-summaries'),
  getDevice510kSummariesSchema: schema('device510k-summaries'),
  getDevice510k: detail('device510k-summaries', 'device_id', (doc) => {
    const device = doc.device as Doc;
    const attachment = (doc.attachments as Doc[])[0]!;
    return {
      id: doc.id,
      ...device,
      summaryFilename: doc.filename,
      summaryPages: attachment.pagesTotal,
      summaryUrl: `https://www.accessdata.fda.gov/cdrh_docs/pdf/${String(doc.filename)}`,
    };
  }),
  searchFaers: search('faers'),
  getFaersSchema: schema('faers'),
  getFaersReport: detail('faers', 'report_id', (doc) => doc),
  searchMaude: search('maude'),
  getMaudeSchema: schema('maude'),
  getMaudeFacets: (req, { corpus }) => {
    const body = req.body as MaudeFacetsRequest;
    const { total, rids, params } = searchRows(
      corpus,
      'maude',
      body.qs,
      body.fs,
      undefined,
      undefined,
      1,
      null,
      'body',
    );
    const known = filterable(corpus, 'maude');
    const fields = body.whitelist?.length ? body.whitelist : known;
    for (const f of fields)
      if (!known.includes(f))
        throw new HttpError(422, [
          {
            loc: ['body', 'whitelist'],
            msg: `unknown facet field "${f}"; fields: ${known.join(', ')}`,
            type: 'value_error.facet_field',
          },
        ]);
    const facets: Record<string, Array<{ key: string; docCount: number }>> = {};
    for (const field of fields) {
      facets[field] = corpus.db
        .prepare(
          `SELECT display AS key, count(*) AS docCount FROM evidence_fields WHERE dataset = 'maude' AND field = ? AND rid IN (${rids}) GROUP BY value ORDER BY docCount DESC, key LIMIT 50`,
        )
        .all(field, ...params) as Array<{ key: string; docCount: number }>;
    }
    return ok({ exact: true, facets, totalResults: total });
  },
} satisfies Partial<Record<OperationId, Handler>>;
