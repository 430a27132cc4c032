// Enrichment and the retraction watch through IPC: start enriching a scope (it runs as a job with
// progress and cancel, and resumes after a crash or when the service is back), list flagged items and
// status changes, and mark changes seen once the user was told.
import { z } from 'zod';
import type { EnqueueResult, EnrichRun, FlaggedItem, StatusChange } from '../model/item-status';
import type { UiPaper } from '../model/service';
import { event, feature, request } from './define';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const enrichScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('library') }).strict(),
  z.object({ kind: z.literal('items'), ids: z.array(id).min(1).max(200_000) }).strict(),
  z.object({ kind: z.literal('collection'), id }).strict(),
  z.object({ kind: z.literal('query'), query: z.string().max(4000) }).strict(),
]);

export interface EnrichStarted {
  /** The job to follow in jobs.changed (null: nothing to fetch). */
  jobId: string | null;
  queued: EnqueueResult;
}

/** What the library holds from the service about one item (its tally is in the item's evidence). */
export interface ItemServiceData {
  doi: string | null;
  /** The paper as last fetched: abstract, editorial notices, retraction. */
  paper:
    | { state: 'not-fetched' }
    | { state: 'unknown'; fetchedAt: number }
    | { state: 'found'; fetchedAt: number; paper: UiPaper };
  /** After a refresh that could not reach the service: why; what is shown is the cached data. */
  problem?: { code: string; message: string };
}

export const enrichmentFeature = feature({
  requests: {
    /** Fetches metadata, tallies and notices for the items in scope; fills only fields the user did not edit. */
    'library.enrich': request(z.object({ scope: enrichScope }).strict()).returns<EnrichStarted>(),
    /** The item's cached service data, offline. */
    'library.item.service': request(z.object({ id }).strict()).returns<ItemServiceData>(),
    /** Fetches the item's metadata, tallies and notices now, into the library's cache, and returns the result. */
    'library.item.refresh': request(z.object({ id }).strict()).returns<ItemServiceData>(),
    'library.watch.flagged': request(z.object({}).strict()).returns<FlaggedItem[]>(),
    'library.watch.changes': request(
      z
        .object({ unseenOnly: z.boolean().default(true), limit: z.number().int().min(1).max(10_000).default(500) })
        .strict(),
    ).returns<StatusChange[]>(),
    'library.watch.markSeen': request(z.object({ ids: z.array(id).max(10_000).optional() }).strict()).returns<{
      marked: number;
    }>(),
  },
  events: {
    /** Items whose editorial status changed (e.g. newly retracted): the user is to be told. */
    'library.statusChanged': event<StatusChange[]>(),
    'library.enrichProgress': event<EnrichRun>(),
  },
});
