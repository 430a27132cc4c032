// How long this thread's event loop went without running anything, while some work ran: the thread
// that answers the UI (Electron's main process, the host-mode server) must not stall. Two probes, as
// each can miss what the other sees: monitorEventLoopDelay samples the loop every `resolutionMs` (its
// p99 says how often stalls come), and a heartbeat timer cannot miss a gap between two of its beats.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface StallFigures {
  /** The longest stall, ms: the larger of the two probes' longest. */
  maxMs: number;
  /** The 99th percentile of monitorEventLoopDelay's samples, ms. */
  p99Ms: number;
  /** Heartbeat gaps longer than 50 ms (Chromium's long-task threshold). */
  over50: number;
  /** How long the monitor ran, ms. */
  wallMs: number;
}

export interface StallMonitor {
  /** Leaves out what follows until `resume` (work of the bench itself, not of the code measured). */
  pause(): { resume(): void };
  stop(): StallFigures;
}

export function monitorStalls(resolutionMs = 1, beatMs = 5): StallMonitor {
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  const started = performance.now();
  let last = started;
  let maxGap = 0;
  let over50 = 0;
  let paused = false;
  const beat = setInterval(() => {
    if (paused) return;
    const now = performance.now();
    const gap = now - last - beatMs;
    if (gap > maxGap) maxGap = gap;
    if (gap > 50) over50++;
    last = now;
  }, beatMs);
  delay.enable();
  return {
    pause() {
      paused = true;
      delay.disable();
      return {
        resume() {
          paused = false;
          last = performance.now();
          delay.enable();
        },
      };
    },
    stop() {
      delay.disable();
      clearInterval(beat);
      // The histogram records the time between its samples, so a loop that never waits reads as the resolution.
      const sampled = Math.max(0, delay.max / 1e6 - resolutionMs);
      return {
        maxMs: Math.max(sampled, maxGap),
        p99Ms: Math.max(0, delay.percentile(99) / 1e6 - resolutionMs),
        over50,
        wallMs: performance.now() - started,
      };
    },
  };
}
