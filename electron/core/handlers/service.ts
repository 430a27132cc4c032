// The service feature: the renderer's way to the service client. The key goes in (set) and never
// comes out: status and check describe it, nothing returns it. Tasks run as background jobs and
// report through service.task.* events.
import type { serviceFeature, ServiceConfig, TaskFinished, TaskStarted } from '../../../shared/ipc';
import { evidenceTallyFromApi, inUiWords, type EvidenceTally } from '../../../shared/model/evidence';
import type { KeyCheckResult, TaskKind, TaskProgress } from '../../../shared/model/service';
import { GUESSES, SERVICE_SCOPES, type AssistantPollRequest, type Tally } from '../../../shared/service';
import { CoreError, toIpcError } from '../errors';
import type { EventBus } from '../events';
import type { JobRegistry } from '../jobs/registry';
import type { FeatureHandlers } from '../registry';
import { SCOPE_DESCRIPTIONS, type ServiceClient } from '../service';
import type { ServiceKeys } from '../service/keys';

export interface ServiceHandlerDeps {
  client: ServiceClient;
  keys: ServiceKeys;
  config: { get(): ServiceConfig; set(url: string | null): ServiceConfig };
  events: EventBus;
  jobs: JobRegistry;
  report: (err: unknown) => void;
}

function tallies(map: Record<string, Tally> | undefined): Record<string, EvidenceTally> {
  const out: Record<string, EvidenceTally> = {};
  for (const [doi, t] of Object.entries(map ?? {})) out[doi.toLowerCase()] = evidenceTallyFromApi(t, doi.toLowerCase());
  return out;
}

async function first<T>(pages: AsyncGenerator<T, void, undefined>): Promise<T> {
  try {
    const { value, done } = await pages.next();
    if (done) throw new CoreError('INTERNAL', 'The service answered with no page.');
    return value;
  } finally {
    await pages.return(undefined);
  }
}

const STEP_COUNT: Record<TaskKind, number> = { assistant: 7, 'reference-check': 0 };

/** Starts service tasks as background jobs that report through service.task.* events; one per core. */
export interface TaskRunner {
  startAssistant(
    request: AssistantPollRequest,
    deadlineMs: number | undefined,
    signal: AbortSignal,
  ): Promise<TaskStarted>;
  startReferenceCheck(
    source: { fileUrl: string } | { file: { name: string; data: Blob } },
    deadlineMs: number | undefined,
    signal: AbortSignal,
  ): Promise<TaskStarted>;
  cancel(kind: TaskKind, taskId: string, signal: AbortSignal): Promise<{ cancelled: boolean }>;
}

export function taskRunner(deps: Pick<ServiceHandlerDeps, 'client' | 'events' | 'jobs' | 'report'>): TaskRunner {
  const { client, events, jobs } = deps;
  /** Running tasks: task id → job id, so either id cancels. */
  const running = new Map<string, string>();

  function follow(
    kind: TaskKind,
    taskId: string,
    label: string,
    wait: (signal: AbortSignal, onProgress: (p: TaskProgress) => void) => Promise<TaskFinished>,
  ): TaskStarted {
    const job = jobs.start(kind, label, async (control) => {
      running.set(taskId, control.id);
      let finished: TaskFinished;
      try {
        finished = await wait(control.signal, (p) => {
          events.emit('service.task.progress', p);
          const total = p.totalSteps ?? STEP_COUNT[kind];
          control.progress(p.stepNumber ?? 0, total || null, p.step ?? p.description ?? p.status);
        });
      } catch (err) {
        const error = toIpcError(err, deps.report);
        const status: TaskFinished['status'] =
          error.code === 'TIMEOUT' ? 'TIMEOUT' : error.code === 'CANCELLED' ? 'CANCELLED' : 'ERROR';
        events.emit('service.task.finished', { taskId, kind, status, error });
        throw err;
      } finally {
        running.delete(taskId);
      }
      events.emit('service.task.finished', finished);
      // The job list shows a failed task as failed, with the service's reason.
      if (finished.error) throw new CoreError(finished.error.code, finished.error.message);
      return finished;
    });
    return { taskId, kind, jobId: job.id };
  }

  return {
    async startAssistant(request, deadlineMs, signal) {
      const started = await client.startAssistant(request, { signal });
      const question = request.userInput.length > 60 ? `${request.userInput.slice(0, 57)}…` : request.userInput;
      return follow('assistant', started.id, `Assistant: ${question}`, async (jobSignal, onProgress) => {
        const task = await client.waitForAssistant(started.id, { signal: jobSignal, deadlineMs, onProgress });
        const done: TaskFinished = { taskId: started.id, kind: 'assistant', status: task.status, assistant: task };
        if (task.status === 'FAILURE')
          done.error = {
            code: 'SERVICE_ERROR',
            message: `The assistant could not answer: ${task.error ?? 'the service gave no reason'}.`,
          };
        return done;
      });
    },
    async startReferenceCheck(source, deadlineMs, signal) {
      const taskId = await client.startReferenceCheck(source, { signal });
      const label = 'file' in source ? `Reference check: ${source.file.name}` : 'Reference check';
      return follow('reference-check', taskId, label, async (jobSignal, onProgress) => {
        const task = await client.waitForReferenceCheck(taskId, { signal: jobSignal, deadlineMs, onProgress });
        const done: TaskFinished = { taskId, kind: 'reference-check', status: task.status, referenceCheck: task };
        if (task.status === 'FAILURE')
          done.error = {
            code: 'SERVICE_ERROR',
            message: `The reference check failed: ${task.error ?? 'the service gave no reason'}.`,
          };
        return done;
      });
    },
    async cancel(kind, taskId, signal) {
      const jobId = running.get(taskId);
      if (jobId) {
        jobs.cancel(jobId); // the job's wait then asks the service to cancel
        return { cancelled: true };
      }
      if (kind === 'assistant') await client.op.cancelAssistantTask({ path: { task_id: taskId } }, { signal });
      else await client.op.cancelReferenceCheckTask({ path: { task_id: taskId } }, { signal });
      return { cancelled: true };
    },
  };
}

export function serviceHandlers(deps: ServiceHandlerDeps & { tasks?: TaskRunner }) {
  const { client, keys, events } = deps;
  const tasks = deps.tasks ?? taskRunner(deps);

  return {
    // ── key and address ──
    'service.key.set': async ({ key }) => {
      const status = await keys.set(key);
      events.emit('service.key.changed', status);
      return status;
    },
    'service.key.check': async (_input, ctx): Promise<KeyCheckResult> => {
      const key = await keys.get();
      if (!key) {
        return {
          valid: false,
          summary:
            'No API key is set: only public lookups (papers, tallies, journals, search) are available, at the anonymous rate limit.',
          access: SERVICE_SCOPES.map((scope) => ({
            scope,
            label: SCOPE_DESCRIPTIONS[scope],
            granted: scope === 'public' ? true : false,
          })),
        };
      }
      return client.checkKey(key, ctx.signal);
    },
    'service.key.clear': async () => {
      const status = await keys.clear();
      events.emit('service.key.changed', status);
      return status;
    },
    'service.key.status': () => keys.status(),
    'service.config.get': () => deps.config.get(),
    'service.config.set': ({ serviceUrl }) => {
      const next = deps.config.set(serviceUrl);
      events.emit('service.config.changed', next);
      return next;
    },
    // ── papers and tallies ──
    'service.paper': ({ doi }, ctx) => client.paper(doi, { signal: ctx.signal }),
    'service.tally': ({ doi }, ctx) => client.tally(doi, { signal: ctx.signal }),
    'service.papers': ({ dois }, ctx) => client.papers(dois, { signal: ctx.signal }),
    'service.tallies': ({ dois }, ctx) => client.tallies(dois, { signal: ctx.signal }),
    'service.tallies.aggregate': ({ dois }, ctx) => client.aggregateTally(dois, { signal: ctx.signal }),
    // ── citation graph ──
    'service.citing.page': ({ doi, offset, limit, papers, tallies: withTallies, sourceDois }, ctx) =>
      first(
        client.citing(doi, { offset, pageSize: limit, papers, tallies: withTallies, sourceDois, signal: ctx.signal }),
      ),
    'service.citedBy': async ({ doi, papers, tallies: withTallies }, ctx) => {
      const answer = await client.op.getCitedByCitations(
        { path: { doi }, query: { ...(papers ? { papers } : {}), ...(withTallies ? { tallies: withTallies } : {}) } },
        { signal: ctx.signal },
      );
      return {
        citations: inUiWords(answer.citations),
        papers: inUiWords(answer.papers ?? {}),
        tallies: tallies(answer.tallies),
      };
    },
    'service.references.to.page': ({ doi, offset, limit, papers, tallies: withTallies, sourceDois }, ctx) =>
      first(
        client.referencesTo(doi, {
          offset,
          pageSize: limit,
          papers,
          tallies: withTallies,
          sourceDois,
          signal: ctx.signal,
        }),
      ),
    'service.references.from': async ({ doi, papers, tallies: withTallies }, ctx) => {
      const answer = await client.op.getReferencesFrom(
        { path: { doi }, query: { ...(papers ? { papers } : {}), ...(withTallies ? { tallies: withTallies } : {}) } },
        { signal: ctx.signal },
      );
      return { ...inUiWords(answer), tallies: tallies(answer.tallies) };
    },
    // ── authors and journals ──
    'service.author.papers': async ({ slug, offset, limit }, ctx) =>
      inUiWords(
        await client.op.getAuthorPapers(
          { path: { author_slug: slug }, query: { offset, limit } },
          { signal: ctx.signal },
        ),
      ),
    'service.journal.index': ({ issn, year }, ctx) =>
      client.op.getJournalIndex({ query: { issn, ...(year ? { year } : {}) } }, { signal: ctx.signal }),
    'service.journal.indexBulk': ({ issns }, ctx) => client.journalIndex(issns, { signal: ctx.signal }),
    'service.journal.notices': ({ issns }, ctx) => client.editorialNotices(issns, { signal: ctx.signal }),
    // ── collections and search ──
    'service.collections.create': (body, ctx) =>
      client.op.createCollection({ body: body as never }, { signal: ctx.signal }),
    'service.collections.get': ({ slug }, ctx) =>
      client.op.getCollection({ path: { collection_slug: slug } }, { signal: ctx.signal }),
    'service.search': async (query, ctx) => inUiWords(await client.op.search({ query }, { signal: ctx.signal })),
    // ── evidence ──
    'service.evidence.search': async ({ dataset, q, filter, sort, direction, page }, ctx) => {
      const number = page ?? GUESSES.evidencePageBase;
      const answer = (await client.evidencePage(dataset, { q, filter, sort, direction }, number, {
        signal: ctx.signal,
      })) as unknown as Record<string, unknown> & { totalResults: number; results: unknown[] };
      return { page: number, totalResults: answer.totalResults, results: answer.results, raw: answer };
    },
    'service.evidence.schema': ({ dataset }, ctx) => client.evidenceSchema(dataset, { signal: ctx.signal }),
    'service.evidence.record': async ({ kind, id }, ctx) => {
      const o = { signal: ctx.signal };
      if (kind === 'grant') return (await client.op.getGrant({ path: { grant_id: id } }, o)) as Record<string, unknown>;
      if (kind === 'device510k')
        return (await client.op.getDevice510k({ path: { device_id: id } }, o)) as Record<string, unknown>;
      return (await client.op.getFaersReport({ path: { report_id: id } }, o)) as Record<string, unknown>;
    },
    'service.evidence.maudeFacets': ({ qs, fs, whitelist }, ctx) =>
      client.op.getMaudeFacets(
        { body: { qs, ...(fs !== undefined ? { fs } : {}), ...(whitelist ? { whitelist } : {}) } },
        { signal: ctx.signal },
      ),
    // ── tasks ──
    'service.assistant.start': ({ request, deadlineMs }, ctx) =>
      tasks.startAssistant(request as AssistantPollRequest, deadlineMs, ctx.signal),
    'service.assistant.cancel': ({ taskId }, ctx) => tasks.cancel('assistant', taskId, ctx.signal),
    'service.referenceCheck.start': ({ fileUrl, deadlineMs }, ctx) =>
      tasks.startReferenceCheck({ fileUrl }, deadlineMs, ctx.signal),
    'service.referenceCheck.cancel': ({ taskId }, ctx) => tasks.cancel('reference-check', taskId, ctx.signal),
    'service.referenceCheck.reportUrl': ({ taskId }, ctx) =>
      client.op.getReferenceCheckResultUrl({ path: { task_id: taskId } }, { signal: ctx.signal }),
  } satisfies FeatureHandlers<typeof serviceFeature>;
}
