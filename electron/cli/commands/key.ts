// `citewise key set | check | clear | status`: the API key from the command line's side. The key is
// read from standard input (never from arguments, which other users can see in the process list and
// which shells keep in their history) and is never printed.
import type { Readable, Writable } from 'node:stream';
import type { ServiceConfig, ServiceKeyStatus } from '../../../shared/ipc';
import type { KeyCheckResult } from '../../../shared/model/service';
import type { Core } from '../../core';
import { CoreError } from '../../core/errors';
import { parseCommand, requireCoreOptions, UsageError, type CommandSpec } from '../command';

export interface KeyCommandContext {
  core: Core;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Writable;
  stderr: Writable;
}

export const command: CommandSpec = {
  name: 'key',
  help: [
    {
      usage: 'key set',
      text: 'Store the API key for the service, read from standard input\n(type or paste it at the prompt, or pipe it: citewise key set < key.txt)',
    },
    { usage: 'key check', text: 'Show which access the key grants (one small request per kind of access)' },
    { usage: 'key clear', text: 'Forget the stored key' },
    { usage: 'key status', text: 'Say whether a key is stored, and where' },
  ],
  options: {},
  async run(argv, ctx) {
    const { values, positionals } = parseCommand('key', {}, argv);
    const options = requireCoreOptions(ctx)(values as { 'data-dir'?: string; 'service-url'?: string }, 'cli');
    const { createCore } = await import('../../core');
    const core = await createCore(options);
    try {
      return await runKeyCommand(positionals, {
        core,
        stdin: ctx.stdin ?? process.stdin,
        stdout: ctx.stdout,
        stderr: ctx.stderr,
      });
    } finally {
      await core.close();
    }
  },
};

async function call<T>(core: Core, channel: string, input: unknown): Promise<T> {
  const result = await core.invoke(channel, input);
  if (!result.ok) throw new CoreError(result.error.code, result.error.message, result.error.details);
  return result.value as T;
}

/**
 * Reads the whole of a piped stdin, or one line typed at a terminal without echoing it (after `prompt`):
 * the API key here, a shared library's password in `citewise sync` and `citewise server`.
 */
export async function readKey(
  ctx: Pick<KeyCommandContext, 'stdin' | 'stderr'>,
  prompt = 'Paste the API key and press Enter (it is not shown): ',
): Promise<string> {
  const { stdin } = ctx;
  if (stdin.isTTY && typeof stdin.setRawMode === 'function') {
    ctx.stderr.write(prompt);
    stdin.setRawMode(true);
    try {
      return await new Promise<string>((resolve, reject) => {
        let text = '';
        const onData = (chunk: Buffer | string) => {
          for (const ch of chunk.toString()) {
            if (ch === '\r' || ch === '\n' || ch === '\u0004') {
              stdin.off('data', onData);
              ctx.stderr.write('\n');
              resolve(text);
              return;
            }
            if (ch === '\u0003') {
              stdin.off('data', onData);
              ctx.stderr.write('\n');
              reject(new UsageError('cancelled; no key was stored'));
              return;
            }
            if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
            else text += ch;
          }
        };
        stdin.on('data', onData);
        stdin.resume();
      });
    } finally {
      stdin.setRawMode(false);
      stdin.pause();
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function describeWhere(status: ServiceKeyStatus): string {
  switch (status.where) {
    case 'keychain':
      return 'in the OS keychain';
    case 'session':
      return 'for this session only';
    case 'environment':
      return 'from CITEWISE_API_KEY (this run only, not stored)';
    case 'none':
      return 'nowhere';
  }
}

export function formatCheck(check: KeyCheckResult): string {
  const mark = (granted: boolean | null) => (granted === true ? 'yes' : granted === false ? 'no ' : '?  ');
  const lines = [check.summary, ''];
  for (const a of check.access)
    lines.push(`  ${mark(a.granted)}  ${a.label}${a.note && a.granted === null ? ` (${a.note})` : ''}`);
  return `${lines.join('\n')}\n`;
}

export async function runKeyCommand(args: readonly string[], ctx: KeyCommandContext): Promise<number> {
  const [sub, ...rest] = args;
  if (rest.length > 0) throw new UsageError(`key ${sub ?? ''} takes no arguments; the key is read from standard input`);
  const config = await call<ServiceConfig>(ctx.core, 'service.config.get', {});
  const where = `${config.serviceUrl}${config.source === 'default' ? '' : ` (${config.source === 'command-line' ? 'from --service-url / CITEWISE_SERVICE_URL' : 'from the settings'})`}`;
  switch (sub) {
    case 'set': {
      const key = (await readKey(ctx)).trim();
      if (key === '') throw new UsageError('no key was given on standard input');
      const status = await call<ServiceKeyStatus>(ctx.core, 'service.key.set', { key });
      if (!status.keychainAvailable) {
        ctx.stderr.write(
          `citewise: no OS keychain is available, so the key cannot be kept after this command. ${status.reason ?? ''}\nFor scripts and CI, pass the key in CITEWISE_API_KEY instead.\n`,
        );
        return 1;
      }
      ctx.stdout.write(
        `API key stored in the OS keychain for ${where}.\nRun "citewise key check" to see the access it grants.\n`,
      );
      if (status.where === 'environment')
        ctx.stderr.write('Note: CITEWISE_API_KEY is set and is used instead of the stored key while it is.\n');
      return 0;
    }
    case 'check': {
      const status = await call<ServiceKeyStatus>(ctx.core, 'service.key.status', {});
      ctx.stdout.write(`Service: ${where}\nKey: ${describeWhere(status)}\n\n`);
      const check = await call<KeyCheckResult>(ctx.core, 'service.key.check', {});
      ctx.stdout.write(formatCheck(check));
      return check.valid ? 0 : 1;
    }
    case 'clear': {
      const status = await call<ServiceKeyStatus>(ctx.core, 'service.key.clear', {});
      ctx.stdout.write(`API key removed for ${where}.\n`);
      if (status.where === 'environment') ctx.stderr.write('Note: CITEWISE_API_KEY is still set for this shell.\n');
      return 0;
    }
    case 'status': {
      const status = await call<ServiceKeyStatus>(ctx.core, 'service.key.status', {});
      ctx.stdout.write(
        `Service: ${where}\nKey: ${status.stored || status.where === 'environment' ? describeWhere(status) : 'none stored'}\n${status.keychainAvailable ? '' : `${status.reason ?? 'No OS keychain is available.'}\n`}`,
      );
      return 0;
    }
    case undefined:
      throw new UsageError('key needs a subcommand: set, check, clear or status');
    default:
      throw new UsageError(`unknown key subcommand "${sub}"; use set, check, clear or status`);
  }
}
