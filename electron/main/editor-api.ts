// Settings → Editors in the desktop app: the editor API (electron/api) beside the window while the
// setting is on, its picker as a small always-on-top window, and a taken port said plainly with a
// free one offered. The picker window shows the page the API server serves on loopback (the same
// page as in browser mode) with no preload: it cannot reach IPC, and the shell's guards (navigation,
// new windows, permissions) hold for it as for every webContents.
import { app, BrowserWindow, clipboard, dialog, type BrowserWindowConstructorOptions } from 'electron';
import { followEditorSettings, type EditorApiController, type EditorApiStatus } from '../api/controller';
import type { OpenedPick } from '../api/picker';
import type { Core } from '../core';
import type { Logger } from '../core/log';
import { lockedDownPreferences } from './web-preferences';

export const PICKER_WINDOW_OPTIONS: BrowserWindowConstructorOptions = {
  width: 600,
  height: 440,
  minWidth: 420,
  minHeight: 260,
  center: true,
  show: false,
  // Over the editor the user is writing in, which keeps the keyboard focus it had otherwise.
  alwaysOnTop: true,
  minimizable: false,
  maximizable: false,
  fullscreenable: false,
  autoHideMenuBar: true,
  title: 'Citewise: insert a citation',
  backgroundColor: '#17191d',
  webPreferences: lockedDownPreferences({ spellcheck: false }),
};

/** Opens one picker window; returns what closes it once the pick is over. Closing it by hand cancels. */
export function openPickerWindow(session: OpenedPick): () => void {
  const win = new BrowserWindow(PICKER_WINDOW_OPTIONS);
  win.once('ready-to-show', () => {
    win.show();
    // Keyboard-first: the search box has the focus, taken from the editor that asked.
    app.focus({ steal: true });
    win.focus();
  });
  win.on('closed', () => session.cancel());
  void win.loadURL(session.url);
  return () => {
    if (!win.isDestroyed()) win.close();
  };
}

export interface DesktopEditorApiOptions {
  core: Core;
  logger: Logger;
  /** The app's own windows (minimize=1 minimizes them, the port dialog attaches to the first). */
  windows: () => BrowserWindow[];
}

/** A taken port: the plain message, and the free port found next to it offered in one click. */
async function offerAnotherPort(
  core: Core,
  parent: BrowserWindow | undefined,
  status: Extract<EditorApiStatus, { state: 'error' }>,
): Promise<void> {
  if (status.suggestedPort === undefined) return;
  const options = {
    type: 'warning' as const,
    title: 'Citewise',
    message: 'Editors cannot reach Citewise on this port',
    detail: status.message,
    buttons: [`Use port ${status.suggestedPort}`, 'Not now'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  };
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
  if (response === 0) await core.invoke('settings.update', { editorApiPort: status.suggestedPort });
}

export function startDesktopEditorApi(options: DesktopEditorApiOptions): Promise<EditorApiController> {
  const { core, logger } = options;
  return followEditorSettings(core, {
    openPicker: openPickerWindow,
    copy: (text) => {
      clipboard.writeText(text);
      return Promise.resolve();
    },
    minimize: () => {
      for (const w of options.windows()) if (!w.isDestroyed()) w.minimize();
    },
    logger,
    onStatus: (status) => {
      if (status.state !== 'error') return;
      offerAnotherPort(core, options.windows()[0], status).catch((err: unknown) =>
        logger.error('the editor API port dialog failed', err),
      );
    },
  });
}
