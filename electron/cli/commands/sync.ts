// `citewise sync …`: the shared library from the command line (docs/sharing.md). The password is read
// from standard input (or CITEWISE_SYNC_PASSWORD for scripts) and kept in the OS keychain; it is never
// taken from the command's arguments, which other users can see, and never printed.
import type { SyncConflict, SyncStatus } from '../../../shared/model/sync';
import { CoreError } from '../../core/errors';
import { stderrLogger } from '../../core/log';
import { createSecretStore, type SecretStore } from '../../core/secrets';
import type { SyncEngine, SyncReport } from '../../core/sync/engine';
import type { LibraryClient } from '../../core/library/client';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { plural, printJson, withLibrary } from '../library-session';
import { readKey } from './key';

export const command = defineCommand({
  name: 'sync',
  help: [
    {
      usage: 'sync',
      text: 'Sync the shared library once: pull what others changed, push what changed here,\nmove attachment files (exit 3: conflicts wait for a choice)',
      options: ['json'],
    },
    {
      usage: 'sync connect URL',
      text: "Share this library with a server's: postgresql://USER@HOST:PORT/DATABASE[?sslmode=…]\n(the password is read from standard input and kept in the OS keychain)",
      options: ['password-stdin'],
    },
    { usage: 'sync status', text: 'Say whether the library is shared, with whom, and what waits' },
    { usage: 'sync conflicts', text: 'List the fields changed both here and on the server' },
    {
      usage: 'sync resolve UID',
      text: "Resolve an object's conflicts: keep this machine's values or take the server's",
      options: ['keep'],
    },
    { usage: 'sync log', text: 'What sync did that you should know of (a delete that gave way to an edit…)' },
    {
      usage: 'sync disconnect',
      text: 'Stop syncing and forget the password (connecting again resumes)',
      options: ['leave'],
    },
  ],
  options: {
    json: { type: 'boolean', help: 'Print the result as JSON' },
    'password-stdin': { type: 'boolean', help: 'Read the password from standard input without a prompt' },
    keep: { type: 'string', arg: 'SIDE', help: '"local" (this machine\'s values) or "server"' },
    leave: { type: 'boolean', help: 'Also drop every sync record: sharing again starts over' },
  },
  notes:
    '  Exit codes: 0 done, 1 failure (the server cannot be reached or refused), 3 conflicts wait for a choice,\n  4 objects from the server were refused as malformed.',
  run: syncCommand,
});

async function syncCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  const [sub = 'now', ...rest] = p.positionals;
  const json = p.values.json === true;
  const args = (n: number, usage: string): string[] => {
    if (rest.length !== n) throw new UsageError(`usage: citewise ${usage}`);
    return rest;
  };
  switch (sub) {
    case 'now':
      args(0, 'sync');
      return withSync(ctx, async (engine) => reportSync(ctx, await engine.syncNow(), await engine.status(), json));
    case 'connect': {
      const [url] = args(1, 'sync connect URL');
      const password = await passwordFor(ctx, p.values['password-stdin'] === true, url!);
      return withSync(ctx, async (engine) => {
        const status = await engine.connect(url!, password, { start: false });
        const report = await engine.syncNow();
        if (json) printJson(ctx.stdout, { status: await engine.status(), report });
        else
          ctx.stdout.write(
            `Shared with ${status.libraryName ?? 'the library'} at ${status.url} as ${status.role}.\n${describeReport(report)}`,
          );
        return exitOf(report, await engine.status());
      });
    }
    case 'status':
      args(0, 'sync status');
      return withSync(ctx, async (engine) => {
        await engine.check();
        const status = await engine.status();
        if (json) printJson(ctx.stdout, status);
        else ctx.stdout.write(describeStatus(status));
        return 0;
      });
    case 'conflicts':
      args(0, 'sync conflicts');
      return withSync(ctx, async (_engine, client) => {
        const list = await client.sync.conflicts();
        if (json) printJson(ctx.stdout, list);
        else ctx.stdout.write(list.length === 0 ? 'No conflicts.\n' : list.map(describeConflict).join(''));
        return list.length > 0 ? 3 : 0;
      });
    case 'resolve': {
      const [uid] = args(1, 'sync resolve UID --keep local|server');
      const keep = p.values.keep;
      if (keep !== 'local' && keep !== 'server') throw new UsageError('--keep must be "local" or "server"');
      return withSync(ctx, async (engine, client) => {
        const conflict = (await client.sync.conflicts()).find((c) => c.uid === uid);
        if (!conflict) throw new CoreError('NOT_FOUND', `no conflict has the uid ${uid}; see citewise sync conflicts`);
        await client.sync.resolve(
          conflict.kind,
          conflict.uid,
          Object.fromEntries(conflict.fields.map((f) => [f.field, keep])),
        );
        const report = await engine.syncNow().catch((err: unknown) => {
          ctx.stderr.write(
            `citewise: resolved here; the server will get it at the next sync (${(err as Error).message})\n`,
          );
          return null;
        });
        if (json) printJson(ctx.stdout, { resolved: conflict.uid, kept: keep, report });
        else
          ctx.stdout.write(
            `Resolved ${conflict.label}: kept the ${keep === 'local' ? 'values from here' : "server's values"}.\n`,
          );
        return 0;
      });
    }
    case 'log':
      args(0, 'sync log');
      return withSync(ctx, async (_engine, client) => {
        const entries = await client.sync.log(100);
        if (json) printJson(ctx.stdout, entries);
        else
          ctx.stdout.write(
            entries.length === 0
              ? 'Nothing to report.\n'
              : entries.map((e) => `${new Date(e.at).toISOString()}  ${e.message}\n`).join(''),
          );
        return 0;
      });
    case 'disconnect':
      args(0, 'sync disconnect');
      return withSync(ctx, async (engine) => {
        const status = await engine.disconnect({ leave: p.values.leave === true });
        if (json) printJson(ctx.stdout, status);
        else
          ctx.stdout.write(
            p.values.leave === true
              ? 'This library is no longer shared; its items stay here.\n'
              : 'Disconnected; the password was removed from the keychain. "citewise sync connect URL" resumes.\n',
          );
        return 0;
      });
    default:
      throw new UsageError(
        `unknown sync subcommand "${sub}"; use connect, status, conflicts, resolve, log or disconnect`,
      );
  }
}

/** The secret store of a command: the test's, else the OS keychain (session-only when there is none). */
export function secretsOf(ctx: CommandContext): SecretStore {
  return (
    ctx.secrets ??
    createSecretStore({
      onFallback: (reason) => ctx.stderr.write(`citewise: passwords are kept for this run only: ${reason}\n`),
    })
  );
}

/** The library in its worker, with a sync engine over it that does nothing in the background. */
async function withSync(
  ctx: CommandContext,
  run: (engine: SyncEngine, client: LibraryClient) => Promise<number>,
): Promise<number> {
  const { SyncEngine } = await import('../../core/sync/engine');
  return withLibrary(
    ctx.dataDir,
    async (client) => {
      const engine = new SyncEngine({
        store: client.sync,
        secrets: secretsOf(ctx),
        logger: stderrLogger,
        envPassword: ctx.syncPassword,
        timing: { pollMs: 1e9 },
      });
      try {
        return await run(engine, client);
      } finally {
        await engine.close();
      }
    },
    ctx.stderr,
  );
}

/** The password for `connect`: CITEWISE_SYNC_PASSWORD, stdin, a prompt, or none (one in the URL, or the keychain's). */
export async function passwordFor(ctx: CommandContext, fromStdin: boolean, what: string): Promise<string | null> {
  if (ctx.syncPassword) return ctx.syncPassword;
  const stdin = ctx.stdin;
  if (!stdin) return null;
  if (!fromStdin && !stdin.isTTY) return null;
  const text = (
    await readKey({ stdin, stderr: ctx.stderr }, `Password for ${safeTarget(what)} (it is not shown): `)
  ).replace(/\r?\n$/, '');
  if (text === '' && fromStdin) throw new UsageError('no password was given on standard input');
  return text === '' ? null : text;
}

/** The address for a prompt, without any password it carries. */
export function safeTarget(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return `${u.username}@${u.host}${u.pathname}`;
  } catch {
    return 'the server';
  }
}

function exitOf(report: SyncReport, status: SyncStatus): number {
  if (report.rejected.length > 0) return 4;
  return status.conflicts > 0 ? 3 : 0;
}

function reportSync(ctx: CommandContext, report: SyncReport, status: SyncStatus, json: boolean): number {
  if (json) printJson(ctx.stdout, { report, status });
  else
    ctx.stdout.write(
      `${describeReport(report)}${status.conflicts > 0 ? `${plural(status.conflicts, 'object')} in conflict: see citewise sync conflicts.\n` : ''}`,
    );
  return exitOf(report, status);
}

function describeReport(r: SyncReport): string {
  const lines = [
    `Pulled ${plural(r.pulled, 'change')}, pushed ${plural(r.pushed, 'change')}${r.filesDown || r.filesUp ? `; files: ${r.filesDown} fetched, ${r.filesUp} sent` : ''}.`,
    ...r.notes,
    ...r.rejected.map((x) => `Refused from the server: ${x.kind} ${x.uid}: ${x.reason}`),
  ];
  return `${lines.join('\n')}\n`;
}

function describeStatus(s: SyncStatus): string {
  if (s.phase === 'off' || !s.url) return 'This library is not shared. Share it with: citewise sync connect URL\n';
  return [
    `Shared with: ${s.url}${s.libraryName ? ` (${s.libraryName})` : ''}`,
    ...(s.phase === 'offline' || s.phase === 'error' ? [`Not reachable now: ${s.message ?? 'unknown reason'}`] : []),
    `Role: ${s.role ?? 'unknown until connected'}`,
    `Last sync: ${s.lastSyncAt ? new Date(s.lastSyncAt).toISOString() : 'never'}`,
    `Changes waiting to be pushed: ${s.pending}`,
    `Conflicts: ${s.conflicts}`,
    ...(s.parked > 0 ? [`Objects from the server waiting or refused: ${s.parked}`] : []),
    ...(s.files.downloading || s.files.uploading || s.files.failed
      ? [`Files: ${s.files.downloading} to fetch, ${s.files.uploading} to send, ${s.files.failed} failed`]
      : []),
    '',
  ].join('\n');
}

function show(v: unknown): string {
  if (v === null || v === undefined) return '(none)';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function describeConflict(c: SyncConflict): string {
  return `${c.label}  [${c.kind} ${c.uid}]${c.serverBy ? ` — the server's side by ${c.serverBy}` : ''}\n${c.fields
    .map((f) => `  ${f.field.replace(/^csl\./, '')}\n    here:   ${show(f.local)}\n    server: ${show(f.server)}\n`)
    .join('')}`;
}
