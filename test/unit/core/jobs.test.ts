import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/ipc';
import { JobRegistry } from '../../../electron/core/jobs/registry';
import { manualClock } from '../../helpers/manual-clock';

describe('JobRegistry', () => {
  it('reports start, throttled progress and completion', async () => {
    const clock = manualClock();
    const events: JobInfo[][] = [];
    const jobs = new JobRegistry({ onChange: (l) => events.push(l), clock, throttleMs: 100 });
    let report!: (n: number) => void;
    let finish!: () => void;
    const { done } = jobs.start('enrich', 'Fetching tallies', (job) => {
      report = (n) => job.progress(n, 1000);
      return new Promise<void>((r) => (finish = r));
    });
    expect(events).toHaveLength(1);
    expect(events[0]![0]).toMatchObject({ kind: 'enrich', state: 'running', done: 0, total: null });

    for (let i = 1; i <= 50; i++) report(i * 10); // a burst at one instant: one event now at most
    expect(events.length).toBeLessThanOrEqual(2);
    clock.advance(100);
    expect(events.at(-1)![0]).toMatchObject({ done: 500, total: 1000 });

    finish();
    await done;
    expect(events.at(-1)![0]).toMatchObject({ state: 'done' });
  });

  it('cancels through the signal and reports the job as cancelled', async () => {
    const jobs = new JobRegistry({ onChange: () => {} });
    const { id, done } = jobs.start(
      'import',
      'Importing',
      (job) => new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    );
    jobs.cancel(id);
    await expect(done).rejects.toThrow();
    expect(jobs.list()[0]).toMatchObject({ state: 'cancelled', message: 'Cancelled' });
  });

  it('records a failure without exposing its internal message', async () => {
    const jobs = new JobRegistry({ onChange: () => {} });
    const { done } = jobs.start('x', 'Failing', async () => {
      throw new Error('internal detail /secret');
    });
    await expect(done).rejects.toThrow('internal detail');
    expect(jobs.list()[0]).toMatchObject({ state: 'failed', message: 'Failed; details are in the log.' });
  });

  it('answers NOT_FOUND for an unknown job and keeps only the recent finished ones', async () => {
    const jobs = new JobRegistry({ onChange: () => {}, keepFinished: 3 });
    expect(() => jobs.cancel('nope')).toThrow(/no background job/);
    for (let i = 0; i < 6; i++) await jobs.start('k', `job ${i}`, async () => i).done;
    expect(jobs.list().map((j) => j.label)).toEqual(['job 3', 'job 4', 'job 5']);
  });
});
