// Preloaded (node --import) into a command the benchmarks run as a user would: watches the main
// thread's event loop (the thread that answers IPC in the app) and, as the process exits, writes what
// it saw to the file named by CITEWISE_PROBE_OUT. Plain JavaScript, so it costs nothing to load.
//
// Stalls are counted from the moment the command starts its first worker thread (in `citewise import`,
// the formats worker parsing the first file; the library worker follows at once): loading and
// compiling the CLI bundle before that blocks the loop for 70-110 ms even for `citewise stats`, which
// is start-up, not the import. The stall from process start is reported beside it.
import { writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env.CITEWISE_PROBE_OUT;
if (out) {
  const started = performance.now();
  let workerAt = null;
  let sinceWorker = null;
  const threads = createRequire(import.meta.url)('node:worker_threads');
  const Original = threads.Worker;
  threads.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      if (workerAt === null) {
        workerAt = performance.now();
        sinceWorker = monitorEventLoopDelay({ resolution: 5 });
        sinceWorker.enable();
        maxGapSinceWorker = 0;
      }
    }
  };
  // The bundle imports { Worker } from node:worker_threads after this runs: let it see the wrapper.
  syncBuiltinESMExports();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // A 10 ms heartbeat as well: monitorEventLoopDelay samples, a gap between beats cannot be missed.
  let last = performance.now();
  let maxGap = 0;
  let maxGapSinceWorker = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    const gap = now - last - 10;
    maxGap = Math.max(maxGap, gap);
    if (workerAt !== null && last >= workerAt) maxGapSinceWorker = Math.max(maxGapSinceWorker, gap);
    last = now;
  }, 10);
  beat.unref();
  process.on('exit', (code) => {
    delay.disable();
    sinceWorker?.disable();
    const usage = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({
        code,
        wallMs: performance.now() - started,
        maxStallMs: workerAt === null ? null : Math.max((sinceWorker?.max ?? 0) / 1e6, maxGapSinceWorker),
        maxStallFromStartMs: Math.max(delay.max / 1e6, maxGap),
        // maxRSS: the whole process, every thread (workers share its address space), in kB.
        peakRssMb: usage.maxRSS / 1024,
        cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      }),
    );
  });
}
