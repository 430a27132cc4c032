import type { EventName, EventPayload } from '../../../../shared/ipc';

/** Listeners by event name, shared by every transport's client side. */
export class ListenerSet {
  readonly #byName = new Map<string, Set<(payload: unknown) => void>>();

  add<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.#byName.get(name);
    if (!set) this.#byName.set(name, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => {
      set.delete(l);
      if (set.size === 0) this.#byName.delete(name);
    };
  }

  dispatch(name: string, payload: unknown): void {
    for (const listener of [...(this.#byName.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch (err) {
        // One faulty listener must not starve the others.
        console.error(`Listener for ${name} failed`, err);
      }
    }
  }

  count(): number {
    let n = 0;
    for (const set of this.#byName.values()) n += set.size;
    return n;
  }
}
