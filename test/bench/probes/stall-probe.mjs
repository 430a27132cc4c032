// Preloaded (node --import) into a command the benchmarks run as a user would: watches the main
// thread's event loop (the thread that answers IPC in the app) and, as the process exits, writes what
// it saw to the file named by CITEWISE_PROBE_OUT. Plain JavaScript, so it costs nothing to load.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env.CITEWISE_PROBE_OUT;
if (out) {
  const started = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // A 10 ms heartbeat as well: monitorEventLoopDelay samples, a gap between beats cannot be missed.
  let last = performance.now();
  let maxGap = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last - 10);
    last = now;
  }, 10);
  beat.unref();
  process.on('exit', (code) => {
    delay.disable();
    const usage = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({
        code,
        wallMs: performance.now() - started,
        maxStallMs: Math.max(delay.max / 1e6, maxGap),
        // maxRSS: the whole process, every thread (workers share its address space), in kB.
        peakRssMb: usage.maxRSS / 1024,
        cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      }),
    );
  });
}
