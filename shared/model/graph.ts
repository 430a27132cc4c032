// The citation graph in Citewise's words: papers as nodes, and between two papers one edge per
// citing → cited pair carrying every citation statement of that pair. Pure data and pure analysis
// (co-citation, bibliographic coupling, filters), shared by the core (store, export) and the renderer.
import type { EvidenceType } from './evidence';

export const GRAPH_DIRECTIONS = ['citing', 'references'] as const;
/** citing: the statements made toward a paper (who cites it); references: the statements it makes (what it cites). */
export type GraphDirection = (typeof GRAPH_DIRECTIONS)[number];

/** One citation statement of an edge. */
export interface GraphStatement {
  /** The service's statement id, or a key made from the pair when it gives none. */
  key: string;
  type: EvidenceType | null;
  section: string | null;
  selfCite: boolean;
  /** Only some answers carry the sentence itself; markup, so rendered through SafeMarkup. */
  snippet: string | null;
}

/** A citing → cited pair. `source` cites `target`. */
export interface GraphEdge {
  source: string;
  target: string;
  statements: GraphStatement[];
}

export interface GraphNode {
  doi: string;
  /** May carry markup (the service's titles do): rendered through SafeMarkup, stripped for labels. */
  title: string | null;
  year: number | null;
  journal: string | null;
  /** "Family" or "Family et al.". */
  authors: string | null;
  /** Distinct citing publications (from the tally), when known. */
  citingPublications: number | null;
  /** Citation statements toward it (the tally's total), when known. */
  tally: number | null;
  supporting: number | null;
  contrasting: number | null;
  mentioning: number | null;
  retracted: boolean;
  /** The library item with this DOI, when there is one (not in the trash). */
  itemId: number | null;
  /** What was fetched of this paper's citations (statements toward it), and when. */
  citing: FetchState | null;
  /** Whether its references (the statements it makes) were fetched, and when. */
  references: FetchState | null;
}

export interface FetchState {
  /** Statements stored so far (the next page starts here). */
  fetched: number;
  total: number;
  fetchedAt: number;
}

export interface GraphData {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Citation statements per year by type (from the citing answer's metadata.citingCounts.dateHistogram). */
export type YearHistogram = Record<
  string,
  { supporting: number; contrasting: number; mentioning: number; total: number }
>;

export type GraphSeed =
  | { kind: 'items'; ids: number[] }
  | { kind: 'collection'; collectionId: number }
  | { kind: 'library' }
  | { kind: 'dois'; dois: string[] };

/** A saved graph: its seed and the papers it shows; edges come from the store when it is opened. */
export interface SavedGraphInfo {
  id: number;
  name: string;
  seed: GraphSeed;
  nodeCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface SavedGraph extends SavedGraphInfo {
  dois: string[];
  /** The seed papers (drawn as seeds). */
  seedDois: string[];
  /** The layout it was saved with, by DOI (graphs saved before layouts were kept have none). */
  positions: Record<string, { x: number; y: number }> | null;
}

/** What one expansion step brought. */
export interface ExpandPage {
  doi: string;
  direction: GraphDirection;
  offset: number;
  /** Where the next page starts; null when everything was fetched. */
  nextOffset: number | null;
  total: number;
  /** The page came from the library's store, because the service could not be reached. */
  fromStore: boolean;
  /** Why it came from the store (the service's error), when it did. */
  offlineReason: string | null;
  fetchedAt: number;
  /** The papers and edges of this page (the expanded paper included, updated). */
  data: GraphData;
  /** Per year and type, for citing; null when unknown. */
  histogram: YearHistogram | null;
}

// ── Pair summary ──

/** The type an edge is drawn with: contrasting wins over supporting, which wins over mentioning. */
export function edgeType(edge: GraphEdge): EvidenceType | null {
  let best: EvidenceType | null = null;
  for (const s of edge.statements) {
    if (s.type === 'contrasting') return 'contrasting';
    if (s.type === 'supporting') best = 'supporting';
    else if (s.type === 'mentioning' && best === null) best = 'mentioning';
  }
  return best;
}

export function edgeKey(source: string, target: string): string {
  return `${source}\u0000${target}`;
}

// ── Filters ──

export interface GraphFilter {
  yearFrom: number | null;
  yearTo: number | null;
  /** Types whose statements keep an edge; an edge with no typed statement counts as mentioning. */
  types: EvidenceType[];
  /** Sections whose statements keep an edge; empty: every section. */
  sections: string[];
  /** Keep self-citations. */
  selfCitations: boolean;
  /** Hide edges whose statements all mention. */
  hideMentioningOnly: boolean;
}

export const DEFAULT_FILTER: GraphFilter = {
  yearFrom: null,
  yearTo: null,
  types: ['supporting', 'contrasting', 'mentioning'],
  sections: [],
  selfCitations: true,
  hideMentioningOnly: false,
};

function statementPasses(s: GraphStatement, f: GraphFilter): boolean {
  if (!f.selfCitations && s.selfCite) return false;
  if (!f.types.includes(s.type ?? 'mentioning')) return false;
  if (f.sections.length > 0 && !f.sections.includes(s.section ?? 'other')) return false;
  return true;
}

export function nodePasses(n: Pick<GraphNode, 'year'>, f: GraphFilter): boolean {
  if (f.yearFrom !== null && (n.year === null || n.year < f.yearFrom)) return false;
  if (f.yearTo !== null && (n.year === null || n.year > f.yearTo)) return false;
  return true;
}

/** The statements of an edge that pass the filter; an edge shows when any do (and its ends pass). */
export function visibleStatements(edge: GraphEdge, f: GraphFilter): GraphStatement[] {
  const kept = edge.statements.filter((s) => statementPasses(s, f));
  if (f.hideMentioningOnly && kept.every((s) => (s.type ?? 'mentioning') === 'mentioning')) return [];
  return kept;
}

export function edgePasses(edge: GraphEdge, f: GraphFilter): boolean {
  if (edge.statements.length === 0)
    return f.types.includes('mentioning') && !f.hideMentioningOnly && f.sections.length === 0;
  return visibleStatements(edge, f).length > 0;
}

// ── Analysis ──

export interface RankedPaper {
  doi: string;
  score: number;
}

/**
 * Co-citation: two papers are co-cited when a third paper cites both. A paper's score is the number
 * of (citing paper, other cited paper) pairs it takes part in within the graph, so the papers the
 * graph's citing papers keep citing together rank first.
 */
export function coCitationRanking(edges: readonly Pick<GraphEdge, 'source' | 'target'>[], limit = 20): RankedPaper[] {
  const cites = outgoing(edges);
  const score = new Map<string, number>();
  for (const targets of cites.values()) {
    const k = targets.size;
    if (k < 2) continue;
    for (const t of targets) score.set(t, (score.get(t) ?? 0) + (k - 1));
  }
  return top(score, limit);
}

/** How often two papers are cited together by the same paper (for the pair view and tests). */
export function coCitationStrength(
  edges: readonly Pick<GraphEdge, 'source' | 'target'>[],
  a: string,
  b: string,
): number {
  let n = 0;
  for (const targets of outgoing(edges).values()) if (targets.has(a) && targets.has(b)) n++;
  return n;
}

/**
 * Bibliographic coupling: two papers are coupled when they cite the same paper. A paper's score is
 * the number of (shared reference, other citing paper) pairs, so the papers whose references overlap
 * most with the rest of the graph rank first.
 */
export function couplingRanking(edges: readonly Pick<GraphEdge, 'source' | 'target'>[], limit = 20): RankedPaper[] {
  const citedBy = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.source === e.target) continue;
    let s = citedBy.get(e.target);
    if (!s) citedBy.set(e.target, (s = new Set()));
    s.add(e.source);
  }
  const score = new Map<string, number>();
  for (const sources of citedBy.values()) {
    const k = sources.size;
    if (k < 2) continue;
    for (const s of sources) score.set(s, (score.get(s) ?? 0) + (k - 1));
  }
  return top(score, limit);
}

export function couplingStrength(edges: readonly Pick<GraphEdge, 'source' | 'target'>[], a: string, b: string): number {
  const out = outgoing(edges);
  const ra = out.get(a);
  const rb = out.get(b);
  if (!ra || !rb) return 0;
  let n = 0;
  for (const t of ra) if (rb.has(t)) n++;
  return n;
}

function outgoing(edges: readonly Pick<GraphEdge, 'source' | 'target'>[]): Map<string, Set<string>> {
  const cites = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.source === e.target) continue;
    let s = cites.get(e.source);
    if (!s) cites.set(e.source, (s = new Set()));
    s.add(e.target);
  }
  return cites;
}

function top(score: Map<string, number>, limit: number): RankedPaper[] {
  return [...score.entries()]
    .map(([doi, s]) => ({ doi, score: s }))
    .sort((a, b) => b.score - a.score || (a.doi < b.doi ? -1 : a.doi > b.doi ? 1 : 0))
    .slice(0, limit);
}

/** The papers whose statements contrast `doi`, each with those statements. */
export function contrastingStatements(
  edges: readonly GraphEdge[],
  doi: string,
): { source: string; statements: GraphStatement[] }[] {
  const out: { source: string; statements: GraphStatement[] }[] = [];
  for (const e of edges) {
    if (e.target !== doi) continue;
    const statements = e.statements.filter((s) => s.type === 'contrasting');
    if (statements.length > 0) out.push({ source: e.source, statements });
  }
  return out.sort((a, b) => b.statements.length - a.statements.length || (a.source < b.source ? -1 : 1));
}

/** Adds a histogram page to another (statements per year by type). */
export function mergeHistograms(a: YearHistogram | null, b: YearHistogram | null): YearHistogram | null {
  if (!a) return b;
  if (!b) return a;
  const out: YearHistogram = { ...a };
  for (const [year, v] of Object.entries(b)) {
    const prev = out[year];
    out[year] = prev
      ? {
          supporting: prev.supporting + v.supporting,
          contrasting: prev.contrasting + v.contrasting,
          mentioning: prev.mentioning + v.mentioning,
          total: prev.total + v.total,
        }
      : v;
  }
  return out;
}

/** A title without markup, for labels and exports (the service's titles may carry <i>, <sub>…). */
export function plainTitle(title: string | null): string {
  if (!title) return '';
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The statements of one pair seen in two answers. A pair's statements from the citing answer carry
 * ids ("c:" keys); the same statements from the references answer carry none ("r:" keys), so when
 * both are known the citing ones stand for the pair and the others are dropped, never counted twice.
 */
export function mergeStatements(a: readonly GraphStatement[], b: readonly GraphStatement[]): GraphStatement[] {
  const cited = a.some((s) => s.key.startsWith('c:')) || b.some((s) => s.key.startsWith('c:'));
  const out = new Map<string, GraphStatement>();
  for (const s of [...a, ...b]) if (!cited || s.key.startsWith('c:')) out.set(s.key, s);
  return [...out.values()];
}
