// The citation graph through IPC: seeding from the library, expanding a paper a page at a time (kept in
// the library, so a graph reopens offline), saved graphs, and exports (GraphML, GEXF; the papers as
// CSL-JSON or BibTeX). Adding a paper to the library goes through library.addDois (enriched, with keys).
import { z } from 'zod';
import { EVIDENCE_TYPES } from '../model/evidence';
import {
  GRAPH_DIRECTIONS,
  type ExpandPage,
  type GraphData,
  type SavedGraph,
  type SavedGraphInfo,
} from '../model/graph';
import { event, feature, request } from './define';
import { grouped } from '../model/numbers';

/** Most papers one request may name (a graph of 5,000 papers is the size the pane is built for, with room). */
export const MAX_GRAPH_DOIS = 20_000;
/** Statements per expansion page: the service's own page size past 3,000. */
export const MAX_EXPAND_PAGE = 1000;

const doi = z.string().min(1).max(1000);
const dois = z.array(doi).max(MAX_GRAPH_DOIS);
const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = z.string().trim().min(1, 'A saved graph needs a name.').max(200);

export const graphSeed = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('items'), ids: z.array(id).min(1).max(MAX_GRAPH_DOIS) }).strict(),
  z.object({ kind: z.literal('collection'), collectionId: id }).strict(),
  z.object({ kind: z.literal('library') }).strict(),
  z.object({ kind: z.literal('dois'), dois: z.array(doi).min(1).max(MAX_GRAPH_DOIS) }).strict(),
]);

export const graphFilter = z
  .object({
    yearFrom: z.number().int().min(0).max(3000).nullable(),
    yearTo: z.number().int().min(0).max(3000).nullable(),
    types: z.array(z.enum(EVIDENCE_TYPES)).max(3),
    sections: z.array(z.string().max(100)).max(20),
    selfCitations: z.boolean(),
    hideMentioningOnly: z.boolean(),
  })
  .strict();

const position = z.object({ x: z.number().finite(), y: z.number().finite() }).strict();
const positions = z
  .record(z.string().max(1000), position)
  .refine((p) => Object.keys(p).length <= MAX_GRAPH_DOIS, `at most ${grouped(MAX_GRAPH_DOIS)} positions`);

export interface SeedResult {
  /** The seed's papers (by DOI), at most 5,000. */
  seedDois: string[];
  /** Seed items without a DOI: they cannot be placed in a citation graph. */
  withoutDoi: number;
  /** The seed had more papers than a graph starts with. */
  truncated: boolean;
  data: GraphData;
}

export interface GraphExportOutput {
  content: string;
  mime: string;
  extension: string;
  nodes: number;
  edges: number | null;
}

export interface GraphChanged {
  kind: 'saved' | 'deleted';
  id: number;
}

export const graphFeature = feature({
  requests: {
    /** The seed's papers, and what the library already holds about them and the statements among them. */
    'graph.seed': request(z.object({ seed: graphSeed }).strict()).returns<SeedResult>(),
    /** One page of a paper's citations (citing: toward it, paged past 3,000) or references (what it cites). */
    'graph.expand': request(
      z
        .object({
          doi,
          direction: z.enum(GRAPH_DIRECTIONS),
          offset: z.number().int().min(0).max(10_000_000).default(0),
          limit: z.number().int().min(1).max(MAX_EXPAND_PAGE).default(MAX_EXPAND_PAGE),
        })
        .strict(),
    ).returns<ExpandPage>(),
    /** The papers (fresh: e.g. after some were added to the library) and the stored edges among them. */
    'graph.data': request(z.object({ dois }).strict()).returns<GraphData>(),
    /**
     * Saves the graph under a name. `id`: the saved graph this one was opened from (or last saved as),
     * which the save updates; a name another graph has is refused (CONFLICT) unless `replace`.
     * `positions`: the layout by DOI, kept so that the graph reopens as it was laid out.
     */
    'graph.save': request(
      z
        .object({
          name,
          seed: graphSeed,
          seedDois: dois,
          dois: dois.min(1),
          positions: positions.optional(),
          id: id.optional(),
          replace: z.boolean().optional(),
        })
        .strict(),
    ).returns<SavedGraphInfo>(),
    'graph.list': request(z.object({}).strict()).returns<SavedGraphInfo[]>(),
    /** A saved graph with its papers and edges, from the library only: it opens offline. */
    'graph.open': request(z.object({ id }).strict()).returns<{ graph: SavedGraph; data: GraphData }>(),
    'graph.rename': request(z.object({ id, name }).strict()).returns<SavedGraphInfo>(),
    'graph.delete': request(z.object({ id }).strict()).returns<null>(),
    'graph.export': request(
      z
        .object({
          dois: dois.min(1),
          format: z.enum(['graphml', 'gexf', 'csljson', 'bibtex']),
          filter: graphFilter.optional(),
          positions: positions.optional(),
          title: z.string().max(200).optional(),
        })
        .strict(),
    ).returns<GraphExportOutput>(),
  },
  events: {
    'graph.changed': event<GraphChanged>(),
  },
});
