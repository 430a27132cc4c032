// The `citewise` command: the same core as the app, for scripting, CI, benchmarks and host mode.
// Each command is declared in its own file under commands/ (listed in commands/index.ts); the help
// is made from those declarations.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { isServiceUrl } from '../../shared/model/settings';
import { CoreError } from '../core/errors';
import { stderrLogger } from '../core/log';
import { resolveDataDir } from '../core/paths';
import { programHelp, runCommand, singleCommandHelp, UsageError, type CommandContext } from './command';
import { loadCommand, loadCommands } from './commands';
import { StandardOutput } from './stdout';

// The core, the host server and each command's module are loaded when the command needs them: loading
// all of them (the citation processor, the IPC schemas, the web socket server…) took 0.3 s before any
// command could start, about three times Node's own start.

const globalOptions = {
  'data-dir': { type: 'string' },
  'service-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

// Every command writes through this: a chunk is written whole or the failure is reported at the end.
const stdout = new StandardOutput();

async function main(argv: string[]): Promise<number> {
  const first = parseArgs({ args: argv, options: globalOptions, allowPositionals: true, strict: false });
  const [name] = first.positionals;
  if (first.values.version) {
    stdout.write(`${version}\n`);
    return 0;
  }
  const spec = name === undefined || name === 'help' ? undefined : await loadCommand(name);
  if (first.values.help || name === undefined || name === 'help') {
    const [topic] = name === 'help' ? first.positionals.slice(1) : [];
    const about = spec ?? (topic === undefined ? undefined : await loadCommand(topic));
    stdout.write(about ? singleCommandHelp(about) : programHelp(version, await loadCommands()));
    return name === undefined && !first.values.help ? 2 : 0;
  }
  if (!spec) throw new UsageError(`unknown command "${name}"; run citewise --help for the list`);
  const dataDirFlag = typeof first.values['data-dir'] === 'string' ? first.values['data-dir'] : undefined;
  const serviceUrlFlag = typeof first.values['service-url'] === 'string' ? first.values['service-url'] : undefined;
  const ctx: CommandContext = {
    dataDir: resolveDataDir(dataDirFlag),
    stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    coreOptions,
    openService: async () =>
      (await import('../core')).openServiceClient(
        coreOptions({ 'data-dir': dataDirFlag, 'service-url': serviceUrlFlag }, 'cli'),
      ),
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    syncPassword: process.env.CITEWISE_SYNC_PASSWORD || undefined,
  };
  return runCommand(spec, argv, ctx);
}

/** --service-url, else CITEWISE_SERVICE_URL; checked here so a typo is a usage error, not a failure later. */
function serviceUrlOption(flag: string | undefined): string | undefined {
  const url = flag ?? (process.env.CITEWISE_SERVICE_URL || undefined);
  if (url !== undefined && !isServiceUrl(url)) {
    throw new UsageError(
      `--service-url / CITEWISE_SERVICE_URL must be an http:// or https:// address without a user name, query or fragment`,
    );
  }
  return url;
}

function coreOptions(
  values: { 'data-dir'?: string | undefined; 'service-url'?: string | undefined },
  mode: 'browser' | 'cli',
) {
  return {
    dataDir: resolveDataDir(values['data-dir']),
    mode,
    logger: stderrLogger,
    serviceUrl: serviceUrlOption(values['service-url']),
    apiKey: process.env.CITEWISE_API_KEY || undefined,
  };
}

/** A cut output is a failure whatever the command thought (exit 1 and one line); a reader that left is not. */
function outputChecked(code: number): number {
  const cut = stdout.failureMessage();
  if (cut === null) return code;
  process.stderr.write(`citewise: ${cut}\n`);
  return code === 0 ? 1 : code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = outputChecked(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`citewise: ${err.message}\n`);
      process.exitCode = 2;
    } else if (err instanceof CoreError) {
      process.stderr.write(`citewise: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      stderrLogger.error('unexpected failure', err);
      process.exitCode = 1;
    }
    outputChecked(1);
  },
);
