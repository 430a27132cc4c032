// Fault injection, so that clients can be tested for resilience.
//
// --faults "429=0.1,500=0.05,503=0.05,drop=0.02,slow=0.02,malformed=0.01,latency=50,task-failure=0.1"
//   429, 500, 503   rate of answers with that status (429 with Retry-After)
//   drop            rate of connections closed without an answer
//   slow            rate of answers whose body trickles out over slow-ms (default 3000)
//   malformed       rate of 200 answers whose JSON is cut short
//   latency         milliseconds added to every answer (also --latency)
//   jitter          random extra milliseconds, 0..jitter
//   task-failure    rate of assistant and reference-check tasks that end in FAILURE
//   slow-ms         how long a slow body takes
// A request may also force one fault with the header `x-citewise-fault: 429|500|503|drop|slow|malformed|task-failure`.
import { Rng } from './corpus/rng';

export type FaultKind = '429' | '500' | '503' | 'drop' | 'slow' | 'malformed' | 'task-failure';
export const FAULT_KINDS: readonly FaultKind[] = ['429', '500', '503', 'drop', 'slow', 'malformed', 'task-failure'];

export interface FaultSpec {
  rates?: Partial<Record<FaultKind, number>>;
  latency?: number;
  jitter?: number;
  slowMs?: number;
}

export function parseFaults(spec: string): FaultSpec {
  const out: FaultSpec = { rates: {} };
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, raw] = part.split('=') as [string, string | undefined];
    const value = Number(raw);
    if (raw === undefined || !Number.isFinite(value) || value < 0)
      throw new Error(`--faults: "${part}" is not NAME=NUMBER`);
    if (name === 'latency') out.latency = value;
    else if (name === 'jitter') out.jitter = value;
    else if (name === 'slow-ms') out.slowMs = value;
    else if ((FAULT_KINDS as readonly string[]).includes(name)) {
      if (value > 1) throw new Error(`--faults: rate of ${name} must be between 0 and 1`);
      out.rates![name as FaultKind] = value;
    } else
      throw new Error(
        `--faults: unknown fault "${name}"; known: ${[...FAULT_KINDS, 'latency', 'jitter', 'slow-ms'].join(', ')}`,
      );
  }
  return out;
}

export class FaultInjector {
  private readonly rng: Rng;
  constructor(
    private readonly spec: FaultSpec,
    seed: number,
  ) {
    this.rng = new Rng(seed, 77);
  }

  /** The fault to apply to a request, if any (a forced one from the header wins). */
  pick(
    forced: string | undefined,
    kinds: readonly FaultKind[] = ['429', '500', '503', 'drop', 'slow', 'malformed'],
  ): FaultKind | undefined {
    if (forced && (FAULT_KINDS as readonly string[]).includes(forced)) return forced as FaultKind;
    const rates = this.spec.rates ?? {};
    for (const k of kinds) {
      const rate = rates[k] ?? 0;
      if (rate > 0 && this.rng.next() < rate) return k;
    }
    return undefined;
  }

  taskFails(forced: string | undefined): boolean {
    return forced === 'task-failure' || this.pick(undefined, ['task-failure']) === 'task-failure';
  }

  delayMs(base: number): number {
    const jitter = this.spec.jitter ? this.rng.next() * this.spec.jitter : 0;
    return base + (this.spec.latency ?? 0) + jitter;
  }

  get slowMs(): number {
    return this.spec.slowMs ?? 3000;
  }
}
