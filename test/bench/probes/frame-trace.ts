// Frame rate and main-thread cost from a Chromium performance trace (CDP Tracing), as DevTools'
// Performance panel shows them. What is counted:
// - frames drawn: `DrawFrame` events of the page's compositor (category
//   disabled-by-default-devtools.timeline.frame), one per compositor frame that was drawn and sent
//   to the display with new content; fps = frames drawn / the measured window;
// - frames offered: `BeginFrame` events, the compositor's frame clock (60 a second here); a
//   BeginFrame that produced no frame while there was something to show is a `DroppedFrame`;
// - main-thread time: the renderer main thread's top-level tasks (`ThreadControllerImpl::RunTask`,
//   category toplevel) inside the window, as CPU time of that thread (the trace's thread clock, so
//   other processes on a shared machine do not inflate it) and as wall time; split into script,
//   style, layout, paint (pre-paint, paint, layerize, commit), garbage collection and other by the
//   innermost devtools.timeline event each slice of time falls in.
// The window is delimited by two user-timing marks the page sets (category blink.user_timing).
import type { BrowserContext, Page } from 'playwright-core';

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'toplevel',
  'blink.user_timing',
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: Record<string, unknown> & { name?: string };
}

export interface FrameStats {
  /** The window, ms. */
  windowMs: number;
  framesDrawn: number;
  framesOffered: number;
  framesDropped: number;
  fps: number;
  /** Time between consecutive drawn frames, ms. */
  frameIntervalP50: number;
  frameIntervalP95: number;
  /** Main-thread CPU time (thread clock) per drawn frame, ms, and its split. */
  mainCpuPerFrame: number;
  mainWallPerFrame: number;
  split: Record<Category, number>;
  /** Main-thread busy share of the window (wall). */
  mainBusy: number;
}

type Category = 'script' | 'style' | 'layout' | 'paint' | 'gc' | 'other';

const CATEGORY: Record<string, Category> = {
  FunctionCall: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  TimerFire: 'script',
  'v8.callFunction': 'script',
  'v8.compile': 'script',
  'v8.run': 'script',
  RunMicrotasks: 'script',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  Commit: 'paint',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
  'BlinkGC.AtomicPhase': 'gc',
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Records a trace around `run`, which must set the user-timing marks `start` and `end` in the page. */
export async function traceFrames(
  context: BrowserContext,
  page: Page,
  marks: { start: string; end: string },
  run: () => Promise<void>,
): Promise<FrameStats> {
  const cdp = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: TRACE_CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  return frameStats(events, marks);
}

export function frameStats(events: readonly TraceEvent[], marks: { start: string; end: string }): FrameStats {
  const start = events.find((e) => e.name === marks.start && e.cat.includes('blink.user_timing'));
  const end = events.find((e) => e.name === marks.end && e.cat.includes('blink.user_timing'));
  if (!start || !end) throw new Error(`the trace lacks the marks ${marks.start} and ${marks.end}`);
  const pid = start.pid;
  const mainTid =
    events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')
      ?.tid ?? start.tid;
  const inWindow = (e: TraceEvent): boolean => e.pid === pid && e.ts >= start.ts && e.ts <= end.ts;
  const windowMs = (end.ts - start.ts) / 1000;

  const draws = events
    .filter((e) => e.name === 'DrawFrame' && inWindow(e))
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const offered = events.filter((e) => e.name === 'BeginFrame' && inWindow(e)).length;
  const dropped = events.filter((e) => e.name === 'DroppedFrame' && inWindow(e)).length;
  const intervals = draws
    .slice(1)
    .map((ts, i) => (ts - draws[i]!) / 1000)
    .sort((a, b) => a - b);

  // Main thread: complete events, nested by time; each slice of CPU time goes to the innermost
  // categorised event around it (a layout forced from script counts as layout).
  const slices = events
    .filter(
      (e) =>
        e.ph === 'X' && e.pid === pid && e.tid === mainTid && e.ts >= start.ts && e.ts <= end.ts && e.dur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const split: Record<Category, number> = { script: 0, style: 0, layout: 0, paint: 0, gc: 0, other: 0 };
  let mainCpu = 0;
  let mainWall = 0;
  const stack: { end: number; category: Category; cpu: number; childCpu: number }[] = [];
  const close = (upTo: number): void => {
    while (stack.length && stack.at(-1)!.end <= upTo) {
      const done = stack.pop()!;
      split[done.category] += Math.max(0, done.cpu - done.childCpu);
      if (stack.length) stack.at(-1)!.childCpu += done.cpu;
    }
  };
  for (const e of slices) {
    close(e.ts);
    const cpu = (e.tdur ?? e.dur!) / 1000;
    if (stack.length === 0) {
      if (e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask') continue;
      mainCpu += cpu;
      mainWall += e.dur! / 1000;
    }
    const category = CATEGORY[e.name] ?? stack.at(-1)?.category ?? 'other';
    stack.push({ end: e.ts + e.dur!, category, cpu, childCpu: 0 });
  }
  close(Number.POSITIVE_INFINITY);

  const frames = Math.max(1, draws.length);
  for (const k of Object.keys(split) as Category[]) split[k] /= frames;
  return {
    windowMs,
    framesDrawn: draws.length,
    framesOffered: offered,
    framesDropped: dropped,
    fps: (draws.length / windowMs) * 1000,
    frameIntervalP50: percentile(intervals, 50),
    frameIntervalP95: percentile(intervals, 95),
    mainCpuPerFrame: mainCpu / frames,
    mainWallPerFrame: mainWall / frames,
    split,
    mainBusy: mainWall / windowMs,
  };
}

/** "script 1.2, style 0.3, layout 2.1, paint 1.0, gc 0.1, other 0.4" (ms per frame). */
export function splitText(split: FrameStats['split']): string {
  return (Object.entries(split) as [Category, number][]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * A CPU profile of the page's main thread (CDP Profiler) around `run`: the functions with the most
 * self time, as "12.3 ms set_text (index.js:3761)"; "(program)" is the browser's own work (style,
 * layout, paint), "(idle)" left out.
 */
export async function profileTop(
  context: BrowserContext,
  page: Page,
  run: () => Promise<void>,
  top = 8,
): Promise<string[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  let profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] };
  try {
    await run();
  } finally {
    ({ profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: typeof profile });
    await cdp.detach();
  }
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(root)') continue;
    const name = `${functionName || '(anonymous)'}${url ? ` (${url.split('/').pop()}:${lineNumber + 1})` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + (self.get(node.id) ?? 0));
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => `${(us / 1000).toFixed(1)} ms ${name}`);
}
