// Runs a built main process (out/main/index.js, or one extracted from a package) in plain Node with the
// stand-in `electron` of fake-electron/, and drives it the way Electron and the renderer would.
import { fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');
export const MAIN = join(ROOT, 'out', 'main', 'index.js');
const REGISTER = join(__dirname, 'fake-electron', 'register.mjs');
/** The better-sqlite3 build for the runtime the stand-in runs in: this Node. */
export const NODE_SQLITE = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

export interface Record {
  kind: string;
  pid: number;
  [key: string]: unknown;
}

export interface ShellOptions {
  main?: string;
  /** A scratch directory of the test: holds the log, the XDG config home and (by default) resources. */
  scratch: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** process.resourcesPath of the packaged app; default: a folder with the Node builds of the native files. */
  resources?: string;
  /** Name of this launch's log (several launches may share a scratch directory). */
  name?: string;
}

export interface Shell {
  child: ChildProcess;
  log: string;
  records(kind?: string): Record[];
  send<T = unknown>(cmd: string, args?: object): Promise<T>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  waitFor(kind: string, timeoutMs?: number): Promise<Record>;
  stop(): Promise<void>;
}

/** A resources folder laid out as the package's (resources/native/…), with the native builds for Node. */
export function nodeResources(dir: string): string {
  const native = join(dir, 'native');
  // Never rewrite a library a running launch has loaded.
  if (existsSync(join(native, 'better_sqlite3.node'))) return dir;
  mkdirSync(native, { recursive: true });
  copyFileSync(NODE_SQLITE, join(native, 'better_sqlite3.node'));
  for (const file of ['cw_rank.so', 'cw_rank.dylib', 'cw_rank.dll']) {
    if (existsSync(join(ROOT, 'out', 'native', file)))
      copyFileSync(join(ROOT, 'out', 'native', file), join(native, file));
  }
  return dir;
}

export function launchShell(options: ShellOptions): Shell {
  const name = options.name ?? 'shell';
  const log = join(options.scratch, `${name}.jsonl`);
  const resources = options.resources ?? nodeResources(join(options.scratch, 'resources'));
  const child = fork(options.main ?? MAIN, options.args ?? [], {
    execArgv: ['--import', REGISTER],
    env: {
      ...process.env,
      CITEWISE_DATA_DIR: '',
      CITEWISE_SERVICE_URL: '',
      CITEWISE_API_KEY: '',
      // The editor API stays off (port 23119 is the machine's) unless a test turns it on.
      CITEWISE_EDITOR_API: '0',
      XDG_CONFIG_HOME: join(options.scratch, 'config'),
      FAKE_ELECTRON_LOG: log,
      FAKE_ELECTRON_PACKAGED: '1',
      FAKE_ELECTRON_RESOURCES: resources,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) p?.resolve(m.result);
    else p?.reject(new Error(m.error));
  });
  void exited.then(() => {
    for (const p of pending.values()) p.reject(new Error(`the app exited before answering:\n${out}`));
    pending.clear();
  });

  const records = (kind?: string): Record[] => {
    if (!existsSync(log)) return [];
    const all = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record);
    return kind ? all.filter((r) => r.kind === kind) : all;
  };

  return {
    child,
    log,
    records,
    exited,
    output: () => out,
    send<T>(cmd: string, args: object = {}): Promise<T> {
      if (child.exitCode !== null || child.signalCode !== null)
        return Promise.reject(new Error(`the app has exited:\n${out}`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, ...args });
      });
    },
    async waitFor(kind, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = records(kind)[0];
        if (found) return found;
        if (child.exitCode !== null || Date.now() > until) {
          throw new Error(
            `no ${kind} ${child.exitCode !== null ? `(the app exited with ${child.exitCode})` : `within ${timeoutMs} ms`}:\n${out}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
