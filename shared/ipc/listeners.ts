import type { EventName, EventPayload } from './index';

type Listener = (payload: unknown) => void;
type AnyListener = (name: EventName, payload: unknown) => void;

/**
 * Listeners by event name: the one set behind the core's event bus, the preload and browser mode's
 * socket. Every subscription returns its disposer; `count` lets tests check that none leak. One
 * throwing listener is reported and the others still run.
 */
export class ListenerSet {
  readonly #byName = new Map<string, Set<Listener>>();
  readonly #any = new Set<AnyListener>();
  readonly #report: (name: string, err: unknown) => void;

  constructor(
    report: (name: string, err: unknown) => void = (name, err) => console.error(`Listener for ${name} failed`, err),
  ) {
    this.#report = report;
  }

  add<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.#byName.get(name);
    if (!set) this.#byName.set(name, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => {
      set.delete(l);
      if (set.size === 0) this.#byName.delete(name);
    };
  }

  /** A listener for every event name (a transport that forwards everything). */
  addAny(listener: AnyListener): () => void {
    this.#any.add(listener);
    return () => void this.#any.delete(listener);
  }

  dispatch(name: string, payload: unknown): void {
    for (const listener of [...(this.#byName.get(name) ?? [])]) this.#run(name, () => listener(payload));
    for (const listener of [...this.#any]) this.#run(name, () => listener(name as EventName, payload));
  }

  count(): number {
    let n = this.#any.size;
    for (const set of this.#byName.values()) n += set.size;
    return n;
  }

  #run(name: string, call: () => void): void {
    try {
      call();
    } catch (err) {
      this.#report(name, err);
    }
  }
}

/**
 * Listeners of one kind of news (a job's progress, a connection's state): the same rule as ListenerSet,
 * one throwing listener is reported and the others still run, so a failing subscriber can neither
 * silence the rest nor fail the work that emits.
 */
export class Listeners<T> {
  readonly #set = new Set<(value: T) => void>();
  readonly #report: (err: unknown) => void;

  constructor(report: (err: unknown) => void = (err) => console.error('A listener failed', err)) {
    this.#report = report;
  }

  /** Adds a listener; returns its disposer. */
  add(listener: (value: T) => void): () => void {
    this.#set.add(listener);
    return () => void this.#set.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.#set]) {
      try {
        listener(value);
      } catch (err) {
        this.#report(err);
      }
    }
  }

  clear(): void {
    this.#set.clear();
  }

  get size(): number {
    return this.#set.size;
  }
}
