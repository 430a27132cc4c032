// The Electron shell: windows, the app:// protocol, menus and the security guards (docs/security.md). Everything
// else is the core, which runs here exactly as it does in host mode, the CLI and the tests.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  protocol,
  screen,
  session,
  shell,
  type IpcMainInvokeEvent,
  type OpenDialogOptions,
  type WebContents,
} from 'electron';
import { createCore, type Core } from '../core';
import type { DesktopShell } from '../core/desktop';
import { buildCsp } from '../core/csp';
import { rankExtensionFile } from '../core/library/rank';
import { stderrLogger } from '../core/log';
import { resolveDataDir } from '../core/paths';
import { APP_HOST, notFound, rendererFile, withSecurityHeaders } from './app-protocol';
import { startDesktopEditorApi } from './editor-api';
import { bridgeIpc } from './ipc-bridge';
import { decideExternal } from './navigation';
import { allowPermission } from './permissions';
import { holdQuitUntilClosed, QUIT_TIMEOUT_MS } from './quit';
import { loadWindowState, saveWindowState } from './window-state';
import { lockedDownPreferences } from './web-preferences';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '../renderer');
const APP_ORIGIN = `app://${APP_HOST}`;
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const trustedOrigins = devUrl ? [new URL(devUrl).origin] : [APP_ORIGIN];

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** The Electron-ABI build of better-sqlite3: beside the app when packaged, under build/native in development. */
function sqliteBinding(): string {
  const file = app.isPackaged
    ? join(process.resourcesPath, 'native', 'better_sqlite3.node')
    : join(here, '../../build/native/electron/better_sqlite3.node');
  if (!existsSync(file)) {
    throw new Error(`The Electron build of better-sqlite3 is missing (${file}). Run: npm run native:electron`);
  }
  return file;
}

/** The search-ranking extension (core/library/rank.ts): beside the app when packaged, in out/native in development. */
function rankExtension(): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'native', rankExtensionFile())
    : join(here, '../native', rankExtensionFile());
}

function guardContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (url !== contents.getURL()) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (decideExternal(url) === 'open-external') void shell.openExternal(url);
    return { action: 'deny' };
  });
}

function serveRenderer(): void {
  const csp = buildCsp();
  protocol.handle('app', async (request) => {
    const file = rendererFile(request.url, rendererDir);
    // net.fetch rejects for a missing file (the page would see a failed load, not a 404) and lists a
    // directory's contents; only an existing regular file is fetched.
    const isFile =
      file !== null &&
      (await stat(file).then(
        (s) => s.isFile(),
        () => false,
      ));
    if (!file || !isFile) return notFound(csp);
    return withSecurityHeaders(await net.fetch(pathToFileURL(file).toString()), csp);
  });
  // The development server's responses get the same policy (plus its own origin for hot reload).
  if (devUrl) {
    const devCsp = buildCsp({ connectSrc: [new URL(devUrl).origin.replace(/^http/, 'ws')] });
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [devCsp] } });
    });
  }
}

function createWindow(dataDir: string): BrowserWindow {
  const state = loadWindowState(dataDir, (b) =>
    screen.getAllDisplays().some((d) => {
      const a = d.workArea;
      return (
        (b.x ?? 0) < a.x + a.width &&
        (b.x ?? 0) + b.width > a.x &&
        (b.y ?? 0) < a.y + a.height &&
        (b.y ?? 0) + b.height > a.y
      );
    }),
  );
  const win = new BrowserWindow({
    ...state,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Citewise',
    backgroundColor: '#17191d',
    webPreferences: lockedDownPreferences({ preload: join(here, '../preload/index.cjs'), spellcheck: true }),
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  let saveTimer: NodeJS.Timeout | undefined;
  const save = () => saveWindowState(dataDir, { ...win.getNormalBounds(), maximized: win.isMaximized() });
  const saveSoon = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 500);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', () => {
    clearTimeout(saveTimer);
    save();
  });
  void win.loadURL(devUrl ?? `${APP_ORIGIN}/index.html`);
  return win;
}

function buildMenu(): void {
  const isMac = process.platform === 'darwin';
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      ...(isMac ? [{ role: 'appMenu' as const }] : []),
      { role: 'fileMenu' },
      { role: 'editMenu' },
      {
        label: 'View',
        submenu: [
          ...(app.isPackaged
            ? []
            : [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }]),
          { role: 'resetZoom' },
          { role: 'zoomIn' },
          { role: 'zoomOut' },
          { type: 'separator' },
          { role: 'togglefullscreen' },
        ],
      },
      { role: 'windowMenu' },
    ]),
  );
}

async function main(): Promise<void> {
  const dataDir = resolveDataDir(argValue('--data-dir'));
  // Electron holds its single-instance lock on the userData folder. Made the library's folder (which
  // it already is by default), each library gets its own lock: two libraries can be open at once,
  // one library only once, and a second start for it focuses the window that has it.
  app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => guardContents(contents));
  await app.whenReady();
  // Chromium fetches Hunspell dictionaries from Google's CDN at run time where it has no system spell
  // checker (Linux; Windows without one). Citewise does not phone out for them: a loopback address on
  // port 9, which Chromium refuses as a restricted port without connecting, makes the download fail at
  // once; spell-check then uses the dictionaries already in userData/Dictionaries, if any.
  if (process.platform !== 'darwin') session.defaultSession.setSpellCheckerDictionaryDownloadURL('http://127.0.0.1:9/');
  // The native save and open dialogs (attached to the focused window) and opening attachments. The
  // core has already checked the path it asks to open: a local, existing, non-executable file. The
  // open dialog's paths go to the core only (Add → PDFs… captures them by path): the renderer never
  // sees them, and no file's bytes cross IPC.
  const desktop: DesktopShell = {
    async chooseSaveFile(options) {
      const parent = BrowserWindow.getFocusedWindow();
      const chosen = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      return chosen.canceled || !chosen.filePath ? null : chosen.filePath;
    },
    async chooseOpenFiles({ title, filters, multiple }) {
      const parent = BrowserWindow.getFocusedWindow();
      const options: OpenDialogOptions = {
        title,
        filters,
        properties: multiple ? ['openFile', 'multiSelections'] : ['openFile'],
      };
      const chosen = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return chosen.canceled || chosen.filePaths.length === 0 ? null : chosen.filePaths;
    },
    openPath: (path) => shell.openPath(path),
  };
  let core: Core;
  try {
    core = await createCore({
      dataDir,
      mode: 'electron',
      sqliteNativeBinding: sqliteBinding(),
      sqliteRankExtension: rankExtension(),
      logger: stderrLogger,
      // The same overrides as the CLI: an address for this run, and a key for this run that is never stored.
      serviceUrl: argValue('--service-url') ?? (process.env.CITEWISE_SERVICE_URL || undefined),
      apiKey: process.env.CITEWISE_API_KEY || undefined,
      desktop,
    });
  } catch (err) {
    dialog.showErrorBox('Citewise cannot start', err instanceof Error ? err.message : String(err));
    app.exit(1);
    return;
  }

  const windows = new Set<BrowserWindow>();
  const isOurWindow = (contents: WebContents | null) =>
    contents !== null && [...windows].some((w) => !w.isDestroyed() && w.webContents.id === contents.id);
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(
      allowPermission(
        { permission, ourWindow: isOurWindow(contents), isMainFrame: details.isMainFrame, url: details.requestingUrl },
        trustedOrigins,
      ),
    );
  });
  session.defaultSession.setPermissionCheckHandler((contents, permission, requestingOrigin, details) =>
    allowPermission(
      {
        permission,
        ourWindow: isOurWindow(contents),
        isMainFrame: details.isMainFrame,
        url: details.requestingUrl ?? requestingOrigin,
      },
      trustedOrigins,
    ),
  );
  serveRenderer();
  buildMenu();

  const open = () => {
    const win = createWindow(dataDir);
    windows.add(win);
    win.on('closed', () => windows.delete(win));
  };
  const disposeBridge = bridgeIpc({
    ipcMain,
    core,
    describeSender: (event) => {
      const e = event as IpcMainInvokeEvent;
      const frame = e.senderFrame;
      return {
        senderId: e.sender.id,
        frameUrl: frame?.url ?? null,
        isMainFrame: frame !== null && frame === e.sender.mainFrame,
      };
    },
    trustedOrigins,
    trustedSenderIds: () => [...windows].filter((w) => !w.isDestroyed()).map((w) => w.webContents.id),
    broadcast: (channel, name, payload) => {
      for (const w of windows) if (!w.isDestroyed()) w.webContents.send(channel, name, payload);
    },
    onRefused: (info) =>
      stderrLogger.warn(`refused an IPC call from an untrusted sender (${info.frameUrl ?? 'no frame'})`),
  });

  open();
  // Settings → Editors (on by default), after the window so it never delays it. CITEWISE_EDITOR_API=0
  // keeps it off for this run, as in browser mode (tests that must not take port 23119).
  const editors =
    process.env.CITEWISE_EDITOR_API === '0'
      ? null
      : startDesktopEditorApi({ core, logger: stderrLogger, windows: () => [...windows] }).catch((err: unknown) => {
          stderrLogger.error('the editor API could not start', err);
          return null;
        });
  app.on('second-instance', () => {
    const [win] = windows;
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('activate', () => {
    if (windows.size === 0) open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on(
    'will-quit',
    holdQuitUntilClosed({
      close: async () => {
        disposeBridge();
        await (await editors)?.close();
        return core.close();
      },
      exit: (code) => app.exit(code),
      timeoutMs: QUIT_TIMEOUT_MS,
      onError: (message, err) => stderrLogger.error(message, err),
    }),
  );
}

void main();
