// Launches Citewise in browser mode the way `npm start` does (the built CLI's `serve`), and Debian's
// Chromium through playwright-core. Each test gets its own data directory and port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RESULTS_DIR = join(ROOT, 'test-results');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface RunningApp {
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** `port` 0 (the default) takes a free one; a fixed port keeps the origin, and with it localStorage, across a restart. */
export async function launchApp(
  options: { dataDir?: string; env?: NodeJS.ProcessEnv; port?: number } = {},
): Promise<RunningApp> {
  const dir = options.dataDir ? null : tempDir('citewise-e2e-');
  const dataDir = options.dataDir ?? dir!.path;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin/citewise.mjs'), 'serve', '--port', String(options.port ?? 0), '--data-dir', dataDir],
    {
      cwd: ROOT,
      // The service defaults to a closed loopback port: a test that starts no local service must not send
      // the app to the real one (this machine reaches no network but the package registries anyway).
      env: {
        ...process.env,
        CITEWISE_SERVICE_URL: 'http://127.0.0.1:9',
        CITEWISE_EDITOR_API: '0',
        ...options.env,
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`citewise serve did not print its URL in time:\n${output}`)),
      20_000,
    );
    const check = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`citewise serve exited with ${code}:\n${output}`)));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token')!,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      dir?.remove();
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export interface PageProblems {
  errors: string[];
}

/** A page that records console errors, page errors and CSP violations, so tests can demand none. */
export async function newPage(context: BrowserContext): Promise<{ page: Page; problems: PageProblems }> {
  const page = await context.newPage();
  const problems: PageProblems = { errors: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') problems.errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.errors.push(`page: ${e.message}`));
  return { page, problems };
}

/**
 * The canary: any markup from a file, a field or a service answer that ran as code would call
 * `window.__canary()`. Installed in the context before the app's own scripts; `canaryCalls` counts.
 */
export async function installCanary(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __canary: () => void; __canaryFired: number };
    w.__canaryFired = 0;
    w.__canary = () => void w.__canaryFired++;
  });
}

export const canaryCalls = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __canaryFired?: number }).__canaryFired ?? 0);

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

export interface AppSession {
  app: RunningApp;
  browser: Browser;
  page: Page;
  problems: PageProblems;
  close(): Promise<void>;
}

/** The service key that may do everything, as the local service (test/service) issues it. */
export const fullKey = (service: RunningService): string => service.keys.find((k) => k.scopes.has('*'))!.token;

export interface OpenAppOptions {
  /** The local citation service the app talks to, with its full key; without one, a closed port (launchApp). */
  service?: RunningService;
  /** An existing data folder (seeded by the test, removed by it); default a fresh one removed on close. */
  dataDir?: string;
  /** More environment for `citewise serve`, over the service's. */
  env?: NodeJS.ProcessEnv;
  port?: number;
  /** Default 1360×860, light, downloads allowed; anything else of Playwright's context options. */
  context?: BrowserContextOptions;
  /** Grants clipboard read and write to the app's origin (default false). */
  clipboard?: boolean;
  /** Waits for the Panes navigation, the app shell being up (default true). */
  waitForShell?: boolean;
}

export interface AppSession {
  app: RunningApp;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  /** Closes the browser and stops the app (the service and a test's own data folder stay the test's). */
  close(): Promise<void>;
}

/**
 * The launch every e2e file shares: `citewise serve` on a data folder (against `service` when given,
 * with no keychain so the key comes from the environment), Debian's Chromium, a context and a page
 * that records problems, opened on the app's tokened URL. A step that fails closes what it started.
 */
export async function openApp(options: OpenAppOptions = {}): Promise<AppSession> {
  const app = await launchApp({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    env: {
      ...(options.service
        ? {
            CITEWISE_SERVICE_URL: options.service.url,
            CITEWISE_API_KEY: fullKey(options.service),
            DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
          }
        : {}),
      ...options.env,
    },
  });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1360, height: 860 },
      colorScheme: 'light',
      acceptDownloads: true,
      ...options.context,
    });
    if (options.clipboard)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    const { page, problems } = await newPage(context);
    await page.goto(app.url);
    if (options.waitForShell ?? true) await page.getByRole('navigation', { name: 'Panes' }).waitFor();
    const opened = browser;
    return {
      app,
      browser: opened,
      context,
      page,
      problems,
      async close() {
        await opened.close();
        await app.stop();
      },
    };
  } catch (err) {
    await browser?.close();
    await app.stop();
    throw err;
  }
}

/** openApp against a service at `serviceUrl` with `apiKey`, clipboard granted, not waiting for the shell. */
export function openSession(
  serviceUrl: string,
  apiKey: string,
  viewport = { width: 1360, height: 860 },
): Promise<AppSession> {
  return openApp({
    env: {
      CITEWISE_SERVICE_URL: serviceUrl,
      CITEWISE_API_KEY: apiKey,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
    },
    context: { viewport },
    clipboard: true,
    waitForShell: false,
  });
}

/** Imports a .bib through the Library's Import… (its preview, then Import and Done), `entries` in it. */
export async function importBib(page: Page, bib: string, entries: number): Promise<void> {
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'refs.bib', mimeType: 'application/x-bibtex', buffer: Buffer.from(bib) });
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-summary').waitFor();
  await dialog.getByRole('button', { name: new RegExp(`^Import ${entries} entr`) }).click();
  await dialog.getByTestId('import-report').waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
}
