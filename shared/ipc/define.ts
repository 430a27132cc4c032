// The building blocks of the IPC contract. A feature declares its requests (channel → input schema →
// output type) and its events (name → payload type); every other type is derived from those maps.
import type { z } from 'zod';

export const ERROR_CODES = [
  'OFFLINE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'RATE_LIMITED',
  'VALIDATION',
  'SERVICE_ERROR',
  'TIMEOUT',
  'CANCELLED',
  'INVALID_INPUT',
  'CONFLICT',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface IpcError {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** Every request answers with a Result: errors cross the boundary as data, never as exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** A request's input schema plus its output type, carried as a phantom so it costs nothing at run time. */
export interface RequestSpec<S extends z.ZodType, O> {
  readonly input: S;
  readonly __output?: O;
}

/** `request(schema).returns<Output>()` */
export function request<S extends z.ZodType>(input: S) {
  return {
    returns<O>(): RequestSpec<S, O> {
      return { input };
    },
  };
}

export interface EventSpec<P> {
  readonly __payload?: P;
}

export function event<P>(): EventSpec<P> {
  return {};
}

export interface Feature {
  readonly requests: Readonly<Record<string, RequestSpec<z.ZodType, unknown>>>;
  readonly events: Readonly<Record<string, EventSpec<unknown>>>;
}

export function feature<const F extends Feature>(f: F): F {
  return f;
}

/** Throws when two features declare the same channel or event, so a collision fails at start-up, not silently. */
export function assertDisjoint(features: readonly Feature[]): void {
  const seen = new Set<string>();
  for (const f of features) {
    for (const name of [...Object.keys(f.requests), ...Object.keys(f.events)]) {
      if (seen.has(name)) throw new Error(`IPC contract: "${name}" is declared by more than one feature`);
      seen.add(name);
    }
  }
}

export type OutputOf<R> = R extends RequestSpec<z.ZodType, infer O> ? O : never;
export type PayloadOf<E> = E extends EventSpec<infer P> ? P : never;
