// `citewise keys`: citation keys by formula (Settings → Citation keys in the app; docs/citation-keys.md).
// `keys formula [F]` shows or sets the formula new keys are made with, `keys preview [F]` shows what it
// gives for some items, `keys regenerate` gives chosen items new keys (existing keys never change
// otherwise). Exit 0 done, 1 failed, 2 wrong usage (a formula that does not compile, with a pointer).
import {
  compileKeyFormula,
  DEFAULT_KEY_FORMULA,
  isDefaultFormula,
  keyFormulaOf,
  type KeyFormula,
} from '../../../shared/model/citekey-formula';
import type { CslItem } from '../../../shared/model/csl';
import { CoreError } from '../../core/errors';
import { openDatabase } from '../../core/library/database';
import type { LibraryClient } from '../../core/library/client';
import { SettingsStore } from '../../core/settings/store';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { checkQuery, libraryFile, plural, printJson, withLibrary } from '../library-session';

/** The most items `keys regenerate` changes in one undo step (a larger set is done in several). */
export const REGENERATE_BATCH = 5000;
/** Items `keys preview` shows unless --limit says otherwise. */
const PREVIEW_DEFAULT = 10;

export const command = defineCommand({
  name: 'keys',
  help: [
    {
      usage: 'keys formula [FORMULA]',
      text: `Show the formula new citation keys are made with, or set it, e.g.
citewise keys formula "auth.lower + shorttitle(3,3) + year" (Better BibTeX's
syntax; its legacy [auth:lower][year] form too). Existing keys do not change`,
      options: ['default'],
    },
    {
      usage: 'keys preview [FORMULA]',
      text: 'Show the keys a formula (default: the one set) gives the first items, beside their own',
      options: ['query', 'limit'],
    },
    {
      usage: 'keys regenerate KEY…',
      text: `Give items new keys from the formula, a, b… added where a key is taken (any
case). Also --query Q or --all. Undoable in the app (one step per ${REGENERATE_BATCH.toLocaleString('en')} items)`,
      options: ['all', 'dry-run', 'json'],
    },
  ],
  options: {
    default: { type: 'boolean', help: 'Set the formula back to the default' },
    query: { type: 'string', arg: 'Q', help: 'The items a search finds' },
    limit: { type: 'string', arg: 'N', help: `How many items to show (default ${PREVIEW_DEFAULT})` },
    all: { type: 'boolean', help: 'Every item in the library' },
    'dry-run': { type: 'boolean', help: 'Show the new keys without changing anything' },
    json: { type: 'boolean', help: 'Print the result as JSON' },
  },
  run: keysCommand,
});

function compiled(text: string): KeyFormula {
  const parsed = compileKeyFormula(text);
  if (parsed.ok) return parsed.formula;
  const { message, at } = parsed.error;
  throw new UsageError(`the formula does not compile: ${message}\n  ${text}\n  ${' '.repeat(at)}^`);
}

function withSettings<T>(dataDir: string, run: (settings: SettingsStore) => T): T {
  const db = openDatabase(libraryFile(dataDir));
  try {
    return run(new SettingsStore(db));
  } finally {
    db.close();
  }
}

async function keysCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = p.positionals;
  switch (verb) {
    case 'formula':
      return formulaCommand(p, ctx, rest);
    case 'preview':
      return previewCommand(p, ctx, rest);
    case 'regenerate':
      return regenerateCommand(p, ctx, rest);
    default:
      throw new UsageError(
        verb === undefined
          ? 'keys needs formula, preview or regenerate: citewise keys formula'
          : `"${verb}" is not a keys command (formula, preview, regenerate)`,
      );
  }
}

function formulaCommand(p: ParsedCommand, ctx: CommandContext, args: readonly string[]): Promise<number> {
  if (args.length > 1)
    throw new UsageError('keys formula takes one formula; quote it: citewise keys formula "auth + year"');
  if (args.length === 1 && p.values.default) throw new UsageError('give a formula or --default, not both');
  if (args.length === 1) compiled(args[0]!);
  return withLibrary(
    ctx.dataDir,
    async () => {
      const stored = withSettings(ctx.dataDir, (settings) => {
        if (p.values.default) settings.update({ citekeyFormula: DEFAULT_KEY_FORMULA });
        else if (args.length === 1) settings.update({ citekeyFormula: args[0]! });
        return settings.get().citekeyFormula ?? DEFAULT_KEY_FORMULA;
      });
      const changed = p.values.default || args.length === 1;
      if (p.values.json) printJson(ctx.stdout, { formula: stored, default: isDefaultFormula(stored) });
      else
        ctx.stdout.write(
          `${changed ? 'New keys are now made with: ' : ''}${stored}${isDefaultFormula(stored) ? ' (the default)' : ''}\n${changed ? 'Existing keys stay as they are; "citewise keys regenerate" gives chosen items new ones.\n' : ''}`,
        );
      return 0;
    },
    ctx.stderr,
  );
}

function positive(name: string, text: unknown, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(
      `--${name} must be a whole number from 1 to ${max.toLocaleString('en')} (got "${String(text)}")`,
    );
  return n;
}

/** The items a command names: keys (or ids), a search, or all. */
async function chosenItems(
  client: LibraryClient,
  p: ParsedCommand,
  refs: readonly string[],
  limit?: number,
): Promise<number[]> {
  const query = typeof p.values.query === 'string' ? p.values.query : undefined;
  const ways = [refs.length > 0, query !== undefined, p.values.all === true].filter(Boolean).length;
  if (ways > 1) throw new UsageError('name the items one way: keys, --query Q or --all');
  if (refs.length > 0) {
    const ids: number[] = [];
    for (const ref of refs) {
      const id = (await client.lib.findByCitationKey(ref)) ?? (/^\d+$/.test(ref) ? Number(ref) : null);
      if (id === null) throw new CoreError('NOT_FOUND', `no item has the citation key "${ref}"`);
      ids.push(id);
    }
    return ids;
  }
  if (ways === 0 && limit === undefined)
    throw new UsageError('keys regenerate needs the items: citation keys, --query Q or --all');
  const ids = await client.listing.idsOf(query !== undefined ? { query } : {});
  return limit === undefined ? ids : ids.slice(0, limit);
}

async function previewCommand(p: ParsedCommand, ctx: CommandContext, args: readonly string[]): Promise<number> {
  if (args.length > 1) throw new UsageError('keys preview takes one formula; quote it');
  if (typeof p.values.query === 'string') checkQuery(p.values.query);
  const limit = positive('limit', p.values.limit, PREVIEW_DEFAULT, 1000);
  const given = args[0] === undefined ? null : compiled(args[0]);
  return withLibrary(
    ctx.dataDir,
    async (client) => {
      const formula =
        given ?? keyFormulaOf(withSettings(ctx.dataDir, (settings) => settings.get().citekeyFormula ?? null));
      const ids = await chosenItems(client, p, [], limit);
      const items: CslItem[] = await client.lib.cslOf(ids);
      const rows = items.map((csl) => ({
        key: String(csl['citation-key']),
        formula: formula.keyOf(csl),
        title: typeof csl.title === 'string' ? csl.title : null,
      }));
      if (p.values.json) printJson(ctx.stdout, { formula: formula.text, items: rows });
      else {
        ctx.stdout.write(`${formula.text}\n`);
        for (const r of rows) ctx.stdout.write(`${r.key}\t${r.formula}\t${r.title ?? ''}\n`);
        if (rows.length === 0) ctx.stdout.write('(no items)\n');
      }
      return 0;
    },
    ctx.stderr,
  );
}

async function regenerateCommand(p: ParsedCommand, ctx: CommandContext, refs: readonly string[]): Promise<number> {
  if (typeof p.values.query === 'string') checkQuery(p.values.query);
  return withLibrary(
    ctx.dataDir,
    async (client) => {
      const ids = await chosenItems(client, p, refs);
      const changes: { id: number; from: string; to: string }[] = [];
      if (p.values['dry-run']) {
        const formula = keyFormulaOf(withSettings(ctx.dataDir, (settings) => settings.get().citekeyFormula ?? null));
        for (const csl of await client.lib.cslOf(ids))
          changes.push({ id: 0, from: String(csl['citation-key']), to: formula.keyOf(csl) });
      } else
        for (let at = 0; at < ids.length; at += REGENERATE_BATCH)
          changes.push(...(await client.lib.regenerateCitationKeys(ids.slice(at, at + REGENERATE_BATCH))));
      const moved = changes.filter((c) => c.from !== c.to);
      if (p.values.json)
        printJson(ctx.stdout, {
          dryRun: p.values['dry-run'] === true,
          changed: moved,
          unchanged: changes.length - moved.length,
        });
      else {
        for (const c of moved) ctx.stdout.write(`${c.from} → ${c.to}\n`);
        ctx.stdout.write(
          p.values['dry-run']
            ? `${plural(moved.length, 'key')} would change (before a, b… suffixes for keys taken); nothing was changed.\n`
            : `${plural(moved.length, 'key')} changed, ${plural(changes.length - moved.length, 'key')} already as the formula gives.\n`,
        );
      }
      return 0;
    },
    ctx.stderr,
  );
}
