// The Evidence pane's state: per dataset a query (q, filter pairs, sort, direction, page), its
// schema (filterable and sortable fields), the page of results, the record open in detail (with
// the detail record the service has for grants, 510(k) devices and FAERS reports), MAUDE's facet
// counts, and records saved to the library. Answers to superseded requests are dropped.
import type { CitewiseApi, IpcError, SavedEvidenceItem } from '../../../../shared/ipc';
import type { EvidencePage } from '../../../../shared/model/service';
import { GUESSES, type EvidenceSchemaResponse } from '../../../../shared/service';
import { undoStackFor, type UndoStack, type UndoOffer } from '../../lib/state/undo-stack.svelte';
import { DATASETS, datasetInfo, recordId, type DatasetId } from './datasets';
import { facetBuckets, type FacetBucket } from './facets';
import { buildFilter, pairProblem, parseFilter, type FilterPair } from './filter';

export interface QueryState {
  q: string;
  filters: FilterPair[];
  sort: string;
  direction: 'asc' | 'desc';
  page: number;
}

export type DetailKind = 'grant' | 'device510k' | 'faers';

/** Datasets whose records have a detail endpoint, and its kind. */
export const DETAIL_KIND: Partial<Record<DatasetId, DetailKind>> = {
  grants: 'grant',
  'device510k-summaries': 'device510k',
  faers: 'faers',
};

/** The MAUDE fields charted until the user picks others (those the schema lists among them). */
export const DEFAULT_FACETS = ['event_type', 'device_class', 'product_problems', 'manufacturer_name'];
export const MAX_FACETS = 6;

const emptyQuery = (): QueryState => ({ q: '', filters: [], sort: '_relevance', direction: 'desc', page: 1 });

export class EvidenceState {
  readonly #api: CitewiseApi;
  #dataset = $state<DatasetId>('patents');
  #queries = $state<Record<DatasetId, QueryState>>(
    Object.fromEntries(DATASETS.map((d) => [d.id, emptyQuery()])) as Record<DatasetId, QueryState>,
  );
  #schemas = $state<Partial<Record<DatasetId, EvidenceSchemaResponse>>>({});
  #schemaErrors = $state<Partial<Record<DatasetId, IpcError>>>({});
  #results = $state.raw<Partial<Record<DatasetId, EvidencePage>>>({});
  #searched = $state<Partial<Record<DatasetId, { q: string; filter: string; page: number }>>>({});
  #loading = $state(false);
  #error = $state<IpcError | null>(null);
  #selected = $state.raw<{ dataset: DatasetId; index: number; record: Record<string, unknown> } | null>(null);
  #detail = $state.raw<Record<string, unknown> | null>(null);
  #detailLoading = $state(false);
  #detailError = $state<IpcError | null>(null);
  #facetFields = $state<string[] | null>(null);
  #facets = $state.raw<{ total: number; exact: boolean; fields: Record<string, FacetBucket[]> } | null>(null);
  #facetsLoading = $state(false);
  #facetsError = $state<IpcError | null>(null);
  #saved = $state<Record<string, SavedEvidenceItem>>({});
  #saving = $state(false);
  #saveError = $state<IpcError | null>(null);
  #undone = $state<string | null>(null);
  /** Per saved record, the library's undo step its save made (offered while it is the step undo would revert). */
  #offers = $state.raw<Record<string, UndoOffer>>({});
  readonly #stack: UndoStack;
  #searchSeq = 0;
  #detailSeq = 0;
  #facetSeq = 0;

  constructor(api: CitewiseApi) {
    this.#api = api;
    this.#stack = undoStackFor(api);
  }

  /** Follows the library's undo stack (so the Undo shows only while it reverts this save); returns the disposer. */
  start(): () => void {
    return this.#stack.start();
  }

  get dataset() {
    return this.#dataset;
  }
  get info() {
    return datasetInfo(this.#dataset);
  }
  get query() {
    return this.#queries[this.#dataset];
  }
  get schema() {
    return this.#schemas[this.#dataset] ?? null;
  }
  get schemaError() {
    return this.#schemaErrors[this.#dataset] ?? null;
  }
  get results() {
    return this.#results[this.#dataset] ?? null;
  }
  /** The page of results shown, counted from 1. */
  get page() {
    return this.searched?.page ?? 1;
  }
  get searched() {
    return this.#searched[this.#dataset] ?? null;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return this.#error;
  }
  get selected() {
    return this.#selected?.dataset === this.#dataset ? this.#selected : null;
  }
  get detail() {
    return this.#detail;
  }
  get detailLoading() {
    return this.#detailLoading;
  }
  get detailError() {
    return this.#detailError;
  }
  get facets() {
    return this.#facets;
  }
  get facetsLoading() {
    return this.#facetsLoading;
  }
  get facetsError() {
    return this.#facetsError;
  }
  get saving() {
    return this.#saving;
  }
  get saveError() {
    return this.#saveError;
  }
  get undone() {
    return this.#undone;
  }

  /** Whether the open record's save can be taken back: its step is still the one undo would revert. */
  get canUndoSave(): boolean {
    const sel = this.selected;
    if (!sel) return false;
    return this.#stack.current(this.#offers[`${sel.dataset}:${recordId(sel.dataset, sel.record)}`] ?? null);
  }

  /** The filterable field names the schema lists (empty until it answers). */
  get filterableFields(): string[] {
    return (this.schema?.filterable ?? []).map((f) => f.name);
  }

  /** Sort options: the schema's when it lists any, else those the interface spec names. */
  get sortOptions(): string[] {
    const listed = this.schema?.sortable ?? [];
    const all = listed.length ? listed : [...this.info.sorts];
    return all.includes('_relevance')
      ? ['_relevance', ...all.filter((s) => s !== '_relevance')]
      : ['_relevance', ...all];
  }

  /** The filter string of the current pairs. */
  get filterString(): string {
    return buildFilter(this.query.filters);
  }

  /** The MAUDE fields charted: the user's choice, else the defaults the schema lists. */
  get facetFields(): string[] {
    if (this.#facetFields) return this.#facetFields;
    const known = this.#schemas.maude?.filterable.map((f) => f.name) ?? [];
    const defaults = DEFAULT_FACETS.filter((f) => known.includes(f));
    return defaults.length ? defaults : known.slice(0, 4);
  }

  savedFor(dataset: DatasetId, record: unknown): SavedEvidenceItem | null {
    return this.#saved[`${dataset}:${recordId(dataset, record)}`] ?? null;
  }

  showDataset(id: DatasetId): void {
    if (this.#dataset === id) return;
    this.#dataset = id;
    this.#error = null;
    this.#saveError = null;
    void this.loadSchema(id);
  }

  setQuery(patch: Partial<QueryState>): void {
    this.#queries[this.#dataset] = { ...this.query, ...patch };
  }

  /** Adds a filter pair; answers why not when it cannot be written. */
  addFilter(pair: FilterPair): string | null {
    const clean = { field: pair.field, value: pair.value.trim() };
    const problem = pairProblem(clean, this.filterableFields.length ? this.filterableFields : undefined);
    if (problem) return problem;
    if (this.query.filters.some((f) => f.field === clean.field && f.value === clean.value))
      return `${clean.field}:"${clean.value}" is already a filter.`;
    this.setQuery({ filters: [...this.query.filters, clean], page: 1 });
    return null;
  }

  /** Replaces the filters with those of a typed or pasted filter string; answers why not, changing nothing, when it cannot. */
  setFilterString(text: string): string | null {
    const { pairs, problem } = parseFilter(text);
    if (problem) return problem;
    const known = this.filterableFields.length ? this.filterableFields : undefined;
    for (const p of pairs) {
      const why = pairProblem(p, known);
      if (why) return why;
    }
    this.setQuery({ filters: pairs.map((p) => ({ field: p.field, value: p.value.trim() })), page: 1 });
    return null;
  }

  removeFilter(index: number): void {
    this.setQuery({ filters: this.query.filters.filter((_, i) => i !== index), page: 1 });
  }

  /** The key (or the service address) changed: what it may access is asked again. */
  accessChanged(): void {
    this.#schemas = {};
    this.#schemaErrors = {};
    this.#error = null;
    void this.loadSchema();
  }

  /** A refusal for want of access (no key, or a key without this dataset's scope), from the search or the schema. */
  get accessError(): IpcError | null {
    const e = this.#error ?? this.schemaError;
    return e && (e.code === 'FORBIDDEN' || e.code === 'UNAUTHORIZED') ? e : null;
  }

  async loadSchema(id: DatasetId = this.#dataset): Promise<void> {
    if (this.#schemas[id]) return;
    const result = await this.#api.invoke('service.evidence.schema', { dataset: id });
    if (result.ok) {
      this.#schemas[id] = result.value;
      delete this.#schemaErrors[id];
    } else {
      this.#schemaErrors[id] = result.error;
    }
  }

  /** Runs the current query (page given, or the query's page). */
  async search(page?: number): Promise<void> {
    const dataset = this.#dataset;
    if (page !== undefined) this.setQuery({ page });
    const { q, sort, direction } = this.query;
    const filter = this.filterString;
    const uiPage = this.query.page;
    const seq = ++this.#searchSeq;
    this.#loading = true;
    this.#error = null;
    const result = await this.#api.invoke('service.evidence.search', {
      dataset,
      ...(q.trim() ? { q: q.trim() } : {}),
      ...(filter ? { filter } : {}),
      ...(sort && sort !== '_relevance' ? { sort, direction } : {}),
      // Pages are counted from 1 here; the service's first page number is a guess kept in one place.
      page: uiPage - 1 + GUESSES.evidencePageBase,
    });
    if (seq !== this.#searchSeq) return;
    this.#loading = false;
    if (result.ok) {
      this.#results = { ...this.#results, [dataset]: result.value };
      this.#searched[dataset] = { q: q.trim(), filter, page: uiPage };
      if (!this.#schemas[dataset]) void this.loadSchema(dataset);
      if (this.#selected?.dataset === dataset) this.close();
      if (dataset === 'maude') void this.loadFacets();
    } else {
      this.#error = result.error;
    }
  }

  /** Opens a record of the result list; fetches the service's detail record where there is one. */
  async open(index: number): Promise<void> {
    const dataset = this.#dataset;
    const record = this.results?.results[index];
    if (typeof record !== 'object' || record === null) return;
    this.#selected = { dataset, index, record: record as Record<string, unknown> };
    this.#detail = null;
    this.#detailError = null;
    this.#saveError = null;
    this.#undone = null;
    const seq = ++this.#detailSeq;
    void this.#checkSaved(dataset, record as Record<string, unknown>, seq);
    const kind = DETAIL_KIND[dataset];
    if (!kind) return;
    this.#detailLoading = true;
    const result = await this.#api.invoke('service.evidence.record', { kind, id: recordId(dataset, record) });
    if (seq !== this.#detailSeq) return;
    this.#detailLoading = false;
    if (result.ok) this.#detail = result.value;
    else this.#detailError = result.error;
  }

  /** Whether the opened record is in the library already (saved earlier, in this session or another). */
  async #checkSaved(dataset: DatasetId, record: Record<string, unknown>, seq: number): Promise<void> {
    const result = await this.#api.invoke('evidence.saved', { dataset, record });
    if (seq !== this.#detailSeq || !result.ok) return;
    const key = `${dataset}:${recordId(dataset, record)}`;
    // An item this session added keeps its Undo; one found in the library has none.
    if (result.value === null) delete this.#saved[key];
    else if (this.#saved[key]?.id !== result.value.id) this.#saved[key] = result.value;
  }

  close(): void {
    this.#detailSeq++;
    this.#selected = null;
    this.#detail = null;
    this.#detailError = null;
    this.#detailLoading = false;
  }

  /** What is saved for the open record: the detail record where there is one (flat, complete), else the result. */
  #recordToSave(): Record<string, unknown> | null {
    const sel = this.selected;
    if (!sel) return null;
    if (sel.dataset === 'device510k-summaries' && this.#detail)
      return { ...this.#detail, id: recordId(sel.dataset, sel.record) };
    if (sel.dataset === 'grants' && this.#detail) return this.#detail;
    if (sel.dataset === 'faers' && this.#detail) return this.#detail;
    return sel.record;
  }

  async save(): Promise<SavedEvidenceItem | null> {
    const sel = this.selected;
    const record = this.#recordToSave();
    if (!sel || !record) return null;
    this.#saving = true;
    this.#saveError = null;
    this.#undone = null;
    const result = await this.#api.invoke('evidence.save', { dataset: sel.dataset, record });
    this.#saving = false;
    if (!result.ok) {
      this.#saveError = result.error;
      return null;
    }
    const key = `${sel.dataset}:${recordId(sel.dataset, sel.record)}`;
    this.#saved[key] = result.value;
    if (!result.value.alreadySaved) {
      const offer = await this.#stack.offerFor([result.value.id]);
      const { [key]: _old, ...rest } = this.#offers;
      this.#offers = offer ? { ...rest, [key]: offer } : rest;
    }
    return result.value;
  }

  /**
   * Takes back a save this session made by undoing its step on the library's one undo stack: the item
   * goes to the Trash (undoing an add never deletes) and Redo in the Library brings it back. Offered
   * only while that step is the one undo would revert; the core refuses (CONFLICT) once it is not.
   */
  async undoSave(): Promise<void> {
    const sel = this.selected;
    if (!sel) return;
    const key = `${sel.dataset}:${recordId(sel.dataset, sel.record)}`;
    const saved = this.#saved[key];
    const offer = this.#offers[key] ?? null;
    // Only an item this save added is taken back; one that was already there stays.
    if (!saved || saved.alreadySaved || !offer || !this.#stack.current(offer)) return;
    const { [key]: _spent, ...rest } = this.#offers;
    this.#offers = rest;
    const result = await this.#api.invoke('library.undo', { id: offer.id });
    if (!result.ok) {
      this.#saveError = result.error;
      return;
    }
    delete this.#saved[key];
    this.#undone = saved.citationKey;
  }

  setFacetFields(fields: string[]): void {
    this.#facetFields = fields.slice(0, MAX_FACETS);
    void this.loadFacets();
  }

  /** MAUDE facet counts for the query and filter last searched. */
  async loadFacets(): Promise<void> {
    const searched = this.#searched.maude;
    const fields = this.facetFields;
    if (!searched || fields.length === 0) return;
    const seq = ++this.#facetSeq;
    this.#facetsLoading = true;
    this.#facetsError = null;
    const result = await this.#api.invoke('service.evidence.maudeFacets', {
      qs: searched.q,
      ...(searched.filter ? { fs: searched.filter } : {}),
      whitelist: fields,
    });
    if (seq !== this.#facetSeq) return;
    this.#facetsLoading = false;
    if (!result.ok) {
      this.#facetsError = result.error;
      return;
    }
    const raw = (result.value.facets ?? {}) as Record<string, unknown>;
    this.#facets = {
      total: result.value.totalResults,
      exact: result.value.exact,
      fields: Object.fromEntries(fields.map((f) => [f, facetBuckets(raw[f])])),
    };
  }

  /** Adds a facet value as a filter and searches again (clicking a bar). */
  async filterByFacet(field: string, value: string): Promise<void> {
    const problem = this.addFilter({ field, value });
    if (problem === null) await this.search(1);
  }
}
