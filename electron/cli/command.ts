// What every `citewise` command is: one declaration (name, what it does, its options, run) in its own
// file under commands/. The help (`citewise --help`, `citewise CMD --help`) is made from these
// declarations, and every command reports wrong usage the same way: a UsageError, "citewise: …" on
// stderr and exit code 2 (a CoreError: exit code 1).
import type { Readable, Writable } from 'node:stream';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CoreOptions } from '../core';
import { CoreError } from '../core/errors';
import type { AtomicWriteFs } from '../core/fs/atomic-write';
import type { OpenedService } from './library-session';
import type { SecretStore } from '../core/secrets';

/** Wrong usage: an unknown option, a missing argument, a malformed value. Exit code 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's name in the help (`--limit N`). */
  arg?: string;
  /** What it does; an option without it is not listed under its command (the global ones). */
  help?: string;
  /** May be given more than once (its value is then a list). */
  multiple?: boolean;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** One entry of a command's help: a usage line, what it does, and the options listed under it. */
export interface HelpEntry {
  usage: string;
  text: string;
  /** The names of the options listed under this entry (default: all the command's options with help, under its first entry). */
  options?: readonly string[];
}

export interface CommandSpec {
  name: string;
  help: readonly HelpEntry[];
  /** Accepted by the command (the global ones included); those with help are listed under it. */
  options: OptionSpecs;
  /** Lines after the entries (exit codes). */
  notes?: string;
  /** Runs the command; `argv` is the whole command line after the program name. Throws UsageError or CoreError. */
  run(argv: readonly string[], ctx: CommandContext): Promise<number>;
}

export interface CommandContext {
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
  stdin?: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** The core's options for this command line (key, api, serve: the commands that open the core). */
  coreOptions?: (
    values: { 'data-dir'?: string | undefined; 'service-url'?: string | undefined },
    mode: 'browser' | 'cli',
  ) => CoreOptions;
  /** The service client, opened only by commands that use it (add, enrich, check, import of a PDF); closed with the returned close. */
  openService?: () => OpenedService | Promise<OpenedService>;
  /** Where the built renderer is (serve). */
  rendererDir?: string;
  /** The file-system calls of atomic writes (tests replace them to see each step). */
  atomicFs?: AtomicWriteFs;
  /** Where passwords are kept (sync, server): the OS keychain unless a test gives another. */
  secrets?: SecretStore;
  /** CITEWISE_SYNC_PASSWORD: a shared library's password for this run, never stored. */
  syncPassword?: string | undefined;
}

/** The options every command accepts (they are read before the command, but may stand after it). */
export const GLOBAL_OPTIONS: OptionSpecs = {
  'data-dir': { type: 'string', arg: 'DIR' },
  'service-url': { type: 'string', arg: 'U' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

export interface ParsedCommand {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** node's parseArgs options for a command's specs. */
function parseOptions(options: OptionSpecs): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    Object.entries({ ...GLOBAL_OPTIONS, ...options }).map(([name, o]) => [
      name,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );
}

/**
 * Reads `argv` (the whole command line after the program name) with the command's options, strictly:
 * an unknown option or a missing value is a UsageError. The command's own name is left out of the
 * positionals when it is the first.
 */
export function parseCommand(name: string, options: OptionSpecs, argv: readonly string[]): ParsedCommand {
  try {
    const p = parseArgs({ args: [...argv], options: parseOptions(options), allowPositionals: true, strict: true });
    return {
      values: p.values as ParsedCommand['values'],
      positionals: p.positionals.slice(p.positionals[0] === name ? 1 : 0),
    };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** A command whose run takes its command line read with its options (and the global ones). */
export function defineCommand(
  declared: Omit<CommandSpec, 'run'> & { run(p: ParsedCommand, ctx: CommandContext): Promise<number> },
): CommandSpec {
  return { ...declared, run: (argv, ctx) => declared.run(parseCommand(declared.name, declared.options, argv), ctx) };
}

/** Runs a command, reporting what went wrong as every command does: exit 2 wrong usage, 1 a CoreError; anything else is thrown. */
export async function runCommand(spec: CommandSpec, argv: readonly string[], ctx: CommandContext): Promise<number> {
  try {
    return await spec.run(argv, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`citewise: ${err.message}\n`);
      return 2;
    }
    if (err instanceof CoreError) {
      ctx.stderr.write(`citewise: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

/** The core's options, for the commands that open the core (key, api, serve). */
export function requireCoreOptions(ctx: CommandContext): NonNullable<CommandContext['coreOptions']> {
  if (!ctx.coreOptions) throw new CoreError('INTERNAL', 'this command needs the core, which is not available here.');
  return ctx.coreOptions;
}

// ── help ──

const COLUMN = 19;
const indent = (text: string): string => text.split('\n').join(`\n${' '.repeat(COLUMN)}`);

/** `  usage          text`, the text's further lines under its first (a long usage: the text on the next line). */
function helpLine(lead: string, text: string): string {
  const head = lead.length < COLUMN ? lead.padEnd(COLUMN) : `${lead}\n${' '.repeat(COLUMN)}`;
  return `${head}${indent(text)}`;
}

function optionFlag(name: string, o: OptionSpec): string {
  return `${o.short ? `-${o.short}, ` : ''}--${name}${o.arg ? ` ${o.arg}` : ''}`;
}

/** One command's part of the help: its entries, the options under them, its notes. */
export function commandHelp(spec: CommandSpec): string {
  const described = Object.keys(spec.options).filter((name) => spec.options[name]!.help !== undefined);
  const claimed = new Set(spec.help.flatMap((e) => e.options ?? []));
  const lines: string[] = [];
  spec.help.forEach((entry, i) => {
    lines.push(helpLine(`  ${entry.usage}`, entry.text));
    const names = entry.options ?? (i === 0 ? described.filter((n) => !claimed.has(n)) : []);
    for (const name of names) {
      const o = spec.options[name];
      if (o?.help !== undefined) lines.push(helpLine(`    ${optionFlag(name, o)}`, o.help));
    }
  });
  if (spec.notes) lines.push(spec.notes);
  return lines.join('\n');
}

/** The whole help: every declared command, then the global options. */
export function programHelp(version: string, specs: readonly CommandSpec[]): string {
  return `citewise ${version}: a reference manager for researchers, with citation evidence

Usage:
  citewise [global options] <command> [options]
  citewise <command> --help

Commands:
${specs.map(commandHelp).join('\n')}

Global options:
  --data-dir DIR   Where the library lives (also CITEWISE_DATA_DIR; default: the per-user app folder)
  --service-url U  The citation service to use (also CITEWISE_SERVICE_URL; default: the setting,
                   else https://api.scite.ai)
  -h, --help       Show this help (after a command: that command's)
  -v, --version    Show the version

Environment:
  CITEWISE_API_KEY        An API key for this run only, never stored (for scripts and CI)
  CITEWISE_SYNC_PASSWORD  A shared library's password for this run only, never stored

Exit codes: 0 success, 1 failure, 2 wrong usage (check, enrich, manuscript and sync add 3 and 4; see above).
`;
}

/** `citewise CMD --help`. */
export function singleCommandHelp(spec: CommandSpec): string {
  return `Usage:\n${commandHelp(spec)}\n\nGlobal options (--data-dir, --service-url…): see citewise --help.\n`;
}
