import type { Connectivity, ConnectivityStatus } from '../../shared/ipc';

/** Whether the service is reachable, as the status bar shows it. The service client drives it. */
export class ConnectivityState {
  #status: ConnectivityStatus;
  readonly #onChange: (status: ConnectivityStatus) => void;

  constructor(onChange: (status: ConnectivityStatus) => void, initial: Connectivity = 'unknown') {
    this.#onChange = onChange;
    this.#status = {
      state: initial,
      since: new Date().toISOString(),
      reason: initial === 'unknown' ? 'The service has not been contacted yet.' : '',
    };
  }

  get(): ConnectivityStatus {
    return { ...this.#status };
  }

  set(state: Connectivity, reason = ''): void {
    if (state === this.#status.state && reason === this.#status.reason) return;
    this.#status = { state, since: new Date().toISOString(), reason };
    this.#onChange(this.get());
  }
}
