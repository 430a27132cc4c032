// `citewise manuscript FILE`: what a manuscript cites, checked offline against the library (see
// electron/core/manuscript/ and docs/manuscript.md). Exit codes: 0 nothing to look at, 3 problems
// found (keys not in the library, retracted or withdrawn papers, expressions of concern, many
// contrasting statements, preprints with a published version), 1 failure (a file that cannot be read
// as a manuscript, a write that failed), 2 wrong usage.
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { MANY_CONTRASTING, reportText } from '../../../shared/model/manuscript';
import { CoreError } from '../../core/errors';
import { writeFileAtomic } from '../../core/fs/atomic-write';
import { refuseDataFolderTarget } from '../../core/fs/data-folder-guard';
import { checkManuscript, citedItemIds } from '../../core/manuscript/check';
import { parseManuscriptInWorker } from '../../core/manuscript/in-worker';
import { parseCommand, UsageError, type CommandSpec } from '../command';
import { withLibrary } from '../library-session';

export const EXIT_PROBLEMS = 3;

export const command: CommandSpec = {
  name: 'manuscript',
  help: [
    {
      usage: 'manuscript FILE',
      text: `Check a manuscript against the library, offline: Markdown/Quarto/R Markdown (.md,
.qmd, .Rmd), LaTeX (.tex, with its .aux when there is one beside it, or an .aux),
Typst (.typ), Word (.docx with Zotero or Citewise citation fields). Lists the keys
it cites and the items they are, keys not in the library, retracted papers and
expressions of concern, papers with many contrasting statements, and preprints
that have a published version (see docs/manuscript.md)`,
    },
  ],
  options: {
    'write-bib': {
      type: 'string',
      arg: 'F',
      help: 'Write exactly the cited items to F as BibTeX (replaced atomically)',
    },
    'write-csljson': { type: 'string', arg: 'F', help: 'The same as CSL-JSON' },
    contrasting: {
      type: 'string',
      arg: 'N',
      help: `How many contrasting statements are "many" (default ${MANY_CONTRASTING})`,
    },
    json: { type: 'boolean', help: 'Print the report as JSON' },
  },
  notes:
    '  Exit codes of manuscript: 0 nothing to look at, 3 problems found, 1 the file cannot be read, 2 wrong usage.',
  run: (argv, ctx) => runManuscriptCommand(argv, ctx),
};

export interface ManuscriptCommandContext {
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
}

export async function runManuscriptCommand(argv: readonly string[], ctx: ManuscriptCommandContext): Promise<number> {
  const { values: raw, positionals: files } = parseCommand('manuscript', command.options, argv);
  const values = raw as { 'write-bib'?: string; 'write-csljson'?: string; contrasting?: string; json?: boolean };
  if (files.length !== 1)
    throw new UsageError(
      files.length === 0
        ? 'manuscript needs the FILE to check'
        : `manuscript checks one file at a time (got ${files.length})`,
    );
  const contrasting = values.contrasting === undefined ? MANY_CONTRASTING : Number(values.contrasting);
  if (!/^\d+$/.test(values.contrasting ?? '1') || !Number.isInteger(contrasting) || contrasting < 1)
    throw new UsageError(`--contrasting must be a whole number of at least 1 (got "${values.contrasting}")`);
  const writes = (
    [
      ['bibtex', values['write-bib']],
      ['csljson', values['write-csljson']],
    ] as const
  ).flatMap(([format, file]) => (file === undefined ? [] : [{ format, file: resolve(file) }]));
  // Refused before any work: a file that is (or leads to) the library, its backups or attachments.
  for (const w of writes) refuseDataFolderTarget(w.file, ctx.dataDir);

  // The manuscript is read and parsed before the library is opened: bad input costs nothing.
  const parsed = await parseManuscriptInWorker({ kind: 'path', path: files[0]! });
  const { report, outputs } = await withLibrary(
    ctx.dataDir,
    async (client) => {
      const report = await checkManuscript(parsed, (refs) => client.lib.citedItems(refs), { contrasting });
      const ids = citedItemIds(report);
      const outputs: { file: string; format: string; text: string }[] = [];
      for (const w of writes) {
        const text =
          ids.length === 0
            ? w.format === 'csljson'
              ? '[]\n'
              : ''
            : (await client.lib.exportText(ids, w.format)).content;
        outputs.push({ ...w, text: text.endsWith('\n') || text === '' ? text : `${text}\n` });
      }
      return { report, outputs };
    },
    ctx.stderr,
  );
  for (const o of outputs) {
    // Again at the write: the path may have been changed into a link meanwhile.
    refuseDataFolderTarget(o.file, ctx.dataDir);
    try {
      writeFileAtomic(o.file, o.text);
    } catch (err) {
      throw new CoreError('INTERNAL', `could not write ${o.file}: ${(err as Error).message}`);
    }
  }
  const written = outputs.map((o) => ({ file: o.file, format: o.format, items: citedItemIds(report).length }));
  if (values.json) ctx.stdout.write(`${JSON.stringify({ ...report, written }, null, 2)}\n`);
  else {
    ctx.stdout.write(reportText(report));
    for (const w of written) ctx.stderr.write(`Wrote ${w.items} cited item${w.items === 1 ? '' : 's'} to ${w.file}.\n`);
  }
  return report.problems ? EXIT_PROBLEMS : 0;
}
