/* eslint-disable svelte/prefer-svelte-reactivity -- the graph's maps and sets are bookkeeping read by the WebGL view and the lists through the #revision and #look counters (one reactive change per batch, not one per paper); the ones read by the lists are replaced whole */
// The citation graph pane's state: the papers and edges shown (in a graphology graph the WebGL view
// draws, plus plain maps for the lists), the seed, expansions and their paging, the filters and
// encodings, selection and search, the layout worker, saved graphs and exports. One per window
// (graphStateFor), so a graph survives switching panes.
import Graph from 'graphology';
import type { CitewiseApi, GraphExportOutput, IpcError, Result } from '../../../../shared/ipc';
import type { EvidenceType } from '../../../../shared/model/evidence';
import {
  coCitationRanking,
  contrastingStatements,
  couplingRanking,
  DEFAULT_FILTER,
  edgeKey,
  edgePasses,
  edgeType,
  mergeStatements,
  nodePasses,
  plainTitle,
  type ExpandPage,
  type GraphData,
  type GraphDirection,
  type GraphEdge,
  type GraphFilter,
  type GraphNode,
  type GraphSeed,
  type RankedPaper,
  type SavedGraphInfo,
  type YearHistogram,
} from '../../../../shared/model/graph';
import { LayoutRunner, type LayoutTick } from './layout-runner';

export type SizeBy = 'citing' | 'tally';
export type ColorBy = 'year' | 'journal';
export type LayoutMode = 'force' | 'time';
export type ExportFormat = 'png' | 'svg' | 'graphml' | 'gexf' | 'csljson' | 'bibtex';

export interface NodeAttributes {
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
  year: number | null;
  journal: string | null;
  citing: number | null;
  tally: number | null;
  retracted: boolean;
  inLibrary: boolean;
}

export interface EdgeAttributes {
  size: number;
  color: string;
  kind: EvidenceType;
}

export interface Paging {
  fetched: number;
  total: number;
  nextOffset: number | null;
}

/**
 * Layout iterations for a fresh graph, and after an expansion (the rest of the graph is already
 * placed). Fewer for big graphs, where each iteration costs more and the picture settles sooner
 * relative to its size; and never more than LAYOUT_BUDGET_MS of the worker's time.
 */
const FULL_LAYOUT = 600;
const STEP_LAYOUT = 250;
const LAYOUT_BUDGET_MS = 4500;

function iterationsFor(order: number, wanted: number): number {
  if (order > 2000) return Math.min(wanted, 150);
  if (order > 500) return Math.min(wanted, 300);
  return wanted;
}

/** Papers per slice when a page is added (edges: twice as many), so merging and filtering a slice stays a short task. */
const SLICE = 100;

/** Above this many edges, the layout's intermediate positions are not drawn, only its result. */
const BIG_LAYOUT_EDGES = 10_000;

/** More new papers and edges than this in one batch are built into a new graph rather than added one by one. */
const BULK_ITEMS = 2000;

function newGraph(): Graph<NodeAttributes, EdgeAttributes> {
  return new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: false, allowSelfLoops: false });
}

/** Labels are cut at a word, so a long title does not run across the graph. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

function describe(error: IpcError): string {
  return error.message;
}

export class GraphState {
  readonly api: CitewiseApi;
  /**
   * What the WebGL view draws. Small changes are made in place (the view follows the graph's events);
   * a big batch (a saved graph opened, a page of 1,000 statements) is built into a copy that replaces
   * it, so it announces one change instead of one per item.
   */
  #graph = $state.raw(newGraph());
  readonly #nodes = new Map<string, GraphNode>();
  readonly #edges = new Map<string, GraphEdge>();
  readonly #histograms = new Map<string, YearHistogram>();
  readonly #layout: LayoutRunner;

  /** Bumped when papers or edges change. */
  #revision = $state(0);
  /** Bumped when what is drawn changes without the data changing (filters, encodings, selection). */
  #look = $state(0);
  #seed = $state.raw<GraphSeed | null>(null);
  #seedDois = $state.raw<string[]>([]);
  #selected = $state.raw<string[]>([]);
  #hovered = $state.raw<{ edge: GraphEdge; x: number; y: number } | null>(null);
  #filter = $state.raw<GraphFilter>(DEFAULT_FILTER);
  #sizeBy = $state<SizeBy>('citing');
  #colorBy = $state<ColorBy>('year');
  #layoutMode = $state<LayoutMode>('force');
  #search = $state('');
  /**
   * The requests in flight, oldest first: a seed, a page, an add or an open, and two can overlap (a
   * page still on its way when a new seed starts). `busy` names the latest and ends with the last of
   * them; one flag that each request cleared as it ended went off while the other was still running.
   */
  #running = $state.raw<string[]>([]);
  #error = $state<string | null>(null);
  #notice = $state<string | null>(null);
  #paging = $state.raw<Record<string, Paging>>({});
  #saved = $state.raw<SavedGraphInfo[]>([]);
  #savedName = $state('');
  /** The saved graph this one was opened from or last saved as: saving again updates it. */
  #savedId: number | null = null;
  #layoutInfo = $state.raw<{ running: boolean; iteration: number; elapsedMs: number; nodes: number; edges: number }>({
    running: false,
    iteration: 0,
    elapsedMs: 0,
    nodes: 0,
    edges: 0,
  });
  #loadingAll = $state<string | null>(null);
  /** Bumped when the graph is replaced (a new seed, a saved graph opened), so slices in flight stop. */
  #generation = 0;
  #cancelLoadAll = false;

  /** Visible papers and edge keys under the current filter (read by the view's reducers). */
  visibleNodes = new Set<string>();
  visibleEdges = new Set<string>();
  matches = new Set<string>();

  constructor(api: CitewiseApi) {
    this.api = api;
    this.#layout = new LayoutRunner((tick) => this.#onLayout(tick));
  }

  // ── Reading ──
  get graph(): Graph<NodeAttributes, EdgeAttributes> {
    return this.#graph;
  }
  get revision() {
    return this.#revision;
  }
  get look() {
    return this.#look;
  }
  get seed() {
    return this.#seed;
  }
  get seedDois() {
    return this.#seedDois;
  }
  get selected() {
    return this.#selected;
  }
  get hovered() {
    return this.#hovered;
  }
  get filter() {
    return this.#filter;
  }
  get sizeBy() {
    return this.#sizeBy;
  }
  get colorBy() {
    return this.#colorBy;
  }
  get layoutMode() {
    return this.#layoutMode;
  }
  get search() {
    return this.#search;
  }
  get busy(): string {
    return this.#running.at(-1) ?? '';
  }
  get error() {
    return this.#error;
  }
  get notice() {
    return this.#notice;
  }
  get paging() {
    return this.#paging;
  }
  get saved() {
    return this.#saved;
  }
  get savedName() {
    return this.#savedName;
  }
  get layoutInfo() {
    return this.#layoutInfo;
  }
  get loadingAll() {
    return this.#loadingAll;
  }
  get isEmpty() {
    return this.#revision >= 0 && this.#nodes.size === 0;
  }

  node(doi: string): GraphNode | undefined {
    void this.#revision;
    return this.#nodes.get(doi);
  }
  nodeCount(): number {
    void this.#revision;
    return this.#nodes.size;
  }
  edgeCount(): number {
    void this.#revision;
    return this.#edges.size;
  }
  visibleCount(): { nodes: number; edges: number } {
    void this.#revision;
    void this.#look;
    return { nodes: this.visibleNodes.size, edges: this.visibleEdges.size };
  }
  edge(key: string): GraphEdge | undefined {
    return this.#edges.get(key);
  }
  histogram(doi: string): YearHistogram | null {
    void this.#revision;
    return this.#histograms.get(doi) ?? null;
  }

  /** Years and journals present, for the legend and the filters. */
  yearRange(): { min: number; max: number } | null {
    void this.#revision;
    let min = Infinity;
    let max = -Infinity;
    for (const n of this.#nodes.values()) {
      if (n.year === null) continue;
      if (n.year < min) min = n.year;
      if (n.year > max) max = n.year;
    }
    return min === Infinity ? null : { min, max };
  }

  /** The most frequent journals (colours go to these; the rest are "other"). */
  topJournals(limit = 8): { journal: string; count: number }[] {
    void this.#revision;
    const counts = new Map<string, number>();
    for (const n of this.#nodes.values()) if (n.journal) counts.set(n.journal, (counts.get(n.journal) ?? 0) + 1);
    return [...counts.entries()]
      .map(([journal, count]) => ({ journal, count }))
      .sort((a, b) => b.count - a.count || a.journal.localeCompare(b.journal))
      .slice(0, limit);
  }

  sections(): string[] {
    void this.#revision;
    const s = new Set<string>();
    for (const e of this.#edges.values()) for (const st of e.statements) s.add(st.section ?? 'other');
    return [...s].sort();
  }

  /** Key papers among the visible edges. */
  rankings(limit = 15): { coCitation: RankedPaper[]; coupling: RankedPaper[] } {
    void this.#revision;
    void this.#look;
    const edges: GraphEdge[] = [];
    for (const k of this.visibleEdges) {
      const e = this.#edges.get(k);
      if (e) edges.push(e);
    }
    return { coCitation: coCitationRanking(edges, limit), coupling: couplingRanking(edges, limit) };
  }

  contrasting(doi: string) {
    void this.#revision;
    return contrastingStatements([...this.#edges.values()], doi);
  }

  /** Papers whose title, authors, journal or DOI contain the search text. */
  searchResults(limit = 50): GraphNode[] {
    void this.#revision;
    void this.#look;
    const out: GraphNode[] = [];
    for (const d of this.matches) {
      const n = this.#nodes.get(d);
      if (n) out.push(n);
      if (out.length >= limit) break;
    }
    return out;
  }

  // ── Changing what is shown ──

  setFilter(patch: Partial<GraphFilter>): void {
    this.#filter = { ...this.#filter, ...patch };
    this.#recompute();
  }
  setSizeBy(v: SizeBy): void {
    this.#sizeBy = v;
    this.#restyle();
  }
  setColorBy(v: ColorBy): void {
    this.#colorBy = v;
    this.#restyle();
  }
  setLayoutMode(v: LayoutMode): void {
    this.#layoutMode = v;
    this.#look++;
  }
  setSearch(text: string): void {
    this.#search = text;
    const q = text.trim().toLowerCase();
    this.matches = new Set();
    if (q.length > 0) {
      for (const n of this.#nodes.values()) {
        const hay =
          `${plainTitle(n.title)} ${n.authors ?? ''} ${n.journal ?? ''} ${n.doi} ${n.year ?? ''}`.toLowerCase();
        if (hay.includes(q)) this.matches.add(n.doi);
      }
    }
    this.#look++;
  }
  select(doi: string | null, additive = false): void {
    if (doi === null) this.#selected = [];
    else if (additive)
      this.#selected = this.#selected.includes(doi)
        ? this.#selected.filter((d) => d !== doi)
        : [...this.#selected, doi];
    else this.#selected = [doi];
    this.#look++;
  }
  hover(edgeId: string | null, x = 0, y = 0): void {
    const e = edgeId ? this.#edges.get(edgeId) : undefined;
    this.#hovered = e ? { edge: e, x, y } : null;
  }
  dismissError(): void {
    this.#error = null;
  }
  dismissNotice(): void {
    this.#notice = null;
  }

  /** Marks a request as running (see #running) until the function it answers is called. */
  #begin(what: string): () => void {
    this.#running = [...this.#running, what];
    return () => {
      const i = this.#running.lastIndexOf(what);
      this.#running = this.#running.filter((_, j) => j !== i);
    };
  }

  // ── Seeds and expansion ──

  async start(seed: GraphSeed): Promise<void> {
    const done = this.#begin('seed');
    this.#error = null;
    this.#notice = null;
    try {
      const r = await this.api.invoke('graph.seed', { seed });
      if (!r.ok) return this.#fail(r.error);
      this.#reset();
      this.#seed = seed;
      this.#seedDois = r.value.seedDois;
      this.#savedName = '';
      this.#savedId = null;
      this.#merge(r.value.data, null);
      const notes: string[] = [];
      if (r.value.withoutDoi > 0) notes.push(`${r.value.withoutDoi} of the seed items have no DOI and are left out`);
      if (r.value.truncated)
        notes.push(`the graph starts with the first ${r.value.seedDois.length.toLocaleString('en')} papers`);
      if (notes.length) this.#notice = `${notes.join('; ')}.`;
      if (r.value.seedDois.length === 1) this.#selected = [r.value.seedDois[0]!];
      this.#relayout(FULL_LAYOUT);
    } finally {
      done();
    }
  }

  /** The next page of a paper's citations, or its references. */
  async expand(doi: string, direction: GraphDirection): Promise<boolean> {
    const key = `${direction}:${doi}`;
    const paging = this.#paging[key];
    const offset = direction === 'citing' ? (paging?.nextOffset ?? 0) : 0;
    const done = this.#begin(key);
    this.#error = null;
    const generation = this.#generation;
    try {
      const r = await this.api.invoke('graph.expand', { doi, direction, offset });
      // A page of a graph that was replaced meanwhile (New graph, Open…) is not this graph's.
      if (generation !== this.#generation) return false;
      if (!r.ok) {
        this.#fail(r.error);
        return false;
      }
      await this.#applyPage(r.value);
      return true;
    } finally {
      done();
    }
  }

  /** Every remaining page of a paper's citations, one request at a time, drawing each as it arrives. */
  async expandAll(doi: string): Promise<void> {
    this.#loadingAll = doi;
    this.#cancelLoadAll = false;
    try {
      do {
        if (!(await this.expand(doi, 'citing'))) return;
        // Let the view draw the page before the next one arrives.
        await new Promise((r) => setTimeout(r, 0));
      } while (!this.#cancelLoadAll && (this.#paging[`citing:${doi}`]?.nextOffset ?? null) !== null);
    } finally {
      this.#loadingAll = null;
    }
  }

  stopLoading(): void {
    this.#cancelLoadAll = true;
  }

  async #applyPage(page: ExpandPage): Promise<void> {
    const key = `${page.direction}:${page.doi}`;
    const fetched = page.fromStore
      ? page.data.edges.reduce((n, e) => n + e.statements.length, 0)
      : (page.nextOffset ?? page.total);
    this.#paging = {
      ...this.#paging,
      [key]: { fetched: Math.min(fetched, page.total), total: page.total, nextOffset: page.nextOffset },
    };
    if (page.histogram) this.#histograms.set(page.doi, page.histogram);
    if (page.fromStore) {
      const age = new Date(page.fetchedAt).toLocaleString();
      this.#notice = `Shown from the library (fetched ${age}): ${page.offlineReason ?? 'the service could not be reached.'}`;
    }
    if (!(await this.#mergeInSlices(page.data, page.doi))) return;
    this.#relayout(this.#nodes.size > 200 ? STEP_LAYOUT : FULL_LAYOUT);
  }

  /**
   * A page of up to 1,000 statements, added a slice at a time with the UI given a turn between
   * slices, so merging it (statements, filters, the lists that follow) never makes one long task; the
   * view redraws what arrived at most a few times a second. False if the graph was replaced meanwhile.
   */
  async #mergeInSlices(data: GraphData, around: string | null): Promise<boolean> {
    if (data.nodes.length + data.edges.length <= SLICE * 2) {
      this.#merge(data, around);
      return true;
    }
    const generation = this.#generation;
    for (let i = 0; i < data.nodes.length; i += SLICE) {
      this.#merge({ nodes: data.nodes.slice(i, i + SLICE), edges: [] }, around);
      await new Promise((r) => setTimeout(r, 0));
      if (generation !== this.#generation) return false;
    }
    for (let i = 0; i < data.edges.length; i += SLICE * 2) {
      this.#merge({ nodes: [], edges: data.edges.slice(i, i + SLICE * 2) }, around);
      await new Promise((r) => setTimeout(r, 0));
      if (generation !== this.#generation) return false;
    }
    return true;
  }

  /**
   * Adds papers and edges; new papers start near the paper they were reached from, or where `placed`
   * puts them (a saved graph's layout).
   */
  #merge(
    data: GraphData,
    around: string | null,
    placed: Readonly<Record<string, { x: number; y: number }>> | null = null,
  ): void {
    const bulk = data.nodes.length + data.edges.length > BULK_ITEMS;
    const g = bulk ? this.#graph.copy() : this.#graph;
    const origin = around && g.hasNode(around) ? g.getNodeAttributes(around) : { x: 0, y: 0 };
    const spread = Math.max(10, Math.sqrt(g.order + data.nodes.length) * 4);
    for (const n of data.nodes) {
      this.#nodes.set(n.doi, n);
      const at = placed?.[n.doi];
      if (g.hasNode(n.doi)) g.mergeNodeAttributes(n.doi, this.#nodeAttrs(n));
      else if (at) g.addNode(n.doi, { ...this.#nodeAttrs(n), x: at.x, y: at.y });
      else {
        const a = Math.random() * Math.PI * 2;
        const r = spread * (0.3 + Math.random());
        g.addNode(n.doi, { ...this.#nodeAttrs(n), x: origin.x + Math.cos(a) * r, y: origin.y + Math.sin(a) * r });
      }
    }
    const fresh: string[] = [];
    for (const e of data.edges) {
      if (e.source === e.target || !this.#nodes.has(e.source) || !this.#nodes.has(e.target)) continue;
      const key = edgeKey(e.source, e.target);
      const prev = this.#edges.get(key);
      const merged: GraphEdge = prev ? { ...e, statements: mergeStatements(prev.statements, e.statements) } : e;
      this.#edges.set(key, merged);
      if (!prev) fresh.push(key);
      const attrs = this.#edgeAttrs(merged);
      if (g.hasEdge(key)) g.mergeEdgeAttributes(key, attrs);
      else if (bulk) g.addDirectedEdgeWithKey(key, e.source, e.target, attrs);
    }
    // Visibility first, so the view's reducers know the new items when it processes them.
    this.#recompute(false);
    if (bulk) this.#graph = g;
    else
      for (const key of fresh) {
        const e = this.#edges.get(key)!;
        g.addDirectedEdgeWithKey(key, e.source, e.target, this.#edgeAttrs(e));
      }
    this.#revision++;
  }

  #nodeAttrs(n: GraphNode): Omit<NodeAttributes, 'x' | 'y'> {
    return {
      label: shorten(
        `${n.retracted ? 'RETRACTED · ' : ''}${n.authors ? `${n.authors}${n.year ? ` ${n.year}` : ''}: ` : ''}${plainTitle(n.title) || n.doi}`,
        56,
      ),
      size: 4,
      color: '#888',
      year: n.year,
      journal: n.journal,
      citing: n.citingPublications,
      tally: n.tally,
      retracted: n.retracted,
      inLibrary: n.itemId !== null,
    };
  }

  #edgeAttrs(e: GraphEdge): EdgeAttributes {
    return {
      size: Math.min(4, 0.6 + Math.log1p(e.statements.length) * 0.6),
      color: '#999',
      kind: edgeType(e) ?? 'mentioning',
    };
  }

  /**
   * Which papers and edges pass the filter. `redraw` is false after adding data: the view draws new
   * items as the graph announces them, and nothing already drawn changed, so a full redraw (every
   * paper and edge processed again) would be wasted.
   */
  #recompute(redraw = true): void {
    const f = this.#filter;
    const nodes = new Set<string>();
    for (const n of this.#nodes.values()) if (nodePasses(n, f)) nodes.add(n.doi);
    const edges = new Set<string>();
    for (const [k, e] of this.#edges) if (nodes.has(e.source) && nodes.has(e.target) && edgePasses(e, f)) edges.add(k);
    this.visibleNodes = nodes;
    this.visibleEdges = edges;
    if (redraw) this.#look++;
  }

  #restyle(): void {
    this.#look++;
  }

  #reset(): void {
    this.#layout.stop();
    this.#generation++;
    // "Load all" of the previous graph stops too.
    this.#cancelLoadAll = true;
    this.#graph = newGraph();
    this.#nodes.clear();
    this.#edges.clear();
    this.#histograms.clear();
    this.#paging = {};
    this.#selected = [];
    this.#hovered = null;
    this.matches = new Set();
    this.#search = '';
    this.#revision++;
    this.#recompute();
  }

  clear(): void {
    this.#reset();
    this.#seed = null;
    this.#seedDois = [];
    this.#savedName = '';
    this.#savedId = null;
    this.#notice = null;
    this.#error = null;
  }

  // ── Layout ──

  #relayout(iterations: number): void {
    const ids = this.graph.nodes();
    const index = new Map(ids.map((id, i) => [id, i]));
    const positions = new Float32Array(ids.length * 2);
    const masses = new Float32Array(ids.length);
    ids.forEach((id, i) => {
      const a = this.graph.getNodeAttributes(id);
      positions[i * 2] = a.x;
      positions[i * 2 + 1] = a.y;
      masses[i] = 1;
    });
    const edges = new Uint32Array(this.graph.size * 2);
    let j = 0;
    this.graph.forEachEdge((_k, _a, s, t) => {
      edges[j++] = index.get(s)!;
      edges[j++] = index.get(t)!;
    });
    this.#layoutInfo = { running: true, iteration: 0, elapsedMs: 0, nodes: ids.length, edges: this.graph.size };
    this.#layout.start({
      ids,
      positions,
      masses,
      edges,
      iterations: iterationsFor(ids.length, iterations),
      budgetMs: LAYOUT_BUDGET_MS,
    });
  }

  /**
   * Positions from the worker. A small graph takes every slice (a smooth animation); a big one only
   * the final positions, since every update redraws all of its edges (about half a second of
   * software rasterising for 50,000, which the view spreads over several frames).
   */
  #onLayout(tick: LayoutTick): void {
    if (tick.done || this.graph.size <= BIG_LAYOUT_EDGES) this.#applyTick(tick);
    else
      this.#layoutInfo = {
        running: true,
        iteration: tick.iteration,
        elapsedMs: tick.elapsedMs,
        nodes: tick.ids.length,
        edges: this.graph.size,
      };
  }

  #applyTick(tick: LayoutTick): void {
    const p = tick.positions;
    const index = new Map<string, number>();
    tick.ids.forEach((id, i) => index.set(id, i));
    this.graph.updateEachNodeAttributes(
      (id, attrs) => {
        const i = index.get(id);
        if (i === undefined) return attrs;
        attrs.x = p[i * 2]!;
        attrs.y = p[i * 2 + 1]!;
        return attrs;
      },
      { attributes: ['x', 'y'] },
    );
    this.#layoutInfo = {
      running: !tick.done,
      iteration: tick.iteration,
      elapsedMs: tick.elapsedMs,
      nodes: tick.ids.length,
      edges: this.graph.size,
    };
  }

  /** Runs the layout again from the current positions. */
  relayout(): void {
    this.#relayout(FULL_LAYOUT);
  }

  // ── Library ──

  /** Adds papers to the library (metadata from the service, enriched, with citation keys). */
  async addToLibrary(dois: readonly string[]): Promise<void> {
    if (dois.length === 0) return;
    const done = this.#begin('add');
    this.#error = null;
    try {
      const r = await this.api.invoke('library.addDois', { dois: [...dois] });
      if (!r.ok) return this.#fail(r.error);
      const { added, duplicates, notAdded, queued } = r.value;
      const parts: string[] = [];
      if (added.length)
        parts.push(
          `Added ${added.length === 1 ? `“${added[0]!.citationKey}”` : `${added.length} papers`} to the library`,
        );
      if (queued.length) parts.push(`${queued.length} queued until the service answers`);
      if (duplicates.length) parts.push(`${duplicates.length} already in the library`);
      if (notAdded.length) parts.push(`${notAdded.length} not added (${notAdded[0]!.reason})`);
      this.#notice = `${parts.join('; ')}.`;
      await this.refreshNodes(dois);
    } finally {
      done();
    }
  }

  /** Reads the papers again (e.g. whether they are in the library now). */
  async refreshNodes(dois: readonly string[]): Promise<void> {
    const r = await this.api.invoke('graph.data', { dois: [...dois] });
    if (!r.ok) return this.#fail(r.error);
    this.#merge({ nodes: r.value.nodes, edges: [] }, null);
  }

  // ── Saved graphs ──

  async loadSaved(): Promise<void> {
    const r = await this.api.invoke('graph.list', {});
    if (r.ok) this.#saved = r.value;
  }

  async save(name: string): Promise<boolean> {
    if (!this.#seed || this.#nodes.size === 0) return false;
    const positions: Record<string, { x: number; y: number }> = {};
    this.graph.forEachNode((d, a) => {
      if (Number.isFinite(a.x) && Number.isFinite(a.y)) positions[d] = { x: a.x, y: a.y };
    });
    const r = await this.api.invoke('graph.save', {
      name,
      seed: this.#seed,
      seedDois: this.#seedDois,
      dois: [...this.#nodes.keys()],
      positions,
      ...(this.#savedId !== null ? { id: this.#savedId } : {}),
    });
    if (!r.ok) {
      this.#fail(r.error);
      return false;
    }
    this.#savedName = r.value.name;
    this.#savedId = r.value.id;
    this.#notice = `Saved as “${r.value.name}” (${r.value.nodeCount.toLocaleString('en')} papers).`;
    await this.loadSaved();
    return true;
  }

  async open(id: number): Promise<void> {
    const done = this.#begin('open');
    this.#error = null;
    try {
      const r = await this.api.invoke('graph.open', { id });
      if (!r.ok) return this.#fail(r.error);
      this.#reset();
      const { graph, data } = r.value;
      this.#seed = graph.seed;
      this.#seedDois = graph.seedDois;
      this.#savedName = graph.name;
      this.#savedId = graph.id;
      this.#merge(data, null, graph.positions);
      const paging: Record<string, Paging> = {};
      for (const n of data.nodes) {
        if (n.citing)
          paging[`citing:${n.doi}`] = {
            fetched: n.citing.fetched,
            total: n.citing.total,
            nextOffset: n.citing.fetched < n.citing.total ? n.citing.fetched : null,
          };
        if (n.references)
          paging[`references:${n.doi}`] = {
            fetched: n.references.fetched,
            total: n.references.total,
            nextOffset: null,
          };
      }
      this.#paging = paging;
      this.#notice = `Opened “${graph.name}”: ${data.nodes.length.toLocaleString('en')} papers and ${data.edges.length.toLocaleString('en')} citation links, from the library.`;
      // Saved with its layout: shown as it was. Otherwise (saved before layouts were kept, or papers
      // without a position) the layout runs.
      const placed = graph.positions;
      if (placed && data.nodes.every((n) => placed[n.doi]))
        this.#layoutInfo = {
          running: false,
          iteration: 0,
          elapsedMs: 0,
          nodes: data.nodes.length,
          edges: this.graph.size,
        };
      else this.#relayout(FULL_LAYOUT);
    } finally {
      done();
    }
  }

  async deleteSaved(id: number): Promise<void> {
    const r = await this.api.invoke('graph.delete', { id });
    if (!r.ok) return this.#fail(r.error);
    await this.loadSaved();
  }

  // ── Export ──

  /** GraphML, GEXF, CSL-JSON or BibTeX of the visible papers, written by the core. */
  async exportData(format: Exclude<ExportFormat, 'png' | 'svg'>): Promise<GraphExportOutput | null> {
    const dois = [...this.visibleNodes];
    if (dois.length === 0) return null;
    const positions: Record<string, { x: number; y: number }> = {};
    for (const d of dois) {
      const a = this.graph.getNodeAttributes(d);
      if (Number.isFinite(a.x) && Number.isFinite(a.y))
        positions[d] = { x: Math.round(a.x * 100) / 100, y: Math.round(a.y * 100) / 100 };
    }
    const r: Result<GraphExportOutput> = await this.api.invoke('graph.export', {
      dois,
      format,
      filter: this.#filter,
      positions,
      title: this.#savedName || 'Citation graph',
    });
    if (!r.ok) {
      this.#fail(r.error);
      return null;
    }
    return r.value;
  }

  setNotice(text: string): void {
    this.#notice = text;
  }

  #fail(error: IpcError): void {
    this.#error = describe(error);
  }

  dispose(): void {
    this.#layout.dispose();
  }
}

const byApi = new WeakMap<CitewiseApi, GraphState>();

/** The window's graph state: kept while the pane is hidden, so a graph survives switching panes. */
export function graphStateFor(api: CitewiseApi): GraphState {
  let state = byApi.get(api);
  if (!state) {
    $effect.root(() => {
      state = new GraphState(api);
    });
    byApi.set(api, state!);
  }
  return state!;
}
