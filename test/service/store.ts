// Read access to the corpus database, and the mapping from its compact rows to the contract's shapes.
import Database from 'better-sqlite3';
import type {
  Paper,
  PaperAuthor,
  Tally,
  TallyCounts,
  CitingTally,
  EditorialNotice,
  Citation,
  SelfCite,
  CitationType,
} from '../../shared/service/index';
import { rngFor } from './corpus/rng';
import { KIND, topicFor, snippetFor, SECTIONS, type Topic } from './corpus/text';
import { FIELDS } from './corpus/vocab';

export interface PaperRow {
  id: number;
  doi: string;
  slug: string;
  title: string;
  abstract: string | null;
  keywords: string | null;
  year: number;
  month: number;
  day: number;
  journal_id: number;
  volume: string;
  issue: string | null;
  page: string;
  type: string;
  ntypes: string;
  pm_type: string | null;
  field: number;
  retracted: number;
  notice_flags: number;
  preprint_doi: string | null;
  published_doi: string | null;
  author_ids: string;
  aff_ids: string;
  authors_c: string;
  t_sup: number;
  t_con: number;
  t_men: number;
  t_unc: number;
  t_citing: number;
  c_sup: number;
  c_con: number;
  c_men: number;
  c_unc: number;
  c_cited: number;
}
export interface JournalRow {
  id: number;
  name: string;
  short: string;
  slug: string;
  code: string;
  publisher: string;
  member_id: number;
  prefix: string;
  issn_print: string;
  issn_e: string | null;
  field: number;
  first_year: number;
  quality: number;
}
export interface AuthorRow {
  id: number;
  given: string;
  family: string;
  slug: string;
  orcid: string | null;
  affiliation_id: number | null;
  field: number;
  created_at: string;
}
export interface AffiliationRow {
  id: number;
  name: string;
  slug: string;
}
export interface CitationRow {
  target: number;
  id: number;
  source: number;
  kind: number;
}

export const TYPE_NAMES: readonly (CitationType | 'unclassified')[] = [
  'mentioning',
  'supporting',
  'contradicting',
  'unclassified',
];
export const NOTICE_BITS = { correction: 1, erratum: 2, concern: 4, retraction: 8, withdrawal: 16 } as const;

/** Lowercase, trimmed, without doi: or resolver prefixes: the key of every lookup. */
export function normalizeDoi(raw: string): string {
  return raw
    .trim()
    .replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '')
    .toLowerCase();
}

class Lru<K, V> {
  private map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: K, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
}

export class Corpus {
  readonly db: Database.Database;
  readonly seed: number;
  readonly paperCount: number;
  readonly journals = new Map<number, JournalRow>();
  readonly journalsByIssn = new Map<string, JournalRow>();
  readonly affiliations = new Map<number, AffiliationRow>();
  private readonly authorCache = new Lru<number, AuthorRow>(20_000);
  private readonly stmts;

  constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    this.db.pragma('cache_size = -131072');
    this.db.pragma('mmap_size = 4294967296');
    const meta = new Map(
      (this.db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    this.seed = Number(meta.get('seed'));
    this.paperCount = Number(meta.get('papers'));
    for (const j of this.db.prepare('SELECT * FROM journals').all() as JournalRow[]) {
      this.journals.set(j.id, j);
      this.journalsByIssn.set(j.issn_print, j);
      if (j.issn_e) this.journalsByIssn.set(j.issn_e, j);
    }
    for (const a of this.db.prepare('SELECT * FROM affiliations').all() as AffiliationRow[])
      this.affiliations.set(a.id, a);
    this.stmts = {
      paperByDoi: this.db.prepare('SELECT * FROM papers WHERE doi = ?'),
      paperById: this.db.prepare('SELECT * FROM papers WHERE id = ?'),
      author: this.db.prepare('SELECT * FROM authors WHERE id = ?'),
      authorBySlug: this.db.prepare('SELECT * FROM authors WHERE slug = ?'),
      notices: this.db.prepare('SELECT status, date, notice_doi FROM notices WHERE paper_id = ? ORDER BY rowid'),
    };
  }

  close(): void {
    this.db.close();
  }

  paperByDoi(doi: string): PaperRow | undefined {
    return this.stmts.paperByDoi.get(normalizeDoi(doi)) as PaperRow | undefined;
  }

  paperById(id: number): PaperRow | undefined {
    return this.stmts.paperById.get(id) as PaperRow | undefined;
  }

  private readonly inStatements = new Map<string, Database.Statement>();

  /** `SELECT * FROM table WHERE column IN (?, …)`, prepared once per list size. */
  private selectIn<T>(table: 'papers', column: 'doi' | 'id', values: readonly unknown[]): T[] {
    const key = `${table}.${column}.${values.length}`;
    let stmt = this.inStatements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(`SELECT * FROM ${table} WHERE ${column} IN (${values.map(() => '?').join(',')})`);
      this.inStatements.set(key, stmt);
    }
    return stmt.all(...values) as T[];
  }

  /** Rows for many DOIs (normalised), in batches of 500 bound parameters. */
  papersByDois(dois: readonly string[]): PaperRow[] {
    const keys = [...new Set(dois.map(normalizeDoi))];
    const out: PaperRow[] = [];
    for (let i = 0; i < keys.length; i += 500)
      out.push(...this.selectIn<PaperRow>('papers', 'doi', keys.slice(i, i + 500)));
    return out;
  }

  papersByIds(ids: readonly number[]): Map<number, PaperRow> {
    const unique = [...new Set(ids)];
    const out = new Map<number, PaperRow>();
    for (let i = 0; i < unique.length; i += 500)
      for (const r of this.selectIn<PaperRow>('papers', 'id', unique.slice(i, i + 500))) out.set(r.id, r);
    return out;
  }

  /** Paper objects for many rows. */
  papers(rows: readonly PaperRow[]): Paper[] {
    return rows.map((r) => this.paper(r));
  }

  author(id: number): AuthorRow {
    let a = this.authorCache.get(id);
    if (!a) {
      a = this.stmts.author.get(id) as AuthorRow;
      this.authorCache.set(id, a);
    }
    return a;
  }

  authorBySlug(slug: string): AuthorRow | undefined {
    return this.stmts.authorBySlug.get(slug) as AuthorRow | undefined;
  }

  authorIds(row: PaperRow): number[] {
    return row.author_ids.split(',').map(Number);
  }

  journal(row: PaperRow): JournalRow {
    return this.journals.get(row.journal_id)!;
  }

  topic(row: PaperRow): Topic {
    return topicFor(this.seed, row.id, row.field);
  }

  // ---- Wire shapes ------------------------------------------------------------------------------

  /** The authors of a paper from its own row (no lookups). */
  authorsOf(row: PaperRow): AuthorRow[] {
    const ids = this.authorIds(row);
    return row.authors_c.split('\u001e').map((entry, i) => {
      const [given, family, slug, orcid, aff] = entry.split('\u001f') as [string, string, string, string, string];
      return {
        id: ids[i]!,
        given,
        family,
        slug,
        orcid: orcid || null,
        affiliation_id: aff ? Number(aff) : null,
        field: row.field,
        created_at: '',
      };
    });
  }

  paperAuthors(row: PaperRow): PaperAuthor[] {
    const affs = row.aff_ids.split(',');
    return this.authorsOf(row).map((a, i) => {
      const id = a.id;
      const out: PaperAuthor = {
        authorName: `${a.given} ${a.family}`,
        family: a.family,
        given: a.given,
        authorID: String(id),
        authorSlug: a.slug,
        authorSequenceNumber: i + 1,
      };
      if (a.orcid) out.orcid = a.orcid;
      const affId = Number(affs[i] || 0);
      const aff = affId ? this.affiliations.get(affId) : undefined;
      if (aff) {
        out.affiliation = aff.name;
        out.affiliationID = String(aff.id);
        out.affiliationSlug = aff.slug;
      }
      if (a.affiliation_id) out.authorLastKnownAffiliationId = a.affiliation_id;
      return out;
    });
  }

  notices(row: PaperRow): EditorialNotice[] {
    if (!row.notice_flags) return [];
    return (this.stmts.notices.all(row.id) as Array<{ status: string; date: string; notice_doi: string }>).map((n) => {
      const [y, m, d] = n.date.split('-').map(Number);
      return {
        doi: row.doi,
        status: n.status as EditorialNotice['status'],
        date: `${y}-${m}-${d}`,
        noticeDoi: n.notice_doi,
        urls: [`https://doi.org/${n.notice_doi}`],
      };
    });
  }

  tallyCounts(row: PaperRow): TallyCounts {
    return {
      total: row.t_sup + row.t_con + row.t_men + row.t_unc,
      supporting: row.t_sup,
      contradicting: row.t_con,
      mentioning: row.t_men,
      unclassified: row.t_unc,
      citingPublications: row.t_citing,
    };
  }

  /** Adds a paper's counts to a running sum. */
  static addTally(sum: TallyCounts, t: TallyCounts): void {
    sum.total += t.total;
    sum.supporting += t.supporting;
    sum.contradicting += t.contradicting;
    sum.mentioning += t.mentioning;
    sum.unclassified += t.unclassified;
    sum.citingPublications = (sum.citingPublications ?? 0) + (t.citingPublications ?? 0);
  }

  tally(row: PaperRow): Tally {
    return { doi: row.doi, ...this.tallyCounts(row) } as Tally;
  }

  citingTally(row: PaperRow): CitingTally {
    return {
      sourceDoi: row.doi,
      numCitedPublications: row.c_cited,
      total: row.c_sup + row.c_con + row.c_men + row.c_unc,
      supporting: row.c_sup,
      contradicting: row.c_con,
      mentioning: row.c_men,
      unclassified: row.c_unc,
    };
  }

  paper(row: PaperRow): Paper {
    const j = this.journal(row);
    const p: Paper = {
      id: row.id,
      doi: row.doi,
      slug: row.slug,
      type: row.type,
      title: row.title,
      authors: this.paperAuthors(row),
      year: row.year,
      publisher: j.publisher,
      volume: row.volume,
      retracted: row.retracted === 1,
      memberId: j.member_id,
      issns: j.issn_e ? [j.issn_print, j.issn_e] : [j.issn_print],
      tally: this.tally(row),
      citingTally: this.citingTally(row),
      editorialNotices: this.notices(row),
      journalSlug: j.slug,
      journal: j.name,
      preprintLinks: row.preprint_doi ? [{ preprintDoi: row.preprint_doi }] : [],
      publicationLinks: row.published_doi ? [{ publishedDoi: row.published_doi }] : [],
      normalizedTypes: JSON.parse(row.ntypes) as string[],
    };
    if (row.abstract) p.abstract = row.abstract;
    if (row.keywords) p.keywords = JSON.parse(row.keywords) as string[];
    // Only some journals carry a short title, as in the real data.
    if (j.id % 3 !== 0) p.shortJournal = j.short;
    if (row.issue) p.issue = row.issue;
    if (row.page) p.page = row.page;
    if (row.pm_type) p.pmPublicationType = row.pm_type;
    return p;
  }

  // ---- Citation statements ------------------------------------------------------------------------

  /** Classifier scores, regenerated from the statement id. */
  scores(
    citationId: number,
    type: number,
  ): { typeConfidence: number; positive: number; negative: number; neutral: number } {
    const r = rngFor(this.seed, KIND.snippet + 50, citationId);
    const hi = 0.62 + r.next() * 0.38;
    const lo1 = r.next() * 0.3;
    const lo2 = r.next() * 0.25;
    if (type === 1) return { typeConfidence: hi, positive: hi, negative: lo2 * 0.5, neutral: lo1 };
    if (type === 2) return { typeConfidence: hi, positive: lo2 * 0.5, negative: hi, neutral: lo1 };
    const neutral = type === 3 ? 0.4 + r.next() * 0.2 : hi;
    return { typeConfidence: neutral, positive: lo1 * 0.6, negative: lo2 * 0.6, neutral };
  }

  selfCites(source: PaperRow, target: PaperRow): SelfCite[] {
    const theirs = new Set(this.authorIds(target));
    const out: SelfCite[] = [];
    for (const a of this.authorsOf(source))
      if (theirs.has(a.id)) out.push({ type: 'SHAREDAUTHOR', family: a.family, given: a.given });
    return out;
  }

  citation(row: CitationRow, source: PaperRow, target: PaperRow): Citation {
    const type = row.kind & 3;
    const section = (row.kind >> 2) & 7;
    const out: Citation = {
      id: row.id,
      source: source.doi,
      target: target.doi,
      memberId: this.journal(source).member_id,
      section: SECTIONS[section]!,
      selfCites: row.kind & 32 ? this.selfCites(source, target) : [],
      ...this.scores(row.id, type),
    };
    if (type !== 3) out.type = TYPE_NAMES[type] as CitationType;
    return out;
  }

  snippet(row: CitationRow, source: PaperRow, target: PaperRow): string {
    const first = this.authorsOf(target)[0]!;
    return snippetFor(
      this.seed,
      row.id,
      row.kind & 3,
      (row.kind >> 2) & 7,
      this.topic(target),
      first.family,
      target.year,
      this.topic(source),
    );
  }

  fieldTopic(row: PaperRow): string {
    return FIELDS[row.field]!.topic;
  }
}
