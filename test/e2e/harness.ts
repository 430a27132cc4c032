// Launches Citewise in browser mode the way `npm start` does (the built CLI's `serve`), and Debian's
// Chromium through playwright-core. Each test gets its own data directory and port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
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

/** The app in browser mode against a citation service, open in a fresh Chromium page (light, downloads and clipboard allowed). */
export async function openSession(
  serviceUrl: string,
  apiKey: string,
  viewport = { width: 1360, height: 860 },
): Promise<AppSession> {
  const app = await launchApp({
    env: {
      CITEWISE_SERVICE_URL: serviceUrl,
      CITEWISE_API_KEY: apiKey,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
    },
  });
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport, colorScheme: 'light', acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  const { page, problems } = await newPage(context);
  await page.goto(app.url);
  return {
    app,
    browser,
    page,
    problems,
    async close() {
      await browser.close();
      await app.stop();
    },
  };
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
