import type { AppInfo, CitewiseApi, ConnectivityStatus, IpcError, JobInfo, Settings } from '../../../../shared/ipc';
import type { ConnectionState } from '../ipc/socket-transport';
import { isPaneId, type PaneId } from '../panes';
import { ThemeState } from './theme.svelte';

/** The shell's state: the pane shown, what the status bar shows, and the settings. */
export class AppState {
  readonly api: CitewiseApi;
  readonly theme = new ThemeState();
  #pane = $state<PaneId>('library');
  #info = $state<AppInfo | null>(null);
  #settings = $state<Settings | null>(null);
  #connectivity = $state<ConnectivityStatus>({ state: 'unknown', since: '', reason: '' });
  #jobs = $state.raw<JobInfo[]>([]);
  #connection = $state<ConnectionState>('open');
  #error = $state<IpcError | null>(null);
  /** Set while changes wait for another program's write (a command-line import): what to tell the user. */
  #saving = $state<string | null>(null);
  #running = $derived(this.#jobs.filter((j) => j.state === 'running'));

  constructor(api: CitewiseApi) {
    this.api = api;
  }

  get pane() {
    return this.#pane;
  }
  get info() {
    return this.#info;
  }
  get settings() {
    return this.#settings;
  }
  get connectivity() {
    return this.#connectivity;
  }
  get jobs() {
    return this.#jobs;
  }
  get runningJobs() {
    return this.#running;
  }
  get connection() {
    return this.#connection;
  }
  get error() {
    return this.#error;
  }
  get saving() {
    return this.#saving;
  }

  set connection(state: ConnectionState) {
    this.#connection = state;
    // After a reconnect the core may have moved on; read everything again.
    if (state === 'open') void this.#load();
  }

  show(pane: PaneId): void {
    this.#pane = pane;
    if (window.location.hash !== `#/${pane}`) history.replaceState(null, '', `#/${pane}`);
  }

  dismissError(): void {
    this.#error = null;
  }

  async updateSettings(patch: Partial<Settings>): Promise<void> {
    const result = await this.api.invoke('settings.update', patch);
    if (result.ok) this.#applySettings(result.value);
    else this.#error = result.error;
  }

  async cancelJob(id: string): Promise<void> {
    const result = await this.api.invoke('jobs.cancel', { id });
    if (!result.ok) this.#error = result.error;
  }

  /** Loads the initial state and subscribes to the core's events; returns the disposer. */
  start(): () => void {
    const fromHash = window.location.hash.replace(/^#\/?/, '');
    if (isPaneId(fromHash)) this.#pane = fromHash;
    const disposers = [
      this.theme.watchOs(),
      this.api.on('settings.changed', (s) => this.#applySettings(s)),
      this.api.on('app.connectivityChanged', (c) => (this.#connectivity = c)),
      this.api.on('jobs.changed', (j) => (this.#jobs = j)),
      this.api.on('library.waiting', (w) => (this.#saving = w.waiting ? w.message : null)),
    ];
    void this.#load();
    return () => disposers.forEach((d) => d());
  }

  async #load(): Promise<void> {
    const [info, settings, connectivity, jobs] = await Promise.all([
      this.api.invoke('app.info', {}),
      this.api.invoke('settings.get', {}),
      this.api.invoke('app.connectivity', {}),
      this.api.invoke('jobs.list', {}),
    ]);
    if (info.ok) this.#info = info.value;
    if (settings.ok) this.#applySettings(settings.value);
    if (connectivity.ok) this.#connectivity = connectivity.value;
    if (jobs.ok) this.#jobs = jobs.value;
    const failed = [info, settings, connectivity, jobs].find((r) => !r.ok);
    if (failed && !failed.ok) this.#error = failed.error;
  }

  #applySettings(settings: Settings): void {
    this.#settings = settings;
    this.theme.preference = settings.theme;
  }
}
