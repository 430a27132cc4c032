// `citewise fulltext`: builds the full-text index of the attached PDFs (only what is not indexed yet,
// or everything again with --rebuild), with progress on stderr; Ctrl-C stops it and keeps what was
// indexed. `--notes` lists the PDFs that are not (fully) searchable and why.
import type { LibraryClient } from '../../core/library/client';
import { DEFAULT_FULLTEXT_LIMITS, indexFulltext, type FulltextLimits } from '../../core/pdf/fulltext';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { noExtraArgs, withLibrary } from '../library-session';

export const command = defineCommand({
  name: 'fulltext',
  help: [
    {
      usage: 'fulltext',
      text: 'Index the text of every attached PDF (per page) for "fulltext:" searches; what is\nindexed already is skipped, so an interrupted run continues. Progress on stderr',
    },
  ],
  options: {
    rebuild: { type: 'boolean', help: 'Empty the full-text index first and read every PDF again' },
    notes: { type: 'boolean', help: 'Only list the PDFs that are not (fully) searchable, and why' },
    'max-pages': {
      type: 'string',
      arg: 'N',
      help: `Skip PDFs with more pages (default ${DEFAULT_FULLTEXT_LIMITS.maxPages})`,
    },
    'max-mb': {
      type: 'string',
      arg: 'N',
      help: `Skip PDFs larger than N MB (default ${DEFAULT_FULLTEXT_LIMITS.maxBytes / 1024 / 1024})`,
    },
    json: { type: 'boolean', help: 'Print the result as JSON' },
  },
  run: fulltextCommand,
});

function positiveInt(name: string, text: string | boolean | undefined, max: number): number | undefined {
  if (text === undefined || typeof text === 'boolean') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got "${text}")`);
  return n;
}

/** `citewise fulltext`; Ctrl-C stops the run and keeps what was indexed. */
async function fulltextCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  noExtraArgs('fulltext', p.positionals);
  const json = p.values.json === true;
  if (p.values.notes && p.values.rebuild) throw new UsageError('--notes and --rebuild go separately');
  const limits: Partial<FulltextLimits> = {};
  const maxPages = positiveInt('max-pages', p.values['max-pages'], 100_000);
  const maxMb = positiveInt('max-mb', p.values['max-mb'], 10_000);
  if (maxPages !== undefined) limits.maxPages = maxPages;
  if (maxMb !== undefined) limits.maxBytes = maxMb * 1024 * 1024;
  const stop = new AbortController();
  const onInterrupt = (): void => stop.abort();
  process.once('SIGINT', onInterrupt);
  try {
    return await withLibrary(
      ctx.dataDir,
      (client) =>
        p.values.notes
          ? notes(client, ctx, json)
          : build(client, ctx, json, p.values.rebuild === true, limits, stop.signal),
      ctx.stderr,
    );
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function build(
  client: LibraryClient,
  ctx: CommandContext,
  json: boolean,
  rebuild: boolean,
  limits: Partial<FulltextLimits>,
  signal: AbortSignal,
): Promise<number> {
  const result = await indexFulltext(client.fulltext, {
    rebuild,
    limits,
    signal,
    onFile: (r, done, total) => {
      ctx.stderr.write(
        `[${done}/${total}] ${r.status}${r.pages ? `, ${r.pages} pages` : ''}: ${r.path}${r.note ? ` (${r.note})` : ''}\n`,
      );
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

async function notes(client: LibraryClient, ctx: CommandContext, json: boolean): Promise<number> {
  const list = await client.fulltext.notes();
  const keys = new Map<number, string>();
  for (const n of list) if (!keys.has(n.itemId)) keys.set(n.itemId, (await client.lib.getItem(n.itemId)).citationKey);
  if (json)
    ctx.stdout.write(
      `${JSON.stringify(
        list.map((n) => ({ ...n, citationKey: keys.get(n.itemId) })),
        null,
        2,
      )}\n`,
    );
  else for (const n of list) ctx.stdout.write(`${keys.get(n.itemId)}\t${n.status}\t${n.note}\n`);
  return 0;
}
