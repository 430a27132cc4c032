// The state of the details column: the item from the library (always shown, offline too), what the
// library holds from the service for its DOI (paper, notices, tally; refreshed into the library's
// cache, so it is there offline next time), live citation statements, and the edits in flight.
// Service failures are kept apart from library failures so one never hides the other.
import type { CitewiseApi, IpcError } from '../../../../../shared/ipc';
import type { CslItem } from '../../../../../shared/model/csl';
import type { ItemDetail, TallyState } from '../../../../../shared/model/library';
import type { CitingPage, UiPaper } from '../../../../../shared/model/service';
import type { CitationLocale } from '../../../../../shared/model/settings';
import { copyRich, copyText } from '../export/clipboard';
import { undoStackFor, type UndoOffer, type UndoStack } from '../../../lib/state/undo-stack.svelte';
import { applyCreators, applyField, type EditableCreator } from './fields';

export const STATEMENTS_PAGE = 10;
/** Opening an item fetches its service data again when the library's copy is older than this. */
export const SERVICE_DATA_MAX_AGE_MS = 24 * 3_600_000;

type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** A calm sentence for a service failure: the library's data is still there. */
export function serviceMessage(error: IpcError, what: string): string {
  switch (error.code) {
    case 'OFFLINE':
    case 'TIMEOUT':
      return `Offline: ${what} will load when the citation service can be reached. Your library data is unaffected.`;
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
      return `${what[0]!.toUpperCase()}${what.slice(1)} need an API key with access to them (Settings → Citation service).`;
    case 'RATE_LIMITED':
      return `The citation service asked us to slow down; ${what} will load on the next refresh.`;
    case 'NOT_FOUND':
      return `The citation service has no ${what} for this DOI.`;
    default:
      return `Could not load ${what} from the citation service (${error.message}).`;
  }
}

export class ItemDetailsState {
  readonly #api: CitewiseApi;
  #id = $state<number | null>(null);
  #item = $state<ItemDetail | null>(null);
  #loading = $state(false);
  #error = $state<IpcError | null>(null);
  #saving = $state('');
  /** The Undo offered for the last edit made here; shown only while undo would revert that step. */
  #undoOffer = $state.raw<UndoOffer | null>(null);
  readonly #stack: UndoStack;
  #keyError = $state<string | null>(null);
  #notice = $state('');

  #paper = $state<UiPaper | null>(null);
  #serviceError = $state<string | null>(null);
  #serviceLoading = $state(false);

  #statements = $state.raw<CitingPage | null>(null);
  #statementsError = $state<string | null>(null);
  #statementsLoading = $state(false);

  /** Bumped on every load, so an answer for an item no longer shown is dropped. */
  #generation = 0;

  #doi = $derived(this.#item?.doi ?? null);
  #tally = $derived<TallyState>(this.#item?.evidence ?? { state: 'not-fetched' });

  constructor(api: CitewiseApi) {
    this.#api = api;
    this.#stack = undoStackFor(api);
  }

  get id() {
    return this.#id;
  }
  get item() {
    return this.#item;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return this.#error;
  }
  get saving() {
    return this.#saving;
  }
  /** What the offered Undo would revert ("Edit title of “…”"), null when there is no offer or it went stale. */
  get undoLabel() {
    return this.#stack.current(this.#undoOffer) ? this.#undoOffer!.label : null;
  }
  get keyError() {
    return this.#keyError;
  }
  get notice() {
    return this.#notice;
  }
  get doi() {
    return this.#doi;
  }
  get paper() {
    return this.#paper;
  }
  get tally() {
    return this.#tally;
  }
  get serviceError() {
    return this.#serviceError;
  }
  get serviceLoading() {
    return this.#serviceLoading;
  }
  get statements() {
    return this.#statements;
  }
  get statementsError() {
    return this.#statementsError;
  }
  get statementsLoading() {
    return this.#statementsLoading;
  }

  /** Shows an item (null: none); follows library changes to it. Returns the disposer. */
  start(): () => void {
    const offStack = this.#stack.start();
    const off = this.#api.on('library.changed', (change) => {
      if (this.#id === null) return;
      if (change.kind === 'all' || !change.ids || change.ids.includes(this.#id)) {
        if (
          change.kind === 'items' ||
          change.kind === 'tags' ||
          change.kind === 'cache' ||
          change.kind === 'all' ||
          change.kind === 'trash'
        )
          void this.reload();
      }
    });
    return () => {
      off();
      offStack();
    };
  }

  async show(id: number | null): Promise<void> {
    if (id === this.#id) return;
    this.#id = id;
    this.#generation++;
    this.#item = null;
    this.#error = null;
    this.#keyError = null;
    this.#notice = '';
    this.#undoOffer = null;
    this.#paper = null;
    this.#serviceError = null;
    this.#statements = null;
    this.#statementsError = null;
    // The flags are the shown item's: a request for the previous one drops its answer (and would
    // never clear them), so the Refresh button would stay on "Refreshing…" for this one.
    this.#serviceLoading = false;
    this.#statementsLoading = false;
    if (id === null) return;
    this.#loading = true;
    await this.reload();
    this.#loading = false;
    // Read through a getter: the field was narrowed to null above, but reload() set it.
    if (!this.item?.doi) return;
    const gen = this.#generation;
    const cached = await this.#api.invoke('library.item.service', { id });
    if (gen !== this.#generation) return;
    const fetchedAt = cached.ok && cached.value.paper.state !== 'not-fetched' ? cached.value.paper.fetchedAt : null;
    if (cached.ok && cached.value.paper.state === 'found') this.#paper = cached.value.paper.paper;
    if (fetchedAt === null || Date.now() - fetchedAt > SERVICE_DATA_MAX_AGE_MS)
      void this.refreshService({ statements: true });
    else void this.loadStatements(0);
  }

  async reload(): Promise<void> {
    const id = this.#id;
    if (id === null) return;
    const gen = this.#generation;
    const result = await this.#api.invoke('library.item.get', { id });
    if (gen !== this.#generation) return;
    if (result.ok) {
      this.#item = result.value;
      this.#error = null;
    } else this.#error = result.error;
  }

  /**
   * Fetches the paper (notices), its tally and metadata into the library's cache (the item reloads on
   * the library.changed that follows), and, when asked, the first page of citation statements.
   */
  async refreshService(options: { statements?: boolean } = {}): Promise<void> {
    const id = this.#id;
    if (id === null || !this.#doi) return;
    const gen = this.#generation;
    this.#serviceLoading = true;
    const result = await this.#api.invoke('library.item.refresh', { id });
    if (gen !== this.#generation) return;
    this.#serviceLoading = false;
    const failed: IpcError | null = !result.ok
      ? result.error
      : result.value.problem
        ? { code: result.value.problem.code as IpcError['code'], message: result.value.problem.message }
        : null;
    const saved = result.ok && result.value.paper.state !== 'not-fetched';
    this.#serviceError = !failed
      ? null
      : saved && (failed.code === 'OFFLINE' || failed.code === 'TIMEOUT')
        ? 'Offline: this is the citation data your library saved; it is refreshed when the citation service can be reached.'
        : serviceMessage(failed, 'editorial notices and citation evidence');
    if (result.ok && result.value.paper.state === 'found') this.#paper = result.value.paper.paper;
    await this.reload();
    if (options.statements || this.#statements) await this.loadStatements(this.#statements?.offset ?? 0);
  }

  async loadStatements(offset: number): Promise<void> {
    const doi = this.#doi;
    if (!doi) return;
    const gen = this.#generation;
    this.#statementsLoading = true;
    const page = await this.#api.invoke('service.citing.page', {
      doi,
      offset: Math.max(0, offset),
      limit: STATEMENTS_PAGE,
      papers: true,
    });
    if (gen !== this.#generation) return;
    this.#statementsLoading = false;
    if (page.ok) {
      this.#statements = page.value;
      this.#statementsError = null;
    } else this.#statementsError = serviceMessage(page.error, 'citation statements');
  }

  // ── edits: each one undo step in the library ──

  /** Saves one field from its input's text; `label` names the undo step ("Edit journal"). */
  async saveField(key: string, text: string, label = key): Promise<void> {
    const item = this.#item;
    if (!item) return;
    const next = applyField(item.csl, key, text);
    if (JSON.stringify(next[key]) === JSON.stringify(item.csl[key])) return;
    await this.#update(next, `Edit ${label.toLowerCase()}`);
  }

  async saveType(type: CslItem['type']): Promise<void> {
    const item = this.#item;
    if (!item || item.csl.type === type) return;
    await this.#update({ ...item.csl, type }, 'Change type');
  }

  async saveCreators(creators: readonly EditableCreator[]): Promise<void> {
    const item = this.#item;
    if (!item) return;
    await this.#update(applyCreators(item.csl, creators), 'Edit creators');
  }

  async #update(csl: CslItem, label: string): Promise<void> {
    const item = this.#item;
    if (!item) return;
    await this.#act(label, async () => {
      const result = await this.#api.invoke('library.item.update', { id: item.id, csl });
      if (result.ok) this.#item = result.value;
      return result;
    });
  }

  /** "Use the title as written": the title the import stored in sentence case goes back to the file's (undoable). */
  async useTitleAsWritten(): Promise<void> {
    const item = this.#item;
    if (!item || item.titleAsWritten === undefined) return;
    await this.#act(
      'Use the title as written',
      () => this.#api.invoke('library.titles.asWritten', { ids: [item.id] }),
      true,
    );
  }

  async setKey(key: string): Promise<boolean> {
    const item = this.#item;
    if (!item || key.trim() === item.citationKey) return true;
    this.#keyError = null;
    const result = await this.#api.invoke('library.item.setKey', { id: item.id, key });
    if (!result.ok) {
      this.#keyError =
        result.error.code === 'CONFLICT' ? `“${key.trim()}” is already the key of another item.` : result.error.message;
      return false;
    }
    this.#undoOffer = await this.#stack.offerFor([item.id]);
    await this.reload();
    return true;
  }

  async regenerateKey(): Promise<void> {
    const item = this.#item;
    if (!item) return;
    this.#keyError = null;
    const result = await this.#api.invoke('library.item.regenerateKey', { id: item.id });
    if (!result.ok) this.#keyError = result.error.message;
    else {
      this.#undoOffer = await this.#stack.offerFor([item.id]);
      await this.reload();
    }
  }

  async addTag(tag: string): Promise<void> {
    const item = this.#item;
    const t = tag.trim();
    if (!item || !t || item.tags.includes(t)) return;
    await this.#act('Add tag', () => this.#api.invoke('library.tags.add', { ids: [item.id], tags: [t] }), true);
  }

  async removeTag(tag: string): Promise<void> {
    const item = this.#item;
    if (!item) return;
    await this.#act('Remove tag', () => this.#api.invoke('library.tags.remove', { ids: [item.id], tags: [tag] }), true);
  }

  async addNote(body: string): Promise<boolean> {
    const item = this.#item;
    if (!item || !body.trim()) return false;
    return this.#act('Add note', () => this.#api.invoke('library.notes.add', { itemId: item.id, body }), true);
  }

  async updateNote(id: number, body: string): Promise<boolean> {
    if (!body.trim()) return false;
    return this.#act('Edit note', () => this.#api.invoke('library.notes.update', { id, body }), true);
  }

  async deleteNote(id: number): Promise<void> {
    await this.#act('Delete note', () => this.#api.invoke('library.notes.delete', { id }), true);
  }

  async removeAttachment(id: number): Promise<void> {
    await this.#act('Remove attachment', () => this.#api.invoke('library.attachments.remove', { id }), true);
  }

  /** Undoes the step offered here, and only that one (the core refuses it once it is not the last change). */
  async undo(): Promise<void> {
    const offer = this.#undoOffer;
    if (!offer || !this.#stack.current(offer)) return;
    this.#undoOffer = null;
    const result = await this.#api.invoke('library.undo', { id: offer.id });
    if (!result.ok) {
      if (result.error.code === 'CONFLICT') this.#notice = result.error.message;
      else this.#error = result.error;
      return;
    }
    this.#notice = result.value.label ? `Undone: ${result.value.label}` : 'Nothing to undo';
    await this.reload();
  }

  // ── copying ──

  async copyCitation(style: string, locale: CitationLocale): Promise<void> {
    const item = this.#item;
    if (!item) return;
    const result = await this.#api.invoke('library.cite', { ids: [item.id], style, locale, kind: 'bibliography' });
    if (!result.ok) {
      this.#error = result.error;
      return;
    }
    try {
      const how = await copyRich(result.value.html, result.value.text);
      this.#notice = how === 'rich' ? 'Citation copied (formatted and plain text).' : 'Citation copied as plain text.';
    } catch {
      this.#notice = 'Could not use the clipboard here.';
    }
  }

  async copyKey(): Promise<void> {
    const item = this.#item;
    if (!item) return;
    try {
      await copyText(item.citationKey);
      this.#notice = `Copied ${item.citationKey}`;
    } catch {
      this.#notice = 'Could not use the clipboard here.';
    }
  }

  dismissError(): void {
    this.#error = null;
  }

  async #act(label: string, work: () => Promise<Result<unknown>>, reload = false): Promise<boolean> {
    this.#saving = label;
    try {
      const result = await work();
      if (!result.ok) {
        this.#error = result.error;
        return false;
      }
      this.#error = null;
      this.#notice = '';
      const id = this.#id;
      this.#undoOffer = id === null ? null : await this.#stack.offerFor([id]);
      if (reload) await this.reload();
      return true;
    } finally {
      this.#saving = '';
    }
  }
}
