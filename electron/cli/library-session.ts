// What the library commands share: the library opened in its worker for one command, the service
// opened for those that need it, a collection found by its name, a query checked before anything
// opens, and the output helpers.
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { parseQuery, QuerySyntaxError } from '../../shared/model/query';
import { CoreError } from '../core/errors';
import type { EnrichService } from '../core/jobs/enrich';
import { LibraryClient } from '../core/library/client';
import { searchIndexRepairNote } from '../core/library/search-index';
import type { FulltextHit } from '../core/library/fulltext-store';
import type { Collection } from '../core/library/types';
import { ensureDataDir, LIBRARY_FILE } from '../core/paths';
import type { ServiceClient } from '../core/service';
import { UsageError, type CommandContext } from './command';
import { grouped } from '../../shared/model/numbers';

/** What `add`, `enrich` and `check` need of the service client (core.service). */
export type PaperSource = EnrichService;

export interface OpenedService {
  /** The paper search is what PDF capture matches a first page's title with. */
  service: PaperSource & Pick<ServiceClient, 'search'>;
  close: () => Promise<void>;
}

export function libraryFile(dataDir: string): string {
  return join(dataDir, LIBRARY_FILE);
}

/** Opens the library in its worker, runs `run`, closes it; says on `stderr` what opening it repaired. */
export async function withLibrary<T>(
  dataDir: string,
  run: (client: LibraryClient) => Promise<T>,
  stderr?: Writable,
): Promise<T> {
  ensureDataDir(dataDir);
  const client = await LibraryClient.start({ file: libraryFile(dataDir) });
  if (client.recovery && stderr) {
    const r = client.recovery;
    stderr.write(
      `citewise: the library file was damaged (${r.problem}); it was moved to ${r.setAside} and ${r.restoredFrom ? `restored from ${r.restoredFrom}` : 'no good backup was found, so the library starts empty'}.\n`,
    );
  }
  if (client.searchIndexRepair && stderr)
    stderr.write(`citewise: ${searchIndexRepairNote(client.searchIndexRepair)}\n`);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

/** Opens the citation service for `run` and closes it after. */
export async function withService<T>(
  ctx: CommandContext,
  run: (service: OpenedService['service']) => Promise<T>,
): Promise<T> {
  if (!ctx.openService)
    throw new CoreError('INTERNAL', 'this command needs the citation service, which is not available here.');
  const { service, close } = await ctx.openService();
  try {
    return await run(service);
  } finally {
    await close();
  }
}

/** The collection called `name` (exactly, else ignoring case); `purpose` ends the message when several are ("export it"). */
export async function findCollection(client: LibraryClient, name: string, purpose: string): Promise<Collection> {
  const all = await client.lib.listCollections();
  const matches = all.filter((c) => c.name === name);
  const found = matches.length > 0 ? matches : all.filter((c) => c.name.toLowerCase() === name.toLowerCase());
  if (found.length === 0)
    throw new CoreError(
      'NOT_FOUND',
      `no collection is called "${name}"${all.length ? ` (there are: ${all.map((c) => c.name).join(', ')})` : ''}`,
    );
  if (found.length > 1)
    throw new CoreError('CONFLICT', `${found.length} collections are called "${name}"; rename one to ${purpose}`);
  return found[0]!;
}

/** A malformed query is wrong usage, shown with a pointer under where it goes wrong. */
export function checkQuery(query: string): void {
  try {
    parseQuery(query);
  } catch (err) {
    if (err instanceof QuerySyntaxError) {
      const pointer = `${' '.repeat(err.span.start)}${'^'.repeat(Math.max(1, err.span.end - err.span.start))}`;
      throw new UsageError(
        `malformed query at position ${err.span.start + 1}: ${err.message}\n  ${query}\n  ${pointer}`,
      );
    }
    throw err;
  }
}

export function noExtraArgs(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0) throw new UsageError(`${command} takes no arguments (got "${positionals[0]}")`);
}

export function printJson(out: Writable, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

/** The lines `citewise search` prints under an item for its full-text hits: page and snippet. */
export function hitLines(hits: readonly FulltextHit[], itemId: number): string {
  return hits
    .filter((h) => h.itemId === itemId)
    .map((h) => `\tp. ${h.page}: ${h.snippet.replace(/\s+/g, ' ')}\n`)
    .join('');
}

export const stylesDir = (dataDir: string): string => join(dataDir, 'styles');

/**
 * The citation processor, loaded by the commands that use it: with it, every command took 0.2 s more
 * to start (reference files are written by the library worker, parsed by the formats worker).
 */
export async function formatting() {
  const [{ createCiteFormatter }, { UserStyles }] = await Promise.all([
    import('../core/formats/cite'),
    import('../core/formats/cite/user-styles'),
  ]);
  return { createCiteFormatter, UserStyles };
}
