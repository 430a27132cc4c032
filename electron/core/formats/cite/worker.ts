// A pool worker: its own CiteCore, warm engines and entry cache, fed by the formatter (pool.ts).
// Bundled as its own entry (out/main/cite-worker.js, out/cli/cite-worker.js); run from source with tsx.
import { parentPort } from 'node:worker_threads';
import { CoreError } from '../../errors';
import { refused, replied, toWire } from '../../worker-rpc';
import { CiteCore, itemKey } from './core';
import { lookupFrom } from './locales';
import type { Job, JobResult } from './protocol';
import type { CslStyleDef } from './styles';

const locales = new Map<string, string>();
const styles = new Map<string, CslStyleDef>();
const core = new CiteCore(lookupFrom(locales));

function run(job: Job): JobResult {
  if (job.kind === 'stats') return { kind: 'stats', value: core.stats() };
  for (const [tag, xml] of Object.entries(job.locales)) locales.set(tag, xml);
  if ('xml' in job.style) styles.set(job.style.version, job.style);
  const style = styles.get(job.style.version);
  if (!style) throw new Error(`worker has no style version ${job.style.version}`);
  const req = { style, locale: job.locale, forceLocale: job.forceLocale, format: job.format };
  if (job.kind === 'prepare') {
    core.prepare(req);
    return { kind: 'prepare' };
  }
  const keys = job.items.map((item, i) => itemKey(item, job.versions[i]));
  if (job.kind === 'bibliography') return { kind: 'bibliography', value: core.bibliography(req, job.items, keys) };
  return { kind: 'citations', value: core.citations(req, job.items, keys, job.clusters) };
}

parentPort?.on('message', (job: Job) => {
  try {
    parentPort?.postMessage(replied(job.id, run(job)));
  } catch (err) {
    // Whatever is not a CoreError reaches the caller as one with code INTERNAL and its message.
    parentPort?.postMessage(
      refused(
        job.id,
        toWire(
          err instanceof CoreError ? err : new CoreError('INTERNAL', err instanceof Error ? err.message : String(err)),
        ),
      ),
    );
  }
});
