// The citation graph feature. Expanding a paper asks the service for one page and keeps it in the
// library (graph store, in the library worker) before answering, so whatever was seen once can be
// shown again without the service: when the service cannot be reached (or refuses), the page comes
// from the store and says so. Exports are written in the library worker, beside the data.
import type { graphFeature, GraphExportOutput } from '../../../shared/ipc';
import { parseDoi } from '../../../shared/model/doi';
import { evidenceTallyFromApi, inUiWords, type EvidenceCounts } from '../../../shared/model/evidence';
import type { ExpandPage, GraphDirection, YearHistogram } from '../../../shared/model/graph';
import type { UiPaper } from '../../../shared/model/service';
import { CoreError } from '../errors';
import type { EventBus } from '../events';
import type { LibraryClient } from '../library/client';
import type { StatementInput, StoredExpansion } from '../library/graph-store';
import type { FeatureHandlers } from '../registry';
import type { ServiceClient } from '../service';

export interface GraphHandlerDeps {
  library: LibraryClient;
  service: ServiceClient;
  events: EventBus;
  now?: () => number;
}

const EXPORT_TYPES: Record<'graphml' | 'gexf' | 'csljson' | 'bibtex', { mime: string; extension: string }> = {
  graphml: { mime: 'application/graphml+xml', extension: 'graphml' },
  gexf: { mime: 'application/gexf+xml', extension: 'gexf' },
  csljson: { mime: 'application/vnd.citationstyles.csl+json', extension: 'json' },
  bibtex: { mime: 'application/x-bibtex', extension: 'bib' },
};

/** Failures after which the store answers instead (when it has something). */
const USE_STORE = new Set(['OFFLINE', 'TIMEOUT', 'SERVICE_ERROR', 'RATE_LIMITED', 'UNAUTHORIZED', 'FORBIDDEN']);

type HistogramIn = Record<string, { supporting?: number; contrasting?: number; mentioning?: number; total?: number }>;

function histogramOf(h: HistogramIn | undefined): YearHistogram | null {
  if (!h) return null;
  const out: YearHistogram = {};
  for (const [year, v] of Object.entries(h)) {
    if (!/^\d{1,4}$/.test(year)) continue;
    const supporting = v.supporting ?? 0;
    const contrasting = v.contrasting ?? 0;
    const mentioning = v.mentioning ?? 0;
    out[year] = { supporting, contrasting, mentioning, total: v.total ?? supporting + contrasting + mentioning };
  }
  return out;
}

function statement(c: {
  source: string;
  target: string;
  id?: number;
  type?: string;
  section?: string;
  selfCites?: unknown[];
}): StatementInput {
  const snippet = (c as { snippet?: unknown }).snippet;
  return {
    source: c.source,
    target: c.target,
    id: typeof c.id === 'number' ? c.id : undefined,
    type: c.type,
    section: c.section,
    selfCite: (c.selfCites?.length ?? 0) > 0,
    snippet: typeof snippet === 'string' && snippet.trim() !== '' ? snippet : undefined,
  };
}

function mustDoi(doi: string): string {
  const p = parseDoi(doi);
  if (!p.ok) throw new CoreError('INVALID_INPUT', `"${doi}" is not a valid DOI: ${p.reason}`);
  return p.doi;
}

export function graphHandlers(deps: GraphHandlerDeps) {
  const { library, service, events } = deps;
  const now = deps.now ?? Date.now;

  async function fetchPage(
    doi: string,
    direction: GraphDirection,
    offset: number,
    limit: number,
    signal: AbortSignal,
  ): Promise<{ stored: StoredExpansion; received: number }> {
    const fetchedAt = now();
    if (direction === 'citing') {
      const pages = service.citing(doi, { offset, pageSize: limit, papers: true, tallies: true, signal });
      try {
        const { value: page, done } = await pages.next();
        if (done || !page) throw new CoreError('SERVICE_ERROR', 'The citation service answered with no page.');
        const stored = await library.graph.putPage({
          doi,
          direction,
          offset,
          total: page.total,
          statements: page.citations.map(statement),
          papers: page.papers,
          tallies: page.tallies as Record<string, EvidenceCounts>,
          histogram:
            offset === 0 ? histogramOf(page.metadata.citingCounts?.dateHistogram as HistogramIn | undefined) : null,
          fetchedAt,
        });
        return { stored, received: page.citations.length };
      } finally {
        await pages.return(undefined);
      }
    }
    // A paper's own statements come in one answer (cited_by has no paging).
    if (offset > 0)
      throw new CoreError('INVALID_INPUT', 'A paper’s references come in one page; there is nothing past offset 0.');
    const answer = await service.op.getCitedByCitations(
      { path: { doi }, query: { papers: true, tallies: true } },
      { signal },
    );
    const papers = inUiWords(answer.papers ?? {}) as Record<string, UiPaper>;
    const tallies: Record<string, EvidenceCounts> = {};
    for (const [d, t] of Object.entries(answer.tallies ?? {}))
      tallies[d.toLowerCase()] = evidenceTallyFromApi(t, d.toLowerCase());
    const citations = inUiWords(answer.citations);
    const stored = await library.graph.putPage({
      doi,
      direction,
      offset: 0,
      total: citations.length,
      statements: citations.map(statement),
      papers,
      tallies,
      histogram: null,
      fetchedAt,
    });
    return { stored, received: citations.length };
  }

  return {
    'graph.seed': async ({ seed }) => {
      const { dois, withoutDoi, truncated } = await library.graph.seedDois(seed);
      if (dois.length === 0) {
        throw new CoreError(
          'INVALID_INPUT',
          withoutDoi > 0
            ? `None of the ${withoutDoi} seed items has a DOI, and a citation graph needs DOIs.`
            : 'The seed holds no papers.',
        );
      }
      return { seedDois: dois, withoutDoi, truncated, data: await library.graph.graphData(dois) };
    },
    'graph.expand': async ({ doi: raw, direction, offset, limit }, { signal }): Promise<ExpandPage> => {
      const doi = mustDoi(raw);
      try {
        const { stored, received } = await fetchPage(doi, direction, offset, limit, signal);
        const total = stored.fetch?.total ?? received;
        const reached = offset + received;
        return {
          doi,
          direction,
          offset,
          nextOffset: direction === 'citing' && received > 0 && reached < total ? reached : null,
          total,
          fromStore: false,
          offlineReason: null,
          fetchedAt: stored.fetch?.fetchedAt ?? now(),
          data: stored.data,
          histogram: stored.histogram,
        };
      } catch (err) {
        if (!(err instanceof CoreError) || !USE_STORE.has(err.code)) throw err;
        const stored = await library.graph.storedExpansion(doi, direction);
        if (!stored.fetch) {
          throw new CoreError(
            err.code,
            `${err.message} Nothing is stored yet for this paper’s ${direction === 'citing' ? 'citations' : 'references'}, so it cannot be expanded until the service answers.`,
            err.details,
          );
        }
        return {
          doi,
          direction,
          offset: 0,
          nextOffset: null,
          total: stored.fetch.total,
          fromStore: true,
          offlineReason: err.message,
          fetchedAt: stored.fetch.fetchedAt,
          data: stored.data,
          histogram: stored.histogram,
        };
      }
    },
    'graph.data': ({ dois }) => library.graph.graphData(dois),
    'graph.save': async (input) => {
      const saved = await library.graph.saveGraph(input);
      events.emit('graph.changed', { kind: 'saved', id: saved.id });
      return saved;
    },
    'graph.list': () => library.graph.listGraphs(),
    'graph.open': async ({ id }) => {
      const graph = await library.graph.getGraph(id);
      return { graph, data: await library.graph.graphData(graph.dois) };
    },
    'graph.rename': async ({ id, name }) => {
      const saved = await library.graph.renameGraph(id, name);
      events.emit('graph.changed', { kind: 'saved', id });
      return saved;
    },
    'graph.delete': async ({ id }) => {
      await library.graph.deleteGraph(id);
      events.emit('graph.changed', { kind: 'deleted', id });
      return null;
    },
    'graph.export': async ({ dois, format, filter, positions, title }): Promise<GraphExportOutput> => {
      const type = EXPORT_TYPES[format];
      if (format === 'graphml' || format === 'gexf') {
        const out = await library.graph.exportGraph({ dois, format, filter, positions, title });
        return { content: out.content, ...type, nodes: out.nodes, edges: out.edges };
      }
      const out = await library.graph.exportNodes(dois, format);
      return { content: out.content, ...type, nodes: out.items, edges: null };
    },
  } satisfies FeatureHandlers<typeof graphFeature>;
}
