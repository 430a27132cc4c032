import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runCommand, type CommandContext } from '../../../electron/cli/command';
import { loadCommand } from '../../../electron/cli/commands';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it (a command's stdout or stderr). */
export function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Runs a library command as `citewise <command> …args` would, against dataDir. */
export function run(dataDir: string, command: string, ...args: string[]): Promise<RunResult> {
  return runWith({}, dataDir, command, ...args);
}

/** The same, with more of the context (the service, for add). */
export async function runWith(
  extra: Pick<CommandContext, 'openService' | 'atomicFs'>,
  dataDir: string,
  command: string,
  ...args: string[]
): Promise<RunResult> {
  const out = collector();
  const err = collector();
  const spec = await loadCommand(command);
  if (!spec) throw new Error(`no command "${command}"`);
  const code = await runCommand(spec, [command, ...args], {
    dataDir,
    stdout: out.stream,
    stderr: err.stream,
    ...extra,
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

export function tempDir(prefix = 'citewise-cli-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
