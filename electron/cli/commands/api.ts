// `citewise api [--port N]`: the editor API (Better BibTeX-compatible, see electron/api/) for the
// library in the data folder, without the app. The picker opens as a page in the default browser.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { CoreOptions } from '../../core';
import { parseCommand, requireCoreOptions, UsageError, type CommandSpec } from '../command';
import { childEnv } from '../open-browser';

export interface ApiCommandContext {
  coreOptions(values: { 'data-dir'?: string | undefined; 'service-url'?: string | undefined }): CoreOptions;
  stdout: Writable;
  stderr: Writable;
  /** Resolves when the command should stop (Ctrl+C); tests pass their own. */
  stopped?: Promise<void>;
  /** Opens a URL in the browser; false when there is none. */
  open?: (url: string) => boolean;
  /** Told the address once the API listens (tests). */
  onReady?: (origin: string) => void;
}

export const command: CommandSpec = {
  name: 'api',
  help: [
    {
      usage: 'api',
      text: `Serve the editor API on 127.0.0.1 for Pandoc, LaTeX, VS Code, Obsidian, R, Vim,
Emacs…: the endpoints Better BibTeX's clients call (cite as you write, JSON-RPC,
pull export), unchanged; the picker opens in your browser (see docs/editors.md)`,
    },
  ],
  options: {
    port: { type: 'string', arg: 'N', help: 'Port to listen on (default: 23119, the one those clients use)' },
    'no-open': { type: 'boolean', help: "Print the picker's address instead of opening it in the browser" },
    'allow-folder': {
      type: 'string',
      arg: 'DIR',
      multiple: true,
      help: 'Let editors have .aux files read and .bib/.json files kept in sync in DIR (repeatable; also Settings → Editors)',
    },
  },
  run: (argv, ctx) =>
    runApiCommand(argv, {
      stdout: ctx.stdout,
      stderr: ctx.stderr,
      coreOptions: (values) => requireCoreOptions(ctx)(values, 'cli'),
    }),
};

/** The platform's clipboard tool; rejects with what is missing when there is none. */
export function copyToClipboard(text: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin'
      ? ['pbcopy', []]
      : process.platform === 'win32'
        ? ['clip', []]
        : env.WAYLAND_DISPLAY
          ? ['wl-copy', []]
          : ['xclip', ['-selection', 'clipboard']];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'], env: childEnv(env) });
    child.on('error', (err) => reject(new Error(`the clipboard needs ${command} (${err.message})`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
    child.stdin.end(text);
  });
}

export async function runApiCommand(argv: readonly string[], ctx: ApiCommandContext): Promise<number> {
  const { values: parsed, positionals } = parseCommand('api', command.options, argv);
  const values = parsed as unknown as {
    'data-dir'?: string;
    'service-url'?: string;
    port?: string;
    'no-open'?: boolean;
    'allow-folder'?: string[];
  };
  if (positionals.length > 0) throw new UsageError(`api takes no arguments (got "${positionals[0]}")`);
  const { DEFAULT_API_PORT, startApiServer, ApiPortInUseError } = await import('../../api/server');
  const port = values.port === undefined ? DEFAULT_API_PORT : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port must be a number from 1 to 65535 (got "${values.port}")`);
  const open = ctx.open ?? (await import('../open-browser')).openInBrowser;
  const coreOptions = ctx.coreOptions(values);
  // Each allowed folder exists, is a folder, is readable and is not Citewise's own data folder.
  const { checkReadableFolder } = await import('../../core/fs/paths');
  const allowFolders: string[] = [];
  for (const folder of values['allow-folder'] ?? [])
    allowFolders.push(await checkReadableFolder(resolve(folder), { forbiddenDir: coreOptions.dataDir }));
  // The port first, the library behind it: editors probe (probe=1, api.ready) the moment they start
  // and get their answer while the library opens; other requests wait for it. Opening 100,000 items
  // took 1.9-4.7 s, against an editor's expectation of an answer within half a second.
  // The core's modules (the IPC schemas, the formats, the library client) load only once the port
  // listens: loaded alongside, their compilation held the listen back by a second on a busy machine.
  let begin!: () => void;
  const starting = new Promise<void>((resolve) => (begin = resolve))
    .then(() => import('../../core'))
    .then(({ createCore }) => createCore(coreOptions));
  let api;
  try {
    api = await startApiServer({
      core: starting,
      port,
      openPicker: (session) => {
        const opened = !values['no-open'] && open(session.url);
        ctx.stdout.write(opened ? `Picker opened in your browser: ${session.url}\n` : `Pick at: ${session.url}\n`);
      },
      copy: (text) => copyToClipboard(text),
      allowFolders,
      logger: coreOptions.logger,
    });
  } catch (err) {
    // The library was never opened: `begin` runs only once the port is ours.
    if (err instanceof ApiPortInUseError) {
      ctx.stderr.write(`citewise: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  begin();
  ctx.stdout.write(
    `Citewise editor API on ${api.origin} (Better BibTeX-compatible): ${api.origin}/better-bibtex/cayw, ${api.origin}/better-bibtex/json-rpc\n`,
  );
  ctx.onReady?.(api.origin);
  let core;
  try {
    core = await starting;
  } catch (err) {
    await api.close();
    throw err;
  }
  ctx.stdout.write(`Library: ${coreOptions.dataDir}. Press Ctrl+C to stop.\n`);
  await (ctx.stopped ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }));
  await api.close();
  await core.close();
  return 0;
}
