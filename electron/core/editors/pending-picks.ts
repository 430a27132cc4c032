// Cite-as-you-write requests waiting for the user, as the app shows them. The editor API (electron/api)
// holds the HTTP request; a host that has no picker window of its own (browser mode) registers each
// waiting pick here, and the renderer answers or cancels it through IPC. The pick's token stays in
// electron/api: the renderer only ever sees an id.
import { CoreError } from '../errors';
import type { EventBus } from '../events';
import type { PendingPick } from '../../../shared/ipc/editors';

/** What the editor API hands over for one waiting pick. */
export interface WaitingPick {
  id: string;
  answer(picks: { citationKey: string }[]): void;
  cancel(): void;
}

export class PendingPicks {
  readonly #waiting = new Map<string, WaitingPick & { since: string }>();
  readonly #events: Pick<EventBus, 'emit'>;
  readonly #now: () => Date;

  constructor(events: Pick<EventBus, 'emit'>, now: () => Date = () => new Date()) {
    this.#events = events;
    this.#now = now;
  }

  /** Shows a waiting pick; returns what takes it away (answered, cancelled or the editor hung up). */
  add(pick: WaitingPick): () => void {
    const entry = { ...pick, since: this.#now().toISOString() };
    this.#waiting.set(pick.id, entry);
    this.#changed();
    return () => {
      if (this.#waiting.get(pick.id) !== entry) return;
      this.#waiting.delete(pick.id);
      this.#changed();
    };
  }

  list(): PendingPick[] {
    return [...this.#waiting.values()].map(({ id, since }) => ({ id, since }));
  }

  answer(id: string, citationKeys: readonly string[]): null {
    this.#take(id).answer(citationKeys.map((citationKey) => ({ citationKey })));
    return null;
  }

  cancel(id: string): null {
    this.#take(id).cancel();
    return null;
  }

  #take(id: string): WaitingPick {
    const pick = this.#waiting.get(id);
    if (!pick)
      throw new CoreError(
        'NOT_FOUND',
        'That citation request is no longer waiting: the program that asked gave up or was answered.',
      );
    this.#waiting.delete(id);
    this.#changed();
    return pick;
  }

  #changed(): void {
    this.#events.emit('editors.picksChanged', this.list());
  }
}
