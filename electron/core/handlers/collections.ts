// The collections feature: service collections made from the library or a paper query and kept
// locally, journals (one, and the library's) and author pages. The service client does the asking;
// the library keeps the answers, so every view opens offline from its last copy.
import type { collectionsFeature, CollectionImportReport, LibraryChange } from '../../../shared/ipc';
import { inUiWords } from '../../../shared/model/evidence';
import { toCollectionQuery } from '../../../shared/model/paper-query';
import type {
  CollectionOrigin,
  ServiceCollectionRecord,
  ServiceCollectionView,
} from '../../../shared/model/service-collections';
import type { CollectionCreateRequest } from '../../../shared/service';
import { CoreError } from '../errors';
import { journalView, libraryJournals } from '../journals/journals';
import { addDois } from '../library/add-dois';
import type { JobRegistry } from '../jobs/registry';
import type { LibraryClient } from '../library/client';
import type { FeatureHandlers } from '../registry';
import { nextPageParams, type ServiceClient } from '../service';
import { grouped } from '../../../shared/model/numbers';

/** More DOIs than this in one collection are refused before anything is sent. */
export const MAX_COLLECTION_DOIS = 20_000;

export interface CollectionsHandlerDeps {
  library: LibraryClient;
  service: ServiceClient;
  /** Imports run as jobs: progress and Cancel in the status bar. */
  jobs: JobRegistry;
  /** Told after the library changed (items added, a collection filed). */
  changed: (kind: LibraryChange['kind'], ids?: readonly number[]) => void;
  /** Told which items an import created (to enrich them). */
  onAdded: (ids: readonly number[]) => void;
  now?: () => number;
}

export function collectionsHandlers(deps: CollectionsHandlerDeps) {
  const { library, service } = deps;
  const lib = library.lib;
  const stored = library.serviceCollections;
  const now = deps.now ?? Date.now;
  const journalSource = {
    editorialNotices: (issns: Iterable<string>, o?: { signal?: AbortSignal }) => service.editorialNotices(issns, o),
    journalIndex: (issns: Iterable<string>, o?: { signal?: AbortSignal }) => service.journalIndex(issns, o),
    journalIndexOf: (issn: string, o?: { signal?: AbortSignal }) => service.op.getJournalIndex({ query: { issn } }, o),
  };

  async function view(
    record: ServiceCollectionRecord,
    problem?: ServiceCollectionView['problem'],
  ): Promise<ServiceCollectionView> {
    const dois = record.collection.doiQuery?.query?.dois ?? [];
    const inLibrary = await stored.doisInLibrary(dois);
    return { ...record, inLibrary, ...(problem ? { problem } : {}) };
  }

  async function doisFrom(
    ids: readonly number[] | null,
    collectionId: number | null,
  ): Promise<{ dois: string[]; origin: CollectionOrigin }> {
    if (ids) {
      const dois = await stored.doisOfItems(ids);
      if (dois.length === 0)
        throw new CoreError(
          'INVALID_INPUT',
          `${ids.length === 1 ? 'The selected item has no DOI' : `None of the ${ids.length} selected items has a DOI`}; a service collection is made of DOIs.`,
        );
      return { dois, origin: { kind: 'items', dois: dois.length } };
    }
    const c = await stored.doisOfCollection(collectionId!);
    if (c.dois.length === 0)
      throw new CoreError(
        'INVALID_INPUT',
        c.items === 0
          ? `The collection “${c.name}” is empty.`
          : `None of the ${c.items} items in “${c.name}” has a DOI; a service collection is made of DOIs.`,
      );
    return {
      dois: c.dois,
      origin: { kind: 'collection', collectionId: collectionId!, collectionName: c.name, dois: c.dois.length },
    };
  }

  return {
    'collections.list': () => stored.list(),
    'collections.get': async ({ id }) => view(await stored.get(id)),
    'collections.create': async ({ name, description, isPublic, source }, { signal }) => {
      const body: CollectionCreateRequest = {
        name,
        ...(description ? { description } : {}),
        ...(isPublic !== undefined ? { isPublic } : {}),
      };
      let origin: CollectionOrigin;
      if (source.kind === 'query') {
        body.query = toCollectionQuery(source.query);
        origin = { kind: 'query', query: source.query };
      } else {
        const from = await doisFrom(
          source.kind === 'items' ? source.ids : null,
          source.kind === 'collection' ? source.id : null,
        );
        if (from.dois.length > MAX_COLLECTION_DOIS)
          throw new CoreError(
            'INVALID_INPUT',
            `A collection can hold at most ${grouped(MAX_COLLECTION_DOIS)} DOIs; this one would have ${grouped(from.dois.length)}.`,
          );
        body.dois = from.dois;
        origin = from.origin;
      }
      const collection = await service.op.createCollection({ body }, { signal });
      return view(await stored.save(collection, origin, now()));
    },
    'collections.refresh': async ({ id }, { signal }) => {
      const kept = await stored.get(id);
      try {
        const fresh = await service.op.getCollection({ path: { collection_slug: kept.slug } }, { signal });
        return view(await stored.update(id, fresh, now()));
      } catch (err) {
        if (!(err instanceof CoreError) || err.code === 'CANCELLED') throw err;
        const message =
          err.code === 'NOT_FOUND'
            ? 'The service no longer has this collection; this is the copy kept in your library.'
            : err.message;
        return view(kept, { code: err.code, message });
      }
    },
    'collections.remove': async ({ id }) => {
      await stored.remove(id);
      return null;
    },
    'collections.import': async ({ id, intoCollection }, { signal }): Promise<CollectionImportReport> => {
      const kept = await stored.get(id);
      const dois = kept.collection.doiQuery?.query?.dois ?? [];
      if (dois.length === 0) throw new CoreError('INVALID_INPUT', `“${kept.name}” has no matched papers to import.`);
      const job = deps.jobs.start(
        'collection-import',
        `Import “${kept.name}” (${grouped(dois.length)} papers)`,
        (control) => {
          const both = AbortSignal.any([signal, control.signal]);
          // The lookups are most of the work; their progress is the job's.
          const papers = {
            papers: (d: Iterable<string>, o?: { signal?: AbortSignal }) =>
              service.papers(d, {
                ...o,
                onProgress: (done, total) => control.progress(done, total, 'Looking up the papers'),
              }),
          };
          return addDois(library, papers, dois, { signal: both, source: `service collection ${kept.name}` });
        },
      );
      const { ids, ...report } = await job.done;
      if (ids.length > 0) {
        deps.changed('items', ids);
        deps.onAdded(ids);
      }
      let filed: CollectionImportReport['collection'] = null;
      const members = [
        ...report.added.map((a) => a.id),
        ...report.queued.map((q) => q.id),
        ...report.duplicates.map((d) => d.existingId),
      ];
      if (intoCollection && members.length > 0) {
        const existing = (await lib.listCollections()).find((c) => c.parentId === null && c.name === kept.name);
        const collectionId = existing ? existing.id : await lib.createCollection(kept.name, null);
        await lib.addToCollection(collectionId, members);
        filed = { id: collectionId, name: kept.name };
        deps.changed('collections', members);
      }
      return { ...report, collection: filed };
    },
    'papers.inLibrary': ({ dois }) => stored.doisInLibrary(dois),
    'journals.get': ({ issn, refresh }, { signal }) =>
      journalView(stored, journalSource, { issn, refresh, now: now(), signal }),
    'journals.library': ({ refresh }, { signal }) =>
      libraryJournals(stored, journalSource, { refresh, now: now(), signal }),
    'authors.page': async ({ slug, offset, limit }, { signal }) => {
      const page = await service.op.getAuthorPapers(
        { path: { author_slug: slug }, query: { offset, limit } },
        { signal },
      );
      const papers = inUiWords(page.papers);
      // The link's host is never asked (the key goes only to the configured service): only its offset and limit.
      const next = nextPageParams(page.nextPage);
      const inLibrary = await stored.doisInLibrary(papers.map((p) => p.doi));
      return {
        author: page.author,
        papers,
        totalPapers: page.totalPapers,
        offset,
        next: next && next.offset > offset ? next : null,
        inLibrary,
      };
    },
  } satisfies FeatureHandlers<typeof collectionsFeature>;
}
