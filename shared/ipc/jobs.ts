import { z } from 'zod';
import { event, feature, request } from './define';

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

/** A background job as the status bar shows it. `total` is null while the size of the work is unknown. */
export interface JobInfo {
  id: string;
  kind: string;
  label: string;
  state: JobState;
  done: number;
  total: number | null;
  startedAt: string;
  finishedAt: string | null;
  message: string;
}

export const jobsFeature = feature({
  requests: {
    'jobs.list': request(z.object({}).strict()).returns<JobInfo[]>(),
    'jobs.cancel': request(z.object({ id: z.string().min(1).max(200) }).strict()).returns<JobInfo>(),
  },
  events: {
    /** The full list of jobs that are running or finished recently; sent on every change (throttled). */
    'jobs.changed': event<JobInfo[]>(),
  },
});
