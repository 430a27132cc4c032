// The `citewise` command: the same core as the app, for scripting, CI, benchmarks and host mode.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { version } from '../../package.json';
import { isServiceUrl } from '../../shared/model/settings';
import { CoreError } from '../core/errors';
import { stderrLogger } from '../core/log';
import { resolveDataDir } from '../core/paths';

// The core, the host server and each command's module are loaded when the command needs them: loading
// all of them (the citation processor, the IPC schemas, the web socket server…) took 0.3 s before any
// command could start, about three times Node's own start.

async function helpText(): Promise<string> {
  const [{ KEY_HELP }, { LIBRARY_HELP }, { AUTO_EXPORT_HELP }, { API_HELP }, { MANUSCRIPT_HELP }, { FULLTEXT_HELP }] = await Promise.all([
    import('./commands/key'),
    import('./commands/library'),
    import('./commands/auto-export'),
    import('./commands/api'),
    import('./commands/manuscript'),
    import('./commands/fulltext'),
  ]);
  return `citewise ${version}: a reference manager for researchers, with citation evidence

Usage:
  citewise [global options] <command> [options]

Commands:
  serve            Run Citewise in browser mode: serve the app on 127.0.0.1 and print its URL
                   (the URL carries a per-launch token; nobody else on this machine can use it)
    --port N       Port to listen on (default: any free port)
    --open         Open the URL in the default browser
${KEY_HELP}
${LIBRARY_HELP}
${FULLTEXT_HELP}
${AUTO_EXPORT_HELP}
${API_HELP}
${MANUSCRIPT_HELP}

Global options:
  --data-dir DIR   Where the library lives (also CITEWISE_DATA_DIR; default: the per-user app folder)
  --service-url U  The citation service to use (also CITEWISE_SERVICE_URL; default: the setting,
                   else https://api.scite.ai)
  -h, --help       Show this help
  -v, --version    Show the version

Environment:
  CITEWISE_API_KEY  An API key for this run only, never stored (for scripts and CI)

Exit codes: 0 success, 1 failure, 2 wrong usage (check, enrich and manuscript add 3 and 4; see above).
`;
}

export class UsageError extends Error {}

const globalOptions = {
  'data-dir': { type: 'string' },
  'service-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies ParseArgsConfig['options'];

async function main(argv: string[]): Promise<number> {
  const first = parseArgs({ args: argv, options: globalOptions, allowPositionals: true, strict: false });
  const [command] = first.positionals;
  if (first.values.version) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (first.values.help || command === undefined || command === 'help') {
    process.stdout.write(await helpText());
    return command === undefined && !first.values.help ? 2 : 0;
  }
  switch (command) {
    case 'serve':
      return serve(argv);
    case 'key':
      return key(argv);
    case 'api': {
      const { ApiUsageError, runApiCommand } = await import('./commands/api');
      try {
        return await runApiCommand(argv, { coreOptions: (values) => coreOptions(values, 'cli'), stdout: process.stdout, stderr: process.stderr });
      } catch (err) {
        if (err instanceof ApiUsageError) throw new UsageError(err.message);
        throw err;
      }
    }
    case 'manuscript': {
      const { ManuscriptUsageError, runManuscriptCommand } = await import('./commands/manuscript');
      try {
        return await runManuscriptCommand(argv, { dataDir: resolveDataDir(typeof first.values['data-dir'] === 'string' ? first.values['data-dir'] : undefined), stdout: process.stdout, stderr: process.stderr });
      } catch (err) {
        if (err instanceof ManuscriptUsageError) throw new UsageError(err.message);
        throw err;
      }
    }
    case 'fulltext': {
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      return (await import('./commands/fulltext')).runFulltextCommand(argv, { dataDir: resolveDataDir(typeof first.values['data-dir'] === 'string' ? first.values['data-dir'] : undefined), stdout: process.stdout, stderr: process.stderr, signal: stop.signal });
    }
    case 'auto-export': {
      const { runAutoExportCommand } = await import('./commands/auto-export');
      return runAutoExportCommand(argv, { dataDir: resolveDataDir(typeof first.values['data-dir'] === 'string' ? first.values['data-dir'] : undefined), stdout: process.stdout, stderr: process.stderr });
    }
    default: {
      const { isLibraryCommand, runLibraryCommand } = await import('./commands/library');
      if (isLibraryCommand(command)) {
        const values = { 'data-dir': typeof first.values['data-dir'] === 'string' ? first.values['data-dir'] : undefined, 'service-url': typeof first.values['service-url'] === 'string' ? first.values['service-url'] : undefined };
        const openService = async () => {
          const options = coreOptions(values, 'cli');
          return (await import('../core')).openServiceClient(options);
        };
        return runLibraryCommand(command, argv, { dataDir: resolveDataDir(values['data-dir']), stdout: process.stdout, stderr: process.stderr, openService });
      }
      throw new UsageError(`unknown command "${command}"; run citewise --help for the list`);
    }
  }
}

/** --service-url, else CITEWISE_SERVICE_URL; checked here so a typo is a usage error, not a failure later. */
function serviceUrlOption(flag: string | undefined): string | undefined {
  const url = flag ?? (process.env.CITEWISE_SERVICE_URL || undefined);
  if (url !== undefined && !isServiceUrl(url)) {
    throw new UsageError(`--service-url / CITEWISE_SERVICE_URL must be an http:// or https:// address without a user name, query or fragment`);
  }
  return url;
}

function coreOptions(values: { 'data-dir'?: string | undefined; 'service-url'?: string | undefined }, mode: 'browser' | 'cli') {
  return {
    dataDir: resolveDataDir(values['data-dir']),
    mode,
    logger: stderrLogger,
    serviceUrl: serviceUrlOption(values['service-url']),
    apiKey: process.env.CITEWISE_API_KEY || undefined,
  };
}

async function key(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: globalOptions, allowPositionals: true, strict: true });
  const options = coreOptions(values, 'cli');
  const [{ createCore }, { KeyUsageError, runKeyCommand }] = await Promise.all([import('../core'), import('./commands/key')]);
  const core = await createCore(options);
  try {
    return await runKeyCommand(positionals.slice(1), { core, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
  } catch (err) {
    if (err instanceof KeyUsageError) throw new UsageError(err.message);
    throw err;
  } finally {
    await core.close();
  }
}

async function serve(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ...globalOptions, port: { type: 'string' }, open: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 1) throw new UsageError(`serve takes no arguments (got "${positionals[1]}")`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535 (got "${values.port}")`);

  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
  if (!existsSync(`${rendererDir}/index.html`)) {
    throw new CoreError('INTERNAL', 'The app is not built yet: run `npm run build` (or `npm start`) first.');
  }
  const options = coreOptions(values, 'browser');
  const dataDir = options.dataDir;
  const [{ createCore }, { startHost }, { openInBrowser }] = await Promise.all([import('../core'), import('../host/server'), import('./open-browser')]);
  const core = await createCore(options);
  let host;
  try {
    host = await startHost({ core, rendererDir, port, logger: stderrLogger });
  } catch (err) {
    await core.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CoreError('CONFLICT', `Port ${port} is already in use; choose another with --port or leave it out.`);
    throw err;
  }
  process.stdout.write(`Citewise ${version} is running in browser mode at ${host.url}\n`);
  process.stdout.write(`Library: ${dataDir}. Press Ctrl+C to stop.\n`);
  if (values.open) openInBrowser(host.url);
  // Settings → Editors (on by default): the editor API beside the app. CITEWISE_EDITOR_API=0 keeps
  // it off for this run (the end-to-end tests, which must not take port 23119 on a shared machine).
  const editors =
    process.env.CITEWISE_EDITOR_API === '0'
      ? null
      : await (await import('../api/controller')).followEditorSettings(core, {
          openPicker: (session) => {
            if (!openInBrowser(session.url)) process.stdout.write(`Pick at: ${session.url}\n`);
          },
          copy: async (text) => (await import('./commands/api')).copyToClipboard(text),
          logger: stderrLogger,
          onStatus: (s) => {
            if (s.state === 'running') process.stdout.write(`Editor API (Better BibTeX-compatible) on ${s.origin}\n`);
          },
        });

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await editors?.close();
  await host.close();
  await core.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err instanceof TypeError && (err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`citewise: ${err.message}\n`);
      process.exitCode = 2;
    } else if (err instanceof CoreError) {
      process.stderr.write(`citewise: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      stderrLogger.error('unexpected failure', err);
      process.exitCode = 1;
    }
  },
);
