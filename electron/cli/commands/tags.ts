// `citewise tags`: the library's tags, listed, renamed, merged, deleted and coloured, as the Library's
// tag list does (each change to items is one undo step, undone in the app with Ctrl+Z).
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { printJson, withLibrary } from '../library-session';
import { grouped } from '../../../shared/model/numbers';

export const command = defineCommand({
  name: 'tags',
  help: [
    { usage: 'tags [list]', text: 'The tags with how many items have each; coloured ones with their key 1-9' },
    { usage: 'tags rename OLD NEW', text: 'Rename a tag on every item (onto an existing tag: merge the two)' },
    { usage: 'tags merge TAG… --into NEW', text: 'Give every item with any of the tags the tag NEW instead' },
    { usage: 'tags delete TAG…', text: 'Remove tags from every item' },
    {
      usage: 'tags color TAG #RRGGBB [--position N] | tags color TAG none',
      text: 'Colour a tag (at most 9; N is its key 1-9) or take its colour off',
      options: ['json'],
    },
  ],
  options: {
    into: { type: 'string', help: 'The tag a merge gives the items' },
    position: { type: 'string', help: 'The place 1-9 of a coloured tag (its key)' },
    json: { type: 'boolean', help: 'Print the result as JSON' },
  },
  run: tagsCommand,
});

async function tagsCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  const [action = 'list', ...args] = p.positionals;
  const json = p.values.json === true;
  const need = (n: number, usage: string): void => {
    if (args.length !== n) throw new UsageError(`tags ${action} needs ${usage}`);
  };
  switch (action) {
    case 'list':
      need(0, 'no arguments');
      break;
    case 'rename':
      need(2, 'the old and the new name: citewise tags rename to-read reading');
      break;
    case 'merge':
      if (args.length === 0 || typeof p.values.into !== 'string' || p.values.into.trim() === '')
        throw new UsageError('tags merge needs the tags and --into: citewise tags merge toread to_read --into to-read');
      break;
    case 'delete':
      if (args.length === 0) throw new UsageError('tags delete needs at least one tag');
      break;
    case 'color':
      need(2, 'a tag and a colour (#RRGGBB, or none): citewise tags color to-read "#ff6666"');
      break;
    default:
      throw new UsageError(`unknown tags action "${action}": use list, rename, merge, delete or color`);
  }
  let position: number | undefined;
  if (p.values.position !== undefined) {
    position = Number(p.values.position);
    if (action !== 'color' || !Number.isInteger(position) || position < 1 || position > 9)
      throw new UsageError('--position goes with tags color and is a key from 1 to 9');
  }
  return withLibrary(
    ctx.dataDir,
    async (client) => {
      const lib = client.lib;
      if (action === 'list') {
        const [tags, colors] = await Promise.all([lib.listTags(), lib.tagColors()]);
        const byName = new Map(colors.map((c) => [c.name.toLowerCase(), c]));
        if (json) printJson(ctx.stdout, { tags, colors });
        else {
          for (const c of colors)
            if (!tags.some((t) => t.name.toLowerCase() === c.name.toLowerCase()))
              ctx.stdout.write(`${c.name}\t0\tkey ${c.position} ${c.color}\n`);
          for (const t of tags) {
            const c = byName.get(t.name.toLowerCase());
            ctx.stdout.write(`${t.name}\t${grouped(t.count)}${c ? `\tkey ${c.position} ${c.color}` : ''}\n`);
          }
        }
        return 0;
      }
      if (action === 'color') {
        const color = args[1]!.toLowerCase() === 'none' ? null : args[1]!;
        const colors = await lib.setTagColor(args[0]!, color, position);
        if (json) printJson(ctx.stdout, { colors });
        else for (const c of colors) ctx.stdout.write(`key ${c.position}\t${c.color}\t${c.name}\n`);
        return 0;
      }
      const items =
        action === 'rename'
          ? await lib.renameTag(args[0]!, args[1]!)
          : action === 'merge'
            ? await lib.mergeTags(args, String(p.values.into))
            : await lib.deleteTags(args);
      if (json) printJson(ctx.stdout, { action, items });
      else
        ctx.stdout.write(
          `${action === 'delete' ? 'deleted' : action === 'merge' ? 'merged' : 'renamed'}: ${grouped(items)} item${items === 1 ? '' : 's'} changed\n`,
        );
      return 0;
    },
    ctx.stderr,
  );
}
