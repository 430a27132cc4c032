// The citation graph's side of the library: statements fetched while expanding papers (with the
// papers' metadata and tallies, into the service cache), how far each expansion got, and saved graphs.
// Runs in the library worker (LibraryClient.graph); each page of service answers is written in one
// transaction, so an expansion interrupted by a crash or a lost connection resumes at its last page.
import { parseDoi } from '../../../shared/model/doi';
import type { EvidenceCounts, EvidenceType } from '../../../shared/model/evidence';
import {
  edgeKey,
  edgePasses,
  type GraphFilter,
  type FetchState,
  type GraphData,
  type GraphDirection,
  type GraphEdge,
  type GraphNode,
  type GraphSeed,
  type SavedGraph,
  type SavedGraphInfo,
  type YearHistogram,
} from '../../../shared/model/graph';
import type { CslItem } from '../../../shared/model/csl';
import { citationKeyBase, uniqueCitationKey } from '../../../shared/model/citekey';
import type { UiPaper } from '../../../shared/model/service';
import { CoreError } from '../errors';
import { doiPlaceholder, exportItems, paperToCsl } from '../formats';
import { toGexf, toGraphml } from '../graph/export';
import { metadataOf } from './add-dois';
import type { Library } from './library';
import { inBatches, inList, sql, type ReadDb, type WriteDb } from './sql';
import { grouped } from '../../../shared/model/numbers';
import { arrayOf, isObject, isString, readStored } from './stored-json';

/** A statement as the handler hands it over: DOIs already normalised by the service client's answer. */
export interface StatementInput {
  source: string;
  target: string;
  /** The service's statement id; absent for answers that carry none (cited_by). */
  id?: number | undefined;
  type?: string | undefined;
  section?: string | undefined;
  selfCite: boolean;
  snippet?: string | undefined;
}

export interface PageInput {
  doi: string;
  direction: GraphDirection;
  offset: number;
  total: number;
  statements: StatementInput[];
  papers: Record<string, UiPaper>;
  tallies: Record<string, EvidenceCounts>;
  histogram: YearHistogram | null;
  fetchedAt: number;
}

export interface StoredExpansion {
  data: GraphData;
  fetch: FetchState | null;
  histogram: YearHistogram | null;
}

/** Most papers a seed may bring (a whole library is cut to its first this many items with a DOI). */
export const MAX_SEED = 5000;
export const MAX_GRAPH_NODES = 20_000;

const TYPES = new Set<string>(['supporting', 'contrasting', 'mentioning']);

interface StatementRow {
  origin: GraphDirection;
  source: string;
  target: string;
  key: string;
  type: EvidenceType | null;
  section: string | null;
  self_cite: number;
  snippet: string | null;
}

interface FetchRow {
  doi: string;
  direction: GraphDirection;
  fetched: number;
  total: number;
  histogram: string | null;
  fetched_at: number;
}

interface GraphRow {
  id: number;
  name: string;
  seed: string;
  seed_dois: string;
  dois: string;
  node_count: number;
  created_at: number;
  updated_at: number;
}

function norm(doi: string): string | null {
  const p = parseDoi(doi);
  return p.ok ? p.doi : null;
}

function mustDoi(doi: string): string {
  const d = norm(doi);
  if (!d) throw new CoreError('INVALID_INPUT', `"${doi}" is not a valid DOI.`);
  return d;
}

type Positions = Record<string, { x: number; y: number }>;

/**
 * A saved graph's `dois` column: a JSON array of its DOIs, or, when it was saved with its layout,
 * `{"dois": [...], "positions": {doi: {x, y}}}` (so no migration: older rows stay arrays).
 */
function savedDois(json: string, id: number): { dois: string[]; positions: Positions | null } {
  const v = readStored<string[] | { dois: string[]; positions: Positions }>(
    json,
    `The papers of saved graph ${id}`,
    (x) =>
      Array.isArray(x) ? arrayOf(isString)(x) : (isObject(x) ?? arrayOf(isString)((x as { dois?: unknown }).dois)),
  );
  return Array.isArray(v) ? { dois: v, positions: null } : { dois: v.dois, positions: v.positions };
}

/** The positions of the graph's papers by normalised DOI; a position of a paper not in the graph is refused. */
function positionsOf(raw: Readonly<Positions>, dois: ReadonlySet<string>): Positions {
  const out: Positions = {};
  for (const [k, p] of Object.entries(raw)) {
    const d = norm(k);
    if (!d || !dois.has(d))
      throw new CoreError('INVALID_INPUT', `The layout names "${k}", which is not a paper of the graph.`, {
        field: 'positions',
      });
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y))
      throw new CoreError('INVALID_INPUT', `The position of "${k}" is not a finite point.`, { field: 'positions' });
    out[d] = { x: p.x, y: p.y };
  }
  return out;
}

function info(r: GraphRow): SavedGraphInfo {
  return {
    id: r.id,
    name: r.name,
    seed: readStored<GraphSeed>(r.seed, `The seed of saved graph ${r.id}`, isObject),
    nodeCount: r.node_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Groups statement rows into edges; where a pair was fetched both ways, the citing answer (which has ids and snippets) wins. */
function edgesFrom(rows: readonly StatementRow[]): GraphEdge[] {
  const pairs = new Map<string, { edge: GraphEdge; origin: GraphDirection }>();
  for (const r of rows) {
    const k = edgeKey(r.source, r.target);
    let p = pairs.get(k);
    if (!p) pairs.set(k, (p = { edge: { source: r.source, target: r.target, statements: [] }, origin: r.origin }));
    if (p.origin !== r.origin) {
      if (r.origin === 'references') continue;
      // A citing row after references rows: keep only the citing ones.
      p.origin = 'citing';
      p.edge.statements = [];
    }
    p.edge.statements.push({
      key: r.key,
      type: r.type,
      section: r.section,
      selfCite: r.self_cite === 1,
      snippet: r.snippet,
    });
  }
  return [...pairs.values()].map((p) => p.edge);
}

export interface GraphStoreOptions {
  write: WriteDb;
  read: ReadDb;
  library: Library;
  now?: () => number;
}

export class GraphStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #library: Library;
  readonly #now: () => number;

  constructor(options: GraphStoreOptions) {
    this.#w = options.write;
    this.#r = options.read;
    this.#library = options.library;
    this.#now = options.now ?? Date.now;
  }

  // ── Seeds ──

  /** The DOIs of a seed's items, in library order; items without a DOI are counted, not guessed. */
  seedDois(seed: GraphSeed): { dois: string[]; withoutDoi: number; truncated: boolean } {
    let rows: { doi: string | null }[];
    switch (seed.kind) {
      case 'dois': {
        const dois: string[] = [];
        for (const d of seed.dois) {
          const n = norm(d);
          if (!n) throw new CoreError('INVALID_INPUT', `The seed "${d}" is not a valid DOI.`);
          if (!dois.includes(n)) dois.push(n);
        }
        return { dois, withoutDoi: 0, truncated: false };
      }
      case 'items':
        rows = inBatches(seed.ids, (batch) =>
          this.#r.all<{ doi: string | null }>(
            sql`SELECT doi FROM items WHERE id IN ${inList(batch)} AND trashed_at IS NULL ORDER BY id`,
          ),
        );
        if (rows.length === 0) throw new CoreError('NOT_FOUND', 'None of the seed items is in the library any more.');
        break;
      case 'collection': {
        const exists = this.#r.get(sql`SELECT 1 FROM collections WHERE id = ${seed.collectionId}`);
        if (!exists) throw new CoreError('NOT_FOUND', `The collection ${seed.collectionId} does not exist.`);
        const ids = this.#library.listing.idsOf({ collectionId: seed.collectionId });
        rows = inBatches(ids, (batch) =>
          this.#r.all<{ doi: string | null }>(sql`SELECT doi FROM items WHERE id IN ${inList(batch)} ORDER BY id`),
        );
        break;
      }
      case 'library':
        rows = this.#r.all(sql`SELECT doi FROM items WHERE trashed_at IS NULL ORDER BY id`);
        break;
    }
    const seen = new Set<string>();
    let withoutDoi = 0;
    for (const r of rows) {
      if (r.doi) seen.add(r.doi);
      else withoutDoi++;
    }
    const dois = [...seen];
    return { dois: dois.slice(0, MAX_SEED), withoutDoi, truncated: dois.length > MAX_SEED };
  }

  // ── Expansion pages ──

  /**
   * Stores one page of an expansion in one transaction: its statements, its papers and tallies (into
   * the service cache) and how far the expansion got. A first page (offset 0) replaces what an older
   * expansion of the same paper stored, so statements the service no longer returns do not linger.
   * Answers the page as graph data: the expanded paper and the page's papers, and the page's edges.
   */
  putPage(input: PageInput): StoredExpansion {
    const doi = mustDoi(input.doi);
    if (input.offset < 0 || input.total < 0)
      throw new CoreError('INVALID_INPUT', 'The page offset and total must not be negative.');
    const at = input.fetchedAt;
    const pairCount = new Map<string, number>();
    const pairs = new Set<string>();
    const dois = new Set<string>([doi]);
    this.#w.transaction(() => {
      if (input.offset === 0) {
        if (input.direction === 'citing')
          this.#w.run(sql`DELETE FROM graph_statements WHERE origin = 'citing' AND target = ${doi}`);
        else this.#w.run(sql`DELETE FROM graph_statements WHERE origin = 'references' AND source = ${doi}`);
      }
      for (const s of input.statements) {
        const source = norm(s.source);
        const target = norm(s.target);
        if (!source || !target) continue;
        const k = edgeKey(source, target);
        const n = pairCount.get(k) ?? 0;
        pairCount.set(k, n + 1);
        const key = s.id !== undefined ? `c:${s.id}` : `r:${n}`;
        const type = s.type && TYPES.has(s.type) ? s.type : null;
        this.#w
          .run(sql`INSERT INTO graph_statements (origin, source, target, key, type, section, self_cite, snippet, fetched_at)
          VALUES (${input.direction}, ${source}, ${target}, ${key}, ${type}, ${s.section ?? null}, ${s.selfCite ? 1 : 0}, ${s.snippet ?? null}, ${at})
          ON CONFLICT(origin, target, source, key) DO UPDATE SET type = excluded.type, section = excluded.section, self_cite = excluded.self_cite,
            snippet = excluded.snippet, fetched_at = excluded.fetched_at`);
        pairs.add(k);
        dois.add(source);
        dois.add(target);
      }
      for (const d of Object.keys(input.papers)) {
        const n = norm(d);
        if (n) dois.add(n);
      }
      if (Object.keys(input.papers).length > 0) this.#library.serviceCache.putPapers({ found: input.papers }, at);
      if (Object.keys(input.tallies).length > 0) this.#library.serviceCache.putTallies({ found: input.tallies }, at);
      const fetched = input.offset + input.statements.length;
      const prev =
        input.offset === 0
          ? null
          : this.#r.get<FetchRow>(
              sql`SELECT * FROM graph_fetches WHERE doi = ${doi} AND direction = ${input.direction}`,
            );
      const histogram = input.histogram ? JSON.stringify(input.histogram) : (prev?.histogram ?? null);
      this.#w
        .run(sql`INSERT INTO graph_fetches (doi, direction, fetched, total, histogram, fetched_at) VALUES (${doi}, ${input.direction}, ${fetched}, ${input.total}, ${histogram}, ${at})
        ON CONFLICT(doi, direction) DO UPDATE SET fetched = excluded.fetched, total = excluded.total, histogram = excluded.histogram, fetched_at = excluded.fetched_at`);
    });
    const list = [...dois];
    const edges = this.#edgesAmong(list).filter((e) => pairs.has(edgeKey(e.source, e.target)));
    const fetch = this.#fetchState(doi, input.direction);
    return {
      data: { nodes: this.nodes(list), edges },
      fetch: fetch?.state ?? null,
      histogram: fetch?.histogram ?? null,
    };
  }

  /** Everything stored of one expansion (for a graph opened or expanded without the service). */
  storedExpansion(rawDoi: string, direction: GraphDirection): StoredExpansion {
    const doi = mustDoi(rawDoi);
    const rows =
      direction === 'citing'
        ? this.#r.all<StatementRow>(sql`SELECT * FROM graph_statements WHERE target = ${doi} ORDER BY source, key`)
        : this.#r.all<StatementRow>(sql`SELECT * FROM graph_statements WHERE source = ${doi} ORDER BY target, key`);
    const edges = edgesFrom(rows);
    const dois = new Set<string>([doi]);
    for (const e of edges) {
      dois.add(e.source);
      dois.add(e.target);
    }
    const fetch = this.#fetchState(doi, direction);
    return {
      data: { nodes: this.nodes([...dois]), edges },
      fetch: fetch?.state ?? null,
      histogram: fetch?.histogram ?? null,
    };
  }

  /** The papers and every stored edge among them. */
  graphData(rawDois: readonly string[]): GraphData {
    const dois = [...new Set(rawDois.map(mustDoi))];
    if (dois.length > MAX_GRAPH_NODES)
      throw new CoreError('INVALID_INPUT', `A graph holds at most ${grouped(MAX_GRAPH_NODES)} papers.`);
    return { nodes: this.nodes(dois), edges: this.#edgesAmong(dois) };
  }

  /** What the graph shows of each paper: service metadata when cached, else the library item's fields. */
  nodes(dois: readonly string[]): GraphNode[] {
    const papers = new Map<string, UiPaper>();
    const tallies = new Map<
      string,
      {
        total: number | null;
        supporting: number | null;
        contrasting: number | null;
        mentioning: number | null;
        citing: number | null;
      }
    >();
    const items = new Map<
      string,
      { id: number; title: string | null; year: number | null; container: string | null; creators_text: string | null }
    >();
    const retracted = new Set<string>();
    const fetches = new Map<string, FetchRow[]>();
    inBatches(dois, (batch) => {
      const list = inList(batch);
      for (const r of this.#r.all<{ doi: string; data: string }>(
        sql`SELECT doi, data FROM service_papers WHERE doi IN ${list} AND found = 1`,
      ))
        papers.set(r.doi, readStored<UiPaper>(r.data, `The stored paper ${r.doi}`, isObject));
      for (const r of this.#r.all<{
        doi: string;
        total: number | null;
        supporting: number | null;
        contrasting: number | null;
        mentioning: number | null;
        citing: number | null;
      }>(
        sql`SELECT doi, total, supporting, contrasting, mentioning, citing_publications AS citing FROM service_tallies WHERE doi IN ${list} AND found = 1`,
      ))
        tallies.set(r.doi, r);
      for (const r of this.#r.all<{
        id: number;
        doi: string;
        title: string | null;
        year: number | null;
        container: string | null;
        creators_text: string | null;
      }>(
        sql`SELECT id, doi, title, year, container, creators_text FROM items WHERE doi IN ${list} AND trashed_at IS NULL ORDER BY id DESC`,
      ))
        items.set(r.doi, r);
      for (const d of this.#r.pluck<string>(
        sql`SELECT doi FROM service_notices WHERE doi IN ${list} AND retracted = 1`,
      ))
        retracted.add(d);
      for (const r of this.#r.all<FetchRow>(sql`SELECT * FROM graph_fetches WHERE doi IN ${list}`)) {
        const l = fetches.get(r.doi) ?? [];
        l.push(r);
        fetches.set(r.doi, l);
      }
      return [];
    });
    return dois.map((doi): GraphNode => {
      const p = papers.get(doi);
      const t = tallies.get(doi);
      const it = items.get(doi);
      const f = fetches.get(doi) ?? [];
      const state = (dir: GraphDirection): FetchState | null => {
        const r = f.find((x) => x.direction === dir);
        return r ? { fetched: r.fetched, total: r.total, fetchedAt: r.fetched_at } : null;
      };
      const authors = p?.authors?.length
        ? `${[...p.authors].sort((a, b) => a.authorSequenceNumber - b.authorSequenceNumber)[0]?.family || p.authors[0]?.authorName || ''}${p.authors.length > 1 ? ' et al.' : ''}`
        : it?.creators_text
          ? `${it.creators_text.split('; ')[0]}${it.creators_text.includes('; ') ? ' et al.' : ''}`
          : null;
      return {
        doi,
        title: p?.title ?? it?.title ?? null,
        year: p?.year ?? it?.year ?? null,
        journal: p?.journal || it?.container || null,
        authors: authors || null,
        citingPublications: t?.citing ?? p?.tally?.citingPublications ?? null,
        tally: t?.total ?? p?.tally?.total ?? null,
        supporting: t?.supporting ?? p?.tally?.supporting ?? null,
        contrasting: t?.contrasting ?? p?.tally?.contrasting ?? null,
        mentioning: t?.mentioning ?? p?.tally?.mentioning ?? null,
        retracted: retracted.has(doi) || p?.retracted === true,
        itemId: it?.id ?? null,
        citing: state('citing'),
        references: state('references'),
      };
    });
  }

  #edgesAmong(dois: readonly string[]): GraphEdge[] {
    const set = new Set(dois);
    const rows: StatementRow[] = [];
    inBatches(dois, (batch) => {
      for (const r of this.#r.all<StatementRow>(sql`SELECT * FROM graph_statements WHERE source IN ${inList(batch)}`))
        if (set.has(r.target)) rows.push(r);
      return [];
    });
    return edgesFrom(rows);
  }

  #fetchState(doi: string, direction: GraphDirection): { state: FetchState; histogram: YearHistogram | null } | null {
    const r = this.#r.get<FetchRow>(sql`SELECT * FROM graph_fetches WHERE doi = ${doi} AND direction = ${direction}`);
    if (!r) return null;
    return {
      state: { fetched: r.fetched, total: r.total, fetchedAt: r.fetched_at },
      histogram: r.histogram ? readStored<YearHistogram>(r.histogram, `The year histogram of ${doi}`, isObject) : null,
    };
  }

  // ── Export ──

  /** The graph as GraphML or GEXF: the papers given and the stored edges among them that pass the filter. */
  exportGraph(input: {
    dois: readonly string[];
    format: 'graphml' | 'gexf';
    filter?: GraphFilter | undefined;
    positions?: Record<string, { x: number; y: number }> | undefined;
    title?: string | undefined;
  }): { content: string; nodes: number; edges: number } {
    const data = this.graphData(input.dois);
    const edges = input.filter ? data.edges.filter((e) => edgePasses(e, input.filter!)) : data.edges;
    const doc = {
      nodes: data.nodes,
      edges,
      positions: input.positions,
      title: input.title,
      now: new Date(this.#now()),
    };
    return {
      content: input.format === 'graphml' ? toGraphml(doc) : toGexf(doc),
      nodes: data.nodes.length,
      edges: edges.length,
    };
  }

  /**
   * The papers as CSL-JSON or BibTeX: library items as the library holds them (with their citation
   * keys), other papers from the cached service metadata with keys made by the same formula, unique
   * within the export; a paper with no metadata at all as its DOI.
   */
  exportNodes(rawDois: readonly string[], format: 'csljson' | 'bibtex'): { content: string; items: number } {
    const dois = [...new Set(rawDois.map(mustDoi))];
    const inLibrary = this.#library.idsByDoi(dois);
    const libraryItems = new Map<string, CslItem>();
    for (const doi of dois) {
      const id = inLibrary[doi];
      const own = id === undefined ? undefined : this.#library.cslOf([id])[0];
      if (own) libraryItems.set(doi, own);
    }
    const taken = new Set<string>([...libraryItems.values()].map((c) => String(c['citation-key'] ?? '').toLowerCase()));
    const items: CslItem[] = dois.map((doi) => {
      const own = libraryItems.get(doi);
      if (own) return own;
      const cached = this.#library.serviceCache.getPaper(doi);
      const item: CslItem =
        cached.state === 'found' ? paperToCsl(metadataOf(cached.paper as UiPaper)) : doiPlaceholder(doi as never);
      const key = uniqueCitationKey(citationKeyBase(item), (k) => taken.has(k.toLowerCase()));
      taken.add(key.toLowerCase());
      return { ...item, 'citation-key': key };
    });
    return { content: exportItems(items, format), items: items.length };
  }

  // ── Saved graphs ──

  /**
   * Saves a graph under a name; saving under a name that exists replaces that graph (its id stays).
   * `positions` (by DOI) is the layout it reopens with.
   */
  saveGraph(input: {
    name: string;
    seed: GraphSeed;
    seedDois: readonly string[];
    dois: readonly string[];
    positions?: Readonly<Positions> | undefined;
    id?: number | undefined;
    replace?: boolean | undefined;
  }): SavedGraphInfo {
    const name = input.name.trim();
    if (!name) throw new CoreError('INVALID_INPUT', 'A saved graph needs a name.');
    const dois = [...new Set(input.dois.map(mustDoi))];
    if (dois.length === 0) throw new CoreError('INVALID_INPUT', 'An empty graph cannot be saved.');
    if (dois.length > MAX_GRAPH_NODES)
      throw new CoreError('INVALID_INPUT', `A graph holds at most ${grouped(MAX_GRAPH_NODES)} papers.`);
    const seedDois = [...new Set(input.seedDois.map(mustDoi))];
    const stored = JSON.stringify(
      input.positions ? { dois, positions: positionsOf(input.positions, new Set(dois)) } : dois,
    );
    const now = this.#now();
    return this.#w.transaction(() => {
      const existing = this.#w.get<{ id: number }>(sql`SELECT id FROM graphs WHERE name = ${name} COLLATE NOCASE`);
      // Another graph's name is never taken over silently.
      if (existing && existing.id !== input.id && !input.replace) {
        throw new CoreError(
          'CONFLICT',
          `A saved graph is already named “${name}”. Choose another name, or delete that graph first (it is under “Open saved graph…”).`,
          { field: 'name' },
        );
      }
      if (existing) {
        this.#w
          .run(sql`UPDATE graphs SET name = ${name}, seed = ${JSON.stringify(input.seed)}, seed_dois = ${JSON.stringify(seedDois)}, dois = ${stored},
          node_count = ${dois.length}, updated_at = ${now} WHERE id = ${existing.id}`);
        return this.#info(existing.id);
      }
      const id = Number(
        this.#w.run(sql`INSERT INTO graphs (name, seed, seed_dois, dois, node_count, created_at, updated_at)
          VALUES (${name}, ${JSON.stringify(input.seed)}, ${JSON.stringify(seedDois)}, ${stored}, ${dois.length}, ${now}, ${now})`)
          .lastInsertRowid,
      );
      return this.#info(id);
    });
  }

  listGraphs(): SavedGraphInfo[] {
    return this.#r
      .all<GraphRow>(
        sql`SELECT id, name, seed, '[]' AS seed_dois, '[]' AS dois, node_count, created_at, updated_at FROM graphs ORDER BY updated_at DESC, id DESC`,
      )
      .map(info);
  }

  getGraph(id: number): SavedGraph {
    const r = this.#r.get<GraphRow>(sql`SELECT * FROM graphs WHERE id = ${id}`);
    if (!r) throw new CoreError('NOT_FOUND', `The saved graph ${id} does not exist.`);
    const { dois, positions } = savedDois(r.dois, id);
    return {
      ...info(r),
      seedDois: readStored<string[]>(r.seed_dois, `The seed papers of saved graph ${id}`, arrayOf(isString)),
      dois,
      positions,
    };
  }

  renameGraph(id: number, rawName: string): SavedGraphInfo {
    const name = rawName.trim();
    if (!name) throw new CoreError('INVALID_INPUT', 'A saved graph needs a name.');
    return this.#w.transaction(() => {
      const clash = this.#w.get<{ id: number }>(
        sql`SELECT id FROM graphs WHERE name = ${name} COLLATE NOCASE AND id <> ${id}`,
      );
      if (clash) throw new CoreError('CONFLICT', `A graph named “${name}” already exists.`);
      const changed = this.#w.run(
        sql`UPDATE graphs SET name = ${name}, updated_at = ${this.#now()} WHERE id = ${id}`,
      ).changes;
      if (changed === 0) throw new CoreError('NOT_FOUND', `The saved graph ${id} does not exist.`);
      return this.#info(id);
    });
  }

  deleteGraph(id: number): void {
    const changed = this.#w.run(sql`DELETE FROM graphs WHERE id = ${id}`).changes;
    if (changed === 0) throw new CoreError('NOT_FOUND', `The saved graph ${id} does not exist.`);
  }

  #info(id: number): SavedGraphInfo {
    const r = this.#w.get<GraphRow>(sql`SELECT * FROM graphs WHERE id = ${id}`);
    if (!r) throw new CoreError('NOT_FOUND', `The saved graph ${id} does not exist.`);
    return info(r);
  }
}
