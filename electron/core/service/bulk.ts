// Bulk lookups of any size: identifiers normalised and de-duplicated, split into requests the
// service accepts (500, or 100 for the aggregate), run on the client's shared bounded queue, and
// merged. Every identifier ends in exactly one list: found, unknown (the service has no data: never
// reported as zeros), invalid (rejected before sending) or failed (its request failed for good).
import type PQueue from 'p-queue';
import type { InvalidEntry } from '../../../shared/model/doi';
import type { BulkResult } from '../../../shared/model/service';
import { CoreError, toIpcError } from '../errors';
import type { CallOptions } from './transport';

export type { BulkFailure, BulkResult } from '../../../shared/model/service';

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('chunk size must be a positive integer');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BulkRun<T> {
  ids: readonly string[];
  invalid: InvalidEntry[];
  size: number;
  queue: PQueue;
  /** Fetches one chunk and returns what the service knows, keyed by normalised identifier. */
  fetchChunk: (ids: string[], options: CallOptions) => Promise<Map<string, T>>;
  options: CallOptions;
  onProgress?: ((done: number, total: number) => void) | undefined;
}

export async function runBulk<T>(run: BulkRun<T>): Promise<BulkResult<T>> {
  const result: BulkResult<T> = { found: {}, unknown: [], invalid: run.invalid, failed: [] };
  const chunks = chunk(run.ids, run.size);
  let done = 0;
  await Promise.all(
    chunks.map((ids) =>
      run.queue.add(
        async () => {
          try {
            const answer = await run.fetchChunk(ids, run.options);
            for (const id of ids) {
              const value = answer.get(id);
              if (value === undefined) result.unknown.push(id);
              else result.found[id] = value;
            }
          } catch (err) {
            if (run.options.signal?.aborted) throw err;
            result.failed.push({ ids, error: toIpcError(err, () => undefined) });
          }
          done += ids.length;
          run.onProgress?.(done, run.ids.length);
        },
        run.options.signal ? { signal: run.options.signal } : {},
      ),
    ),
  ).catch((err: unknown) => {
    if (run.options.signal?.aborted) throw new CoreError('CANCELLED', 'The lookup was cancelled.');
    throw err;
  });
  return result;
}
