// The shared library as the renderer sees it (Settings → Sharing, the status bar, the Conflicts dialog):
// the sync's status as the core sends it, the conflicts to resolve, the members and the sync's log. The
// password goes to the core once and is never held here after.
import type {
  CitewiseApi,
  IpcError,
  MemberRole,
  SyncConflict,
  SyncLogEntry,
  SyncMember,
  SyncOptions,
  SyncReportView,
  SyncStatus,
} from '../../../../shared/ipc';

export type SyncBusy = '' | 'connecting' | 'syncing' | 'disconnecting' | 'members' | 'resolving' | 'options';

export class SyncState {
  readonly #api: CitewiseApi;
  #status = $state<SyncStatus | null>(null);
  #conflicts = $state.raw<SyncConflict[]>([]);
  #members = $state.raw<SyncMember[] | null>(null);
  #log = $state.raw<SyncLogEntry[]>([]);
  #options = $state<SyncOptions | null>(null);
  #report = $state<SyncReportView | null>(null);
  #busy = $state<SyncBusy>('');
  #error = $state<IpcError | null>(null);
  #conflictsOpen = $state(false);
  #started = 0;
  #stop: (() => void) | null = null;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get status() {
    return this.#status;
  }
  get shared(): boolean {
    return this.#status !== null && this.#status.phase !== 'off';
  }
  get conflicts() {
    return this.#conflicts;
  }
  get members() {
    return this.#members;
  }
  get log() {
    return this.#log;
  }
  get options() {
    return this.#options;
  }
  get report() {
    return this.#report;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return this.#error;
  }
  /** The Conflicts dialog is open (the status bar and Settings → Sharing both open it). */
  get conflictsOpen() {
    return this.#conflictsOpen;
  }

  dismissError(): void {
    this.#error = null;
  }

  /** Follows the core's sync.statusChanged events; returns the disposer (counted: the status bar and Settings share one). */
  start(): () => void {
    this.#started++;
    if (this.#started === 1) {
      const off = this.#api.on('sync.statusChanged', (status) => this.#take(status));
      void this.refresh();
      this.#stop = off;
    }
    return () => {
      this.#started--;
      if (this.#started === 0) {
        this.#stop?.();
        this.#stop = null;
      }
    };
  }

  async refresh(): Promise<void> {
    const [status, options] = await Promise.all([
      this.#api.invoke('sync.status', {}),
      this.#api.invoke('sync.options.get', {}),
    ]);
    if (status.ok) this.#take(status.value);
    if (options.ok) this.#options = options.value;
  }

  #take(status: SyncStatus): void {
    const before = this.#status;
    this.#status = status;
    if (status.phase === 'off') {
      this.#conflicts = [];
      this.#members = null;
      return;
    }
    if (!before || before.conflicts !== status.conflicts || status.conflicts !== this.#conflicts.length)
      void this.loadConflicts();
    if (!before || before.lastSyncAt !== status.lastSyncAt) void this.loadLog();
  }

  async #run<T>(
    busy: SyncBusy,
    work: () => Promise<{ ok: true; value: T } | { ok: false; error: IpcError }>,
  ): Promise<T | null> {
    this.#busy = busy;
    this.#error = null;
    try {
      const r = await work();
      if (!r.ok) {
        this.#error = r.error;
        return null;
      }
      return r.value;
    } finally {
      this.#busy = '';
    }
  }

  async connect(url: string, password: string): Promise<boolean> {
    const status = await this.#run('connecting', () =>
      this.#api.invoke('sync.connect', { url: url.trim(), ...(password ? { password } : {}) }),
    );
    if (status) this.#take(status);
    return status !== null;
  }

  async disconnect(leave: boolean): Promise<void> {
    const status = await this.#run('disconnecting', () => this.#api.invoke('sync.disconnect', { leave }));
    if (status) this.#take(status);
    this.#report = null;
  }

  async syncNow(): Promise<void> {
    const report = await this.#run('syncing', () => this.#api.invoke('sync.now', {}));
    if (report) this.#report = report;
    await this.refresh();
  }

  async loadConflicts(): Promise<void> {
    const r = await this.#api.invoke('sync.conflicts', {});
    if (r.ok) this.#conflicts = r.value;
  }

  async loadLog(): Promise<void> {
    const r = await this.#api.invoke('sync.log', { limit: 20 });
    if (r.ok) this.#log = r.value;
  }

  openConflicts(): void {
    this.#conflictsOpen = true;
    void this.loadConflicts();
  }

  closeConflicts(): void {
    this.#conflictsOpen = false;
  }

  async resolve(conflict: SyncConflict, choices: Record<string, 'local' | 'server'>): Promise<boolean> {
    const done = await this.#run('resolving', () =>
      this.#api.invoke('sync.resolve', { kind: conflict.kind, uid: conflict.uid, choices }),
    );
    await this.loadConflicts();
    return done !== null;
  }

  async loadMembers(): Promise<void> {
    const members = await this.#run('members', () => this.#api.invoke('sync.members.list', {}));
    if (members) this.#members = members;
  }

  async setMember(login: string, role: MemberRole, password?: string): Promise<boolean> {
    const done = await this.#run('members', () =>
      this.#api.invoke('sync.members.set', { login, role, ...(password ? { password } : {}) }),
    );
    if (done) await this.loadMembers();
    return done !== null;
  }

  async removeMember(login: string): Promise<void> {
    const done = await this.#run('members', () => this.#api.invoke('sync.members.remove', { login }));
    if (done) await this.loadMembers();
  }

  async setOptions(patch: Partial<SyncOptions>): Promise<void> {
    const options = await this.#run('options', () => this.#api.invoke('sync.options.set', patch));
    if (options) this.#options = options;
  }
}

const byApi = new WeakMap<CitewiseApi, SyncState>();

/** The one SyncState of a window (the status bar, Settings → Sharing and the Conflicts dialog share it). */
export function syncStateFor(api: CitewiseApi): SyncState {
  let state = byApi.get(api);
  if (!state) {
    state = new SyncState(api);
    byApi.set(api, state);
  }
  return state;
}

/** How long ago, in words: "just now", "4 min ago", "2 h ago", or the date. */
export function ago(at: number | null, now = Date.now()): string {
  if (at === null) return 'never';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return new Intl.DateTimeFormat().format(at);
}
