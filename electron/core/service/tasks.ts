// Assistant and reference-check tasks: started once (never retried: a retry would start a second
// task), then polled with growing intervals until a terminal status. Progress is reported whenever
// it changes. A deadline ends the wait with TIMEOUT, because the service answers PENDING forever for
// a task it does not know; cancelling (or the deadline) also asks the service to cancel the task.
import {
  isTerminalTaskStatus,
  type AssistantTask,
  type ReferenceCheckTask,
  type TaskStatus,
} from '../../../shared/service';
import type { TaskKind, TaskProgress } from '../../../shared/model/service';
import type { Clock } from '../clock';
import { ServiceError } from './errors';
import type { CallOptions } from './transport';

export type { TaskKind, TaskProgress };

export interface TaskWaitOptions {
  signal?: AbortSignal | undefined;
  /** How long to wait for a terminal status; 10 minutes by default. */
  deadlineMs?: number | undefined;
  pollInitialMs?: number | undefined;
  pollMaxMs?: number | undefined;
  onProgress?: ((progress: TaskProgress) => void) | undefined;
}

export function assistantProgress(taskId: string, task: AssistantTask): TaskProgress {
  const p: TaskProgress = { taskId, kind: 'assistant', status: task.status };
  const info = task.info;
  if (info) {
    if (info.step !== undefined) p.step = info.step;
    if (info.stepNumber !== undefined) p.stepNumber = info.stepNumber;
    if (info.response !== undefined) p.response = info.response;
    if (info.searches !== undefined) p.searches = info.searches;
    if (info.currentSearch !== undefined) p.currentSearch = info.currentSearch;
    if (info.publicationsConsulting !== undefined) p.publicationsConsulting = info.publicationsConsulting;
    if (info.publicationsUsed !== undefined) p.publicationsUsed = info.publicationsUsed;
  }
  return p;
}

export function referenceCheckProgress(taskId: string, task: ReferenceCheckTask): TaskProgress {
  const p: TaskProgress = { taskId, kind: 'reference-check', status: task.status };
  if (task.info) {
    p.stepNumber = task.info.step;
    p.totalSteps = task.info.totalSteps;
    p.description = task.info.description;
  }
  return p;
}

export interface PollSpec<T extends { status: TaskStatus }> {
  taskId: string;
  kind: TaskKind;
  clock: Clock;
  get: (options: CallOptions) => Promise<T>;
  cancel: () => Promise<unknown>;
  progress: (task: T) => TaskProgress;
}

/** Polls until a terminal status; returns the final task (SUCCESS, FAILURE, REVOKED or CANCELLED). */
export async function waitForTask<T extends { status: TaskStatus }>(
  spec: PollSpec<T>,
  options: TaskWaitOptions = {},
): Promise<T> {
  const { clock } = spec;
  const deadlineMs = options.deadlineMs ?? 600_000;
  const deadlineAt = clock.now() + deadlineMs;
  const initial = options.pollInitialMs ?? 500;
  const max = options.pollMaxMs ?? 5000;
  let delay = initial;
  let last = '';
  const cancelQuietly = async () => {
    try {
      await spec.cancel();
    } catch {
      // The task is abandoned either way; the service may already have finished it.
    }
  };
  try {
    for (;;) {
      const remaining = deadlineAt - clock.now();
      const task = await spec.get({ signal: options.signal, deadlineMs: Math.max(1000, Math.min(remaining, 60_000)) });
      const progress = spec.progress(task);
      const text = JSON.stringify(progress);
      if (text !== last) {
        last = text;
        options.onProgress?.(progress);
        delay = initial; // a task that moves is worth watching closely
      }
      if (isTerminalTaskStatus(task.status)) return task;
      if (clock.now() + delay > deadlineAt) {
        await cancelQuietly();
        throw new ServiceError(
          'TIMEOUT',
          `The ${spec.kind === 'assistant' ? 'assistant' : 'reference check'} did not finish within ${Math.round(deadlineMs / 1000)} s (last status ${task.status}); Citewise stopped waiting and asked the service to cancel it.`,
          { operation: spec.kind, detail: { taskId: spec.taskId, status: task.status } },
        );
      }
      await clock.sleep(delay, options.signal);
      delay = Math.min(max, Math.round(delay * 1.5));
    }
  } catch (err) {
    if (options.signal?.aborted) {
      await cancelQuietly();
      throw new ServiceError(
        'CANCELLED',
        `The ${spec.kind === 'assistant' ? 'assistant request' : 'reference check'} was cancelled.`,
        { operation: spec.kind, detail: { taskId: spec.taskId } },
      );
    }
    throw err;
  }
}
