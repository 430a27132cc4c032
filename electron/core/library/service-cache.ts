// The service cache (Library.serviceCache, LibraryClient.serviceCache): papers with their preprint and
// publication links, evidence tallies and editorial notices per DOI, with fetch times. No row = not
// fetched; found = 0 = unknown to the service. Items and filters read tallies and notices by joining
// these tables (library-base.ts ROW_JOINS). Journal notices per ISSN are the journal cache's
// (service-collections-store.ts). A store of its own: it needs the two connections and the clock,
// nothing of the Library's chain (no undo).
import { parseDoi } from '../../../shared/model/doi';
import type { EvidenceCounts } from '../../../shared/model/evidence';
import { paperLinks } from '../../../shared/model/paper-versions';
import { CoreError } from '../errors';
import { inBatches, inList, sql, type ReadDb, type WriteDb } from './sql';
import type { TallyState } from './types';
import { type RawRow, tallyState } from './library-base';
import { DamagedRecordError, isObject, readStored } from './stored-json';

export interface NoticeLike {
  doi?: string;
  status?: string;
  date?: string;
  noticeDoi?: string;
  urls?: string[];
}

/** The parts of the service's Paper the cache reads; the whole record is stored. */
export interface PaperLike {
  preprintLinks?: { preprintDoi: string }[];
  publicationLinks?: { publishedDoi: string }[];
  editorialNotices?: NoticeLike[];
  retracted?: boolean;
  [field: string]: unknown;
}

export function normDoi(doi: string): string | null {
  const p = parseDoi(doi);
  return p.ok ? p.doi : null;
}

function cacheState<K extends string>(
  row: unknown,
  key: K,
):
  | { state: 'not-fetched' }
  | { state: 'unknown'; fetchedAt: number }
  | ({ state: 'found'; fetchedAt: number } & Record<K, never>) {
  const r = row as { found: number; data: string | null; fetched_at: number } | undefined;
  if (!r) return { state: 'not-fetched' };
  if (r.found === 0) return { state: 'unknown', fetchedAt: r.fetched_at };
  // A cached answer damaged on disk is a miss: it is asked for again rather than failing the view.
  let value: unknown;
  try {
    value = readStored(r.data ?? 'null', `The cached ${key}`, isObject);
  } catch (err) {
    if (err instanceof DamagedRecordError) return { state: 'not-fetched' };
    throw err;
  }
  return { state: 'found', fetchedAt: r.fetched_at, [key]: value } as {
    state: 'found';
    fetchedAt: number;
  } & Record<K, never>;
}

export class ServiceCacheStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #now: () => number;

  constructor(options: { write: WriteDb; read: ReadDb; now: () => number }) {
    this.#w = options.write;
    this.#r = options.read;
    this.#now = options.now;
  }

  /** Stores paper metadata (found) and DOIs the service does not know; links and notices come with it. */
  putPapers(result: { found: Record<string, PaperLike>; unknown?: readonly string[] }, fetchedAt = this.#now()): void {
    this.#w.transaction(() => {
      for (const [rawDoi, paper] of Object.entries(result.found)) {
        const doi = normDoi(rawDoi);
        if (!doi) continue;
        this.#w
          .run(sql`INSERT INTO service_papers (doi, found, data, fetched_at) VALUES (${doi}, 1, ${JSON.stringify(paper)}, ${fetchedAt})
          ON CONFLICT(doi) DO UPDATE SET found = 1, data = excluded.data, fetched_at = excluded.fetched_at`);
        this.#w.run(sql`DELETE FROM service_paper_links WHERE doi = ${doi}`);
        // The record is not validated on the way in: a malformed link is skipped, not a failed batch.
        const links = paperLinks(paper);
        for (const linked of links.preprints) {
          if (linked !== doi)
            this.#w.run(
              sql`INSERT OR IGNORE INTO service_paper_links (doi, linked_doi, kind) VALUES (${doi}, ${linked}, 'preprint')`,
            );
        }
        for (const linked of links.published) {
          if (linked !== doi)
            this.#w.run(
              sql`INSERT OR IGNORE INTO service_paper_links (doi, linked_doi, kind) VALUES (${doi}, ${linked}, 'publication')`,
            );
        }
        if (paper.editorialNotices !== undefined || paper.retracted !== undefined) {
          this.#putNotices(doi, paper.editorialNotices ?? [], paper.retracted, fetchedAt);
        }
      }
      for (const rawDoi of result.unknown ?? []) {
        const doi = normDoi(rawDoi);
        if (!doi) continue;
        this.#w.run(sql`INSERT INTO service_papers (doi, found, data, fetched_at) VALUES (${doi}, 0, NULL, ${fetchedAt})
          ON CONFLICT(doi) DO UPDATE SET found = 0, data = NULL, fetched_at = excluded.fetched_at`);
      }
    });
  }

  getPaper(
    doi: string,
  ):
    | { state: 'not-fetched' }
    | { state: 'unknown'; fetchedAt: number }
    | { state: 'found'; fetchedAt: number; paper: unknown } {
    return cacheState(
      this.#r.get(sql`SELECT found, data, fetched_at FROM service_papers WHERE doi = ${normDoi(doi) ?? ''}`),
      'paper',
    );
  }

  /** Stores tallies (zero is a count) and DOIs the service does not know (not the same as zero). */
  putTallies(
    result: { found: Record<string, EvidenceCounts>; unknown?: readonly string[] },
    fetchedAt = this.#now(),
  ): void {
    this.#w.transaction(() => {
      for (const [rawDoi, t] of Object.entries(result.found)) {
        const doi = normDoi(rawDoi);
        if (!doi) continue;
        this.#w
          .run(sql`INSERT INTO service_tallies (doi, found, total, supporting, contrasting, mentioning, unclassified, citing_publications, fetched_at)
          VALUES (${doi}, 1, ${t.total}, ${t.supporting}, ${t.contrasting}, ${t.mentioning}, ${t.unclassified}, ${t.citingPublications ?? null}, ${fetchedAt})
          ON CONFLICT(doi) DO UPDATE SET found = 1, total = excluded.total, supporting = excluded.supporting, contrasting = excluded.contrasting,
            mentioning = excluded.mentioning, unclassified = excluded.unclassified, citing_publications = excluded.citing_publications, fetched_at = excluded.fetched_at`);
      }
      for (const rawDoi of result.unknown ?? []) {
        const doi = normDoi(rawDoi);
        if (!doi) continue;
        this.#w.run(sql`INSERT INTO service_tallies (doi, found, fetched_at) VALUES (${doi}, 0, ${fetchedAt})
          ON CONFLICT(doi) DO UPDATE SET found = 0, total = NULL, supporting = NULL, contrasting = NULL, mentioning = NULL, unclassified = NULL,
            citing_publications = NULL, fetched_at = excluded.fetched_at`);
      }
    });
  }

  getTallies(dois: readonly string[]): Record<string, TallyState> {
    const normalised = dois.map((d) => [d, normDoi(d)] as const);
    const keys = [...new Set(normalised.map(([, n]) => n).filter((n): n is string => n !== null))];
    const rows = inBatches(keys, (batch) =>
      this.#r.all<RawRow & { doi: string }>(
        sql`SELECT doi, found AS t_found, fetched_at AS t_fetched_at, total AS t_total, supporting AS t_supporting, contrasting AS t_contrasting,
          mentioning AS t_mentioning, unclassified AS t_unclassified, citing_publications AS t_citing FROM service_tallies WHERE doi IN ${inList(batch)}`,
      ),
    );
    const byDoi = new Map(rows.map((r) => [r.doi, tallyState(r)]));
    return Object.fromEntries(normalised.map(([d, n]) => [d, (n && byDoi.get(n)) || { state: 'not-fetched' }]));
  }

  /** Editorial notices of one DOI (null: unknown to the service) with its retraction status (undefined: not reported). */
  putNotices(doi: string, notices: NoticeLike[] | null, retracted?: boolean, fetchedAt = this.#now()): void {
    const d = normDoi(doi);
    if (!d) throw new CoreError('INVALID_INPUT', `"${doi}" is not a valid DOI.`);
    if (notices === null) {
      this.#w
        .run(sql`INSERT INTO service_notices (doi, found, retracted, notice_count, kinds, data, fetched_at) VALUES (${d}, 0, NULL, 0, ',', NULL, ${fetchedAt})
        ON CONFLICT(doi) DO UPDATE SET found = 0, retracted = NULL, notice_count = 0, kinds = ',', data = NULL, fetched_at = excluded.fetched_at`);
      return;
    }
    this.#putNotices(d, notices, retracted, fetchedAt);
  }

  #putNotices(doi: string, notices: NoticeLike[], retracted: boolean | undefined, fetchedAt: number): void {
    const kinds = [...new Set(notices.map((n) => String(n.status ?? '').toLowerCase()).filter(Boolean))];
    const isRetracted =
      retracted === true || kinds.includes('retracted') ? 1 : retracted === false ? 0 : kinds.length ? 0 : null;
    this.#w.run(sql`INSERT INTO service_notices (doi, found, retracted, notice_count, kinds, data, fetched_at)
      VALUES (${doi}, 1, ${isRetracted}, ${notices.length}, ${`,${kinds.join(',')},`}, ${JSON.stringify(notices)}, ${fetchedAt})
      ON CONFLICT(doi) DO UPDATE SET found = 1, retracted = excluded.retracted, notice_count = excluded.notice_count, kinds = excluded.kinds,
        data = excluded.data, fetched_at = excluded.fetched_at`);
  }
}
