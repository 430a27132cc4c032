// The assistant feature: questions go to the service as tasks (through the service feature's task
// runner, so progress and cancelling work as for every task) and are kept in the library with their
// answers; drafts, adding references and reference checks build on what is stored.
import type {
  AddReferencesReport,
  AssistantAsked,
  AssistantChange,
  AssistantDraft,
  IpcError,
  LibraryChange,
  TaskFinished,
  assistantFeature,
} from '../../../shared/ipc';
import {
  answerBody,
  answerParts,
  citedOrder,
  cslFromReference,
  escapeHtml,
  keepReferences,
  markdownDraft,
  replaceMarkers,
  type AssistantOptions,
  type AssistantTurnRecord,
} from '../../../shared/model/assistant';
import { citationKeyBase, uniqueCitationKey } from '../../../shared/model/citekey';
import type { CitationStyleId, CslItem } from '../../../shared/model/csl';
import { parseDoi } from '../../../shared/model/doi';
import type { AssistantPollRequest, AssistantTurn } from '../../../shared/service';
import { CoreError, toIpcError } from '../errors';
import type { EventBus } from '../events';
import type { CiteFormatter } from '../formats/cite';
import { exportItems } from '../formats';
import { addDois, type PaperSource } from '../library/add-dois';
import type { LibraryClient } from '../library/client';
import type { FeatureHandlers, HandlerContext } from '../registry';
import type { TaskRunner } from './service';

export interface AssistantHandlerDeps {
  library: LibraryClient;
  events: EventBus;
  tasks: TaskRunner;
  service: PaperSource;
  formatter: () => CiteFormatter;
  /** Told after items were added or put in a collection (library.changed, auto-exports). */
  changed: (change: LibraryChange) => void;
  /** Told which items were created, to enrich them. */
  onAdded: (ids: readonly number[]) => void;
  report: (err: unknown) => void;
  /**
   * Mark questions left waiting by an earlier run as failed. Only the app does: a command-line run or
   * a test core beside a running app must not fail the questions the app is waiting on.
   */
  interruptLeftovers: boolean;
}

/** The most DOIs the assistant is given to restrict an answer to (the service's list limit is unpublished). */
export const MAX_SCOPE_DOIS = 1000;

type Scope =
  | { kind: 'any' }
  | { kind: 'collection'; collectionId: number }
  | { kind: 'library' }
  | { kind: 'dois'; dois: string[] };

/** The turns sent with a follow-up question: what was asked and answered, with the feedback given. */
export function priorTurns(records: readonly AssistantTurnRecord[], before: number): AssistantTurn[] {
  const turns: AssistantTurn[] = [];
  for (const r of records) {
    if (r.position >= before || r.status !== 'answered' || !r.answer) continue;
    turns.push({ role: 'user', content: r.question });
    const answer: AssistantTurn = { role: 'assistant', content: r.answer.content };
    if (r.feedback)
      answer.feedback = { feedbackType: r.feedback.value, ...(r.feedback.reason ? { reason: r.feedback.reason } : {}) };
    turns.push(answer);
  }
  return turns;
}

/**
 * A refusal that is about the plan's usage rather than the key's access says so (the service answers
 * 403 for both), with the usage it reports.
 */
export function explain(error: IpcError): { error: IpcError; usage?: { used: number; max: number } } {
  const detail = (error.details as { detail?: unknown } | undefined)?.detail;
  if (error.code !== 'FORBIDDEN' || typeof detail !== 'string' || !/usage|limit|quota/i.test(detail)) return { error };
  const m = /(\d+)\s+of\s+(\d+)/.exec(detail);
  const usage = m ? { used: Number(m[1]), max: Number(m[2]) } : undefined;
  return {
    error: {
      ...error,
      message: `The assistant's usage limit is reached${usage ? ` (${usage.used} of ${usage.max} requests used)` : ''}: ${detail.replace(/\.$/, '')}. The limit comes with your scite plan; the account console shows when it resets.`,
    },
    ...(usage ? { usage } : {}),
  };
}

export function assistantHandlers(deps: AssistantHandlerDeps) {
  const { library, events } = deps;
  const lib = library.lib;
  const emit = (change: AssistantChange): void => events.emit('assistant.changed', change);
  // Questions left waiting by a previous run of the app have no task any more.
  if (deps.interruptLeftovers) void library.assistant.interruptPending().catch(deps.report);

  async function scopeDois(scope: Scope): Promise<{ dois?: string[]; label: string | null }> {
    if (scope.kind === 'any') return { label: null };
    if (scope.kind === 'dois')
      return { dois: scope.dois, label: `${scope.dois.length} DOI${scope.dois.length === 1 ? '' : 's'}` };
    let label = 'the library';
    let ids: number[];
    if (scope.kind === 'collection') {
      const collection = (await lib.listCollections()).find((c) => c.id === scope.collectionId);
      if (!collection)
        throw new CoreError('NOT_FOUND', `Collection ${scope.collectionId} is not in the library.`, {
          field: 'scope.collectionId',
        });
      label = `collection “${collection.name}”`;
      ids = await library.listing.idsOf({ collectionId: scope.collectionId });
    } else ids = await library.listing.idsOf({});
    const dois = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const item of await lib.cslOf(ids.slice(i, i + 500))) {
        const doi = typeof item.DOI === 'string' ? parseDoi(item.DOI) : null;
        if (doi?.ok) dois.add(doi.doi);
      }
      if (dois.size > MAX_SCOPE_DOIS) {
        throw new CoreError(
          'INVALID_INPUT',
          `${label[0]!.toUpperCase()}${label.slice(1)} has more than ${MAX_SCOPE_DOIS} DOIs; the assistant can be restricted to at most ${MAX_SCOPE_DOIS}. Choose a smaller collection.`,
          { field: 'scope' },
        );
      }
    }
    if (dois.size === 0)
      throw new CoreError(
        'INVALID_INPUT',
        `${label[0]!.toUpperCase()}${label.slice(1)} has no items with a DOI, so the answer cannot be restricted to it.`,
        { field: 'scope' },
      );
    return { dois: [...dois], label };
  }

  /** Sends a stored question to the service and stores what comes back. */
  async function send(
    turn: AssistantTurnRecord,
    dois: string[] | undefined,
    deadlineMs: number | undefined,
    ctx: HandlerContext,
  ): Promise<AssistantAsked> {
    const session = await library.assistant.getSession(turn.sessionId);
    const { effort, ...options } = turn.options;
    const request: AssistantPollRequest = {
      ...options,
      userInput: turn.question,
      turns: priorTurns(session.records, turn.position),
      saveSession: true,
      ...(session.remoteSessionId !== null ? { sessionId: session.remoteSessionId } : {}),
      ...(dois ? { dois } : {}),
    };
    if (effort) (request as AssistantPollRequest & { effort?: string }).effort = effort;
    // Finished events are collected from before the start, so a task that ends at once is not missed.
    const early: TaskFinished[] = [];
    let taskId: string | null = null;
    const done = async (f: TaskFinished): Promise<void> => {
      stop();
      try {
        const usage = f.assistant?.usage;
        const answer =
          f.status === 'SUCCESS'
            ? [...(f.assistant?.result?.turns ?? [])].reverse().find((t) => t.role === 'assistant')
            : undefined;
        if (answer) {
          await library.assistant.answerTurn(
            turn.id,
            { answer, usage, remoteSessionId: f.assistant?.result?.sessionId },
            f.taskId,
          );
          emit({ sessionId: turn.sessionId, turnId: turn.id, kind: 'answered' });
          return;
        }
        const error =
          f.error ??
          (f.status === 'SUCCESS'
            ? { code: 'SERVICE_ERROR' as const, message: 'The assistant finished without an answer.' }
            : {
                code: f.status === 'CANCELLED' ? ('CANCELLED' as const) : ('SERVICE_ERROR' as const),
                message: `The assistant task ended as ${f.status}.`,
              });
        await library.assistant.failTurn(
          turn.id,
          f.status === 'CANCELLED' || error.code === 'CANCELLED' ? 'cancelled' : 'failed',
          { code: error.code, message: error.message },
          usage,
          f.taskId,
        );
        emit({ sessionId: turn.sessionId, turnId: turn.id, kind: 'failed' });
      } catch (err) {
        // The conversation was deleted while its question ran: nothing is left to store the outcome in.
        if (!(err instanceof CoreError && err.code === 'NOT_FOUND')) deps.report(err);
      }
    };
    const stop = events.on('service.task.finished', (f) => {
      if (f.kind !== 'assistant') return;
      if (taskId === null) early.push(f);
      else if (f.taskId === taskId) void done(f);
    });
    try {
      const task = await deps.tasks.startAssistant(request, deadlineMs, ctx.signal);
      taskId = task.taskId;
      await library.assistant.setTask(turn.id, task.taskId);
      const already = early.find((f) => f.taskId === task.taskId);
      if (already) void done(already);
      return { sessionId: turn.sessionId, turnId: turn.id, task };
    } catch (err) {
      stop();
      const { error, usage } = explain(toIpcError(err, deps.report));
      await library.assistant.failTurn(
        turn.id,
        error.code === 'CANCELLED' ? 'cancelled' : 'failed',
        { code: error.code, message: error.message },
        usage,
      );
      emit({ sessionId: turn.sessionId, turnId: turn.id, kind: 'failed' });
      throw new CoreError(error.code, error.message, error.details);
    }
  }

  /** Citation keys for the cited references: the library's for papers in it, new unique ones for the others. */
  async function draftItems(
    refs: AssistantTurnRecord['references'],
    numbers: readonly number[],
  ): Promise<{
    items: CslItem[];
    keyOf: Map<number, string>;
    notInLibrary: number[];
    /** The library id of each item (by its key) that is in the library. */
    libraryId: Map<string, number>;
  }> {
    const doiOf = (n: number): string | null => {
      const d = refs[n - 1]?.doi ?? refs[n - 1]?.paper?.doi;
      const parsed = d ? parseDoi(d) : null;
      return parsed?.ok ? parsed.doi : null;
    };
    const byDoi = await lib.idsByDoi(numbers.map(doiOf).filter((d): d is string => d !== null));
    const idList = [...new Set(Object.values(byDoi))];
    const libItems = new Map((await lib.cslOf(idList)).map((item, i) => [idList[i]!, item]));
    const items: CslItem[] = [];
    const keyOf = new Map<number, string>();
    const notInLibrary: number[] = [];
    const libraryId = new Map<string, number>();
    const taken = new Set<string>();
    for (const n of numbers) {
      const doi = doiOf(n);
      const existing = doi && byDoi[doi] !== undefined ? libItems.get(byDoi[doi]) : undefined;
      if (existing && !taken.has(existing.id)) {
        taken.add(existing.id);
        items.push(existing);
        libraryId.set(existing.id, byDoi[doi!]!);
        keyOf.set(n, existing.id);
        continue;
      }
      if (existing) {
        keyOf.set(n, existing.id); // two numbers for one paper
        continue;
      }
      const provisional = cslFromReference(refs[n - 1]!, 'draft');
      let key = uniqueCitationKey(citationKeyBase(provisional), (k) => taken.has(k));
      while ((await lib.findByCitationKey(key)) !== null) {
        taken.add(key);
        key = uniqueCitationKey(citationKeyBase(provisional), (k) => taken.has(k));
      }
      taken.add(key);
      items.push({ ...provisional, id: key, 'citation-key': key });
      keyOf.set(n, key);
      notInLibrary.push(n);
    }
    return { items, keyOf, notInLibrary, libraryId };
  }

  /**
   * The draft as a .docx or .odt whose citations are live Zotero fields, formatted by the same
   * refresh the word-processor plugins run (api/integration/file-document.ts).
   */
  async function draftFile(
    kind: 'docx' | 'odt',
    parts: ReturnType<typeof answerParts>,
    keyOf: Map<number, string>,
    items: CslItem[],
    libraryId: Map<string, number>,
    style: string,
  ): Promise<{ name: string; mime: string; base64: string }> {
    const { draftDocumentFile, DocumentFileError } = await import('../../api/integration/file-document');
    const { assetStyles, ITEM_URI_PREFIX, libraryIntegration } = await import('../../api/integration');
    const { ZOTERO_VERSION } = await import('../../api/connector');
    const byKey = new Map(items.map((i) => [i.id, i]));
    const ids = [...libraryId.values()];
    const zoteroKeys = ids.length ? await lib.zoteroKeysOf('item', ids) : [];
    const zoteroKeyOf = new Map(ids.map((id, i) => [id, zoteroKeys[i]!]));
    const citationItem = (key: string) => {
      const id = libraryId.get(key);
      const itemData = byKey.get(key)!;
      return id !== undefined
        ? { id, uris: [`${ITEM_URI_PREFIX}${zoteroKeyOf.get(id)}`], itemData }
        : { id: key, uris: [], itemData };
    };
    // The answer's paragraphs (blank lines), each text and citation clusters in order.
    const paragraphs: (string | { citationItems: ReturnType<typeof citationItem>[] })[][] = [[]];
    parts.forEach((p, i) => {
      if (p.kind === 'cite') {
        const keys = [...new Set(p.numbers.map((n) => keyOf.get(n)!))];
        paragraphs[paragraphs.length - 1]!.push({ citationItems: keys.map(citationItem) });
        return;
      }
      // The space before a citation is the style's to put (as in the copied draft).
      const text = parts[i + 1]?.kind === 'cite' ? p.text.replace(/[ \t]+$/, ' ') : p.text;
      text.split(/\n{2,}/).forEach((chunk, j) => {
        if (j > 0) paragraphs.push([]);
        if (chunk) paragraphs[paragraphs.length - 1]!.push(chunk.replace(/\n/g, ' '));
      });
    });
    try {
      const { bytes } = await draftDocumentFile(
        kind,
        { paragraphs: paragraphs.filter((p) => p.length > 0), heading: 'References', styleID: style },
        {
          library: libraryIntegration(
            async () => ({ lib }),
            // Not imported from here: items the library lacks are cited from their embedded data.
            async (items) => items.map(() => null),
          ),
          styles: assetStyles(),
          version: ZOTERO_VERSION,
          uriPrefix: ITEM_URI_PREFIX,
        },
      );
      return {
        name: `draft.${kind}`,
        mime:
          kind === 'docx'
            ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
            : 'application/vnd.oasis.opendocument.text',
        base64: bytes.toString('base64'),
      };
    } catch (err) {
      if (err instanceof DocumentFileError)
        throw new CoreError('INTERNAL', `The draft could not be written: ${err.message}`);
      throw err;
    }
  }

  const paragraphs = (escaped: string): string =>
    escaped
      .split(/\n{2,}/)
      .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
      .join('\n');

  return {
    'assistant.ask': async ({ sessionId, question, options, scope, deadlineMs }, ctx) => {
      const { dois, label } = await scopeDois(scope as Scope);
      const turn = await library.assistant.addQuestion(sessionId, {
        question,
        options: { ...(options as AssistantOptions), ...(dois ? { dois } : {}) },
        scopeLabel: label,
      });
      emit({ sessionId: turn.sessionId, turnId: turn.id, kind: 'asked' });
      return send(turn, dois, deadlineMs, ctx);
    },
    'assistant.retry': async ({ turnId, deadlineMs }, ctx) => {
      const turn = await library.assistant.retryQuestion(turnId);
      emit({ sessionId: turn.sessionId, turnId: turn.id, kind: 'asked' });
      return send(turn, turn.options.dois, deadlineMs, ctx);
    },
    'assistant.sessions.list': () => library.assistant.listSessions(),
    'assistant.sessions.get': ({ id }) => library.assistant.getSession(id),
    'assistant.sessions.rename': async ({ id, title }) => {
      const s = await library.assistant.renameSession(id, title);
      emit({ sessionId: id, kind: 'renamed' });
      return s;
    },
    'assistant.sessions.delete': async ({ id }, ctx) => {
      const session = await library.assistant.getSession(id);
      // A question still running is cancelled with its conversation.
      for (const r of session.records)
        if (r.status === 'pending' && r.taskId)
          await deps.tasks.cancel('assistant', r.taskId, ctx.signal).catch(deps.report);
      await library.assistant.deleteSession(id);
      emit({ sessionId: id, kind: 'deleted' });
      return null;
    },
    'assistant.feedback': async ({ turnId, value, reason }) => {
      const turn = await library.assistant.setFeedback(turnId, value, reason);
      emit({ sessionId: turn.sessionId, turnId, kind: 'feedback' });
      return turn;
    },
    'assistant.references.add': async ({ turnId, numbers, collectionId }, { signal }): Promise<AddReferencesReport> => {
      const turn = await library.assistant.getTurn(turnId);
      if (turn.references.length === 0) throw new CoreError('CONFLICT', 'This answer has no references to add.');
      const chosen = numbers ?? turn.references.map((_, i) => i + 1);
      const missing = chosen.filter((n) => n > turn.references.length);
      if (missing.length > 0)
        throw new CoreError(
          'INVALID_INPUT',
          `The answer has ${turn.references.length} references; there is no reference ${missing.join(', ')}.`,
          { field: 'numbers' },
        );
      if (collectionId !== null && !(await lib.listCollections()).some((c) => c.id === collectionId)) {
        throw new CoreError('NOT_FOUND', `Collection ${collectionId} is not in the library.`, {
          field: 'collectionId',
        });
      }
      const doiOf = (n: number): string => turn.references[n - 1]!.doi ?? turn.references[n - 1]!.paper?.doi ?? '';
      const dois = chosen.map(doiOf).filter(Boolean);
      const { ids, ...report } = await addDois(library, deps.service, dois, { signal, source: 'assistant' });
      // A reference without a DOI (a patent, say) cannot be added by DOI: it is reported, not dropped.
      for (const n of chosen)
        if (!doiOf(n)) report.notAdded.push({ doi: `reference ${n}`, reason: 'it has no DOI', code: 'INVALID_INPUT' });
      const all = [...ids, ...report.duplicates.map((d) => d.existingId)];
      if (collectionId !== null && all.length > 0) await lib.addToCollection(collectionId, all);
      if (all.length > 0) deps.changed({ kind: 'items', ids: all });
      if (ids.length > 0) deps.onAdded(ids);
      return { ...report, collectionId };
    },
    'assistant.draft': async ({ turnId, style, format, numbers }): Promise<AssistantDraft> => {
      const turn = await library.assistant.getTurn(turnId);
      if (!turn.answer) throw new CoreError('CONFLICT', 'This question has no answer to draft from yet.');
      const refs = turn.references;
      let parts = answerParts(answerBody(turn.answer.content), refs.length);
      if (numbers) parts = keepReferences(parts, new Set(numbers));
      const order = citedOrder(parts);
      const { items, keyOf, notInLibrary, libraryId } = await draftItems(refs, order);
      if (format === 'docx' || format === 'odt') {
        if (style === 'bibtex')
          throw new CoreError('INVALID_INPUT', 'A word-processor file needs a citation style, not BibTeX.', {
            field: 'style',
          });
        const file = await draftFile(format, parts, keyOf, items, libraryId, style);
        return { style, text: '', html: '', notInLibrary, file };
      }
      const clusters = parts.flatMap((p) =>
        p.kind === 'cite' ? [[...new Set(p.numbers.map((n) => keyOf.get(n)!))].map((id) => ({ id }))] : [],
      );
      const formatter = deps.formatter();
      const opts = { style: style as CitationStyleId };
      const [citeText, citeHtml, bibText, bibHtml] =
        items.length === 0
          ? [[], [], { document: '' }, { document: '' }]
          : await Promise.all([
              formatter.formatCitations(items, clusters, { ...opts, format: 'text' }),
              formatter.formatCitations(items, clusters, { ...opts, format: 'html' }),
              formatter.formatBibliography(items, { ...opts, format: 'text' }),
              formatter.formatBibliography(items, { ...opts, format: 'html' }),
            ]);
      const spaced = (c: string): string => (/^[\s,.;:]/.test(c) ? c : ` ${c}`);
      // A citation takes the place of the marker and the space before it, as styles put their own.
      const trimmed = parts.map((p, i) =>
        p.kind === 'text' && parts[i + 1]?.kind === 'cite' ? { ...p, text: p.text.replace(/[ \t]+$/, '') } : p,
      );
      const body = replaceMarkers(trimmed, (_n, i) => spaced(citeText[i]!.value));
      const bodyHtml = paragraphs(replaceMarkers(trimmed, (_n, i) => spaced(citeHtml[i]!.value), escapeHtml));
      const heading = style === 'bibtex' ? 'BibTeX' : 'References';
      const text = items.length ? `${body}\n\n${heading}\n\n${bibText.document.trim()}\n` : `${body}\n`;
      // Tags SafeMarkup and word processors both know: the preview shows what the paste gives.
      const html = items.length
        ? `${bodyHtml}\n<p><b>${heading}</b></p>\n${style === 'bibtex' ? paragraphs(escapeHtml(bibText.document.trim())) : bibHtml.document}`
        : bodyHtml;
      const draft: AssistantDraft = { style, text, html, notInLibrary };
      if (format === 'markdown') {
        draft.markdown = markdownDraft(parts, (n) => keyOf.get(n)!);
        draft.bib = items.length ? exportItems(items, 'bibtex') : '';
      }
      return draft;
    },
    'assistant.referenceCheck.start': async ({ source, deadlineMs }, ctx) => {
      if (source.kind === 'file') {
        const bytes = Buffer.from(source.base64, 'base64');
        const ext = source.name.toLowerCase().split('.').pop();
        if (ext === 'pdf' && bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
          throw new CoreError('INVALID_INPUT', `${source.name} is not a PDF file (it does not start with %PDF-).`, {
            field: 'source.base64',
          });
        if (ext === 'docx' && !(bytes[0] === 0x50 && bytes[1] === 0x4b))
          throw new CoreError('INVALID_INPUT', `${source.name} is not a Word .docx file (it is not a zip package).`, {
            field: 'source.base64',
          });
        return deps.tasks.startReferenceCheck(
          { file: { name: source.name, data: new Blob([bytes]) } },
          deadlineMs,
          ctx.signal,
        );
      }
      const collection = (await lib.listCollections()).find((c) => c.id === source.collectionId);
      if (!collection)
        throw new CoreError('NOT_FOUND', `Collection ${source.collectionId} is not in the library.`, {
          field: 'source.collectionId',
        });
      const ids = await library.listing.idsOf({ collectionId: source.collectionId });
      if (ids.length === 0)
        throw new CoreError(
          'INVALID_INPUT',
          `Collection “${collection.name}” is empty: there are no references to check.`,
          { field: 'source.collectionId' },
        );
      const { content } = await lib.exportText(ids, 'bibtex');
      const name = `${collection.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'collection'}.bib`;
      return deps.tasks.startReferenceCheck(
        { file: { name, data: new Blob([content], { type: 'application/x-bibtex' }) } },
        deadlineMs,
        ctx.signal,
      );
    },
  } satisfies FeatureHandlers<typeof assistantFeature>;
}
