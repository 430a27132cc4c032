import type { EventName, EventPayload } from '../../shared/ipc';
import { ListenerSet } from '../../shared/ipc/listeners';

/**
 * The core's typed event source, on the same listener set the client sides use. Transports subscribe
 * with `onAny` and forward everything; a listener that throws cannot stop the others or the emitter.
 */
export class EventBus {
  readonly #listeners: ListenerSet;

  constructor(report?: (name: string, err: unknown) => void) {
    this.#listeners = new ListenerSet(report);
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.#listeners.dispatch(name, payload);
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.#listeners.add(name, listener);
  }

  onAny(listener: (name: EventName, payload: unknown) => void): () => void {
    return this.#listeners.addAny(listener);
  }

  listenerCount(): number {
    return this.#listeners.count();
  }
}
