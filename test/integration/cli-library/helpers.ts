import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runLibraryCommand, type LibraryCommand, type LibraryCommandContext } from '../../../electron/cli/commands/library';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: Writable; text: () => string } {
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
export function run(dataDir: string, command: LibraryCommand, ...args: string[]): Promise<RunResult> {
  return runWith({}, dataDir, command, ...args);
}

/** The same, with more of the context (the service, for add). */
export async function runWith(extra: Pick<LibraryCommandContext, 'openService'>, dataDir: string, command: LibraryCommand, ...args: string[]): Promise<RunResult> {
  const out = collector();
  const err = collector();
  const code = await runLibraryCommand(command, [command, ...args], { dataDir, stdout: out.stream, stderr: err.stream, ...extra });
  return { code, stdout: out.text(), stderr: err.text() };
}

export function tempDir(prefix = 'citewise-cli-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
