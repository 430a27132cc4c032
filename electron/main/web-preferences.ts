// The web preferences of every Citewise window (the Library and the editor's citation picker): the
// renderer is isolated and sandboxed, with no Node, no webview and no navigation by a dropped file.
// Only the preload (the picker has none: it talks to no IPC) and the spellchecker differ.
import type { WebPreferences } from 'electron';

export function lockedDownPreferences(options: { preload?: string; spellcheck: boolean }): WebPreferences {
  return {
    ...(options.preload ? { preload: options.preload } : {}),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: options.spellcheck,
  };
}
