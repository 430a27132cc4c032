// What the renderer may ask Chromium for. Only writing to the clipboard ("Copy citation", "Copy to
// clipboard", a bibliography as rich text), and only from the top frame of one of our own windows
// showing our own origin. Everything else is refused to everyone: camera, microphone, location,
// notifications, reading the clipboard, fullscreen, devices, opening external apps.
import { originOf } from './ipc-bridge';

export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export interface PermissionAsk {
  permission: string;
  /** Whether the asking webContents is one of our windows (false for none, a webview, a stray one). */
  ourWindow: boolean;
  isMainFrame: boolean;
  /** The URL (or origin) of the asking frame. */
  url: string | undefined;
}

export function allowPermission(ask: PermissionAsk, trustedOrigins: readonly string[]): boolean {
  if (!GRANTED_PERMISSIONS.has(ask.permission) || !ask.ourWindow || !ask.isMainFrame || !ask.url) return false;
  const origin = originOf(ask.url);
  return origin !== null && trustedOrigins.includes(origin);
}
