// A real PostgreSQL for the sharing tests and benchmarks: Debian's binaries, initdb into a temporary
// folder, pg_ctl on a free loopback port. PostgreSQL refuses to run as root (CI runs as root), so there
// it runs as an unprivileged user (`nobody`, or CITEWISE_TEST_PG_USER) through runuser, with the
// folder handed to that user; otherwise as whoever runs the tests.
import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port';

const run = promisify(execFile);

export const PG_BIN = process.env.CITEWISE_TEST_PG_BIN ?? findBin();

function findBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((v) => v >= 15)
        .sort((a, b) => b - a)
    : [];
  return versions.length ? join(root, String(versions[0]), 'bin') : '';
}

export const postgresAvailable = (): boolean => PG_BIN !== '' && existsSync(join(PG_BIN, 'initdb'));

export interface TestPostgres {
  host: '127.0.0.1';
  port: number;
  /** The superuser (postgres) and its password. */
  superuser: string;
  password: string;
  dir: string;
  /** postgresql://postgres@127.0.0.1:PORT/DB (no password: it is `password`). */
  url(database: string, user?: string): string;
  /** A client as the superuser on a database. */
  client(database?: string): Promise<pg.Client>;
  /** Creates a database (owned by the superuser). */
  createDatabase(name: string): Promise<void>;
  /** pg_ctl stop (fast: open sessions are ended, transactions rolled back). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** pg_ctl restart -m fast: every session ended, transactions rolled back, the server back at once. */
  restart(): Promise<void>;
  /** The postmaster's process id. */
  pid(): number;
  /** kill -9 of the postmaster; start() brings it back through crash recovery. */
  kill9(): Promise<void>;
  /** Where psql and pg_dump are. */
  bin: string;
  /** Environment for the server's own tools (psql, pg_dump) as the superuser. */
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

const asUser = (): string | null => (process.getuid?.() === 0 ? (process.env.CITEWISE_TEST_PG_USER ?? 'nobody') : null);

async function pgCmd(cmd: string, args: string[]): Promise<string> {
  const user = asUser();
  const file = join(PG_BIN, cmd);
  const { stdout } = user
    ? await run('runuser', ['-u', user, '--', file, ...args], { env: { ...process.env, LC_ALL: 'C.UTF-8' } })
    : await run(file, args, { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  return stdout;
}

export interface StartOptions {
  /** TLS: the server's certificate and key files (PEM), readable by the server's user. */
  ssl?: { cert: string; key: string };
  /** Extra postgresql.conf settings. */
  settings?: Record<string, string | number>;
}

/** Starts a fresh PostgreSQL cluster. Not durable across power cuts (fsync off): tests, not data. */
export async function startPostgres(options: StartOptions = {}): Promise<TestPostgres> {
  if (!postgresAvailable()) throw new Error('PostgreSQL 15+ is not installed (apt-get install postgresql).');
  const dir = mkdtempSync(join(tmpdir(), 'citewise-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  // The certificate and key are copied into the server's own folder, readable by its user alone.
  const ssl = options.ssl ? { cert: join(dir, 'server.crt'), key: join(dir, 'server.key') } : undefined;
  if (options.ssl && ssl) {
    copyFileSync(options.ssl.cert, ssl.cert);
    copyFileSync(options.ssl.key, ssl.key);
    chmodSync(ssl.key, 0o600);
  }
  const user = asUser();
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
    if (ssl) for (const f of [ssl.cert, ssl.key]) chownSync(f, uid, gid);
  }
  await pgCmd('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const port = await freePort();
  const settings: Record<string, string | number> = {
    port,
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${dir}'`,
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: 100,
    shared_buffers: "'128MB'",
    ...(ssl ? { ssl: 'on', ssl_cert_file: `'${ssl.cert}'`, ssl_key_file: `'${ssl.key}'` } : {}),
    ...options.settings,
  };
  writeFileSync(
    join(data, 'postgresql.auto.conf'),
    Object.entries(settings)
      .map(([k, v]) => `${k} = ${v}\n`)
      .join(''),
  );
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
    chownSync(
      join(data, 'postgresql.auto.conf'),
      uid,
      uid === 0 ? 0 : Number(execFileSync('id', ['-g', user]).toString().trim()),
    );
  }
  const log = join(dir, 'server.log');
  const start = async (): Promise<void> => {
    await pgCmd('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
  };
  await start();
  const env = { ...process.env, PGPASSWORD: password, PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'postgres' };
  const server: TestPostgres = {
    host: '127.0.0.1',
    port,
    superuser: 'postgres',
    password,
    dir,
    bin: PG_BIN,
    env,
    url: (database, u = 'postgres') => `postgresql://${u}@127.0.0.1:${port}/${database}`,
    async client(database = 'postgres') {
      const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database });
      c.on('error', () => {});
      await c.connect();
      return c;
    },
    async createDatabase(name) {
      const c = await server.client();
      try {
        await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await c.end();
      }
    },
    async stop(mode = 'fast') {
      await pgCmd('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']).catch(() => {});
    },
    start,
    async restart() {
      await pgCmd('pg_ctl', ['-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60', 'restart']);
    },
    pid() {
      const text = execFileSync('head', ['-1', join(data, 'postmaster.pid')]).toString();
      return Number(text.trim());
    },
    async kill9() {
      const pid = server.pid();
      // The postmaster and every backend: what a machine losing power to the server process does.
      try {
        execFileSync('pkill', ['-9', '-P', String(pid)]);
      } catch {
        // no children
      }
      process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
          await new Promise((r) => setTimeout(r, 50));
        } catch {
          break;
        }
      }
    },
    async remove() {
      await server.stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
