// The WebSocket client of host mode: the same CitewiseApi the preload gives the Electron renderer.
import type { CitewiseApi, Result, ServerMessage } from '../../../../shared/ipc';
import { WS_PATH } from '../../../../shared/ipc/wire';
import { ListenerSet, Listeners } from '../../../../shared/ipc/listeners';

/** The subset of the WebSocket API used here, so Node tests can pass the `ws` package's class. */
interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
type SocketCtor = new (url: string) => SocketLike;

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface SocketTransport extends CitewiseApi {
  readonly state: ConnectionState;
  onState(listener: (state: ConnectionState) => void): () => void;
  listenerCount(): number;
  close(): void;
}

const OPEN = 1;

export function socketUrlFor(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
}

export function createSocketTransport(options: {
  url: string;
  WebSocketImpl?: SocketCtor;
  reconnect?: boolean;
}): SocketTransport {
  const Impl = options.WebSocketImpl ?? (globalThis.WebSocket as unknown as SocketCtor);
  const listeners = new ListenerSet();
  const stateListeners = new Listeners<ConnectionState>();
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const queue: string[] = [];
  let nextId = 1;
  let state: ConnectionState = 'connecting';
  let socket: SocketLike;
  let closedByUs = false;
  let retryDelay = 250;

  const setState = (s: ConnectionState) => {
    state = s;
    stateListeners.emit(s);
  };

  const connect = () => {
    socket = new Impl(options.url);
    socket.addEventListener('open', () => {
      retryDelay = 250;
      setState('open');
      for (const m of queue.splice(0)) socket.send(m);
    });
    socket.addEventListener('message', (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === 'result') {
        const resolve = pending.get(message.id);
        pending.delete(message.id);
        resolve?.(message.result);
      } else if (message.type === 'event') {
        listeners.dispatch(message.name, message.payload);
      }
    });
    socket.addEventListener('close', () => {
      // Requests in flight cannot be known to have run or not: report them, do not replay them.
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({
          ok: false,
          error: { code: 'INTERNAL', message: 'The connection to Citewise was lost before it answered.' },
        });
      }
      setState('closed');
      if (!closedByUs && options.reconnect !== false) {
        setTimeout(() => {
          if (closedByUs) return;
          setState('connecting');
          connect();
        }, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 5000);
      }
    });
    socket.addEventListener('error', () => {});
  };
  connect();

  return {
    get state() {
      return state;
    },
    invoke(channel, input) {
      const id = nextId++;
      const text = JSON.stringify({ type: 'invoke', id, channel, input });
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: Result<unknown>) => void);
        if (socket.readyState === OPEN) socket.send(text);
        else queue.push(text);
      });
    },
    on(name, listener) {
      return listeners.add(name, listener);
    },
    onState(listener) {
      return stateListeners.add(listener);
    },
    listenerCount: () => listeners.count(),
    close() {
      closedByUs = true;
      socket.close(1000, 'closed');
    },
  };
}
