// Observes (without changing) every message worker threads post to this thread while `run` runs: for
// tests that check what crosses to the thread that answers the UI.
import { Worker } from 'node:worker_threads';

export async function observeWorkerMessages<T>(run: () => Promise<T>): Promise<{ value: T; messages: unknown[] }> {
  const emit = Worker.prototype.emit;
  const messages: unknown[] = [];
  Worker.prototype.emit = function (this: Worker, event: string | symbol, ...args: unknown[]) {
    if (event === 'message') messages.push(args[0]);
    return emit.call(this, event, ...args);
  } as typeof emit;
  try {
    return { value: await run(), messages };
  } finally {
    Worker.prototype.emit = emit;
  }
}
