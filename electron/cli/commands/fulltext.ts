// `citewise fulltext`: builds the full-text index of the attached PDFs (only what is not indexed yet,
// or everything again with --rebuild), with progress on stderr; Ctrl-C stops it and keeps what was
// indexed. `--notes` lists the PDFs that are not (fully) searchable and why.
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { CoreError } from '../../core/errors';
import type { LibraryClient } from '../../core/library/client';
import type { FulltextHit } from '../../core/library/fulltext-store';
import { DEFAULT_FULLTEXT_LIMITS, indexFulltext, type FulltextLimits } from '../../core/pdf/fulltext';
import { withLibrary } from './library';

export const FULLTEXT_HELP = `  fulltext         Index the text of every attached PDF (per page) for "fulltext:" searches; what is
                   indexed already is skipped, so an interrupted run continues. Progress on stderr
    --rebuild      Empty the full-text index first and read every PDF again
    --notes        Only list the PDFs that are not (fully) searchable, and why
    --max-pages N  Skip PDFs with more pages (default ${DEFAULT_FULLTEXT_LIMITS.maxPages})
    --max-mb N     Skip PDFs larger than N MB (default ${DEFAULT_FULLTEXT_LIMITS.maxBytes / 1024 / 1024})`;

export interface FulltextCommandContext {
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
  /** Stops the run (the CLI wires Ctrl-C to it). */
  signal?: AbortSignal;
}

function positiveInt(name: string, text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new CoreError('INVALID_INPUT', `--${name} must be a whole number from 1 to ${max} (got "${text}")`);
  return n;
}

/** Runs `citewise fulltext`; `argv` is the command line after the program name. Returns the exit code. */
export async function runFulltextCommand(argv: readonly string[], ctx: FulltextCommandContext): Promise<number> {
  let values: { rebuild?: boolean; notes?: boolean; json?: boolean; 'max-pages'?: string; 'max-mb'?: string };
  try {
    const p = parseArgs({
      args: [...argv],
      options: { 'data-dir': { type: 'string' }, 'service-url': { type: 'string' }, json: { type: 'boolean' }, rebuild: { type: 'boolean' }, notes: { type: 'boolean' }, 'max-pages': { type: 'string' }, 'max-mb': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const extra = p.positionals.filter((x) => x !== 'fulltext');
    if (extra.length > 0) throw new Error(`fulltext takes no arguments (got "${extra[0]}")`);
    values = p.values;
    if (values.notes && values.rebuild) throw new Error('--notes and --rebuild go separately');
  } catch (err) {
    ctx.stderr.write(`citewise: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  try {
    const limits: Partial<FulltextLimits> = {};
    const maxPages = positiveInt('max-pages', values['max-pages'], 100_000);
    const maxMb = positiveInt('max-mb', values['max-mb'], 10_000);
    if (maxPages !== undefined) limits.maxPages = maxPages;
    if (maxMb !== undefined) limits.maxBytes = maxMb * 1024 * 1024;
    return await withLibrary(ctx.dataDir, (client) => (values.notes ? notes(client, ctx, values.json === true) : build(client, ctx, values.json === true, values.rebuild === true, limits)), ctx.stderr);
  } catch (err) {
    if (err instanceof CoreError) {
      ctx.stderr.write(`citewise: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

async function build(client: LibraryClient, ctx: FulltextCommandContext, json: boolean, rebuild: boolean, limits: Partial<FulltextLimits>): Promise<number> {
  const result = await indexFulltext(client.fulltext, {
    rebuild,
    limits,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onFile: (r, done, total) => {
      ctx.stderr.write(`[${done}/${total}] ${r.status}${r.pages ? `, ${r.pages} pages` : ''}: ${r.path}${r.note ? ` (${r.note})` : ''}\n`);
    },
  });
  const summary = await client.fulltext.summary();
  if (json) ctx.stdout.write(`${JSON.stringify({ read: result.files, skipped: result.skipped, summary }, null, 2)}\n`);
  else {
    const s = summary.byStatus;
    ctx.stdout.write(
      `${result.files.length} PDFs read now, ${result.skipped} already indexed. Searchable: ${s.indexed} PDFs (${summary.pages} pages); without text: ${s['no-text']}; too big: ${s['too-big']}; unreadable: ${s.unreadable}; not found: ${result.files.filter((f) => f.status === 'missing').length}.\n`,
    );
  }
  return 0;
}

async function notes(client: LibraryClient, ctx: FulltextCommandContext, json: boolean): Promise<number> {
  const list = await client.fulltext.notes();
  const keys = new Map<number, string>();
  for (const n of list) if (!keys.has(n.itemId)) keys.set(n.itemId, (await client.lib.getItem(n.itemId)).citationKey);
  if (json) ctx.stdout.write(`${JSON.stringify(list.map((n) => ({ ...n, citationKey: keys.get(n.itemId) })), null, 2)}\n`);
  else for (const n of list) ctx.stdout.write(`${keys.get(n.itemId)}\t${n.status}\t${n.note}\n`);
  return 0;
}

/** The lines `citewise search` prints under an item for its full-text hits: page and snippet. */
export function hitLines(hits: readonly FulltextHit[], itemId: number): string {
  return hits
    .filter((h) => h.itemId === itemId)
    .map((h) => `\tp. ${h.page}: ${h.snippet.replace(/\s+/g, ' ')}\n`)
    .join('');
}
