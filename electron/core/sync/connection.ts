// Where a shared library lives and how to reach it: a postgresql:// address read into its parts (the
// password never stays in it), TLS settings with certificate verification, and pg clients configured
// the same way everywhere (CLI, app, tests). Errors are sentences that name the server but never carry
// the password.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { CoreError } from '../errors';
import type { SecretAccount } from '../secrets';

export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface SyncTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /**
   * verify-full (the default for any host but this machine): TLS, the certificate checked against the
   * trusted CAs (sslrootcert, else the system's) and the host name; verify-ca: the CA only; require:
   * encrypted without checking who answers; disable: no TLS (the default on this machine only).
   */
  sslmode: SslMode;
  /** A CA certificate file (PEM) to trust for this server. */
  sslrootcert: string | null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Reads a postgresql:// (or postgres://) address. A password in it is returned apart, for the caller to
 * keep in the keychain; the target never holds one. Only sslmode and sslrootcert are accepted as
 * options, so nothing else can change how the connection is made.
 */
export function parseSyncUrl(text: string): { target: SyncTarget; password: string | null } {
  let url: URL;
  try {
    url = new URL(String(text).trim());
  } catch {
    throw new CoreError(
      'INVALID_INPUT',
      'The server address is not a valid URL; it looks like postgresql://USER@HOST:5432/DATABASE.',
    );
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:')
    throw new CoreError('INVALID_INPUT', 'The server address must start with postgresql:// (or postgres://).');
  const host = decodeURIComponent(url.hostname);
  if (host === '') throw new CoreError('INVALID_INPUT', 'The server address has no host.');
  const user = decodeURIComponent(url.username);
  if (user === '')
    throw new CoreError('INVALID_INPUT', 'The server address has no user name; write postgresql://USER@HOST/DATABASE.');
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/'))
    throw new CoreError('INVALID_INPUT', 'The server address must name one database: postgresql://USER@HOST/DATABASE.');
  const port = url.port === '' ? 5432 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new CoreError('INVALID_INPUT', 'The server address has an invalid port.');
  const params = url.searchParams;
  for (const key of params.keys())
    if (key !== 'sslmode' && key !== 'sslrootcert')
      throw new CoreError(
        'INVALID_INPUT',
        `The server address option "${key.slice(0, 40)}" is not supported; only sslmode and sslrootcert are.`,
      );
  const mode = params.get('sslmode');
  const loopback = LOOPBACK.has(host.toLowerCase());
  const sslmode: SslMode = mode === null ? (loopback ? 'disable' : 'verify-full') : checkMode(mode);
  const sslrootcert = params.get('sslrootcert');
  if (sslrootcert !== null && sslmode !== 'verify-ca' && sslmode !== 'verify-full')
    throw new CoreError('INVALID_INPUT', 'sslrootcert needs sslmode=verify-ca or sslmode=verify-full.');
  return {
    target: { host, port, database, user, sslmode, sslrootcert: sslrootcert === '' ? null : sslrootcert },
    password: url.password === '' ? null : decodeURIComponent(url.password),
  };
}

function checkMode(mode: string): SslMode {
  if ((SSL_MODES as readonly string[]).includes(mode)) return mode as SslMode;
  throw new CoreError(
    'INVALID_INPUT',
    `sslmode must be one of ${SSL_MODES.join(', ')} (got "${mode.slice(0, 20)}"); "prefer" and "allow" are refused, since they fall back to no encryption without saying so.`,
  );
}

/** The address as shown and stored: no password, options only when they differ from the defaults. */
export function syncUrlOf(t: SyncTarget): string {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  const params = new URLSearchParams();
  const loopback = LOOPBACK.has(t.host.toLowerCase());
  if (t.sslmode !== (loopback ? 'disable' : 'verify-full')) params.set('sslmode', t.sslmode);
  if (t.sslrootcert) params.set('sslrootcert', t.sslrootcert);
  const query = params.toString();
  return `postgresql://${encodeURIComponent(t.user)}@${host}:${t.port}/${encodeURIComponent(t.database)}${query ? `?${query}` : ''}`;
}

/** The keychain account of a member's password on a server: user, host, port and database. */
export function accountOfTarget(t: SyncTarget): SecretAccount {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host.toLowerCase();
  return `postgresql://${encodeURIComponent(t.user)}@${host}:${t.port}/${encodeURIComponent(t.database)}` as SecretAccount;
}

/** Where the server is, for messages: never the password. */
export function describeTarget(t: SyncTarget): string {
  return `${t.user}@${t.host}:${t.port}/${t.database}`;
}

export interface ConnectOptions {
  connectTimeoutMs?: number;
  /** Ends a statement that runs longer (a stuck server); 0: none. */
  statementTimeoutMs?: number;
  applicationName?: string;
}

// Values are read as the sync code expects them: int8 as a number (versions stay far below 2^53), and
// JSON as its text, parsed in the library worker rather than in the thread that answers the UI.
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    if (oid === 114 || oid === 3802) return (v: string) => v;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};

/** TLS options for pg from the target: certificate checks on unless sslmode says otherwise. */
export function tlsOptions(t: SyncTarget): false | ConnectionOptions {
  if (t.sslmode === 'disable') return false;
  if (t.sslmode === 'require') return { rejectUnauthorized: false };
  let ca: string | undefined;
  if (t.sslrootcert) {
    try {
      ca = readFileSync(t.sslrootcert, 'utf8');
    } catch (err) {
      throw new CoreError(
        'INVALID_INPUT',
        `The CA certificate ${t.sslrootcert} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
  }
  return {
    rejectUnauthorized: true,
    ...(ca ? { ca } : {}),
    ...(t.sslmode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
  };
}

/** A connected pg client, or a CoreError saying why not (OFFLINE, UNAUTHORIZED, FORBIDDEN, NOT_FOUND…). */
export async function connectTo(
  t: SyncTarget,
  password: string | null,
  options: ConnectOptions = {},
): Promise<pg.Client> {
  const client = new pg.Client({
    host: t.host,
    port: t.port,
    database: t.database,
    user: t.user,
    ...(password !== null ? { password } : {}),
    ssl: tlsOptions(t),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    keepAlive: true,
    application_name: options.applicationName ?? 'citewise',
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    types: TYPES,
  });
  // A connection that breaks later reports through 'error'; without a listener Node would crash.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw connectionError(err, t);
  }
  return client;
}

const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
]);

/** Whether an error means the server could not be reached (or the connection broke): try again later. */
export function isOffline(err: unknown): boolean {
  if (err instanceof CoreError) return err.code === 'OFFLINE';
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && OFFLINE_CODES.has(e.code)) return true;
  // 57P01..57P03: the server is shutting down, crashed or starting; 08xxx: the connection failed.
  if (e.code && (/^57P0[1-3]$/.test(e.code) || /^08/.test(e.code))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect/i.test(
    e.message ?? '',
  );
}

/** A connection failure as a CoreError whose message names the server (never the password). */
export function connectionError(err: unknown, t: SyncTarget): CoreError {
  if (err instanceof CoreError) return err;
  const e = err as { code?: string; message?: string };
  const where = describeTarget(t);
  if (e.code && TLS_CODES.has(e.code))
    return new CoreError(
      'SERVICE_ERROR',
      `The certificate of ${t.host} could not be verified (${e.code}); give the server's CA with sslrootcert=PATH, or check the host name (docs/sharing.md, TLS).`,
    );
  if (/does not support SSL/i.test(e.message ?? ''))
    return new CoreError(
      'SERVICE_ERROR',
      `${t.host} does not offer TLS; turn on ssl in its postgresql.conf, or (on a trusted network only) add sslmode=disable.`,
    );
  if (/client password must be a string/.test(e.message ?? ''))
    return new CoreError(
      'UNAUTHORIZED',
      `No password is known for ${where}: connect again in Settings → Sharing (or citewise sync connect), or set CITEWISE_SYNC_PASSWORD.`,
    );
  if (e.code === '28P01' || e.code === '28000')
    return new CoreError('UNAUTHORIZED', `The server refused the user name or password for ${where}.`);
  if (e.code === '3D000') return new CoreError('NOT_FOUND', `The server has no database "${t.database}".`);
  // A member removed by an admin loses CONNECT on the database: say so, not PostgreSQL's words.
  if (e.code === '42501' && /permission denied for database/i.test(e.message ?? ''))
    return new CoreError(
      'FORBIDDEN',
      `${t.user} is no longer a member of the library at ${where} (or never was); changes made here stay here. Ask the library's admin.`,
    );
  if (e.code === '42501') return new CoreError('FORBIDDEN', `${where}: ${e.message ?? 'permission denied'}.`);
  if (isOffline(err))
    return new CoreError(
      'OFFLINE',
      `The server ${t.host}:${t.port} cannot be reached (${e.code ?? e.message ?? 'no answer'}).`,
    );
  return new CoreError('SERVICE_ERROR', `The server ${where} failed: ${e.message ?? String(err)}`);
}
