// `citewise stats`: the library counted: all items, by type, with a DOI, with citation tallies, retracted.
import { defineCommand, type CommandContext, type ParsedCommand } from '../command';
import { noExtraArgs, printJson, withLibrary } from '../library-session';
import { grouped } from '../../../shared/model/numbers';

export const command = defineCommand({
  name: 'stats',
  help: [{ usage: 'stats', text: 'Count items: all, by type, with a DOI, with citation tallies, retracted' }],
  options: { json: { type: 'boolean', help: 'Print the counts as JSON' } },
  run: statsCommand,
});

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
  const stats = await withLibrary(
    ctx.dataDir,
    async (client): Promise<LibraryStats> => {
      const [base, counts] = await Promise.all([client.lib.stats(), client.lib.counts()]);
      return {
        ...counts,
        trashed: base.trashed,
        collections: base.collections,
        tags: base.tags,
      };
    },
    ctx.stderr,
  );
  if (p.values.json) {
    printJson(ctx.stdout, stats);
    return 0;
  }
  const lines = [`Items:          ${grouped(stats.items)}`];
  for (const [type, n] of Object.entries(stats.byType)) lines.push(`  ${type.padEnd(22)} ${grouped(n)}`);
  lines.push(
    `With a DOI:     ${grouped(stats.withDoi)}`,
    `With tallies:   ${grouped(stats.withTallies)}`,
    `Retracted:      ${grouped(stats.retracted)}`,
    `In the trash:   ${grouped(stats.trashed)}`,
    `Collections:    ${grouped(stats.collections)}`,
    `Tags:           ${grouped(stats.tags)}`,
  );
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
