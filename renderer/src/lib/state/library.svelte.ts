import type {
  CitewiseApi,
  ConnectorSave,
  IpcError,
  LibraryChange,
  LibraryLayout,
  TrashedCollection,
} from '../../../../shared/ipc';
import type { CitationLocale } from '../../../../shared/model/settings';
import {
  SORT_COLUMNS,
  type Collection,
  type DuplicateGroup,
  type SavedSearch,
  type Sort,
  type SortColumn,
  type TagColor,
  type ItemDetail,
} from '../../../../shared/model/library';
import type { CslItem } from '../../../../shared/model/csl';
import { checkQuery } from '../../../../shared/model/query';
import { formatCount } from '../library/cells';
import { columnDef } from '../library/columns';
import { RECENT_SORT, combine, sameView, tagTerms, whereOf, type View } from '../library/views';
import { ColumnPrefs, read, store } from './library-columns.svelte';
import { PanePrefs } from './library-panes.svelte';
import { RowCache, type Keep } from './library-rows.svelte';
import { Selection } from './library-selection.svelte';
import { undoStackFor, type UndoOffer, type UndoStack } from './undo-stack.svelte';

/** Typing faster than this is one search; a keystroke after a pause searches at once. */
export const SEARCH_DEBOUNCE_MS = 120;
/** Bursts of library.changed (an import, a merge) become one refresh. */
const CHANGE_COALESCE_MS = 60;
const TOAST_MS = 6000;
const DEFAULT_SORT: Sort = { column: 'dateAdded', direction: 'desc' };
const SORT_KEY = 'citewise.library.sort';

/** A kept sort order, if it is one the table offers (localStorage and settings may hold anything). */
export function sanitizeSort(value: unknown): Sort | null {
  if (typeof value !== 'object' || value === null) return null;
  const { column, direction } = value as Record<string, unknown>;
  if (!(SORT_COLUMNS as readonly unknown[]).includes(column)) return null;
  if (direction !== 'asc' && direction !== 'desc') return null;
  return { column: column as SortColumn, direction };
}

export interface Toast {
  id: number;
  text: string;
  /** The Undo (after trashing, filing, merging) or Redo (after an undo) the toast offers, for that one step. */
  offer: UndoOffer | null;
}

export interface Tag {
  name: string;
  count: number;
}

/** The Library pane's state: the view, the search, the table's rows and selection, the sidebar's lists. */
export class LibraryState {
  readonly api: CitewiseApi;
  readonly rows: RowCache;
  readonly selection = new Selection();
  readonly columns = new ColumnPrefs((part) => this.#saveLayout(part));
  readonly panes = new PanePrefs((part) => this.#saveLayout(part));
  /** The layout as last kept in the library's settings; null until read from them. */
  #layout: LibraryLayout | null = null;
  #layoutRead = false;
  readonly undoStack: UndoStack;

  #view = $state<View>({ kind: 'library' });
  #search = $state('');
  #applied = $state('');
  #queryError = $state<{ message: string; start: number; end: number } | null>(null);
  #tags = $state.raw<string[]>([]);
  #sort = $state<Sort>(sanitizeSort(read(SORT_KEY)) ?? DEFAULT_SORT);
  /** The user sorted in this session: the order kept in the settings, read later, does not replace it. */
  #sorted = false;
  #collections = $state.raw<Collection[]>([]);
  #tagList = $state.raw<Tag[]>([]);
  #tagColors = $state.raw<TagColor[]>([]);
  #trashedCollections = $state.raw<TrashedCollection[]>([]);
  #searches = $state.raw<SavedSearch[]>([]);
  #duplicates = $state.raw<DuplicateGroup[] | null>(null);
  #notDuplicates = $state.raw<DuplicateGroup | null>(null);
  #total = $state<number | null>(null);
  #trashed = $state(0);
  #searching = $state(false);
  #toast = $state<Toast | null>(null);
  #error = $state<IpcError | null>(null);
  #toTop = $state(0);

  #toastTimer: ReturnType<typeof setTimeout> | undefined;
  #searchTimer: ReturnType<typeof setTimeout> | undefined;
  #changeTimer: ReturnType<typeof setTimeout> | undefined;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, not shown
  #pendingChanges = new Set<LibraryChange['kind']>();
  #lastKeystroke = 0;
  #loaded = false;
  /** Where the table was scrolled, so coming back to the pane finds the same rows. */
  scrollTop = 0;
  #toastSeq = 0;
  #searchGeneration = -1;

  #selectedCount = $derived(this.selection.size(this.rowsCount()));

  constructor(api: CitewiseApi) {
    this.api = api;
    this.undoStack = undoStackFor(api);
    this.rows = new RowCache(api);
    this.rows.onFirstPage = (generation) => {
      if (generation === this.#searchGeneration) this.#searching = false;
    };
  }

  get view() {
    return this.#view;
  }
  get search() {
    return this.#search;
  }
  get appliedSearch() {
    return this.#applied;
  }
  get queryError() {
    return this.#queryError;
  }
  get tags() {
    return this.#tags;
  }
  get sort() {
    return this.#sort;
  }
  get collections() {
    return this.#collections;
  }
  get tagList() {
    return this.#tagList;
  }
  /** Collections in the Trash (the Trash view lists them with Restore and Delete for good). */
  get trashedCollections() {
    return this.#trashedCollections;
  }
  /** The coloured tags in their places 1–9 (keys 1–9 toggle them on the selection). */
  get tagColors() {
    return this.#tagColors;
  }
  get searches() {
    return this.#searches;
  }
  get duplicates() {
    return this.#duplicates;
  }
  /** Items in the library (not in the trash), null until known. */
  get total() {
    return this.#total;
  }
  get trashed() {
    return this.#trashed;
  }
  get searching() {
    return this.#searching;
  }
  get toast() {
    return this.#toast;
  }
  /** The toast's offer while it still reverts its step (it disappears once another change comes after it, or it was undone). */
  get toastOffer() {
    const offer = this.#toast?.offer ?? null;
    return this.undoStack.current(offer) ? offer : null;
  }
  get error() {
    return this.#error;
  }
  get selectedCount() {
    return this.#selectedCount;
  }
  /** Changes when the table should go back to its first row (a new view, search, filter or sort). */
  get toTop() {
    return this.#toTop;
  }
  /** The query the table shows now, tags included (what "Save search" saves). */
  get effectiveQuery() {
    return combine(this.#applied, tagTerms(this.#tags));
  }
  get firstRun() {
    return this.#total === 0 && this.#trashed === 0;
  }

  rowsCount(): number {
    return this.rows.count;
  }

  /** Loads everything and follows library.changed; returns the disposer. */
  start(): () => void {
    const off = this.api.on('library.changed', (change) => this.#changed(change));
    const offBrowser = this.api.on('zotero.saved', (save) => void this.#fromBrowser(save));
    const offColors = this.api.on('library.tagColorsChanged', (colors) => (this.#tagColors = colors));
    const offUndo = this.undoStack.start();
    // The table first: the library worker answers in order, and counting tags over a large library
    // must not hold back the first rows. Coming back to the pane, the rows are still here: show them
    // and refresh behind them.
    this.#reload(this.#loaded ? 'refresh' : 'none');
    this.#loaded = true;
    if (!this.#layoutRead) {
      this.#layoutRead = true;
      void this.api.invoke('settings.get', {}).then((r) => {
        if (!r.ok) return;
        this.#layout = { ...r.value.libraryLayout, ...this.#layout };
        if (r.value.libraryLayout) {
          this.columns.adopt(r.value.libraryLayout);
          this.panes.adopt(r.value.libraryLayout);
          const sort = sanitizeSort(r.value.libraryLayout.sort);
          if (sort && !this.#sorted && this.#view.kind !== 'recent' && !sameSort(sort, this.#sort)) {
            this.#sort = sort;
            this.#reload('none');
          }
        }
      });
    }
    const sidebar = setTimeout(() => void this.#loadSidebar(), 0);
    return () => {
      off();
      offBrowser();
      offColors();
      offUndo();
      clearTimeout(sidebar);
      clearTimeout(this.#toastTimer);
      clearTimeout(this.#searchTimer);
      clearTimeout(this.#changeTimer);
    };
  }

  show(view: View): void {
    if (sameView(view, this.#view)) return;
    this.#view = view;
    // A new view starts without the search box's query (as in Zotero): a search typed in one view must
    // not hide items of the next, whose table would then disagree with its count in the sidebar (an item
    // the Assistant files into a collection not showing there). Tags stay: they show as chips.
    clearTimeout(this.#searchTimer);
    this.#search = '';
    this.#applied = '';
    this.#queryError = null;
    if (view.kind === 'recent') this.#sort = RECENT_SORT;
    this.selection.reset();
    if (view.kind === 'duplicates') void this.loadDuplicates();
    this.#reload('none');
  }

  /** The search box's text: checked at once, searched after a pause in typing. */
  setSearch(text: string): void {
    this.#search = text;
    const check = checkQuery(text);
    clearTimeout(this.#searchTimer);
    if (!check.ok) {
      this.#queryError = check.error;
      return;
    }
    this.#queryError = null;
    const now = performance.now();
    const burst = now - this.#lastKeystroke < SEARCH_DEBOUNCE_MS;
    this.#lastKeystroke = now;
    if (burst) this.#searchTimer = setTimeout(() => this.#applySearch(text), SEARCH_DEBOUNCE_MS);
    else this.#applySearch(text);
  }

  toggleTag(name: string): void {
    this.#tags = this.#tags.includes(name) ? this.#tags.filter((t) => t !== name) : [...this.#tags, name];
    this.selection.reset();
    this.#reload('none');
  }

  clearTags(): void {
    if (this.#tags.length === 0) return;
    this.#tags = [];
    this.#reload('none');
  }

  sortBy(column: SortColumn): void {
    const direction =
      this.#sort.column === column
        ? this.#sort.direction === 'asc'
          ? 'desc'
          : 'asc'
        : columnDef(column).firstDirection;
    this.#sort = { column, direction };
    this.#sorted = true;
    // Kept, as Zotero keeps it: the next launch (or a reload) opens sorted the same way.
    store(SORT_KEY, this.#sort);
    this.#saveLayout({ sort: { column, direction } });
    this.selection.reset();
    this.#reload('none');
  }

  applySavedSearch(search: SavedSearch): void {
    this.#view = { kind: 'library' };
    this.#tags = [];
    this.#search = search.query;
    this.#applied = search.query;
    this.#queryError = null;
    if (search.sort) this.#sort = search.sort;
    this.selection.reset();
    this.#reload('none');
  }

  /** Shows one item (a related one): My Library searched for its citation key, the item selected. */
  reveal(item: { id: number; citationKey: string }): void {
    this.#view = { kind: 'library' };
    this.#tags = [];
    const query = `key:"${item.citationKey.replace(/["\\]/g, '\\$&')}"`;
    this.#search = query;
    this.#applied = query;
    this.#queryError = null;
    this.selection.reset();
    this.selection.pick(0, item.id, { range: false, toggle: false }, () => [item.id]);
    this.#reload('none');
  }

  /** The ids the selection stands for (reads them all when everything is selected). */
  async selectedIds(): Promise<number[]> {
    return this.selection.all ? this.rows.allIds() : [...this.selection.ids];
  }

  async trashSelected(): Promise<void> {
    const ids = await this.selectedIds();
    if (ids.length === 0) return;
    if (this.#view.kind === 'trash') return;
    if (await this.#call(this.api.invoke('library.trash', { ids }))) {
      this.selection.clear();
      this.notify(`Moved ${plural(ids.length, 'item')} to the Trash`, await this.undoStack.offerFor(ids));
    }
  }

  async restoreSelected(): Promise<void> {
    const ids = await this.selectedIds();
    if (ids.length && (await this.#call(this.api.invoke('library.restore', { ids })))) {
      this.selection.clear();
      this.notify(`Restored ${plural(ids.length, 'item')}`, await this.undoStack.offerFor(ids));
    }
  }

  async deleteSelectedForGood(): Promise<void> {
    const ids = await this.selectedIds();
    if (ids.length && (await this.#call(this.api.invoke('library.delete', { ids })))) {
      this.selection.clear();
      this.notify(`Deleted ${plural(ids.length, 'item')} for good`, null);
    }
  }

  async emptyTrash(): Promise<void> {
    const result = await this.api.invoke('library.trash.empty', {});
    if (!result.ok) this.#error = result.error;
    else this.notify(`Emptied the Trash (${plural(result.value.deleted, 'item')} deleted)`, null);
  }

  /**
   * Undoes the last change (Ctrl+Z), or the step an offer was made for (refused if it is no longer
   * the last one). The toast names what was undone, says where items it created went (the Trash),
   * and offers Redo.
   */
  async undo(offer?: UndoOffer): Promise<void> {
    const result = await this.api.invoke('library.undo', offer ? { id: offer.id } : {});
    if (!result.ok) {
      if (result.error.code === 'CONFLICT') this.notify(result.error.message, null);
      else this.#error = result.error;
      return;
    }
    if (result.value.label === null) return this.notify('Nothing to undo', null);
    const { label, trashed, itemIds, kept } = result.value;
    const where =
      trashed.length === 0
        ? ''
        : trashed.length === itemIds.length
          ? ' (moved to the Trash)'
          : ` (${plural(trashed.length, 'item')} moved to the Trash)`;
    // A collection the step created that is in use now stays, and the toast says which and why.
    const stays = kept?.length ? `. Kept ${kept.join(', ')}` : '';
    this.notify(`Undid: ${label}${where}${stays}`, await this.undoStack.offerFor(itemIds, 'redo'));
  }

  async redo(offer?: UndoOffer): Promise<void> {
    const result = await this.api.invoke('library.redo', offer ? { id: offer.id } : {});
    if (!result.ok) {
      if (result.error.code === 'CONFLICT') this.notify(result.error.message, null);
      else this.#error = result.error;
      return;
    }
    if (result.value.label === null) return this.notify('Nothing to redo', null);
    this.notify(`Redid: ${result.value.label}`, await this.undoStack.offerFor(result.value.itemIds));
  }

  /** Runs the toast's offer (Undo or Redo of its step). */
  async runOffer(): Promise<void> {
    const offer = this.toastOffer;
    this.dismissToast();
    if (!offer) return;
    if (offer.kind === 'undo') await this.undo(offer);
    else await this.redo(offer);
  }

  async createCollection(name: string, parentId: number | null): Promise<number | null> {
    const result = await this.api.invoke('library.collections.create', { name, parentId });
    if (!result.ok) {
      this.#error = result.error;
      return null;
    }
    await this.#loadCollections();
    return result.value.id;
  }

  /** Creates a top-level collection for a picker ("New collection…"), which shows a refusal itself. */
  async newCollection(name: string): Promise<{ id: number } | { error: string }> {
    const result = await this.api.invoke('library.collections.create', { name, parentId: null });
    if (!result.ok) return { error: result.error.message };
    await this.#loadCollections();
    return { id: result.value.id };
  }

  async renameCollection(id: number, name: string): Promise<void> {
    await this.#call(this.api.invoke('library.collections.rename', { id, name }));
  }

  async moveCollection(id: number, parentId: number | null): Promise<void> {
    await this.#call(this.api.invoke('library.collections.move', { id, parentId }));
  }

  /** Moves a collection (with its subcollections) to the Trash; Restore in the Trash brings it back. */
  async deleteCollection(id: number): Promise<void> {
    if (await this.#call(this.api.invoke('library.collections.delete', { id }))) {
      if (this.#view.kind === 'collection' && this.#view.id === id) this.show({ kind: 'library' });
      this.notify('Moved the collection to the Trash (its items stay in My Library; restore it from the Trash)', null);
      await this.#loadCollections();
    }
  }

  async restoreCollection(id: number): Promise<void> {
    const name = this.#trashedCollections.find((c) => c.id === id)?.name ?? 'the collection';
    if (await this.#call(this.api.invoke('library.collections.restore', { id }))) {
      this.notify(`Restored “${name}” with its items`, null);
      await this.#loadCollections();
    }
  }

  async deleteCollectionForGood(id: number): Promise<void> {
    if (await this.#call(this.api.invoke('library.collections.deleteForGood', { id }))) {
      this.notify('Deleted the collection for good (its items stay in My Library)', null);
      await this.#loadCollections();
    }
  }

  /** Files items in a collection; `ids` null means the selection. */
  async fileInto(collectionId: number, ids: number[] | null): Promise<void> {
    const list = ids ?? (await this.selectedIds());
    if (list.length === 0) return;
    const name = this.#collections.find((c) => c.id === collectionId)?.name ?? 'the collection';
    if (await this.#call(this.api.invoke('library.collections.addItems', { collectionId, ids: list }))) {
      this.notify(`Added ${plural(list.length, 'item')} to “${name}”`, await this.undoStack.offerFor(list));
    }
  }

  /** Adds (or removes) tags on the selection: one request, one undo step. */
  async tagSelected(tags: string[], remove: boolean): Promise<boolean> {
    const ids = await this.selectedIds();
    const names = tags.map((t) => t.trim()).filter((t, i, all) => t !== '' && all.indexOf(t) === i);
    if (ids.length === 0 || names.length === 0) return false;
    const ok = await this.#call(
      this.api.invoke(remove ? 'library.tags.remove' : 'library.tags.add', { ids, tags: names }),
    );
    if (ok) {
      const what = names.length === 1 ? `tag ${names[0]}` : plural(names.length, 'tag');
      this.notify(
        remove
          ? `Removed ${what} from ${plural(ids.length, 'item')}`
          : `Added ${what} to ${plural(ids.length, 'item')}`,
        await this.undoStack.offerFor(ids),
      );
    }
    return ok;
  }

  /**
   * Renames a tag on every item (onto an existing tag: the two merge, as in Zotero). One undo step;
   * the tag filter follows the new name.
   */
  async renameTag(from: string, to: string): Promise<boolean> {
    const result = await this.api.invoke('library.tags.rename', { from, to });
    if (!result.ok) {
      this.#error = result.error;
      return false;
    }
    if (this.#tags.includes(from))
      this.#tags = this.#tags.map((t) => (t === from ? to.trim() : t)).filter((t, i, all) => all.indexOf(t) === i);
    this.notify(
      `Renamed tag ${from} to ${to.trim()} on ${plural(result.value.items, 'item')}`,
      result.value.items > 0 ? await this.undoStack.offerFor([]) : null,
    );
    return true;
  }

  async deleteTag(name: string): Promise<void> {
    const result = await this.api.invoke('library.tags.delete', { names: [name] });
    if (!result.ok) {
      this.#error = result.error;
      return;
    }
    if (this.#tags.includes(name)) this.#tags = this.#tags.filter((t) => t !== name);
    this.notify(
      `Deleted tag ${name} from ${plural(result.value.items, 'item')}`,
      result.value.items > 0 ? await this.undoStack.offerFor([]) : null,
    );
  }

  /** A colour and place 1–9 for a tag, or (null) none. */
  async setTagColor(name: string, color: string | null, position?: number): Promise<boolean> {
    const result = await this.api.invoke('library.tags.setColor', {
      name,
      color,
      ...(position === undefined ? {} : { position }),
    });
    if (!result.ok) {
      this.#error = result.error;
      return false;
    }
    this.#tagColors = result.value;
    return true;
  }

  /** Key 1–9: toggles that coloured tag on the selection (added to all when any lacks it). */
  async toggleColoredTag(position: number): Promise<void> {
    const tag = this.#tagColors.find((c) => c.position === position);
    if (!tag) return this.notify(`No tag has key ${position}: give a tag a colour in its menu in the sidebar`, null);
    const ids = await this.selectedIds();
    if (ids.length === 0) return this.notify('Select the items to tag first.', null);
    const result = await this.api.invoke('library.tags.toggle', { ids, name: tag.name });
    if (!result.ok) {
      this.#error = result.error;
      return;
    }
    this.notify(
      `${result.value.added ? 'Added' : 'Removed'} tag ${tag.name} ${result.value.added ? 'to' : 'from'} ${plural(ids.length, 'item')}`,
      await this.undoStack.offerFor(ids),
    );
  }

  /** Formats the selection (a bibliography, or one in-text citation of all of it) for the clipboard. */
  async citeSelected(
    style: string,
    locale: CitationLocale,
    kind: 'bibliography' | 'citation',
  ): Promise<{ text: string; html: string } | null> {
    const ids = await this.selectedIds();
    if (ids.length === 0) return null;
    const result = await this.api.invoke('library.cite', { ids, style, locale, kind });
    if (!result.ok) {
      this.#error = result.error;
      return null;
    }
    return result.value;
  }

  /** Fetches the selection's evidence and notices again, as a job (the status bar shows its progress). */
  /**
   * An item just made (New item, Duplicate): selected, so the details column shows it to go on
   * editing, and the toast offers Undo (which moves it to the Trash).
   */
  async created(item: ItemDetail, text: string): Promise<void> {
    this.selection.pick(this.selection.focus, item.id, { range: false, toggle: false }, () => [item.id]);
    this.notify(text, await this.undoStack.offerFor([item.id]));
  }

  /** Duplicate item: a copy of the selected item, filed into the collection shown (as Zotero does). */
  async duplicateSelected(): Promise<void> {
    const id = this.selection.single();
    if (id === null) return;
    const collectionId = this.#view.kind === 'collection' ? this.#view.id : null;
    const result = await this.api.invoke('library.item.duplicate', { id, collectionId });
    if (!result.ok) {
      this.#error = result.error;
      return;
    }
    await this.created(result.value, `Duplicated as ${result.value.citationKey}`);
  }

  /** Regenerate citation keys: the formula's keys for the selection (Settings → Citation keys), one undo step. */
  async regenerateKeysSelected(): Promise<void> {
    const ids = await this.selectedIds();
    if (ids.length === 0) return;
    const result = await this.api.invoke('library.items.regenerateKeys', { ids });
    if (!result.ok) {
      this.#error = result.error;
      return;
    }
    const { changed, unchanged } = result.value;
    this.notify(
      changed === 0
        ? `The citation keys of ${plural(ids.length, 'item')} are already what the formula gives`
        : `New citation keys for ${plural(changed, 'item')}${unchanged ? ` (${formatCount(unchanged)} already as the formula gives)` : ''}`,
      changed === 0 ? null : await this.undoStack.offerFor(ids),
    );
  }

  async refreshSelected(): Promise<void> {
    const ids = await this.selectedIds();
    if (ids.length === 0) return;
    const result = await this.api.invoke('library.enrich', { scope: { kind: 'items', ids } });
    if (!result.ok) this.#error = result.error;
    else
      this.notify(
        result.value.jobId
          ? `Refreshing ${plural(ids.length, 'item')} from the service`
          : 'Nothing to refresh: the selected items have no DOI',
        null,
      );
  }

  async saveSearch(name: string): Promise<void> {
    const query = this.effectiveQuery;
    if (await this.#call(this.api.invoke('library.searches.save', { name, query, sort: this.#sort }))) {
      this.notify(`Saved the search “${name}”`, null);
    }
  }

  /** Keeps a query (the advanced search's) as a saved search, with the table's sort. */
  async saveQuery(name: string, query: string): Promise<boolean> {
    const ok = await this.#call(this.api.invoke('library.searches.save', { name, query, sort: this.#sort }));
    if (ok) this.notify(`Saved the search “${name}”`, null);
    return ok;
  }

  async deleteSearch(id: number): Promise<void> {
    await this.#call(this.api.invoke('library.searches.delete', { id }));
  }

  async loadDuplicates(): Promise<void> {
    const result = await this.api.invoke('library.duplicates', {});
    if (result.ok) this.#duplicates = result.value;
    else this.#error = result.error;
  }

  /**
   * Marks a duplicate group as not duplicates: it leaves the view and is not offered again. Not a step
   * of the undo stack (which holds changes to items); the toast offers taking it back instead.
   */
  async markNotDuplicates(group: DuplicateGroup, mark = true): Promise<void> {
    if (!(await this.#call(this.api.invoke('library.duplicates.notDuplicates', { ids: group.ids, mark })))) return;
    await this.loadDuplicates();
    if (mark) this.#notDuplicates = group;
    else this.#notDuplicates = null;
  }

  /** The group last marked as not duplicates (the Duplicates view offers to take that back). */
  get lastNotDuplicates(): DuplicateGroup | null {
    return this.#notDuplicates;
  }

  /** Merges a duplicate group into its first item, or into `choice.keepId` with the fields the user chose. */
  async merge(group: DuplicateGroup, choice?: { keepId: number; csl: CslItem }): Promise<void> {
    const keepId = choice?.keepId ?? group.ids[0];
    const otherIds = group.ids.filter((id) => id !== keepId);
    if (keepId === undefined || otherIds.length === 0) return;
    if (
      await this.#call(this.api.invoke('library.merge', { keepId, otherIds, ...(choice ? { csl: choice.csl } : {}) }))
    ) {
      this.notify(`Merged ${plural(group.ids.length, 'item')} into one`, await this.undoStack.offerFor(group.ids));
    }
  }

  /**
   * Merges a preprint into its published version (kept, as the Duplicates view's merge does: one undo
   * step), then selects the published version, which the details column shows next.
   */
  async mergeIntoPublished(keepId: number, preprintId: number): Promise<boolean> {
    if (!(await this.#call(this.api.invoke('library.merge', { keepId, otherIds: [preprintId] })))) return false;
    this.selection.pick(this.selection.focus, keepId, { range: false, toggle: false }, () => [keepId]);
    this.notify('Merged the preprint into its published version', await this.undoStack.offerFor([keepId, preprintId]));
    return true;
  }

  /** A save from the Zotero Connector, as it happens: what came, where it went, and Undo for that step. */
  async #fromBrowser(save: ConnectorSave): Promise<void> {
    const first = save.items[0];
    if (!first) return;
    const named = save.items.length === 1 ? `“${first.title ?? 'Untitled'}”` : plural(save.items.length, 'item');
    const where = save.collection ? save.collection.name : 'My Library';
    const text =
      save.kind === 'attached'
        ? `Attached ${save.file ?? 'a file'} to ${named}`
        : save.kind === 'moved'
          ? `Moved ${named} to ${where}`
          : save.items.every((i) => i.existing)
            ? `${named} ${save.items.length === 1 ? 'is' : 'are'} already in your library; the browser’s save went to ${where}`
            : `Saved ${named} from the browser to ${where}`;
    this.notify(text, await this.undoStack.offerFor(save.items.map((i) => i.id)));
  }

  notify(text: string, offer: UndoOffer | null): void {
    clearTimeout(this.#toastTimer);
    this.#toast = { id: ++this.#toastSeq, text, offer };
    this.#toastTimer = setTimeout(() => (this.#toast = null), TOAST_MS);
  }

  /**
   * Keeps the toast up while the pointer is on it or it has the keyboard focus (WCAG 2.2.1: a reader
   * still reading or about to press Undo does not lose it); on leaving, it stays its full time again.
   */
  holdToast(hold: boolean): void {
    clearTimeout(this.#toastTimer);
    if (!hold && this.#toast) this.#toastTimer = setTimeout(() => (this.#toast = null), TOAST_MS);
  }

  dismissToast(): void {
    clearTimeout(this.#toastTimer);
    this.#toast = null;
  }

  fail(error: IpcError): void {
    this.#error = error;
  }

  dismissError(): void {
    this.#error = null;
  }

  #applySearch(text: string): void {
    if (text.trim() === this.#applied.trim()) {
      this.#applied = text;
      return;
    }
    this.#applied = text;
    this.selection.reset();
    this.#searching = true;
    this.#searchGeneration = this.#reload('until-first');
  }

  /** Loads the rows again; a refresh keeps the scroll position (a change elsewhere, coming back to the pane). */
  #reload(keep: Keep): number {
    if (keep !== 'refresh') {
      this.scrollTop = 0;
      this.#toTop++;
    }
    const generation = this.rows.load(whereOf(this.#view, this.#applied, this.#tags), this.#sort, keep);
    // A load that replaces a search's before its first rows came (a change refreshing the table, a tag,
    // a view) drops that search's answer: the busy state ends with this load's first rows instead, or
    // the search box and the table stayed aria-busy for good.
    if (this.#searching) this.#searchGeneration = generation;
    return generation;
  }

  /** Keeps a changed part of the layout (columns, their widths, the panes) in the library's settings. */
  #saveLayout(part: LibraryLayout): void {
    this.#layout = { ...this.#layout, ...part };
    void this.api.invoke('settings.update', { libraryLayout: this.#layout });
  }

  #changed(change: LibraryChange): void {
    this.#pendingChanges.add(change.kind);
    clearTimeout(this.#changeTimer);
    this.#changeTimer = setTimeout(() => {
      const kinds = this.#pendingChanges;
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, not shown
      this.#pendingChanges = new Set();
      if (kinds.size === 1 && kinds.has('searches')) {
        void this.#loadSearches();
        return;
      }
      void this.#loadSidebar();
      if (this.#view.kind === 'duplicates') void this.loadDuplicates();
      this.#reload('refresh');
    }, CHANGE_COALESCE_MS);
  }

  async #loadSidebar(): Promise<void> {
    const [total, trashed, tags, colors] = await Promise.all([
      this.api.invoke('library.count', {}),
      this.api.invoke('library.count', { trash: true }),
      this.api.invoke('library.tags.list', {}),
      this.api.invoke('library.tags.colors', {}),
      this.#loadCollections(),
      this.#loadSearches(),
    ]);
    if (total.ok) this.#total = total.value;
    if (trashed.ok) this.#trashed = trashed.value;
    if (tags.ok) this.#tagList = tags.value;
    if (colors.ok) this.#tagColors = colors.value;
  }

  async #loadCollections(): Promise<void> {
    const [result, trashed] = await Promise.all([
      this.api.invoke('library.collections.list', {}),
      this.api.invoke('library.collections.trashed', {}),
    ]);
    if (trashed.ok) this.#trashedCollections = trashed.value;
    if (!result.ok) return;
    this.#collections = result.value;
    // An undo can remove the collection on show (Create collection undone): back to My Library.
    const view = this.#view;
    if (view.kind === 'collection' && !result.value.some((c) => c.id === view.id)) this.show({ kind: 'library' });
  }

  async #loadSearches(): Promise<void> {
    const result = await this.api.invoke('library.searches.list', {});
    if (result.ok) this.#searches = result.value;
  }

  async #call(pending: Promise<{ ok: true } | { ok: false; error: IpcError }>): Promise<boolean> {
    const result = await pending;
    if (!result.ok) this.#error = result.error;
    return result.ok;
  }
}

const sameSort = (a: Sort, b: Sort): boolean => a.column === b.column && a.direction === b.direction;

const byApi = new WeakMap<CitewiseApi, LibraryState>();

/**
 * The one LibraryState of a window. The pane is unmounted when another pane is shown; like a desktop
 * app, coming back keeps the view, the search, the selection and the scroll position.
 */
export function libraryStateFor(api: CitewiseApi): LibraryState {
  let state = byApi.get(api);
  if (!state) {
    // Created under its own root, not the pane that first asks: its deriveds must outlive that pane.
    $effect.root(() => {
      state = new LibraryState(api);
    });
    byApi.set(api, state!);
  }
  return state!;
}

export function plural(n: number, word: string, words = `${word}s`): string {
  // formatCount shares one Intl.NumberFormat; toLocaleString builds one per call (milliseconds, on each search).
  return `${formatCount(n)} ${n === 1 ? word : words}`;
}
