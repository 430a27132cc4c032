// `citewise auto-export add | list | remove | run`: files kept in sync with the library or a collection
// (Better BibTeX's auto-export). The app rewrites them when the library changes; the CLI defines them
// and brings them up to date on demand (`run`, e.g. from a Makefile or CI before building a paper).
import { resolve } from 'node:path';
import { AUTO_EXPORT_EXTENSIONS, AUTO_EXPORT_FORMAT_LABELS } from '../../../shared/model/auto-export';
import {
  REFERENCE_FORMAT_INFO,
  REFERENCE_FORMAT_NAMES,
  referenceFormatNamed,
} from '../../../shared/model/reference-formats';
import { checkWritableTarget } from '../../core/fs/paths';
import type { Writable } from 'node:stream';
import type {
  AutoExport,
  AutoExportFormat,
  AutoExportRun,
  AutoExportScope,
} from '../../core/library/auto-export-store';
import { parseCommand, UsageError, type CommandSpec, type OptionSpecs } from '../command';
import { findCollection, printJson, withLibrary } from '../library-session';
import { grouped } from '../../../shared/model/numbers';

export const command: CommandSpec = {
  name: 'auto-export',
  help: [
    {
      usage: 'auto-export add',
      text: `Keep a file in sync with the library or a collection; writes it now, and the app
rewrites it whenever its items change (only the entries that changed are redone)`,
      options: ['format', 'library', 'collection', 'output', 'no-abstracts', 'notes', 'ascii'],
    },
    { usage: 'auto-export list', text: 'List the auto-exports with their last run, status and item count' },
    { usage: 'auto-export remove ID', text: 'Stop keeping file ID in sync (the file stays)' },
    {
      usage: 'auto-export run [ID]',
      text: `Bring one auto-export (default: all) up to date now; a file whose entries did not
change is not rewritten. Exits 1 if any failed`,
      options: ['force'],
    },
  ],
  options: {
    format: { type: 'string', arg: 'F', help: `${REFERENCE_FORMAT_NAMES.join(', ')} (default: bibtex)` },
    library: { type: 'boolean', help: 'All of the library (the default)' },
    collection: {
      type: 'string',
      arg: 'N',
      help: 'Only collection N and its subcollections (--no-subcollections: only N itself)',
    },
    'no-subcollections': { type: 'boolean' },
    output: {
      type: 'string',
      short: 'o',
      arg: 'FILE',
      help: 'The file to keep in sync (required; replaced atomically, never half-written)',
    },
    'no-abstracts': { type: 'boolean', help: 'Leave abstracts out' },
    notes: { type: 'boolean', help: "Add each item's notes to its note field" },
    ascii: { type: 'boolean', help: 'BibTeX/BibLaTeX: write non-ASCII letters as LaTeX commands' },
    force: { type: 'boolean', help: 'Rewrite the file even when its entries did not change' },
    json: { type: 'boolean' },
  },
  run: (argv, ctx) => runAutoExportCommand(argv, ctx),
};

export interface AutoExportCommandContext {
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
}

const nameOf = (format: AutoExportFormat): string => REFERENCE_FORMAT_INFO[format].name;

/** The options each subcommand takes, as declared above. */
const pick = (...names: string[]): OptionSpecs => Object.fromEntries(names.map((n) => [n, command.options[n]!]));
const OPTIONS: Record<string, OptionSpecs> = {
  add: pick('format', 'library', 'collection', 'no-subcollections', 'output', 'no-abstracts', 'notes', 'ascii', 'json'),
  list: pick('json'),
  remove: pick('json'),
  run: pick('force', 'json'),
};

/** Runs `citewise auto-export …`; `argv` is the whole command line after the program name. */
export async function runAutoExportCommand(argv: readonly string[], ctx: AutoExportCommandContext): Promise<number> {
  const start = argv.indexOf('auto-export');
  const rest = argv.slice(start + 1);
  // The subcommand comes right after "auto-export"; options follow it.
  const sub = rest[0];
  if (sub === undefined || !Object.hasOwn(OPTIONS, sub)) {
    throw new UsageError(
      `auto-export needs one of add, list, remove, run${sub === undefined ? '' : ` (got "${sub}")`}; see citewise --help`,
    );
  }
  const { values, positionals } = parseCommand('auto-export', OPTIONS[sub]!, [
    ...argv.slice(0, start),
    ...rest.slice(1),
  ]);
  switch (sub) {
    case 'add':
      return add(values, positionals, ctx);
    case 'list':
      return list(values, positionals, ctx);
    case 'remove':
      return remove(values, positionals, ctx);
    default:
      return run(values, positionals, ctx);
  }
}

type Values = Record<string, string | boolean | undefined>;

function parseId(text: string | undefined, command: string): number {
  if (text === undefined)
    throw new UsageError(`auto-export ${command} needs the id of an auto-export (see citewise auto-export list)`);
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1)
    throw new UsageError(`"${text}" is not an auto-export id (see citewise auto-export list)`);
  return id;
}

function noArgs(command: string, positionals: string[]): void {
  if (positionals.length > 0)
    throw new UsageError(`auto-export ${command} takes no arguments (got "${positionals[0]}")`);
}

function describeScope(scope: AutoExportScope, names: Map<number, string>): string {
  if (scope.kind === 'library') return 'library';
  const name = names.get(scope.collectionId);
  const label = name === undefined ? `collection ${scope.collectionId} (deleted)` : `collection "${name}"`;
  return scope.subcollections ? `${label} and subcollections` : `${label} only`;
}

function jsonDefinition(d: AutoExport, names: Map<number, string>) {
  return {
    ...d,
    format: nameOf(d.format),
    scope:
      d.scope.kind === 'library' ? d.scope : { ...d.scope, collectionName: names.get(d.scope.collectionId) ?? null },
    lastRunAt: d.lastRunAt === null ? null : new Date(d.lastRunAt).toISOString(),
    createdAt: new Date(d.createdAt).toISOString(),
  };
}

function runLine(r: AutoExportRun): string {
  const what = `${grouped(r.itemCount)} ${r.itemCount === 1 ? 'entry' : 'entries'}`;
  if (r.status === 'written')
    return `${r.path}: written, ${what} (${grouped(r.rendered)} rendered, ${grouped(r.reused)} from the cache)`;
  return `${r.path}: up to date, ${what}, not rewritten`;
}

async function add(values: Values, positionals: string[], ctx: AutoExportCommandContext): Promise<number> {
  noArgs('add', positionals);
  const formatName = (values.format as string | undefined) ?? 'bibtex';
  const format = referenceFormatNamed(formatName);
  if (!format)
    throw new UsageError(`--format must be one of ${REFERENCE_FORMAT_NAMES.join(', ')} (got "${formatName}")`);
  const output = values.output as string | undefined;
  if (output === undefined) throw new UsageError('auto-export add needs the file to keep in sync: -o FILE');
  const collection = values.collection as string | undefined;
  if (collection !== undefined && values.library) throw new UsageError('choose --library or --collection, not both');
  if (collection === undefined && values['no-subcollections'])
    throw new UsageError('--no-subcollections goes with --collection');
  if (values.ascii && format !== 'bibtex' && format !== 'biblatex')
    throw new UsageError('--ascii applies to --format bibtex or biblatex only');

  // The same checks as the app's: a path that could never be kept in sync is refused before it is stored.
  const target = await checkWritableTarget(resolve(output), {
    extensions: [AUTO_EXPORT_EXTENSIONS[format]],
    formatLabel: AUTO_EXPORT_FORMAT_LABELS[format],
    forbiddenDir: ctx.dataDir,
  });
  const { def, result, names } = await withLibrary(
    ctx.dataDir,
    async (client) => {
      let scope: AutoExportScope = { kind: 'library' };
      if (collection !== undefined)
        scope = {
          kind: 'collection',
          collectionId: (await findCollection(client, collection, 'follow it')).id,
          subcollections: !values['no-subcollections'],
        };
      const created = await client.autoExports.add({
        path: target,
        format,
        scope,
        options: { abstracts: !values['no-abstracts'], notes: values.notes === true, ascii: values.ascii === true },
      });
      const ran = await client.autoExports.run(created.id);
      const cols = new Map((await client.lib.listCollections()).map((c) => [c.id, c.name]));
      return { def: await client.autoExports.get(created.id), result: ran, names: cols };
    },
    ctx.stderr,
  );
  if (values.json) printJson(ctx.stdout, { autoExport: jsonDefinition(def, names), run: result });
  else if (result.status === 'error')
    ctx.stderr.write(`citewise: auto-export ${def.id} was added, but its first write failed: ${result.error}\n`);
  else
    ctx.stdout.write(
      `auto-export ${def.id}: ${nameOf(def.format)} of the ${describeScope(def.scope, names)}\n${runLine(result)}\n`,
    );
  return result.status === 'error' ? 1 : 0;
}

async function list(values: Values, positionals: string[], ctx: AutoExportCommandContext): Promise<number> {
  noArgs('list', positionals);
  const { defs, names } = await withLibrary(ctx.dataDir, async (client) => ({
    defs: await client.autoExports.list(),
    names: new Map((await client.lib.listCollections()).map((c) => [c.id, c.name])),
  }));
  if (values.json) {
    printJson(ctx.stdout, { autoExports: defs.map((d) => jsonDefinition(d, names)) });
    return 0;
  }
  if (defs.length === 0) {
    ctx.stderr.write('No auto-exports yet; add one with: citewise auto-export add --format bibtex -o refs.bib\n');
    return 0;
  }
  for (const d of defs) {
    const when =
      d.lastRunAt === null
        ? 'never run'
        : `last run ${new Date(d.lastRunAt).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
    const status =
      d.status === 'error'
        ? `ERROR: ${d.error}`
        : d.status === 'pending'
          ? 'not written yet'
          : `${d.status}, ${d.itemCount ?? 0} entries`;
    ctx.stdout.write(
      `${d.id}\t${nameOf(d.format)}\t${describeScope(d.scope, names)}\t${d.path}\n\t${when}: ${status}\n`,
    );
  }
  return 0;
}

async function remove(values: Values, positionals: string[], ctx: AutoExportCommandContext): Promise<number> {
  if (positionals.length > 1) throw new UsageError(`auto-export remove takes one id (got ${positionals.length})`);
  const id = parseId(positionals[0], 'remove');
  const def = await withLibrary(ctx.dataDir, async (client) => {
    const found = await client.autoExports.get(id);
    await client.autoExports.remove(id);
    return found;
  });
  if (values.json) printJson(ctx.stdout, { removed: id, path: def.path });
  else
    ctx.stdout.write(`auto-export ${id} removed; ${def.path} is no longer kept in sync (the file was not deleted).\n`);
  return 0;
}

async function run(values: Values, positionals: string[], ctx: AutoExportCommandContext): Promise<number> {
  if (positionals.length > 1) throw new UsageError(`auto-export run takes at most one id (got ${positionals.length})`);
  const only = positionals[0] === undefined ? undefined : parseId(positionals[0], 'run');
  const force = values.force === true;
  const runs = await withLibrary(
    ctx.dataDir,
    async (client) => {
      const ids =
        only !== undefined
          ? [(await client.autoExports.get(only)).id]
          : (await client.autoExports.list()).map((d) => d.id);
      const out: AutoExportRun[] = [];
      for (const id of ids) out.push(await client.autoExports.run(id, { force }));
      return out;
    },
    ctx.stderr,
  );
  const failed = runs.filter((r) => r.status === 'error');
  if (values.json) printJson(ctx.stdout, { runs, failed: failed.length });
  else {
    if (runs.length === 0)
      ctx.stderr.write('No auto-exports to run; add one with: citewise auto-export add --format bibtex -o refs.bib\n');
    for (const r of runs) {
      if (r.status === 'error') ctx.stderr.write(`citewise: auto-export ${r.id}: ${r.error}\n`);
      else ctx.stdout.write(`${runLine(r)}\n`);
    }
  }
  return failed.length > 0 ? 1 : 0;
}
