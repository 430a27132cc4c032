import type { CitewiseApi, IpcError, ServiceConfig, ServiceKeyStatus } from '../../../../shared/ipc';
import type { KeyCheckResult } from '../../../../shared/model/service';

/** The Settings pane's view of the citation service: its address and the key's status (never the key). */
export class ServiceSettingsState {
  readonly #api: CitewiseApi;
  #config = $state<ServiceConfig | null>(null);
  #key = $state<ServiceKeyStatus | null>(null);
  #check = $state<KeyCheckResult | null>(null);
  #busy = $state<'' | 'saving' | 'checking' | 'clearing' | 'address'>('');
  #error = $state<IpcError | null>(null);

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get config() {
    return this.#config;
  }
  get key() {
    return this.#key;
  }
  get check() {
    return this.#check;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return this.#error;
  }

  /** Loads and follows changes (another window, the CLI's key commands); returns the disposer. */
  start(): () => void {
    const offKey = this.#api.on('service.key.changed', (status) => {
      this.#key = status;
      this.#check = null;
    });
    const offConfig = this.#api.on('service.config.changed', (config) => {
      this.#config = config;
      this.#check = null;
    });
    void this.#run('', async () => {
      const [config, key] = await Promise.all([
        this.#api.invoke('service.config.get', {}),
        this.#api.invoke('service.key.status', {}),
      ]);
      if (config.ok) this.#config = config.value;
      if (key.ok) this.#key = key.value;
      return config.ok ? key : config;
    });
    return () => {
      offKey();
      offConfig();
    };
  }

  /** Stores the key; the caller clears its input field whatever the outcome. */
  async saveKey(key: string): Promise<boolean> {
    const trimmed = key.trim();
    if (!trimmed) {
      this.#error = { code: 'INVALID_INPUT', message: 'Paste an API key first.' };
      return false;
    }
    return this.#run('saving', async () => {
      const result = await this.#api.invoke('service.key.set', { key: trimmed });
      if (result.ok) {
        this.#key = result.value;
        this.#check = null;
      }
      return result;
    });
  }

  async checkKey(): Promise<void> {
    await this.#run('checking', async () => {
      const result = await this.#api.invoke('service.key.check', {});
      if (result.ok) this.#check = result.value;
      return result;
    });
  }

  async clearKey(): Promise<void> {
    await this.#run('clearing', async () => {
      const result = await this.#api.invoke('service.key.clear', {});
      if (result.ok) {
        this.#key = result.value;
        this.#check = null;
      }
      return result;
    });
  }

  async setAddress(url: string | null): Promise<boolean> {
    return this.#run('address', async () => {
      const result = await this.#api.invoke('service.config.set', { serviceUrl: url === null ? null : url.trim() });
      if (result.ok) {
        this.#config = result.value;
        this.#check = null;
      }
      return result;
    });
  }

  dismissError(): void {
    this.#error = null;
  }

  async #run(
    busy: ServiceSettingsState['busy'],
    work: () => Promise<{ ok: true } | { ok: false; error: IpcError }>,
  ): Promise<boolean> {
    this.#busy = busy;
    this.#error = null;
    try {
      const result = await work();
      if (!result.ok) this.#error = result.error;
      return result.ok;
    } finally {
      this.#busy = '';
    }
  }
}
