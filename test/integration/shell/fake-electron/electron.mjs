// A stand-in for the `electron` module, so that the built main process (out/main/index.js) runs in
// plain Node. It implements the part of Electron's main-process API the shell uses, following
// Electron's documented behaviour where the shell depends on it:
// - app.quit(): 'before-quit', then every window is closed ('close', 'closed'; no 'window-all-closed'
//   while quitting), then 'will-quit', then 'quit' and the process ends; preventDefault() on
//   'before-quit' or 'will-quit' cancels. app.exit(code) ends the process at once, emitting nothing.
// - Closing the last window emits 'window-all-closed' when someone listens, else it quits.
// - requestSingleInstanceLock() locks the userData directory (SingletonLock, as Electron does on
//   Linux); a refused instance passes its argv to the owner, which emits 'second-instance'.
// - net.fetch() of a file: URL rejects with net::ERR_FILE_NOT_FOUND for a missing file and answers a
//   directory with a listing page, as Chromium's file loader does.
// - A session without a permission handler grants every permission (Electron's default).
// What the shell asks for is appended, one JSON line per call, to $FAKE_ELECTRON_LOG (synchronously,
// so it survives app.exit()). A test drives the app through Node's IPC channel (child_process.fork):
// { id, cmd, ...args } → { id, ok, result | error }; see the `commands` table at the end.
import { EventEmitter } from 'node:events';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, hostname } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOG = process.env.FAKE_ELECTRON_LOG;

function record(kind, data = {}) {
  if (LOG) appendFileSync(LOG, `${JSON.stringify({ kind, pid: process.pid, t: Date.now(), ...data })}\n`);
}

function makeEvent() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

// Electron keeps running until it quits; so does the stand-in.
setInterval(() => {}, 1 << 30);

if (process.env.FAKE_ELECTRON_RESOURCES) process.resourcesPath = process.env.FAKE_ELECTRON_RESOURCES;

// ---------------------------------------------------------------------------------------------- app

let ready = false;
let quitting = false;
const paths = new Map();

class App extends EventEmitter {
  isPackaged = process.env.FAKE_ELECTRON_PACKAGED === '1';
  name = 'Citewise';
  #readyPromise = new Promise((resolve) => {
    setImmediate(() => {
      ready = true;
      record('app.ready');
      this.emit('ready', makeEvent(), {});
      resolve();
    });
  });
  #lock = null;

  whenReady() {
    return this.#readyPromise;
  }

  isReady() {
    return ready;
  }

  getName() {
    return this.name;
  }

  getVersion() {
    return '0.0.0-fake';
  }

  getPath(name) {
    if (paths.has(name)) return paths.get(name);
    const appData = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
    switch (name) {
      case 'appData':
        return appData;
      case 'userData':
        return join(appData, this.name);
      case 'home':
        return homedir();
      case 'temp':
        return process.env.TMPDIR || '/tmp';
      default:
        return join(appData, this.name, name);
    }
  }

  setPath(name, path) {
    record('app.setPath', { name, path, afterLock: this.#lock !== null });
    paths.set(name, path);
  }

  enableSandbox() {
    if (ready) throw new Error('app.enableSandbox() can only be called before app is ready');
    record('app.enableSandbox');
  }

  requestSingleInstanceLock() {
    const dir = this.getPath('userData');
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'SingletonLock');
    const inbox = join(dir, 'SingletonMessages');
    try {
      symlinkSync(`${hostname()}-${process.pid}`, lock);
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const owner = Number(readlinkSync(lock).split('-').pop());
      if (owner !== process.pid && isAlive(owner)) {
        appendFileSync(inbox, `${JSON.stringify({ argv: process.argv, cwd: process.cwd() })}\n`);
        record('app.requestSingleInstanceLock', { userData: dir, granted: false });
        return false;
      }
      rmSync(lock, { force: true });
      symlinkSync(`${hostname()}-${process.pid}`, lock);
    }
    writeFileSync(inbox, '');
    this.#lock = lock;
    process.on('exit', () => rmSync(lock, { force: true }));
    let read = 0;
    setInterval(() => {
      const text = readFileSync(inbox, 'utf8');
      const lines = text.slice(read).split('\n').filter(Boolean);
      read = text.length;
      for (const line of lines) {
        const { argv, cwd } = JSON.parse(line);
        record('app.second-instance', { argv });
        this.emit('second-instance', makeEvent(), argv, cwd, {});
      }
    }, 50).unref();
    record('app.requestSingleInstanceLock', { userData: dir, granted: true });
    return true;
  }

  quit() {
    record('app.quit');
    if (quitting) return;
    quitting = true;
    setImmediate(() => {
      const before = makeEvent();
      this.emit('before-quit', before);
      if (before.defaultPrevented) return void (quitting = false);
      for (const win of BrowserWindow.getAllWindows()) {
        win.close();
        if (!win.isDestroyed()) return void (quitting = false);
      }
      const willQuit = makeEvent();
      this.emit('will-quit', willQuit);
      record('app.will-quit', { prevented: willQuit.defaultPrevented });
      if (willQuit.defaultPrevented) return void (quitting = false);
      this.emit('quit', makeEvent(), 0);
      record('process.end', { code: 0, via: 'quit' });
      process.exit(0);
    });
  }

  exit(code = 0) {
    record('app.exit', { code });
    record('process.end', { code, via: 'exit' });
    process.exit(code);
  }

  focus(options) {
    record('app.focus', { options: options ?? null });
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

export const app = new App();

// ------------------------------------------------------------------------------ windows and contents

let nextContentsId = 1;
const allContents = new Set();

class WebFrame {
  constructor(contents, url) {
    this.contents = contents;
    this.url = url;
  }
}

class WebContents extends EventEmitter {
  id = nextContentsId++;
  #url = '';
  #destroyed = false;
  windowOpenHandler = null;
  mainFrame = new WebFrame(this, '');

  constructor() {
    super();
    allContents.add(this);
    app.emit('web-contents-created', makeEvent(), this);
  }

  loadURL(url) {
    record('webContents.loadURL', { id: this.id, url });
    this.#url = url;
    this.mainFrame.url = url;
    // The page has painted: a window waiting for it may show itself now.
    setImmediate(() => this.emit('ready-to-show-internal'));
    return Promise.resolve();
  }

  getURL() {
    return this.#url;
  }

  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }

  send(channel, ...args) {
    record('webContents.send', { id: this.id, channel, args });
  }

  isDestroyed() {
    return this.#destroyed;
  }

  destroy() {
    this.#destroyed = true;
    allContents.delete(this);
    this.emit('destroyed');
  }
}

let focused = null;
const windows = [];
const focusWindow = (win) => {
  focused = win;
};

export class BrowserWindow extends EventEmitter {
  #destroyed = false;
  #maximized = false;
  #minimized = false;
  #bounds;

  constructor(options = {}) {
    super();
    this.options = options;
    this.#bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
    this.webContents = new WebContents();
    this.webContents.once('ready-to-show-internal', () => this.emit('ready-to-show'));
    windows.push(this);
    record('BrowserWindow.new', { webContentsId: this.webContents.id, options });
  }

  static getAllWindows() {
    return windows.filter((w) => !w.isDestroyed());
  }

  static getFocusedWindow() {
    return focused && !focused.isDestroyed() ? focused : null;
  }

  loadURL(url) {
    return this.webContents.loadURL(url);
  }

  show() {
    record('BrowserWindow.show', { webContentsId: this.webContents.id });
  }

  focus() {
    focusWindow(this);
    record('BrowserWindow.focus', { webContentsId: this.webContents.id });
  }

  restore() {
    this.#minimized = false;
    record('BrowserWindow.restore', { webContentsId: this.webContents.id });
  }

  minimize() {
    this.#minimized = true;
  }

  isMinimized() {
    return this.#minimized;
  }

  maximize() {
    this.#maximized = true;
    record('BrowserWindow.maximize', { webContentsId: this.webContents.id });
    this.emit('maximize');
  }

  isMaximized() {
    return this.#maximized;
  }

  getNormalBounds() {
    return { ...this.#bounds };
  }

  getBounds() {
    return { ...this.#bounds };
  }

  /** Stands in for the user dragging or resizing the window. */
  setBounds(bounds) {
    const resized = bounds.width !== this.#bounds.width || bounds.height !== this.#bounds.height;
    this.#bounds = { ...this.#bounds, ...bounds };
    this.emit(resized ? 'resize' : 'move');
  }

  isDestroyed() {
    return this.#destroyed;
  }

  close() {
    if (this.#destroyed) return;
    const event = makeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.#destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
    record('BrowserWindow.closed', { webContentsId: this.webContents.id });
    if (!quitting && BrowserWindow.getAllWindows().length === 0) {
      if (app.listenerCount('window-all-closed') > 0) app.emit('window-all-closed');
      else app.quit();
    }
  }
}

// ------------------------------------------------------------------------------- protocol and net

const privileged = [];
const handlers = new Map();

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    if (ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    privileged.push(...schemes);
    record('protocol.registerSchemesAsPrivileged', { schemes });
  },
  handle(scheme, handler) {
    if (handlers.has(scheme)) throw new Error(`The scheme "${scheme}" is already handled`);
    handlers.set(scheme, handler);
    record('protocol.handle', { scheme });
  },
  unhandle(scheme) {
    handlers.delete(scheme);
  },
  isProtocolHandled(scheme) {
    return Promise.resolve(handlers.has(scheme));
  },
};

const MIME = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export const net = {
  async fetch(input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (!url.startsWith('file:')) return fetch(input, init);
    const file = fileURLToPath(url);
    let stats;
    try {
      stats = statSync(file);
    } catch {
      throw new Error('net::ERR_FILE_NOT_FOUND');
    }
    if (stats.isDirectory()) {
      const listing = readdirSync(file)
        .map((name) => `<a href="${name}">${name}</a>`)
        .join('\n');
      return new Response(`<!doctype html><title>Index of ${file}</title>${listing}`, {
        status: 200,
        headers: { 'content-type': 'text/html' },
      });
    }
    return new Response(readFileSync(file), {
      status: 200,
      headers: { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' },
    });
  },
};

// ---------------------------------------------------------------------------------------- session

const defaultSession = {
  permissionRequestHandler: null,
  permissionCheckHandler: null,
  headersReceived: null,
  setPermissionRequestHandler(handler) {
    this.permissionRequestHandler = handler;
    record('session.setPermissionRequestHandler', { set: handler !== null });
  },
  setPermissionCheckHandler(handler) {
    this.permissionCheckHandler = handler;
    record('session.setPermissionCheckHandler', { set: handler !== null });
  },
  setSpellCheckerDictionaryDownloadURL(url) {
    new URL(url);
    record('session.setSpellCheckerDictionaryDownloadURL', { url, ready });
  },
  setSpellCheckerLanguages(languages) {
    record('session.setSpellCheckerLanguages', { languages });
  },
  setSpellCheckerEnabled(enabled) {
    record('session.setSpellCheckerEnabled', { enabled });
  },
  webRequest: {
    onHeadersReceived(handler) {
      defaultSession.headersReceived = handler;
      record('session.webRequest.onHeadersReceived');
    },
  },
};

export const session = {
  get defaultSession() {
    if (!ready) throw new Error('session.defaultSession can only be used after app is ready');
    return defaultSession;
  },
};

// ------------------------------------------------------------------------------------------ the rest

class IpcMain extends EventEmitter {
  handlers = new Map();
  handle(channel, handler) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
    record('ipcMain.handle', { channel });
  }
  removeHandler(channel) {
    this.handlers.delete(channel);
    record('ipcMain.removeHandler', { channel });
  }
}

export const ipcMain = new IpcMain();

export const screen = {
  getAllDisplays() {
    return [
      {
        id: 1,
        bounds: { x: 0, y: 0, width: 1920, height: 1080 },
        workArea: { x: 0, y: 0, width: 1920, height: 1040 },
        scaleFactor: 1,
      },
    ];
  },
  getPrimaryDisplay() {
    return screen.getAllDisplays()[0];
  },
};

// A message box stays open until the test answers it (the `answerMessageBox` command).
const messageBoxes = [];
const openDialogAnswers = [];

export const dialog = {
  showErrorBox(title, content) {
    record('dialog.showErrorBox', { title, content });
  },
  showMessageBox(windowOrOptions, maybeOptions) {
    const options = maybeOptions ?? windowOrOptions;
    record('dialog.showMessageBox', { options, attached: maybeOptions !== undefined });
    return new Promise((resolve) => messageBoxes.push((response) => resolve({ response, checkboxChecked: false })));
  },
  async showSaveDialog(windowOrOptions, maybeOptions) {
    const options = maybeOptions ?? windowOrOptions;
    record('dialog.showSaveDialog', { options, attached: maybeOptions !== undefined });
    return { canceled: true, filePath: '' };
  },
  // Answers with the paths the test queued (the `queueOpenDialog` command), else as if cancelled.
  async showOpenDialog(windowOrOptions, maybeOptions) {
    record('dialog.showOpenDialog', { options: maybeOptions ?? windowOrOptions, attached: maybeOptions !== undefined });
    const filePaths = openDialogAnswers.shift() ?? null;
    return filePaths === null ? { canceled: true, filePaths: [] } : { canceled: false, filePaths };
  },
};

export const shell = {
  async openExternal(url) {
    record('shell.openExternal', { url });
  },
  async openPath(path) {
    record('shell.openPath', { path });
    return '';
  },
};

export const clipboard = {
  writeText(text) {
    record('clipboard.writeText', { text });
  },
};

export const Menu = {
  buildFromTemplate(template) {
    return { template };
  },
  setApplicationMenu(menu) {
    record('Menu.setApplicationMenu', { template: menu?.template ?? null });
  },
};

export const contextBridge = {
  exposeInMainWorld() {
    throw new Error('contextBridge is a renderer API');
  },
};

export const ipcRenderer = {
  invoke() {
    throw new Error('ipcRenderer is a renderer API');
  },
};

export default {
  app,
  BrowserWindow,
  protocol,
  net,
  session,
  ipcMain,
  screen,
  dialog,
  shell,
  clipboard,
  Menu,
  contextBridge,
  ipcRenderer,
};

// ------------------------------------------------------------------------------- the test's driver

function contentsFor(which) {
  if (which === 'stray') return new WebContents();
  const win = BrowserWindow.getAllWindows()[which ?? 0];
  if (!win) throw new Error(`there is no window ${which ?? 0}`);
  return win.webContents;
}

const commands = {
  privilegedSchemes: () => privileged,
  windows: () =>
    BrowserWindow.getAllWindows().map((w) => ({
      webContentsId: w.webContents.id,
      url: w.webContents.getURL(),
      bounds: w.getNormalBounds(),
      maximized: w.isMaximized(),
    })),
  async request({ url, method = 'GET' }) {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = handlers.get(scheme);
    if (!handler) return { failed: `no handler for ${scheme}:` };
    try {
      const response = await handler(new Request(url, { method }));
      return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
    } catch (err) {
      // Electron fails the request (net::ERR_FAILED) when the handler throws or rejects.
      return { failed: err instanceof Error ? err.message : String(err) };
    }
  },
  contentsEvent({ event, url, window }) {
    const contents = contentsFor(window);
    const e = makeEvent();
    contents.emit(event, e, url, {});
    return { prevented: e.defaultPrevented };
  },
  windowOpen({ url, window }) {
    const contents = contentsFor(window);
    if (!contents.windowOpenHandler) return { handler: false };
    return {
      handler: true,
      ...contents.windowOpenHandler({
        url,
        frameName: '',
        features: '',
        disposition: 'new-window',
        referrer: { url: '', policy: 'default' },
      }),
    };
  },
  async permissionRequest({ permission, window, requestingUrl, isMainFrame }) {
    const handler = defaultSession.permissionRequestHandler;
    if (!handler) return { granted: true, handler: false };
    const contents = contentsFor(window);
    const granted = await new Promise((resolve) =>
      handler(contents, permission, resolve, { requestingUrl, isMainFrame }),
    );
    return { granted, handler: true };
  },
  permissionCheck({ permission, window, requestingOrigin, requestingUrl, isMainFrame }) {
    const handler = defaultSession.permissionCheckHandler;
    if (!handler) return { granted: true, handler: false };
    const contents = window === null ? null : contentsFor(window);
    return {
      granted: handler(contents, permission, requestingOrigin, {
        requestingUrl,
        isMainFrame,
        embeddingOrigin: requestingOrigin,
      }),
      handler: true,
    };
  },
  async invoke({ channel, args, window, frame = 'main', frameUrl }) {
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const sender = contentsFor(window);
    let senderFrame = null;
    if (frame === 'main') senderFrame = sender.mainFrame;
    else if (frame === 'sub') senderFrame = new WebFrame(sender, frameUrl ?? sender.getURL());
    if (frame === 'main' && frameUrl !== undefined) senderFrame = Object.assign(sender.mainFrame, { url: frameUrl });
    return handler({ sender, senderFrame, processId: 1, frameId: 1 }, ...args);
  },
  setBounds({ window, bounds }) {
    BrowserWindow.getAllWindows()[window ?? 0].setBounds(bounds);
    return null;
  },
  closeWindow({ window }) {
    BrowserWindow.getAllWindows()[window ?? 0].close();
    return null;
  },
  quit() {
    app.quit();
    return null;
  },
  queueOpenDialog({ filePaths }) {
    openDialogAnswers.push(filePaths);
    return null;
  },
  answerMessageBox({ response }) {
    const answer = messageBoxes.shift();
    if (!answer) throw new Error('no message box is open');
    answer(response);
    return null;
  },
  devHeaders({ url }) {
    if (!defaultSession.headersReceived) return { handler: false };
    return new Promise((resolve) =>
      defaultSession.headersReceived({ url, responseHeaders: {} }, (result) => resolve({ handler: true, ...result })),
    );
  },
};

if (process.send) {
  process.on('message', (message) => {
    const { id, cmd, ...args } = message;
    Promise.resolve()
      .then(() => {
        if (!commands[cmd]) throw new Error(`unknown command ${cmd}`);
        return commands[cmd](args);
      })
      .then(
        (result) => process.send({ id, ok: true, result }),
        (err) => process.send({ id, ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  });
}
