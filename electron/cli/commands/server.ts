// `citewise server …`: setting up and administering a shared library's PostgreSQL database (docs/sharing.md).
// The schema is created and migrated by the server's own versioned migrations; members and roles are
// PostgreSQL roles, changed through the schema's functions, which check that the caller is an admin.
import type pg from 'pg';
import { CoreError } from '../../core/errors';
import { accountOfTarget, connectTo, parseSyncUrl, syncUrlOf, type SyncTarget } from '../../core/sync/connection';
import { initServer, migrateServer, serverSchema, type MigrateResult } from '../../core/sync/server/migrate';
import { LATEST_SERVER_VERSION } from '../../core/sync/server/migrations';
import {
  listMembers,
  myRole,
  newPassword,
  removeMember,
  ROLES,
  setMember,
  type MemberRole,
} from '../../core/sync/server/members';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { printJson } from '../library-session';
import { readKey } from './key';
import { passwordFor, safeTarget, secretsOf } from './sync';

export const command = defineCommand({
  name: 'server',
  help: [
    {
      usage: 'server init URL',
      text: 'Create a shared library in an empty PostgreSQL database (as a role that owns it\nand may create roles); you become its admin',
      options: ['name'],
    },
    { usage: 'server migrate URL', text: "Bring a shared library's server schema up to date" },
    { usage: 'server status URL', text: "Show the server's schema version, library and your role" },
    { usage: 'server members URL', text: 'List the members and their roles' },
    {
      usage: 'server members add URL LOGIN',
      text: 'Add a member (a new login gets a generated password, printed once)',
      options: ['role', 'password-stdin'],
    },
    { usage: 'server members role URL LOGIN', text: "Change a member's role (--role)" },
    { usage: 'server members remove URL LOGIN', text: 'Remove a member: their access ends at once' },
  ],
  options: {
    name: { type: 'string', arg: 'NAME', help: "The library's name (default: the database's)" },
    role: { type: 'string', arg: 'ROLE', help: 'reader, editor or admin' },
    'password-stdin': { type: 'boolean', help: "Read the new member's password from standard input" },
    json: { type: 'boolean', help: 'Print the result as JSON' },
  },
  notes:
    "  The admin's own password: in CITEWISE_SYNC_PASSWORD, the OS keychain (after citewise sync connect), or typed\n  at the prompt. Exit codes: 0 done, 1 refused or unreachable, 2 wrong usage.",
  run: serverCommand,
});

async function serverCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = p.positionals;
  const json = p.values.json === true;
  const need = (n: number, usage: string): string[] => {
    if (rest.length !== n) throw new UsageError(`usage: citewise ${usage}`);
    return rest;
  };
  switch (sub) {
    case 'init': {
      const [url] = need(1, 'server init URL [--name NAME]');
      return withServer(ctx, url!, !json, async (db, target) => {
        const result = await initServer(db, {
          name: typeof p.values.name === 'string' ? p.values.name : target.database,
        });
        return done(
          ctx,
          json,
          result,
          `Created the library “${result.libraryName}” (server schema ${result.to}) in ${syncUrlOf(target)}; ${target.user} is its admin.\nAdd members with: citewise server members add URL LOGIN --role editor\n`,
        );
      });
    }
    case 'migrate': {
      const [url] = need(1, 'server migrate URL');
      return withServer(ctx, url!, !json, async (db) => {
        const result = await migrateServer(db);
        return done(
          ctx,
          json,
          result,
          result.applied.length === 0
            ? `The server schema is up to date (version ${result.to}).\n`
            : `Migrated the server schema from ${result.from} to ${result.to}: ${result.applied.map((a) => `${a.version} ${a.name}`).join(', ')}.\n`,
        );
      });
    }
    case 'status': {
      const [url] = need(1, 'server status URL');
      return withServer(ctx, url!, !json, async (db, target) => {
        const schema = await serverSchema(db);
        const role = schema.version > 0 ? await myRole(db) : null;
        const value = { ...schema, latest: LATEST_SERVER_VERSION, role, url: syncUrlOf(target) };
        if (json) printJson(ctx.stdout, value);
        else
          ctx.stdout.write(
            schema.version === 0
              ? `${syncUrlOf(target)} holds no Citewise library; create one with citewise server init URL.\n`
              : `Library: ${schema.libraryName} (${schema.libraryId})\nServer schema: ${schema.version}${schema.version < LATEST_SERVER_VERSION ? ` (this Citewise knows ${LATEST_SERVER_VERSION}: run citewise server migrate URL)` : ''}\nYour role: ${role ?? 'not a member'}\n`,
          );
        return 0;
      });
    }
    case 'members':
      return members(p, ctx, rest, json);
    case undefined:
      throw new UsageError('server needs a subcommand: init, migrate, status or members');
    default:
      throw new UsageError(`unknown server subcommand "${sub}"; use init, migrate, status or members`);
  }
}

async function members(p: ParsedCommand, ctx: CommandContext, rest: string[], json: boolean): Promise<number> {
  const role = (): MemberRole => {
    const r = p.values.role;
    if (typeof r !== 'string' || !(ROLES as readonly string[]).includes(r))
      throw new UsageError('--role must be reader, editor or admin');
    return r as MemberRole;
  };
  const [first, ...more] = rest;
  if (first === undefined)
    throw new UsageError('usage: citewise server members URL | members add|role|remove URL LOGIN');
  if (first !== 'add' && first !== 'role' && first !== 'remove') {
    if (more.length > 0) throw new UsageError('usage: citewise server members URL');
    return withServer(ctx, first, !json, async (db) => {
      const list = await listMembers(db);
      if (json) printJson(ctx.stdout, list);
      else
        ctx.stdout.write(
          list
            .map(
              (m) => `${m.login.padEnd(24)} ${m.role.padEnd(7)} added by ${m.addedBy} on ${m.addedAt.slice(0, 10)}\n`,
            )
            .join(''),
        );
      return 0;
    });
  }
  if (more.length !== 2)
    throw new UsageError(
      `usage: citewise server members ${first} URL LOGIN${first === 'remove' ? '' : ' --role ROLE'}`,
    );
  const [url, login] = more as [string, string];
  if (first === 'remove')
    return withServer(ctx, url, !json, async (db) => {
      const removed = await removeMember(db, login);
      return done(
        ctx,
        json,
        { login, removed },
        removed ? `${login} was removed; their open sessions were ended.\n` : `${login} was not a member.\n`,
      );
    });
  const r = role();
  let password: string | null = null;
  let generated = false;
  if (first === 'add') {
    if (p.values['password-stdin'] === true && ctx.stdin) {
      password = (await readKey({ stdin: ctx.stdin, stderr: ctx.stderr }, `Password for ${login}: `)).replace(
        /\r?\n$/,
        '',
      );
      if (password.length < 8) throw new UsageError('the password must have at least 8 characters');
    } else {
      password = newPassword();
      generated = true;
    }
  }
  return withServer(ctx, url, !json && p.values['password-stdin'] !== true, async (db) => {
    const result = await setMember(db, login, r, first === 'add' ? password : null);
    if (json)
      printJson(ctx.stdout, { login, role: r, result, ...(generated && result === 'created' ? { password } : {}) });
    else {
      ctx.stdout.write(
        `${login} is ${r === 'admin' ? 'an' : 'a'} ${r} of the library${result === 'created' ? ' (a new login)' : ''}.\n`,
      );
      if (generated && result === 'created')
        ctx.stdout.write(`Their password (shown once; give it to them, they keep it in their keychain): ${password}\n`);
      else if (generated) ctx.stdout.write('Their password was not changed.\n');
    }
    return 0;
  });
}

function done(
  ctx: CommandContext,
  json: boolean,
  value: MigrateResult | Record<string, unknown>,
  text: string,
): number {
  if (json) printJson(ctx.stdout, value);
  else ctx.stdout.write(text);
  return 0;
}

/**
 * A connection as the URL's user, for one command: password from the URL, CITEWISE_SYNC_PASSWORD, the
 * keychain, or a prompt (when `prompt` and standard input is a terminal).
 */
async function withServer<T>(
  ctx: CommandContext,
  url: string,
  prompt: boolean,
  run: (db: pg.Client, target: SyncTarget) => Promise<T>,
): Promise<T> {
  const { target, password: inUrl } = parseSyncUrl(url);
  let password =
    inUrl ??
    ctx.syncPassword ??
    (await secretsOf(ctx)
      .get(accountOfTarget(target))
      .catch(() => null));
  if (password === null && prompt && ctx.stdin?.isTTY) password = await passwordFor(ctx, false, url);
  let db: pg.Client;
  try {
    db = await connectTo(target, password, { applicationName: 'citewise server' });
  } catch (err) {
    if (err instanceof CoreError && err.code === 'UNAUTHORIZED' && password === null)
      throw new CoreError(
        'UNAUTHORIZED',
        `${err.message} No password was given: set CITEWISE_SYNC_PASSWORD, or run this in a terminal to be asked (${safeTarget(url)}).`,
      );
    throw err;
  }
  try {
    return await run(db, target);
  } finally {
    await db.end().catch(() => {});
  }
}
