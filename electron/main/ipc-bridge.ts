// Registers the core on Electron IPC: one invoke channel and one event channel, with the sender of
// every call validated first; and the channel on which the preload sends the paths of PDFs dropped
// on the window (it alone can read them), validated the same way. Written against minimal shapes (no 'electron' import) so that the
// transport test suite drives it with fakes.
import { ELECTRON_DROP_CHANNEL, ELECTRON_EVENT_CHANNEL, ELECTRON_INVOKE_CHANNEL, type Result } from '../../shared/ipc';
import type { Core } from '../core';

export interface SenderInfo {
  /** webContents id of the sender. */
  senderId: number;
  /** URL of the frame that sent the call; null when the frame is gone. */
  frameUrl: string | null;
  /** Whether the call came from the window's top frame (not an iframe). */
  isMainFrame: boolean;
}

export interface IpcMainLike {
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface BridgeOptions {
  ipcMain: IpcMainLike;
  core: Core;
  describeSender(event: unknown): SenderInfo;
  /** The renderer's own origin(s), e.g. app://citewise; any other sender is refused. */
  trustedOrigins: readonly string[];
  /** webContents ids of our windows. */
  trustedSenderIds(): Iterable<number>;
  /** Delivers an event to every trusted window. */
  broadcast(channel: string, name: string, payload: unknown): void;
  onRefused?(info: SenderInfo): void;
}

/** The origin of a frame's URL; app:// is not a special scheme to WHATWG URL, whose origin says 'null'. */
export function originOf(frameUrl: string): string | null {
  try {
    const url = new URL(frameUrl);
    return url.protocol === 'app:' ? `app://${url.host}` : url.origin;
  } catch {
    return null;
  }
}

export function isTrustedSender(info: SenderInfo, origins: readonly string[], ids: Iterable<number>): boolean {
  if (!info.isMainFrame || info.frameUrl === null) return false;
  const origin = originOf(info.frameUrl);
  return origin !== null && origins.includes(origin) && [...ids].includes(info.senderId);
}

export function bridgeIpc(options: BridgeOptions): () => void {
  const { ipcMain, core } = options;
  const refused = (event: unknown): Result<never> | null => {
    const info = options.describeSender(event);
    if (isTrustedSender(info, options.trustedOrigins, options.trustedSenderIds())) return null;
    options.onRefused?.(info);
    return { ok: false, error: { code: 'FORBIDDEN', message: 'This window may not call Citewise.' } };
  };
  ipcMain.handle(
    ELECTRON_INVOKE_CHANNEL,
    async (event, channel, input): Promise<Result<unknown>> => refused(event) ?? core.invoke(channel, input),
  );
  ipcMain.handle(
    ELECTRON_DROP_CHANNEL,
    async (event, paths): Promise<Result<unknown>> => refused(event) ?? core.selectDroppedPdfs(paths),
  );
  const unsubscribe = core.events.onAny((name, payload) => options.broadcast(ELECTRON_EVENT_CHANNEL, name, payload));
  return () => {
    unsubscribe();
    ipcMain.removeHandler(ELECTRON_INVOKE_CHANNEL);
    ipcMain.removeHandler(ELECTRON_DROP_CHANNEL);
  };
}
