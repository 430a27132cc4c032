import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import {
  isFlagged,
  ITEM_STATUSES,
  STATUS_LABELS,
  type ItemStatus,
  type StatusChange,
} from '../../../../shared/model/item-status';

/**
 * Items whose editorial status changed (retracted, withdrawn, corrected, under an expression of
 * concern), as the retraction watch reports them: shown once as a notification, until the user opens
 * them or dismisses it. Changes found while the app was closed (`citewise check --keep-unseen`) are
 * read at start.
 */
export class NoticesState {
  readonly #api: CitewiseApi;
  #changes = $state.raw<StatusChange[]>([]);
  #error = $state<IpcError | null>(null);
  #items = $derived(
    this.#changes.flatMap((c) => c.items.map((i) => i.id)).filter((id, i, all) => all.indexOf(id) === i).length,
  );

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get changes() {
    return this.#changes;
  }
  get error() {
    return this.#error;
  }
  /** How many library items the changes concern. */
  get itemCount() {
    return this.#items;
  }

  /** In words: "2 items in your library have been retracted", or by status when they differ. */
  get message(): string {
    const count = (status: ItemStatus): number =>
      this.#changes.filter((c) => c.current === status).reduce((n, c) => n + c.items.length, 0);
    // Most severe first.
    const present = [...ITEM_STATUSES].reverse().filter((status) => count(status) > 0);
    const n = this.#items;
    const subject = n === 1 ? '1 item in your library has' : `${n} items in your library have`;
    if (present.length === 1) return `${subject} been ${STATUS_LABELS[present[0]!]}`;
    const parts = present.map((status) => `${count(status)} ${STATUS_LABELS[status]}`);
    return `${subject} new editorial notices (${parts.join(', ')})`;
  }

  start(): () => void {
    const off = this.#api.on('library.statusChanged', (changes) => this.#add(changes));
    void this.#api.invoke('library.watch.changes', { unseenOnly: true }).then((r) => {
      if (r.ok) this.#add(r.value);
    });
    return off;
  }

  /** The user has been told: the changes are marked seen and the notification goes. */
  async dismiss(): Promise<void> {
    const ids = this.#changes.map((c) => c.id);
    this.#changes = [];
    if (ids.length === 0) return;
    const r = await this.#api.invoke('library.watch.markSeen', { ids });
    if (!r.ok) this.#error = r.error;
  }

  #add(changes: readonly StatusChange[]): void {
    const known = this.#changes.map((c) => c.id);
    const fresh = changes.filter(
      (c) => isFlagged(c.current) && c.items.length > 0 && !known.includes(c.id) && c.seenAt === null,
    );
    if (fresh.length > 0) this.#changes = [...this.#changes, ...fresh];
  }
}
