// `citewise document refresh FILE`: refreshes the Zotero citations and bibliography of a Word .docx or
// LibreOffice .odt in place, as the plugins' Refresh does (electron/api/integration/file-document.ts):
// items found in the library by their Zotero keys, the others from the data the document embeds; with
// --style (or --locale) the document takes that style first. A citation changed by hand is kept and
// listed. The file is replaced atomically, or not at all. Exit codes: 0 done, 1 the file cannot be
// read or written, 2 wrong usage.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CoreError } from '../../core/errors';
import { writeFileAtomic } from '../../core/fs/atomic-write';
import { refuseDataFolderTarget } from '../../core/fs/data-folder-guard';
import { parseCommand, UsageError, type CommandSpec } from '../command';
import { withLibrary } from '../library-session';
import type { CommandContext } from '../command';

export const command: CommandSpec = {
  name: 'document',
  help: [
    {
      usage: 'document refresh FILE',
      text: `Refresh the Zotero/Citewise citations and bibliography of a Word .docx or
LibreOffice .odt in place, as the word-processor plugins' Refresh does (a citation
changed by hand is kept and listed); --style/--locale change the document's style
first (see docs/word-processors.md)`,
    },
  ],
  options: {
    style: { type: 'string', arg: 'ID', help: 'The style the document takes (apa, ieee, or a Zotero style id)' },
    locale: { type: 'string', arg: 'TAG', help: 'The locale the document takes (en-GB, de-DE, …)' },
    out: { type: 'string', arg: 'F', help: 'Write the refreshed document to F instead of replacing FILE' },
    json: { type: 'boolean', help: 'Print what was done as JSON' },
  },
  run: (argv, ctx) => runDocumentCommand(argv, ctx),
};

export async function runDocumentCommand(
  argv: readonly string[],
  ctx: Pick<CommandContext, 'dataDir' | 'stdout' | 'stderr'>,
): Promise<number> {
  const { values: raw, positionals } = parseCommand('document', command.options, argv);
  const values = raw as { style?: string; locale?: string; out?: string; json?: boolean };
  const [action, ...files] = positionals;
  if (action !== 'refresh') throw new UsageError(`document needs an action: citewise document refresh FILE`);
  if (files.length !== 1) throw new UsageError('document refresh takes one .docx or .odt file');
  const { documentFileKind, refreshDocumentFile, DocumentFileError } =
    await import('../../api/integration/file-document');
  const { assetStyles, ITEM_URI_PREFIX, libraryIntegration } = await import('../../api/integration');
  const { ZOTERO_VERSION } = await import('../../api/connector');
  const file = resolve(files[0]!);
  const kind = documentFileKind(file);
  if (!kind) throw new UsageError(`document refresh reads .docx and .odt files, not ${files[0]}`);
  const target = values.out === undefined ? file : resolve(values.out);
  if (values.out !== undefined && documentFileKind(target) !== kind)
    throw new UsageError(`--out must name a .${kind} file, as ${files[0]} is`);
  refuseDataFolderTarget(target, ctx.dataDir);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new CoreError('NOT_FOUND', `could not read ${file}: ${(err as Error).message}`);
  }
  const result = await withLibrary(
    ctx.dataDir,
    async (client) => {
      try {
        return await refreshDocumentFile(bytes, kind, {
          library: libraryIntegration(
            async () => ({ lib: client.lib }),
            // Not imported from here: items the library lacks are cited from their embedded data.
            async (items) => items.map(() => null),
          ),
          styles: assetStyles(),
          version: ZOTERO_VERSION,
          uriPrefix: ITEM_URI_PREFIX,
          ...(values.style !== undefined ? { style: values.style } : {}),
          ...(values.locale !== undefined ? { locale: values.locale } : {}),
        });
      } catch (err) {
        if (err instanceof DocumentFileError)
          throw new CoreError('INVALID_INPUT', `${file} was not changed: ${err.message}`);
        throw err;
      }
    },
    ctx.stderr,
  );
  if (result.changed || target !== file) {
    refuseDataFolderTarget(target, ctx.dataDir);
    try {
      writeFileAtomic(target, result.bytes);
    } catch (err) {
      throw new CoreError('INTERNAL', `could not write ${target} (it is left as it was): ${(err as Error).message}`);
    }
  }
  const r = result.report;
  const unknown = r.alerts.find((a) => /not in your Citewise library/.test(a.message));
  if (values.json)
    ctx.stdout.write(
      `${JSON.stringify({ file: target, changed: result.changed, citations: r.citations, bibliographies: r.bibliographies, keptHandEdits: r.keptHandEdits, notInLibrary: unknown ? unknown.message : null }, null, 2)}\n`,
    );
  else {
    ctx.stdout.write(
      `${result.changed ? 'Refreshed' : 'Already up to date:'} ${r.citations} citation${r.citations === 1 ? '' : 's'}${r.bibliographies ? ' and the bibliography' : ''} in ${target}.\n`,
    );
    for (const t of r.keptHandEdits)
      ctx.stdout.write(`Kept a citation changed by hand (no longer updated): ${JSON.stringify(t)}\n`);
    if (unknown)
      ctx.stderr.write(
        'Some cited items are not in the library; they are cited from the data stored in the document.\n',
      );
  }
  return 0;
}
