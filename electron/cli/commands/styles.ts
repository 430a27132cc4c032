// `citewise styles [list]`, `styles add FILE…`, `styles remove ID`: the built-in citation styles and
// those added from .csl files (kept in the data folder).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CITATION_STYLE_IDS } from '../../../shared/model/csl';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { formatting, printJson, stylesDir } from '../library-session';
import type { StyleCollection } from '../../core/formats/cite/style-collection';

export const command = defineCommand({
  name: 'styles',
  help: [
    {
      usage: 'styles [list]',
      text: `The citation styles: the ${CITATION_STYLE_IDS.length} built in and those added from .csl files`,
    },
    { usage: 'styles add FILE…', text: 'Add CSL styles (checked first; kept in the data folder); then --style ID' },
    { usage: 'styles remove ID', text: 'Remove an added style', options: ['json'] },
    {
      usage: 'styles search TEXT…',
      text: 'Search the CSL styles repository shipped with the app by name',
      options: ['field', 'format', 'limit', 'json'],
    },
    { usage: 'styles install NAME…', text: 'Install styles of the repository (as styles search names them)' },
  ],
  options: {
    json: { type: 'boolean', help: 'Print the styles (added, removed, found) as JSON' },
    field: { type: 'string', help: 'styles search: only styles of this field (biology, law, …)' },
    format: { type: 'string', help: 'styles search: only this citation format (author-date, numeric, note, …)' },
    limit: { type: 'string', help: 'styles search: at most this many (default 50)' },
  },
  run: stylesCommand,
});

/** `citewise styles [list]`, `styles add FILE…`, `styles remove ID`: citation styles added from .csl files. */
async function stylesCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  const [action = 'list', ...args] = p.positionals;
  const { createCiteFormatter, UserStyles } = await formatting();
  const store = new UserStyles(stylesDir(ctx.dataDir));
  if (action === 'list' && args.length > 0) throw new UsageError('styles list takes no arguments');
  if (action === 'add' && args.length === 0)
    throw new UsageError('styles add needs a .csl file: citewise styles add my-journal.csl');
  if (action === 'remove' && args.length !== 1)
    throw new UsageError('styles remove needs one style id: citewise styles remove my-journal');
  if (action === 'install' && args.length === 0)
    throw new UsageError('styles install needs a style name: citewise styles install nature');
  if (!['list', 'add', 'remove', 'search', 'install'].includes(action))
    throw new UsageError(
      `unknown styles action "${action}": use list, add FILE…, remove ID, search TEXT… or install NAME…`,
    );
  // Loaded on use, like the formatter: the rest of the CLI starts without them.
  const { styleCollection } = await import('../../core/formats/cite/style-collection');
  if (action === 'search') return searchCollection(p, ctx, args.join(' '), styleCollection());
  const formatter = createCiteFormatter({ workers: 0 });
  try {
    const skipped = store.loadInto(formatter);
    let failed = 0;
    if (action === 'add') {
      const added: { id: string; title: string; file: string }[] = [];
      for (const file of args) {
        try {
          const xml = readFileSync(resolve(file), 'utf8');
          const info = store.add(formatter, xml);
          added.push({ id: info.id, title: info.title, file });
        } catch (err) {
          failed++;
          ctx.stderr.write(`citewise: ${file}: not added: ${err instanceof Error ? err.message : String(err)}\n`);
        }
      }
      if (p.values.json) printJson(ctx.stdout, { added });
      else for (const a of added) ctx.stdout.write(`added "${a.title}" as ${a.id} (use --style ${a.id})\n`);
    } else if (action === 'install') {
      const collection = styleCollection();
      const added: { id: string; title: string }[] = [];
      for (const name of args) {
        try {
          const style = collection.get(name);
          if (style.builtIn) throw new Error(`it is built in as ${style.builtIn}: use --style ${style.builtIn}`);
          const info = store.add(formatter, collection.xml(name), { id: name });
          added.push({ id: info.id, title: info.title });
        } catch (err) {
          failed++;
          ctx.stderr.write(`citewise: ${name}: not installed: ${err instanceof Error ? err.message : String(err)}\n`);
        }
      }
      if (p.values.json) printJson(ctx.stdout, { added });
      else for (const a of added) ctx.stdout.write(`installed "${a.title}" as ${a.id} (use --style ${a.id})\n`);
    } else if (action === 'remove') {
      store.remove(formatter, args[0]!);
      if (p.values.json) printJson(ctx.stdout, { removed: args[0] });
      else ctx.stdout.write(`removed ${args[0]}\n`);
    } else {
      const all = formatter.styles().map((s) => ({ id: s.id, title: s.title, builtIn: s.builtIn }));
      if (p.values.json) printJson(ctx.stdout, { styles: all, skipped });
      else for (const s of all) ctx.stdout.write(`${s.id.padEnd(16)} ${s.title}${s.builtIn ? '' : ' (added)'}\n`);
    }
    for (const x of skipped) ctx.stderr.write(`citewise: ${x.file} was skipped: ${x.problem}\n`);
    return failed > 0 ? 1 : 0;
  } finally {
    await formatter.close();
  }
}

/** `citewise styles search TEXT…`: the shipped CSL styles repository, best matches first. */
function searchCollection(p: ParsedCommand, ctx: CommandContext, text: string, collection: StyleCollection): number {
  if (!collection.available) {
    ctx.stderr.write(`citewise: there is no style collection on this machine: ${collection.reason}\n`);
    return 1;
  }
  const limitText = p.values.limit as string | undefined;
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new UsageError(`--limit must be a whole number from 1 to 10000, not "${limitText}"`);
  const field = p.values.field as string | undefined;
  const format = p.values.format as string | undefined;
  const found = collection.search({ text, limit, ...(field ? { field } : {}), ...(format ? { format } : {}) });
  if (p.values.json) {
    printJson(ctx.stdout, { matched: found.matched, styles: found.styles });
    return 0;
  }
  for (const s of found.styles)
    ctx.stdout.write(
      `${s.name.padEnd(40)} ${s.title}${s.format ? ` [${s.format}]` : ''}${s.parentTitle ? ` (as ${s.parentTitle})` : ''}${s.builtIn ? ` (built in: --style ${s.builtIn})` : ''}\n`,
    );
  ctx.stdout.write(
    found.matched > found.styles.length
      ? `${found.styles.length} of ${found.matched} styles shown (--limit N for more)\n`
      : `${found.matched} style${found.matched === 1 ? '' : 's'}\n`,
  );
  return found.matched > 0 ? 0 : 1;
}
