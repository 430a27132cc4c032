// npm run service -- [--port N] [--host H] [--papers N] [--seed S] [--db PATH] [--latency MS] [--faults SPEC]
//                    [--key TOKEN=SCOPE,SCOPE ...] [--rate-limit-keyed N] [--assistant-steps realistic|instant] [--usage-max N]
// Starts the local Citation and Literature Data Service and prints its base URL and keys.
import { parseArgs } from 'node:util';
import { SERVICE_SCOPES } from '../../shared/service/index';
import { startService } from './server';
import { parseKey, describeScopes } from './auth';
import { parseFaults } from './faults';
import { DEFAULT_OPTIONS } from './options';
import { corpusMeta } from './corpus/cache';

const HELP = `Citation service (local): an implementation of the Citation and Literature Data Service for development and tests.

Options:
  --port N                 port to listen on (0: any free port; default ${DEFAULT_OPTIONS.port})
  --host H                 address to bind (default ${DEFAULT_OPTIONS.host})
  --papers N               corpus size (default ${DEFAULT_OPTIONS.papers}); 1000000 for scale tests
  --seed S                 corpus seed (default ${DEFAULT_OPTIONS.seed})
  --db PATH                corpus database file; alone, an existing corpus there is reused as is; with --papers or --seed
                           it is regenerated when they differ; default: a cache in the temp dir
  --latency MS             milliseconds added to every answer
  --faults SPEC            e.g. 429=0.1,500=0.05,503=0.05,drop=0.02,slow=0.02,malformed=0.01,latency=50,jitter=20,task-failure=0.1,slow-ms=3000
  --key TOKEN=SCOPES       an API key with comma-separated scopes, or * for all (repeatable); scopes: ${SERVICE_SCOPES.join(', ')}
  --rate-limit-keyed N     requests per second for a token (default ${DEFAULT_OPTIONS.keyedPerSecond}; per minute: 30 × N)
  --rate-limit-anonymous N/M   requests per second/minute without a token (default ${DEFAULT_OPTIONS.anonymousPerSecond}/${DEFAULT_OPTIONS.anonymousPerMinute})
  --assistant-steps MODE   realistic (time-based, default) or instant (each poll advances one step)
  --step-ms MS             milliseconds per assistant step when realistic (default ${DEFAULT_OPTIONS.assistantStepMs})
  --refcheck-ms MS         how long a reference check takes (default ${DEFAULT_OPTIONS.referenceCheckMs}; 0: one step per poll)
  --usage-max N            assistant requests allowed per key (default ${DEFAULT_OPTIONS.usageMax})
  --quiet                  print only the URL and keys
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      papers: { type: 'string' },
      seed: { type: 'string' },
      db: { type: 'string' },
      latency: { type: 'string' },
      faults: { type: 'string' },
      key: { type: 'string', multiple: true },
      'rate-limit-keyed': { type: 'string' },
      'rate-limit-anonymous': { type: 'string' },
      'assistant-steps': { type: 'string' },
      'step-ms': { type: 'string' },
      'refcheck-ms': { type: 'string' },
      'usage-max': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const num = (v: string | undefined, name: string, fallback: number): number => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} expects a non-negative number, got "${v}"`);
    return n;
  };
  const steps = values['assistant-steps'] ?? 'realistic';
  if (steps !== 'realistic' && steps !== 'instant') throw new Error('--assistant-steps is realistic or instant');
  const keyed = num(values['rate-limit-keyed'], 'rate-limit-keyed', DEFAULT_OPTIONS.keyedPerSecond);
  const [anonS, anonM] = (
    values['rate-limit-anonymous'] ?? `${DEFAULT_OPTIONS.anonymousPerSecond}/${DEFAULT_OPTIONS.anonymousPerMinute}`
  )
    .split('/')
    .map(Number);
  // With --db alone, an existing corpus is reused whatever its size and seed.
  const existing = values.db && values.papers === undefined && values.seed === undefined ? corpusMeta(values.db) : null;
  const log = values.quiet ? () => {} : (m: string) => console.error(`  corpus: ${m}`);
  const t0 = Date.now();
  const service = await startService({
    port: num(values.port, 'port', DEFAULT_OPTIONS.port),
    host: values.host ?? DEFAULT_OPTIONS.host,
    papers: existing?.papers ?? num(values.papers, 'papers', DEFAULT_OPTIONS.papers),
    seed: existing?.seed ?? num(values.seed, 'seed', DEFAULT_OPTIONS.seed),
    dbPath: values.db,
    latencyMs: num(values.latency, 'latency', 0),
    faults: values.faults ? parseFaults(values.faults) : {},
    keys: (values.key ?? []).map(parseKey),
    keyedPerSecond: keyed,
    keyedPerMinute: keyed * 30,
    anonymousPerSecond: anonS ?? DEFAULT_OPTIONS.anonymousPerSecond,
    anonymousPerMinute: anonM ?? DEFAULT_OPTIONS.anonymousPerMinute,
    assistantSteps: steps,
    assistantStepMs: num(values['step-ms'], 'step-ms', DEFAULT_OPTIONS.assistantStepMs),
    referenceCheckMs: num(values['refcheck-ms'], 'refcheck-ms', DEFAULT_OPTIONS.referenceCheckMs),
    usageMax: num(values['usage-max'], 'usage-max', DEFAULT_OPTIONS.usageMax),
    log,
  });
  console.log(`Citation service (local) listening on ${service.url}`);
  if (!values.quiet) {
    console.log(
      `  corpus: ${service.corpus.paperCount} papers, seed ${service.corpus.seed}, ${service.timings.generated ? `generated in ${service.timings.corpusMs} ms` : 'reused'} (${service.corpusPath}); ready in ${Date.now() - t0} ms`,
    );
  }
  console.log('  keys (send as "Authorization: Bearer <token>"):');
  for (const k of service.keys)
    console.log(`    ${k.token}  scopes: ${describeScopes(k)}${k.label ? `  (${k.label})` : ''}`);
  if (!values.quiet)
    console.log(`  point Citewise at it: --service-url ${service.url}  or  CITEWISE_SERVICE_URL=${service.url}`);
  const stop = (): void => {
    void service.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`citation service: ${(error as Error).message}`);
  process.exit(1);
});
