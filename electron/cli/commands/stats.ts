// `citewise stats`: the library counted: all items, by type, with a DOI, with citation tallies, retracted.
import { defineCommand, type CommandContext, type ParsedCommand } from '../command';
import { noExtraArgs, printJson, withLibrary } from '../library-session';
import type { LibraryClient } from '../../core/library/client';
import type { LibraryRow } from '../../core/library/types';

export const command = defineCommand({
  name: 'stats',
  help: [{ usage: 'stats', text: 'Count items: all, by type, with a DOI, with citation tallies, retracted' }],
  options: { json: { type: 'boolean', help: 'Print the counts as JSON' } },
  run: statsCommand,
});

async function allRows(client: LibraryClient, options: { query?: string; collectionId?: number }): Promise<LibraryRow[]> {
  const rows: LibraryRow[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.lib.list({ ...options, sort: { column: 'dateAdded', direction: 'asc' }, limit: 1000, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

export interface LibraryStats {
  items: number;
  byType: Record<string, number>;
  withDoi: number;
  withTallies: number;
  retracted: number;
  trashed: number;
  collections: number;
  tags: number;
}

async function statsCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  noExtraArgs('stats', p.positionals);
  const stats = await withLibrary(ctx.dataDir, async (client): Promise<LibraryStats> => {
    const base = await client.lib.stats();
    const rows = await allRows(client, {});
    const byType: Record<string, number> = {};
    for (const r of rows) byType[r.type] = (byType[r.type] ?? 0) + 1;
    const sorted = Object.fromEntries(Object.entries(byType).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
    return {
      items: rows.length,
      byType: sorted,
      withDoi: rows.filter((r) => r.doi !== null).length,
      withTallies: rows.filter((r) => r.evidence.state === 'found').length,
      retracted: rows.filter((r) => r.retracted === true).length,
      trashed: base.trashed,
      collections: base.collections,
      tags: base.tags,
    };
  }, ctx.stderr);
  if (p.values.json) {
    printJson(ctx.stdout, stats);
    return 0;
  }
  const lines = [`Items:          ${stats.items.toLocaleString('en')}`];
  for (const [type, n] of Object.entries(stats.byType)) lines.push(`  ${type.padEnd(22)} ${n.toLocaleString('en')}`);
  lines.push(
    `With a DOI:     ${stats.withDoi.toLocaleString('en')}`,
    `With tallies:   ${stats.withTallies.toLocaleString('en')}`,
    `Retracted:      ${stats.retracted.toLocaleString('en')}`,
    `In the trash:   ${stats.trashed.toLocaleString('en')}`,
    `Collections:    ${stats.collections.toLocaleString('en')}`,
    `Tags:           ${stats.tags.toLocaleString('en')}`,
  );
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
