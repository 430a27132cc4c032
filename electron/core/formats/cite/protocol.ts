// Messages between the formatter and its pool workers. Plain data only (structured clone).
import type { CslItem } from '../../../../shared/model/csl';
import type { CoreBibliography, CoreStats } from './core';
import type { CslStyleDef } from './styles';
import type { CitationCluster, OutputFormat } from './types';

export interface JobBase {
  id: number;
  /** The whole definition the first time a worker sees a style version, then only its version. */
  style: CslStyleDef | { version: string };
  locale: string;
  forceLocale: boolean;
  format: OutputFormat;
  /** Locale XML the worker may not have yet, by tag. */
  locales: Record<string, string>;
  items: CslItem[];
  versions: Array<string | number | undefined>;
}

export type Job =
  | (JobBase & { kind: 'bibliography' })
  | (JobBase & { kind: 'citations'; clusters: CitationCluster[] })
  /** Builds the bibliography engine for the style and locale, and nothing else (items is empty). */
  | (JobBase & { kind: 'prepare' })
  | { id: number; kind: 'stats' };

/** What a job's reply carries (worker-rpc.ts Reply); a failure comes back as the error it was. */
export type JobResult =
  | { kind: 'bibliography'; value: CoreBibliography }
  | { kind: 'citations'; value: string[] }
  | { kind: 'prepare' }
  | { kind: 'stats'; value: CoreStats };
