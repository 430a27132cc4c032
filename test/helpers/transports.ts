// The three transports the renderer can talk through, each set up around a fresh core.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { CitewiseApi } from '../../shared/ipc';
import { createCore, type Core } from '../../electron/core';
import { createInProcessApi } from '../../electron/core/in-process';
import { silentLogger } from '../../electron/core/log';
import { startHost, type Host } from '../../electron/host/server';
import { bridgeIpc, type IpcMainLike } from '../../electron/main/ipc-bridge';
import { createPreloadApi, type IpcRendererLike } from '../../electron/preload/api';
import { createSocketTransport } from '../../renderer/src/lib/ipc/socket-transport';
import { tempDir } from './tmp';

export interface TransportFixture {
  api: CitewiseApi;
  core: Core;
  /** Listeners still registered on the transport's client side. */
  clientListenerCount(): number;
  close(): Promise<void>;
}

export type TransportFactory = () => Promise<TransportFixture>;

async function newCore() {
  const dir = tempDir();
  const core = await createCore({ dataDir: dir.path, mode: 'test', logger: silentLogger });
  return { core, dir };
}

export const inProcess: TransportFactory = async () => {
  const { core, dir } = await newCore();
  const before = core.events.listenerCount();
  return {
    api: createInProcessApi(core),
    core,
    clientListenerCount: () => core.events.listenerCount() - before,
    async close() {
      await core.close();
      dir.remove();
    },
  };
};

/** A renderer directory with just an index.html, for tests that need host mode but not the built app. */
export function fakeRendererDir(root: string): string {
  const dir = join(root, 'renderer');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Citewise</title><p>test</p>');
  return dir;
}

export const webSocket: TransportFactory = async () => {
  const { core, dir } = await newCore();
  const host: Host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
  const transport = createSocketTransport({
    url: `ws://127.0.0.1:${host.port}/ipc?token=${host.token}`,
    WebSocketImpl: WebSocket as never,
    reconnect: false,
  });
  return {
    api: transport,
    core,
    clientListenerCount: () => transport.listenerCount(),
    async close() {
      transport.close();
      await host.close();
      await core.close();
      dir.remove();
    },
  };
};

/** Electron IPC with ipcMain/ipcRenderer replaced by an in-memory pair that structured-clones like Electron. */
export const electronIpc: TransportFactory = async () => {
  const { core, dir } = await newCore();
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const rendererListeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  const SENDER = { senderId: 7, frameUrl: 'app://citewise/index.html', isMainFrame: true };
  const ipcMain: IpcMainLike = {
    handle: (channel, handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const ipcRenderer: IpcRendererLike = {
    async invoke(channel, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(await handler({ sender: SENDER }, ...structuredClone(args)));
    },
    on(channel, listener) {
      rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), listener]);
    },
  };
  const dispose = bridgeIpc({
    ipcMain,
    core,
    describeSender: (event) => (event as { sender: typeof SENDER }).sender,
    trustedOrigins: ['app://citewise'],
    trustedSenderIds: () => [7],
    broadcast: (channel, name, payload) => {
      for (const l of rendererListeners.get(channel) ?? []) l({}, ...structuredClone([name, payload]));
    },
  });
  const preload = createPreloadApi(ipcRenderer);
  return {
    api: preload.api,
    core,
    clientListenerCount: () => preload.listenerCount(),
    async close() {
      dispose();
      await core.close();
      dir.remove();
    },
  };
};
