// A fake of the few Electron APIs the main bundle calls, enough for it to start its core and register
// it on IPC. It is not a test double for a part under test: the core, its workers and the bundle are
// real. Once the main process has registered its IPC handler and opened its window, the fake sends the
// calls in FAKE_ELECTRON_CALLS (JSON: [[channel, input], …]) as the window would, prints each result as
// one line `RESULT <json>`, and exits. Packaged mode, with process.resourcesPath = FAKE_ELECTRON_RESOURCES
// (which holds native/better_sqlite3.node built for this Node).
import { EventEmitter } from 'node:events';

process.resourcesPath = process.env.FAKE_ELECTRON_RESOURCES;
const calls = JSON.parse(process.env.FAKE_ELECTRON_CALLS ?? '[]');
const APP_URL = 'app://citewise/index.html';

class FakeApp extends EventEmitter {
  isPackaged = true;
  requestSingleInstanceLock() { return true; }
  enableSandbox() {}
  whenReady() { return Promise.resolve(); }
  quit() { process.exit(0); }
  exit(code) { process.exit(code); }
}
export const app = new FakeApp();

let nextId = 1;
const windows = new Set();
export class BrowserWindow extends EventEmitter {
  constructor() {
    super();
    const id = nextId++;
    const mainFrame = { url: APP_URL };
    this.webContents = { id, mainFrame, send() {} };
    windows.add(this);
  }
  static getFocusedWindow() { return [...windows][0] ?? null; }
  isDestroyed() { return false; }
  maximize() {}
  isMaximized() { return false; }
  getNormalBounds() { return { x: 0, y: 0, width: 1000, height: 700 }; }
  loadURL() { setImmediate(runCalls); return Promise.resolve(); }
}

let handler = null;
export const ipcMain = {
  handle(_channel, fn) { handler = fn; },
  removeHandler() { handler = null; },
};

async function runCalls() {
  const [win] = windows;
  const event = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
  for (const [channel, input] of calls) {
    const result = await handler(event, channel, input);
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  }
  process.exit(0);
}

export const dialog = {
  showErrorBox(title, message) { process.stderr.write(`${title}: ${message}\n`); },
  showSaveDialog() { return Promise.resolve({ canceled: true }); },
};
export const Menu = { buildFromTemplate: (t) => t, setApplicationMenu() {} };
export const net = { fetch: () => Promise.reject(new Error('no network in the fake')) };
export const protocol = { registerSchemesAsPrivileged() {}, handle() {} };
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const session = { defaultSession: { setPermissionRequestHandler() {}, setPermissionCheckHandler() {}, webRequest: { onHeadersReceived() {} } } };
export const shell = { openExternal: () => Promise.resolve(), openPath: () => Promise.resolve('') };
export default { app, BrowserWindow, ipcMain, dialog, Menu, net, protocol, screen, session, shell };
