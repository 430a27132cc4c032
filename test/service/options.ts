// Options of the local service, shared by the CLI, tests and benchmarks.
import type { FaultSpec } from './faults';
import type { ApiKey } from './auth';

export interface ServiceOptions {
  port: number;
  host: string;
  papers: number;
  seed: number;
  /** Corpus database file; generated when missing or made with another seed or size. */
  dbPath?: string;
  /** Added to every answer, in milliseconds. */
  latencyMs: number;
  faults: FaultSpec;
  keys: ApiKey[];
  /** Without a token, per client address. */
  anonymousPerSecond: number;
  anonymousPerMinute: number;
  /** With a token, per token. */
  keyedPerSecond: number;
  keyedPerMinute: number;
  /** realistic: seconds per assistant step; instant: every poll advances one step. */
  assistantSteps: 'realistic' | 'instant';
  /** Milliseconds per step when realistic. */
  assistantStepMs: number;
  /** Assistant requests a key may make. */
  usageMax: number;
  /** How long a reference check takes, in milliseconds (0: done at the first poll after submission). */
  referenceCheckMs: number;
  log: (message: string) => void;
}

export const DEFAULT_OPTIONS: ServiceOptions = {
  port: 8787,
  host: '127.0.0.1',
  papers: 3000,
  seed: 1,
  latencyMs: 0,
  faults: {},
  keys: [],
  anonymousPerSecond: 10,
  anonymousPerMinute: 40,
  keyedPerSecond: 100,
  keyedPerMinute: 3000,
  assistantSteps: 'realistic',
  assistantStepMs: 900,
  usageMax: 100,
  referenceCheckMs: 3000,
  log: () => {},
};
