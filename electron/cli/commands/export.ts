// `citewise export`: the library, a collection or a search as BibTeX, BibLaTeX, RIS, CSL-JSON or a
// formatted bibliography, to standard output or to a file replaced atomically (the same write, with
// its directory synced, as every other file the core replaces).
import { basename, resolve } from 'node:path';
import type { ExportScope } from '../../../shared/ipc';
import { CITATION_STYLE_IDS, isBuiltInStyle } from '../../../shared/model/csl';
import {
  REFERENCE_FORMAT_INFO,
  REFERENCE_FORMAT_NAMES,
  REFERENCE_FORMATS,
  referenceFormatNamed,
} from '../../../shared/model/reference-formats';
import { CITATION_LOCALES, DEFAULT_CITATION_STYLE, isCitationLocale } from '../../../shared/model/settings';
import { CoreError } from '../../core/errors';
import type { OutputFormat } from '../../core/formats/cite';
import { writeFileAtomic } from '../../core/fs/atomic-write';
import { refuseDataFolderTarget } from '../../core/fs/data-folder-guard';
import { libraryBibliographyStore } from '../../core/library/cite-cache';
import { cslOfIds, idsInScope } from '../../core/library/export-scope';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import {
  checkQuery,
  findCollection,
  formatting,
  noExtraArgs,
  plural,
  printJson,
  stylesDir,
  withLibrary,
} from '../library-session';

const CITE_FORMATS: readonly OutputFormat[] = ['text', 'html', 'rtf'];
const FORMAT_NAMES = [...REFERENCE_FORMAT_NAMES, ...CITE_FORMATS];
/** The formats that carry notes, for --notes (the others have no place for them). */
const NOTE_FORMATS = REFERENCE_FORMATS.filter((f) => REFERENCE_FORMAT_INFO[f].notes);
const NOTE_FORMAT_NAMES = NOTE_FORMATS.map((f) => REFERENCE_FORMAT_INFO[f].name);
const listed = (names: readonly string[]): string => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

export const command = defineCommand({
  name: 'export',
  help: [{ usage: 'export', text: 'Write the library (or part of it) to standard output or a file' }],
  options: {
    format: {
      type: 'string',
      arg: 'F',
      help: `${FORMAT_NAMES.slice(0, -1).join(', ')} or ${FORMAT_NAMES.at(-1)} (default: bibtex)`,
    },
    style: {
      type: 'string',
      arg: 'S',
      help: `For ${CITE_FORMATS.join('/')}: ${CITATION_STYLE_IDS.join(', ')},\nor a style added with "citewise styles add" (default: ${DEFAULT_CITATION_STYLE})`,
    },
    locale: {
      type: 'string',
      arg: 'L',
      help: `For ${CITE_FORMATS.join('/')}: the language of the citations, a CSL locale such as\nen-US, en-GB, de-DE, fr-FR, pt-BR (${CITATION_LOCALES.length} in all; default: the style's own)`,
    },
    notes: {
      type: 'boolean',
      help: `With --format ${listed(NOTE_FORMAT_NAMES)}: the items' notes too\n(${NOTE_FORMATS.map((f) => `${REFERENCE_FORMAT_INFO[f].label} ${REFERENCE_FORMAT_INFO[f].notes}`).join(', ')})`,
    },
    collection: { type: 'string', arg: 'N', help: 'Only the items in collection N (and its subcollections)' },
    query: { type: 'string', arg: 'Q', help: 'Only the items a search finds' },
    output: {
      type: 'string',
      short: 'o',
      arg: 'FILE',
      help: 'Write to FILE (replaced atomically) instead of standard output',
    },
    json: { type: 'boolean', help: 'With -o: print what was written as JSON' },
  },
  run: exportCommand,
});

/** The core's export scope for --collection and --query (both: the collection's items the search finds). */
function scopeOf(collectionId: number | undefined, query: string | undefined): ExportScope {
  if (collectionId !== undefined && query !== undefined) return { kind: 'view', where: { collectionId, query } };
  if (collectionId !== undefined) return { kind: 'collection', collectionId };
  if (query !== undefined) return { kind: 'query', query };
  return { kind: 'library' };
}

async function exportCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  noExtraArgs('export', p.positionals);
  const format = (p.values.format as string | undefined) ?? 'bibtex';
  const fileFormat = referenceFormatNamed(format);
  const citeFormat = CITE_FORMATS.find((f) => f === format);
  if (!fileFormat && !citeFormat)
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')} (got "${format}")`);
  const locale = p.values.locale as string | undefined;
  if (locale !== undefined && !citeFormat)
    throw new UsageError(
      `--locale applies to --format ${CITE_FORMATS.slice(0, -1).join(', ')} or ${CITE_FORMATS.at(-1)} only`,
    );
  if (locale !== undefined && !isCitationLocale(locale))
    throw new UsageError(
      `--locale must be a CSL locale Citewise ships, such as en-US, en-GB, de-DE or fr-FR (got "${locale}"); all ${CITATION_LOCALES.length}: ${CITATION_LOCALES.join(' ')}`,
    );
  const notes = p.values.notes === true;
  if (notes && !(fileFormat && REFERENCE_FORMAT_INFO[fileFormat].notes))
    throw new UsageError(
      `--notes applies to --format ${listed(NOTE_FORMAT_NAMES)} only (${format} has no place for notes)`,
    );
  const style = p.values.style as string | undefined;
  if (style !== undefined && !citeFormat)
    throw new UsageError(
      `--style applies to --format ${CITE_FORMATS.slice(0, -1).join(', ')} or ${CITE_FORMATS.at(-1)} only`,
    );
  const { createCiteFormatter, UserStyles } = await formatting();
  const userStyles = new UserStyles(stylesDir(ctx.dataDir));
  const styles = [...CITATION_STYLE_IDS, ...userStyles.ids()];
  if (style !== undefined && !styles.includes(style))
    throw new UsageError(
      `--style must be one of ${styles.join(', ')} (got "${style}"; "citewise styles add FILE" adds a style from a .csl file)`,
    );
  const query = p.values.query as string | undefined;
  if (query !== undefined) checkQuery(query);
  const output = p.values.output as string | undefined;
  // Refused before any work: a file that is (or leads to) the library, its backups or attachments.
  if (output !== undefined) refuseDataFolderTarget(resolve(output), ctx.dataDir);
  const collection = p.values.collection as string | undefined;

  // Big bibliographies are formatted in a worker thread as in the app (one: a command uses one style).
  // A set formatted before in this style comes from the library's cache without starting an engine.
  const formatter = citeFormat ? createCiteFormatter({ workers: 1 }) : undefined;
  const styleId = style ?? DEFAULT_CITATION_STYLE;
  let exported: { items: number; text: string };
  try {
    if (formatter && !isBuiltInStyle(styleId)) {
      const problem = userStyles.loadInto(formatter).find((x) => basename(x.file) === `${styleId}.csl`);
      if (problem)
        throw new CoreError(
          'INVALID_INPUT',
          `the style "${styleId}" (${problem.file}) cannot be used: ${problem.problem}`,
        );
    }
    // The worker's thread starts while the library opens; its engine is built only once the library
    // says that nothing in this style and format is kept (so these items will be rendered), while
    // the items are read and hashed (docs/cite-cold.md). A failure while preparing is left to the
    // bibliography, which meets it again and says so.
    formatter?.startWorker({ style: styleId });
    exported = await withLibrary(
      ctx.dataDir,
      async (client) => {
        const collectionId =
          collection === undefined ? undefined : (await findCollection(client, collection, 'export it')).id;
        if (formatter && !(await client.citeCache.holdsStyle(styleId, citeFormat!)))
          formatter.prepareBibliography({ style: styleId, format: citeFormat! }).catch(() => undefined);
        const ids = await idsInScope(client.listing, scopeOf(collectionId, query));
        // A reference file is written by the library worker, the one export the app's Export uses.
        if (!formatter) {
          const out = await client.lib.exportText(ids, fileFormat!, notes ? { notes: true } : {});
          return { items: out.items, text: out.content };
        }
        const items = await cslOfIds(client.lib, ids);
        const bib = await formatter.formatBibliography(items, {
          style: styleId,
          format: citeFormat!,
          ...(locale ? { locale } : {}),
          store: libraryBibliographyStore(client.citeCache),
        });
        return { items: items.length, text: bib.document };
      },
      ctx.stderr,
    );
  } finally {
    await formatter?.close();
  }
  let text = exported.text;
  const items = exported.items;
  if (text.length > 0 && !text.endsWith('\n') && citeFormat !== 'rtf') text += '\n';

  if (output === undefined) {
    ctx.stdout.write(text);
    return 0;
  }
  const target = resolve(output);
  // Again at the write: the path may have been changed into a link meanwhile.
  refuseDataFolderTarget(target, ctx.dataDir);
  try {
    writeFileAtomic(target, text, ctx.atomicFs);
  } catch (err) {
    throw new CoreError('INTERNAL', `could not write ${output}: ${(err as Error).message}`);
  }
  if (p.values.json)
    printJson(ctx.stdout, {
      file: target,
      format,
      ...(citeFormat ? { style: style ?? DEFAULT_CITATION_STYLE } : {}),
      items,
    });
  else ctx.stderr.write(`Exported ${plural(items, 'item')} to ${output}.\n`);
  return 0;
}
