// Service collections, journals and authors through IPC. Collections are made on the service from a
// library selection, a library collection (their DOIs, read by the core) or a paper query, and kept in
// the library so they open offline; journals and authors are looked up and their answers cached.
// The paper search itself is service.search; adding papers is library.addDois.
import { z } from 'zod';
import {
  AGGREGATIONS,
  CITATION_TYPES,
  MAX_QUERY_LIMIT,
  paperQueryProblems,
  QUERY_SORTS,
  type PaperQuery,
} from '../model/paper-query';
import type { AddDoisReport } from './library';
import type {
  JournalView,
  LibraryJournals,
  ServiceCollectionSummary,
  ServiceCollectionView,
} from '../model/service-collections';
import type { AuthorRecord } from '../service';
import type { UiPaper } from '../model/service';
import { feature, request } from './define';

export type * from '../model/service-collections';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const text = (max: number) => z.string().trim().min(1).max(max);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The paper query object, strict: the service's camelCase names, checked as the form checks them. */
export const paperQuerySchema = z
  .object({
    term: text(2000).optional(),
    title: text(1000).optional(),
    abstract: text(1000).optional(),
    dateFrom: z.string().max(10).optional(),
    dateTo: z.string().max(10).optional(),
    citationTypes: z.array(z.enum(CITATION_TYPES)).max(3).optional(),
    hasRetraction: z.boolean().optional(),
    hasConcern: z.boolean().optional(),
    hasCorrection: z.boolean().optional(),
    hasErratum: z.boolean().optional(),
    hasWithdrawn: z.boolean().optional(),
    hasTally: z.boolean().optional(),
    supportingFrom: count.optional(),
    supportingTo: count.optional(),
    mentioningFrom: count.optional(),
    mentioningTo: count.optional(),
    contrastingFrom: count.optional(),
    contrastingTo: count.optional(),
    citingPublicationsFrom: count.optional(),
    citingPublicationsTo: count.optional(),
    author: text(500).optional(),
    journal: text(500).optional(),
    publisher: text(500).optional(),
    section: text(100).optional(),
    paperType: text(100).optional(),
    affiliation: text(500).optional(),
    topic: text(500).optional(),
    sort: z.enum(QUERY_SORTS).optional(),
    sortOrder: z.enum(['asc', 'desc']).optional(),
    computeAggregations: z.boolean().optional(),
    aggregations: z.array(z.enum(AGGREGATIONS)).max(2).optional(),
    limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    for (const p of paperQueryProblems(q as PaperQuery))
      ctx.addIssue({ code: 'custom', path: p.field.split('.'), message: p.message });
  });

export const collectionSource = z.discriminatedUnion('kind', [
  /** Items of the library (a selection): their DOIs. */
  z.object({ kind: z.literal('items'), ids: z.array(id).min(1).max(100_000) }).strict(),
  /** A library collection, its subcollections included: its items' DOIs. */
  z.object({ kind: z.literal('collection'), id }).strict(),
  z.object({ kind: z.literal('query'), query: paperQuerySchema }).strict(),
]);

/** One page of an author's papers; `next` is where the service's nextPage link points (its offset and limit only). */
export interface AuthorPage {
  author: AuthorRecord;
  papers: UiPaper[];
  totalPapers: number;
  offset: number;
  next: { offset: number; limit?: number } | null;
  /** DOIs on this page that are items in the library. */
  inLibrary: string[];
}

export interface CollectionImportReport extends AddDoisReport {
  /** The library collection the papers were filed in, when asked. */
  collection: { id: number; name: string } | null;
}

export const collectionsFeature = feature({
  requests: {
    /** The service collections kept in this library, newest first (offline). */
    'collections.list': request(z.object({}).strict()).returns<ServiceCollectionSummary[]>(),
    /** One kept collection with what the library holds of it (offline). */
    'collections.get': request(z.object({ id }).strict()).returns<ServiceCollectionView>(),
    /** Creates a collection on the service and keeps its copy. Needs a key with Collections access. */
    'collections.create': request(
      z
        .object({
          name: text(500),
          description: z.string().max(5000).optional(),
          isPublic: z.boolean().optional(),
          source: collectionSource,
        })
        .strict(),
    ).returns<ServiceCollectionView>(),
    /** Asks the service for the collection again; offline, answers the kept copy with `problem`. */
    'collections.refresh': request(z.object({ id }).strict()).returns<ServiceCollectionView>(),
    /** Forgets the local copy (the service offers no deletion; the collection stays there). */
    'collections.remove': request(z.object({ id }).strict()).returns<null>(),
    /** Adds the collection's matched papers to the library (by DOI, with enrichment), optionally filed in a library collection of its name. */
    'collections.import': request(
      z.object({ id, intoCollection: z.boolean().default(true) }).strict(),
    ).returns<CollectionImportReport>(),
    /** Which of these DOIs are already library items (to mark search results and author papers). */
    'papers.inLibrary': request(z.object({ dois: z.array(z.string().max(1000)).max(1000) }).strict()).returns<
      string[]
    >(),
    /** A journal by ISSN: its index by year and notice totals, from the cache unless stale or `refresh`. */
    'journals.get': request(
      z.object({ issn: z.string().trim().min(1).max(20), refresh: z.boolean().default(false) }).strict(),
    ).returns<JournalView>(),
    /** The journals the library's items appear in, with their notice totals; `refresh` asks the service (one request per 500 ISSNs). */
    'journals.library': request(z.object({ refresh: z.boolean().default(false) }).strict()).returns<LibraryJournals>(),
    /** One page of an author's papers, with the author record. */
    // A slug is one path segment of the service's /authors/{slug}/papers: letters, digits and dashes
    // (".." or "/" would reach another path of the service with the user's key).
    'authors.page': request(
      z
        .object({
          slug: z
            .string()
            .trim()
            .min(1)
            .max(300)
            .regex(/^[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u, 'an author slug is letters, digits, dots and dashes')
            .refine((s) => !/^\.+$/.test(s) && !s.includes('..'), 'an author slug is not a path'),
          offset: z.number().int().min(0).max(1_000_000).default(0),
          limit: z.number().int().min(1).max(50).default(25),
        })
        .strict(),
    ).returns<AuthorPage>(),
  },
  events: {},
});
