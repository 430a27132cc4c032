// The Assistant pane's state: the conversations kept in the library, the one shown, the question being
// written with its options, and the live progress of a question the service is working on. Answers
// are read back from the library after assistant.changed, so what is shown is what was stored.
import type { AddReferencesReport, AssistantDraft, CitewiseApi, IpcError } from '../../../../shared/ipc';
import type { TaskProgress } from '../../../../shared/model/service';
import type {
  AssistantSessionDetail,
  AssistantSessionSummary,
  AssistantTurnRecord,
} from '../../../../shared/model/assistant';
import type { Collection } from '../../../../shared/model/library';
import { isBuiltInStyle } from '../../../../shared/model/csl';
import { parseDoi } from '../../../../shared/model/doi';
import { setOf } from '../collections/paper-row';
import type { CitationStyle } from '../../../../shared/service';
import { askInput, DEFAULT_OPTIONS, optionsFrom, type OptionsForm } from './ask-input';

export class AssistantState {
  readonly #api: CitewiseApi;
  #sessions = $state.raw<AssistantSessionSummary[] | null>(null);
  #current = $state.raw<AssistantSessionDetail | null>(null);
  #collections = $state.raw<Collection[]>([]);
  #progress = $state.raw<Record<string, TaskProgress>>({});
  #error = $state<IpcError | null>(null);
  #formProblem = $state<{ problem: string; field: string } | null>(null);
  #asking = $state(false);
  #cancelling = $state(false);
  #openSeq = 0;
  /** Normalised DOIs of the shown conversation's references that are items of the library. */
  #inLibrary = $state.raw<ReadonlySet<string>>(setOf());
  #inLibrarySeq = 0;
  question = $state('');
  options = $state<OptionsForm>({ ...DEFAULT_OPTIONS });
  showOptions = $state(false);
  /** Which tab of the pane is shown. */
  tab = $state<'ask' | 'check' | 'manuscript'>('ask');

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get api() {
    return this.#api;
  }
  get sessions() {
    return this.#sessions;
  }
  get current() {
    return this.#current;
  }
  get collections() {
    return this.#collections;
  }
  get error() {
    return this.#error;
  }
  get formProblem() {
    return this.#formProblem;
  }
  get asking() {
    return this.#asking;
  }
  get cancelling() {
    return this.#cancelling;
  }
  /** The question of the shown conversation that is waiting for its answer. */
  get pending(): AssistantTurnRecord | null {
    return this.#current?.records.find((r) => r.status === 'pending') ?? null;
  }
  /** The latest usage the service reported in this conversation. */
  get usage(): { used: number; max: number } | null {
    const withUsage = (this.#current?.records ?? []).filter((r) => r.usage);
    return withUsage.length ? withUsage[withUsage.length - 1]!.usage : null;
  }

  /** Whether a reference's DOI (in any written form) is an item of the library, not in the Trash. */
  isInLibrary(doi: string | null | undefined): boolean {
    const parsed = doi ? parseDoi(doi) : null;
    return parsed?.ok === true && this.#inLibrary.has(parsed.doi);
  }

  progressOf(taskId: string | null): TaskProgress | null {
    return taskId ? (this.#progress[taskId] ?? null) : null;
  }

  dismissError(): void {
    this.#error = null;
  }

  /** Loads and follows the conversations; returns the disposer. */
  start(defaultStyle: string | undefined): () => void {
    if (defaultStyle && isBuiltInStyle(defaultStyle)) this.options.citationStyle = defaultStyle;
    void this.#loadSessions();
    void this.#loadCollections();
    const offChanged = this.#api.on('assistant.changed', (change) => {
      void this.#loadSessions();
      if (this.#current?.id === change.sessionId) {
        if (change.kind === 'deleted') this.#current = null;
        else void this.open(change.sessionId, false);
      }
    });
    const offProgress = this.#api.on('service.task.progress', (p) => {
      if (p.kind === 'assistant') this.#progress = { ...this.#progress, [p.taskId]: p };
    });
    const offLibrary = this.#api.on('library.changed', (c) => {
      // Items added to a collection by the Assistant come as an 'items' change, and trashing items changes
      // the counts too: the reference check's collection choices show their counts, so they follow.
      if (c.kind === 'collections' || c.kind === 'items' || c.kind === 'trash' || c.kind === 'all')
        void this.#loadCollections();
      if (c.kind === 'items' || c.kind === 'trash' || c.kind === 'all') void this.#loadInLibrary();
    });
    return () => {
      offChanged();
      offProgress();
      offLibrary();
    };
  }

  async #loadSessions(): Promise<void> {
    const r = await this.#api.invoke('assistant.sessions.list', {});
    if (r.ok) this.#sessions = r.value;
    else this.#error = r.error;
  }

  async #loadCollections(): Promise<void> {
    const r = await this.#api.invoke('library.collections.list', {});
    if (r.ok) this.#collections = r.value;
  }

  async open(id: number, reportErrors = true): Promise<void> {
    // Reads can overlap (an answer arrives while a question's own read is under way): the last one asked wins.
    const seq = ++this.#openSeq;
    const r = await this.#api.invoke('assistant.sessions.get', { id });
    if (seq !== this.#openSeq) return;
    if (!r.ok) {
      if (reportErrors) this.#error = r.error;
      return;
    }
    const switched = this.#current?.id !== id;
    this.#current = r.value;
    // Opening another conversation: a follow-up starts from the options its last question had.
    const last = r.value.records[r.value.records.length - 1];
    if (switched && last) this.options = optionsFrom(last.options, this.options);
    void this.#loadInLibrary();
  }

  /** Which references of the shown conversation the library holds: one papers.inLibrary call per answer. */
  async #loadInLibrary(): Promise<void> {
    const seq = ++this.#inLibrarySeq;
    const answers = (this.#current?.records ?? [])
      .map((r) => r.references.map((x) => x.doi ?? x.paper?.doi ?? '').filter((d) => d !== ''))
      .filter((dois) => dois.length > 0);
    const found: string[][] = [];
    for (const dois of answers) {
      const r = await this.#api.invoke('papers.inLibrary', { dois: dois.slice(0, 1000) });
      if (seq !== this.#inLibrarySeq) return;
      if (r.ok) found.push(r.value);
    }
    this.#inLibrary = setOf(...found);
  }

  newConversation(): void {
    this.#openSeq++;
    this.#inLibrarySeq++;
    this.#current = null;
    this.#inLibrary = setOf();
    this.#formProblem = null;
  }

  async ask(): Promise<void> {
    this.#formProblem = null;
    const built = askInput(this.#current?.id ?? null, this.question, this.options);
    if ('problem' in built) {
      this.#formProblem = built;
      return;
    }
    this.#asking = true;
    try {
      const r = await this.#api.invoke('assistant.ask', built.input);
      if (r.ok) {
        this.question = '';
        await this.open(r.value.sessionId);
      } else {
        this.#error = r.error;
        // The question was kept (as failed) when the conversation exists; show it with its retry.
        const sessions = await this.#api.invoke('assistant.sessions.list', {});
        if (sessions.ok) {
          this.#sessions = sessions.value;
          const target =
            built.input.sessionId ??
            (r.error.code === 'INVALID_INPUT' || r.error.code === 'NOT_FOUND' ? null : (sessions.value[0]?.id ?? null));
          if (target !== null) {
            await this.open(target, false);
            // The question is shown with its reason and "Ask again": one message is enough.
            if (this.#current?.records.some((x) => x.question === built.input.question && x.status !== 'answered')) {
              this.question = '';
              this.#error = null;
            }
          }
        }
      }
    } finally {
      this.#asking = false;
    }
  }

  async retry(turnId: number): Promise<void> {
    const r = await this.#api.invoke('assistant.retry', { turnId });
    if (!r.ok) this.#error = r.error;
    if (this.#current) await this.open(this.#current.id, false);
  }

  async cancel(): Promise<void> {
    const taskId = this.pending?.taskId;
    if (!taskId) return;
    this.#cancelling = true;
    try {
      const r = await this.#api.invoke('service.assistant.cancel', { taskId });
      if (!r.ok) this.#error = r.error;
    } finally {
      this.#cancelling = false;
    }
  }

  async rename(id: number, title: string): Promise<boolean> {
    const r = await this.#api.invoke('assistant.sessions.rename', { id, title });
    if (!r.ok) this.#error = r.error;
    return r.ok;
  }

  async remove(id: number): Promise<void> {
    const r = await this.#api.invoke('assistant.sessions.delete', { id });
    if (!r.ok) this.#error = r.error;
    else if (this.#current?.id === id) this.#current = null;
  }

  async feedback(turnId: number, value: 'positive' | 'negative' | null, reason = ''): Promise<void> {
    const r = await this.#api.invoke('assistant.feedback', { turnId, value, reason });
    if (!r.ok) this.#error = r.error;
  }

  async addReferences(
    turnId: number,
    numbers: number[] | null,
    collectionId: number | null,
  ): Promise<AddReferencesReport | null> {
    const r = await this.#api.invoke('assistant.references.add', {
      turnId,
      ...(numbers ? { numbers } : {}),
      collectionId,
    });
    if (!r.ok) {
      this.#error = r.error;
      return null;
    }
    return r.value;
  }

  async draft(
    turnId: number,
    style: CitationStyle,
    format: 'document' | 'markdown' | 'docx' | 'odt',
    numbers: number[] | null,
  ): Promise<AssistantDraft | null> {
    const r = await this.#api.invoke('assistant.draft', { turnId, style, format, ...(numbers ? { numbers } : {}) });
    if (!r.ok) {
      this.#error = r.error;
      return null;
    }
    return r.value;
  }
}
