// The Paper search tab: the service's literature search (GET /search) with the same query form as
// collections, paged by offset, its hits shown with tallies and editorial notices, and added to the
// library by DOI (library.addDois: metadata, then enrichment).
import type { AddDoisReport, CitewiseApi, IpcError } from '../../../../shared/ipc';
import type { InUiWords } from '../../../../shared/model/evidence';
import {
  buildPaperQuery,
  emptyPaperQueryForm,
  toSearchParams,
  type PaperQuery,
  type PaperQueryForm,
  type QueryProblem,
} from '../../../../shared/model/paper-query';
import type { SearchResponse } from '../../../../shared/service';
import { setOf, without } from './paper-row';

export const SEARCH_PAGE = 20;

export class PaperSearchState {
  readonly api: CitewiseApi;
  readonly form: PaperQueryForm = $state(emptyPaperQueryForm());
  showFilters = $state(false);
  #problems = $state.raw<QueryProblem[]>([]);
  #results = $state.raw<InUiWords<SearchResponse> | null>(null);
  /** The query being paged through, and the one the results shown came from (they differ while a search runs). */
  #query: PaperQuery | null = null;
  #shownQuery = $state.raw<PaperQuery | null>(null);
  #offset = $state(0);
  #loading = $state(false);
  #error = $state.raw<IpcError | null>(null);
  #inLibrary = $state.raw<ReadonlySet<string>>(setOf());
  #adding = $state.raw<ReadonlySet<string>>(setOf());
  #report = $state.raw<AddDoisReport | null>(null);
  #generation = 0;

  constructor(api: CitewiseApi) {
    this.api = api;
  }

  get problems() {
    return this.#problems;
  }
  get results() {
    return this.#results;
  }
  /** The query of the results shown. */
  get query() {
    return this.#shownQuery;
  }
  get offset() {
    return this.#offset;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return this.#error;
  }
  get inLibrary() {
    return this.#inLibrary;
  }
  get adding() {
    return this.#adding;
  }
  get report() {
    return this.#report;
  }
  get hasNext() {
    return (
      !!this.#results && this.#offset + this.#results.hits.length < this.#results.count && this.#results.hits.length > 0
    );
  }

  /** Checks the form and runs the search from its first page. */
  async search(): Promise<void> {
    const built = buildPaperQuery(this.form);
    this.#problems = built.ok ? [] : built.problems;
    if (!built.ok) {
      if (built.problems.some((p) => p.field !== 'term')) this.showFilters = true;
      return;
    }
    this.#query = built.query;
    await this.page(0);
  }

  async page(offset: number): Promise<void> {
    const query = this.#query;
    if (!query) return;
    const generation = ++this.#generation;
    this.#loading = true;
    this.#error = null;
    this.#report = null;
    try {
      const r = await this.api.invoke('service.search', toSearchParams(query, { offset, limit: SEARCH_PAGE }));
      if (generation !== this.#generation) return;
      if (!r.ok) {
        this.#error = r.error;
        return;
      }
      this.#results = r.value;
      this.#shownQuery = query;
      this.#offset = offset;
      await this.#markInLibrary();
    } finally {
      if (generation === this.#generation) this.#loading = false;
    }
  }

  async #markInLibrary(): Promise<void> {
    const dois = (this.#results?.hits ?? []).flatMap((h) => (h.doi ? [h.doi] : []));
    if (dois.length === 0) return;
    const r = await this.api.invoke('papers.inLibrary', { dois });
    if (r.ok) this.#inLibrary = setOf(r.value);
  }

  async add(dois: string[]): Promise<void> {
    const todo = dois.filter((d) => !this.#inLibrary.has(d.toLowerCase()));
    if (todo.length === 0) return;
    this.#adding = setOf(this.#adding, todo);
    try {
      const r = await this.api.invoke('library.addDois', { dois: todo });
      if (r.ok) {
        this.#report = r.value;
        await this.#markInLibrary();
      } else this.#error = r.error;
    } finally {
      this.#adding = without(this.#adding, todo);
    }
  }
}

const byApi = new WeakMap<CitewiseApi, PaperSearchState>();

export function paperSearchStateFor(api: CitewiseApi): PaperSearchState {
  let state = byApi.get(api);
  if (!state) {
    $effect.root(() => {
      state = new PaperSearchState(api);
    });
    byApi.set(api, state!);
  }
  return state!;
}
