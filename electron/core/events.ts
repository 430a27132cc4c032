import type { EventName, EventPayload } from '../../shared/ipc';

type AnyListener = (name: EventName, payload: unknown) => void;

/**
 * The core's typed event source. Transports subscribe with `onAny` and forward everything;
 * every subscription returns its disposer, and `listenerCount` lets tests check that none leak.
 */
export class EventBus {
  readonly #byName = new Map<EventName, Set<(payload: never) => void>>();
  readonly #any = new Set<AnyListener>();

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of [...(this.#byName.get(name) ?? [])]) (listener as (p: EventPayload<E>) => void)(payload);
    for (const listener of [...this.#any]) listener(name, payload);
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.#byName.get(name);
    if (!set) this.#byName.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
      if (set.size === 0) this.#byName.delete(name);
    };
  }

  onAny(listener: AnyListener): () => void {
    this.#any.add(listener);
    return () => void this.#any.delete(listener);
  }

  listenerCount(): number {
    let n = this.#any.size;
    for (const set of this.#byName.values()) n += set.size;
    return n;
  }
}
