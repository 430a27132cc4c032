// The benchmark harness's interface: every file in test/bench/cases exports one BenchCase as default.
// `npm run bench` runs them all (or those named on the command line), writes one JSON file per case
// to bench-results/ and prints a table, then rewrites docs/benchmarks.md and the README's summary of it (not with --quick or --no-readme).

export interface BenchMetric {
  /** What was measured, e.g. "IPC round trip p99 (WebSocket)". */
  metric: string;
  value: number;
  unit: 'ms' | 's' | 'MB' | 'requests' | 'fps' | 'ops/s' | 'count' | 'ratio';
  /** The target, as text, e.g. "≤ 5 ms"; omitted when there is none. */
  target?: string;
  /** Whether the value meets the target; omitted when there is no target. */
  pass?: boolean;
  note?: string;
}

export interface BenchContext {
  /** The repository root. */
  root: string;
  /** A fresh temporary directory for this case, removed afterwards. */
  tmpDir: string;
  /** Set by `npm run bench -- --quick` (used by CI to check that benchmarks run): smaller sizes, fewer iterations. */
  quick: boolean;
  log(message: string): void;
}

export interface BenchCase {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchMetric[]>;
}

export function percentile(sortedAscending: readonly number[], p: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const rank = Math.min(sortedAscending.length - 1, Math.max(0, Math.ceil((p / 100) * sortedAscending.length) - 1));
  return sortedAscending[rank]!;
}
