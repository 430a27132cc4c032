// The Collections tab: the service collections kept in the library, the one open, and creating one
// from the Library's selection, a library collection or a paper query. Everything shown comes from the
// local copy first; the service is asked on create, refresh and import.
import type {
  CitewiseApi,
  CollectionImportReport,
  InputOf,
  IpcError,
  ServiceCollectionSummary,
  ServiceCollectionView,
} from '../../../../shared/ipc';
import {
  buildPaperQuery,
  emptyPaperQueryForm,
  type PaperQueryForm,
  type QueryProblem,
} from '../../../../shared/model/paper-query';

export type CreateSource = 'selection' | 'collection' | 'query';

/** What the pane says about an error from the service (the missing-access case spelled out). */
export function explainError(error: IpcError, what: string): { title: string; text: string; access: boolean } {
  if (error.code === 'FORBIDDEN') {
    return {
      title: `Your API key does not include ${what} access`,
      text: `${error.message} Collections need that access on both the key and the account. To see what this key grants, use Check access under Settings → Citation service.`,
      access: true,
    };
  }
  if (error.code === 'UNAUTHORIZED') {
    return { title: `${what} need an API key`, text: `${error.message}`, access: true };
  }
  if (error.code === 'OFFLINE' || error.code === 'TIMEOUT')
    return { title: 'The citation service could not be reached', text: error.message, access: false };
  return { title: 'That did not work', text: error.message, access: false };
}

export class CollectionsState {
  readonly api: CitewiseApi;
  #list = $state.raw<ServiceCollectionSummary[]>([]);
  #current = $state.raw<ServiceCollectionView | null>(null);
  #loaded = $state(false);
  #busy = $state<'create' | 'refresh' | 'import' | 'remove' | null>(null);
  #error = $state.raw<IpcError | null>(null);
  #report = $state.raw<CollectionImportReport | null>(null);
  #creating = $state(false);
  #problems = $state.raw<QueryProblem[]>([]);
  /** Bumped by every open, so a slower earlier answer does not replace the collection opened last. */
  #openSeq = 0;

  name = $state('');
  description = $state('');
  source = $state<CreateSource>('selection');
  libraryCollectionId = $state<number | null>(null);
  readonly form: PaperQueryForm = $state(emptyPaperQueryForm());

  constructor(api: CitewiseApi) {
    this.api = api;
  }

  get list() {
    return this.#list;
  }
  get current() {
    return this.#current;
  }
  get loaded() {
    return this.#loaded;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return this.#error;
  }
  get report() {
    return this.#report;
  }
  get creating() {
    return this.#creating;
  }
  get problems() {
    return this.#problems;
  }

  async load(): Promise<void> {
    const r = await this.api.invoke('collections.list', {});
    this.#loaded = true;
    if (r.ok) this.#list = r.value;
    else this.#error = r.error;
  }

  startCreate(): void {
    this.#creating = true;
    this.#current = null;
    this.#error = null;
    this.#problems = [];
  }

  cancelCreate(): void {
    this.#creating = false;
    this.#error = null;
    this.#problems = [];
  }

  dismissError(): void {
    this.#error = null;
  }

  async open(id: number): Promise<void> {
    this.#creating = false;
    this.#report = null;
    this.#error = null;
    const seq = ++this.#openSeq;
    const r = await this.api.invoke('collections.get', { id });
    if (seq !== this.#openSeq) return;
    if (r.ok) this.#current = r.value;
    else this.#error = r.error;
  }

  /** Creates it on the service; `selectedIds` are the Library's selection when that is the source. */
  async create(selectedIds: () => Promise<number[]>): Promise<void> {
    this.#error = null;
    const problems: QueryProblem[] = [];
    if (this.name.trim() === '') problems.push({ field: 'name', message: 'Give the collection a name.' });
    let source: InputOf<'collections.create'>['source'] | null = null;
    if (this.source === 'query') {
      const built = buildPaperQuery(this.form, { forCollection: true });
      if (built.ok) source = { kind: 'query', query: built.query };
      else problems.push(...built.problems);
    } else if (this.source === 'collection') {
      if (this.libraryCollectionId === null)
        problems.push({ field: 'libraryCollection', message: 'Choose a collection of your library.' });
      else source = { kind: 'collection', id: this.libraryCollectionId };
    } else {
      const ids = await selectedIds();
      if (ids.length === 0)
        problems.push({
          field: 'selection',
          message: 'Nothing is selected in the Library. Select items there first, or choose another source.',
        });
      else source = { kind: 'items', ids };
    }
    this.#problems = problems;
    if (problems.length > 0 || !source) return;
    this.#busy = 'create';
    try {
      const r = await this.api.invoke('collections.create', {
        name: this.name.trim(),
        ...(this.description.trim() ? { description: this.description.trim() } : {}),
        source,
      });
      if (!r.ok) {
        this.#error = r.error;
        return;
      }
      this.#creating = false;
      this.#current = r.value;
      this.name = '';
      this.description = '';
      await this.load();
    } finally {
      this.#busy = null;
    }
  }

  async refresh(): Promise<void> {
    const c = this.#current;
    if (!c) return;
    this.#busy = 'refresh';
    this.#error = null;
    try {
      const r = await this.api.invoke('collections.refresh', { id: c.id });
      if (r.ok) {
        this.#current = r.value;
        await this.load();
      } else this.#error = r.error;
    } finally {
      this.#busy = null;
    }
  }

  async importPapers(intoCollection: boolean): Promise<void> {
    const c = this.#current;
    if (!c) return;
    this.#busy = 'import';
    this.#error = null;
    this.#report = null;
    try {
      const r = await this.api.invoke('collections.import', { id: c.id, intoCollection });
      if (r.ok) {
        this.#report = r.value;
        const again = await this.api.invoke('collections.get', { id: c.id });
        if (again.ok) this.#current = { ...again.value, ...(c.problem ? { problem: c.problem } : {}) };
      } else this.#error = r.error;
    } finally {
      this.#busy = null;
    }
  }

  async remove(): Promise<void> {
    const c = this.#current;
    if (!c) return;
    this.#busy = 'remove';
    try {
      const r = await this.api.invoke('collections.remove', { id: c.id });
      if (r.ok) {
        this.#current = null;
        await this.load();
      } else this.#error = r.error;
    } finally {
      this.#busy = null;
    }
  }
}

const byApi = new WeakMap<CitewiseApi, CollectionsState>();

/** One state per window, so leaving the pane and coming back keeps what was open. */
export function collectionsStateFor(api: CitewiseApi): CollectionsState {
  let state = byApi.get(api);
  if (!state) {
    $effect.root(() => {
      state = new CollectionsState(api);
    });
    byApi.set(api, state!);
  }
  return state!;
}
