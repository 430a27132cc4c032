import type { z } from 'zod';
import {
  inputBoundsProblem,
  isChannel,
  requests,
  type Channel,
  type Feature,
  type OutputOf,
  type Result,
} from '../../shared/ipc';
import { CoreError, toIpcError } from './errors';

export interface HandlerContext {
  /** Aborted when the caller goes away (window closed, socket dropped) or the core closes. */
  signal: AbortSignal;
}

/** The handlers of one feature, checked against its contract with `satisfies FeatureHandlers<typeof feature>`. */
export type FeatureHandlers<F extends Feature> = {
  [C in keyof F['requests']]: (
    input: z.output<F['requests'][C]['input']>,
    ctx: HandlerContext,
  ) => Promise<OutputOf<F['requests'][C]>> | OutputOf<F['requests'][C]>;
};

type AnyHandler = (input: unknown, ctx: HandlerContext) => unknown;

const MAX_ISSUES_REPORTED = 20;

export class HandlerRegistry {
  readonly #handlers = new Map<Channel, AnyHandler>();
  readonly #report: (err: unknown) => void;

  constructor(report: (err: unknown) => void) {
    this.#report = report;
  }

  /** Registers every handler of a feature; a channel registered twice, or not in the contract, throws. */
  // `never` input accepts every typed handler; the schema of its channel guarantees the input at call time.
  register(handlers: Record<string, (input: never, ctx: HandlerContext) => unknown>): void {
    for (const [channel, handler] of Object.entries(handlers) as [string, AnyHandler][]) {
      if (!isChannel(channel)) throw new Error(`Handler for "${channel}", which the IPC contract does not declare`);
      if (this.#handlers.has(channel)) throw new Error(`Duplicate handler for IPC channel "${channel}"`);
      this.#handlers.set(channel, handler);
    }
  }

  /** Channels of the contract that nothing handles; the composition root refuses to start with any. */
  missing(): Channel[] {
    return (Object.keys(requests) as Channel[]).filter((c) => !this.#handlers.has(c));
  }

  /** Validates the input at the boundary, runs the handler and turns every outcome into a Result. */
  async invoke(channel: unknown, input: unknown, ctx: HandlerContext): Promise<Result<unknown>> {
    try {
      if (!isChannel(channel)) {
        throw new CoreError('INVALID_INPUT', `Unknown request channel: ${describe(channel)}`);
      }
      const handler = this.#handlers.get(channel);
      if (!handler) throw new CoreError('INTERNAL', `No handler is registered for "${channel}"`);
      const outOfBounds = inputBoundsProblem(input);
      if (outOfBounds) throw new CoreError('INVALID_INPUT', `Invalid input for ${channel}: ${outOfBounds}.`);
      const parsed = requests[channel].input.safeParse(input === undefined ? {} : input);
      if (!parsed.success) {
        const issues = parsed.error.issues.slice(0, MAX_ISSUES_REPORTED).map((i) => ({
          path: i.path.map(String).join('.') || '(input)',
          message: i.message,
        }));
        const first = issues[0];
        throw new CoreError(
          'INVALID_INPUT',
          `Invalid input for ${channel}: ${first ? `${first.path}: ${first.message}` : 'rejected'}`,
          { issues },
        );
      }
      const value = await handler(parsed.data, ctx);
      return { ok: true, value };
    } catch (err) {
      return { ok: false, error: toIpcError(err, this.#report) };
    }
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 100));
  return typeof value;
}
