// `citewise styles [list]`, `styles add FILE…`, `styles remove ID`: the built-in citation styles and
// those added from .csl files (kept in the data folder).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CITATION_STYLE_IDS } from '../../../shared/model/csl';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { formatting, printJson, stylesDir } from '../library-session';

export const command = defineCommand({
  name: 'styles',
  help: [
    {
      usage: 'styles [list]',
      text: `The citation styles: the ${CITATION_STYLE_IDS.length} built in and those added from .csl files`,
    },
    { usage: 'styles add FILE…', text: 'Add CSL styles (checked first; kept in the data folder); then --style ID' },
    { usage: 'styles remove ID', text: 'Remove an added style', options: ['json'] },
  ],
  options: { json: { type: 'boolean', help: 'Print the styles (added, removed) as JSON' } },
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
  if (!['list', 'add', 'remove'].includes(action))
    throw new UsageError(`unknown styles action "${action}": use list, add FILE… or remove ID`);
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
