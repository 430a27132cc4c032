// `citewise import FILE…`: references from BibTeX/BibLaTeX, RIS, CSL-JSON files (one transaction per
// file), and PDFs, each an item with the PDF attached. Exit 0 done (also when some entries were
// skipped, which is said), 1 a file that could not be read as a whole, 2 wrong usage.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { attachSummary, type AttachFilesReport } from '../../../shared/model/linked-files';
import type { ImportIssue } from '../../../shared/model/library';
import type { ZoteroImportReport } from '../../../shared/ipc/zotero';
import { CoreError } from '../../core/errors';
import { asStorageFault, isStorageFault } from '../../core/library/faults';
import { importSource, startParse } from '../../core/library/import-source';
import { markCliImport } from '../../core/library/shared-use';
import { attachLinkedFiles, jabrefFileDirectories } from '../../core/pdf/attach-files';
import { captureServiceOf, capturePdfs, type CaptureFileReport, type CaptureService } from '../../core/pdf/capture';
import { indexFulltext } from '../../core/pdf/fulltext';
import { PdfReader } from '../../core/pdf/run-in-worker';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { libraryFile, plural, printJson, withLibrary } from '../library-session';
import { appendAll } from '../../../shared/model/arrays';
import { peekSetting } from '../../core/settings/peek';
import { SENTENCE_CASE_MODES, type SentenceCaseMode } from '../../../shared/model/settings';

const DUPLICATE_REASON = {
  entry: 'the same entry as imported before',
  doi: 'same DOI',
  'key-title': 'same citation key and DOI or title',
  title: 'same title, creators, year and type',
} as const;

export const command = defineCommand({
  name: 'import',
  help: [
    {
      usage: 'import FILE… | ZOTERO-FOLDER',
      text: `Add references from BibTeX/BibLaTeX, RIS, CSL-JSON files (one transaction per file);
duplicates are skipped, bad entries are reported with file:line and left out.
The files a .bib's entries name (file = {…}, as Better BibTeX, JabRef and
Mendeley write it) are attached, relative paths from the .bib's folder, and
the PDFs' text indexed; a file not found is reported with its entry.
A PDF becomes an item with the PDF attached (copied into the data folder),
identified by its DOI/arXiv id or its title through the citation service.
A Zotero data folder (~/Zotero, or its zotero.sqlite) is imported whole:
items, notes, files, collections, tags, Better BibTeX keys; Zotero's own
files are read from a copy and never changed. Linked files relative to
Zotero's Linked Attachment Base Directory are found through the Zotero
profile's prefs.js, or under --zotero-base DIR.
Exit 0 also when bad entries were skipped (it says so); 1 when a file could
not be read at all`,
    },
  ],
  options: {
    link: { type: 'boolean', help: 'For PDFs: link each where it is instead of copying it' },
    'zotero-base': {
      type: 'string',
      arg: 'DIR',
      help: "For a Zotero data folder: Zotero's Linked Attachment Base Directory (default: from Zotero's prefs.js)",
    },
    'sentence-case': {
      type: 'string',
      arg: 'MODE',
      help: "BibTeX Title Case titles: protected (only titles that brace their proper nouns), always, off; the app's setting when omitted",
    },
    'files-from': {
      type: 'string',
      arg: 'DIR',
      help: "Where a .bib's relative file paths start (default: the .bib's folder)",
    },
    'no-files': { type: 'boolean', help: "Do not attach the files a .bib's entries name" },
    json: { type: 'boolean', help: 'Print the report as JSON' },
  },
  run: importCommand,
});

interface FileReport {
  file: string;
  format: string | null;
  added: number;
  duplicates: { line: number; key?: string; existingId: number; reason: string }[];
  errors: ImportIssue[];
  warnings: ImportIssue[];
  /** Set when the file as a whole could not be read; nothing from it was imported. */
  failed?: string;
  /** For a PDF: what capture made of it. */
  pdf?: CaptureFileReport;
  /** For a Zotero data folder: what came of it. */
  zotero?: ZoteroImportReport;
  /** For a .bib whose entries name files: what became of each. */
  files?: AttachFilesReport;
}

/** A Zotero data folder (the folder holding zotero.sqlite), or zotero.sqlite itself. */
function isZoteroFolder(path: string): boolean {
  try {
    const info = statSync(path);
    return info.isDirectory() ? existsSync(join(path, 'zotero.sqlite')) : basename(path) === 'zotero.sqlite';
  } catch {
    return false;
  }
}

/** A file the loop below will parse (its own checks say what is wrong with any other). */
function isReferenceFile(path: string): boolean {
  try {
    return statSync(path).isFile() && !looksLikePdf(path);
  } catch {
    return false;
  }
}

/** A PDF by its name or its header (a PDF saved without the extension is still one). */
function looksLikePdf(path: string): boolean {
  if (/\.pdf$/i.test(path)) return true;
  try {
    // Only a regular file is opened here: opening a FIFO with no writer blocks the whole process, and the
    // import itself refuses anything that is not a regular file, with its own message.
    if (!statSync(path).isFile()) return false;
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(5);
      readSync(fd, head, 0, 5, 0);
      return head.toString('latin1') === '%PDF-';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** One line of the import report for a captured PDF. */
function pdfLine(file: string, r: CaptureFileReport): string {
  switch (r.status) {
    case 'failed':
      return r.message;
    case 'duplicate':
      return `${file} (pdf): already in the library (item ${r.itemId}, ${r.reason === 'checksum' ? 'the same file' : r.reason === 'doi' ? 'the same DOI' : 'the same title'}), skipped`;
    default: {
      const where = r.status === 'attached' ? `attached to item ${r.itemId}` : `added as item ${r.itemId}`;
      const how =
        r.state === 'identified'
          ? `identified ${r.doi ? `as ${r.doi} ` : ''}by ${r.method === 'title-search' ? 'its title through the paper search' : r.method === 'text' ? `the identifier on page ${r.evidence[0]?.page ?? 1}` : `its ${r.method === 'xmp' ? 'XMP metadata' : 'document info'}`}`
          : r.state === 'pending'
            ? 'waiting for the citation service to look up its title'
            : `needs review: ${r.candidates.length > 0 ? `${plural(r.candidates.length, 'candidate')} (${r.candidates.map((c) => c.doi).join(', ')})` : (r.evidence[0]?.detail ?? 'not identified')}`;
      return `${file} (pdf): ${where}, ${how} (confidence ${r.confidence.toFixed(2)})`;
    }
  }
}

/** --sentence-case, else Settings → Import as the library holds it, else the default. */
function sentenceCaseOf(p: ParsedCommand, dataDir: string): SentenceCaseMode | undefined {
  const given = p.values['sentence-case'];
  if (typeof given === 'string') {
    if (!(SENTENCE_CASE_MODES as readonly string[]).includes(given))
      throw new UsageError(`--sentence-case must be one of ${SENTENCE_CASE_MODES.join(', ')}, not "${given}"`);
    return given as SentenceCaseMode;
  }
  const stored = peekSetting(libraryFile(dataDir), 'sentenceCase');
  return (SENTENCE_CASE_MODES as readonly unknown[]).includes(stored) ? (stored as SentenceCaseMode) : undefined;
}

async function importCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  if (p.positionals.length === 0) throw new UsageError('import needs at least one file: citewise import refs.bib');
  const filesFrom = typeof p.values['files-from'] === 'string' ? resolve(p.values['files-from']) : null;
  if (filesFrom !== null && !(statSync(filesFrom, { throwIfNoEntry: false })?.isDirectory() ?? false))
    throw new UsageError(`--files-from ${p.values['files-from']}: there is no folder there`);
  let pdfsAttached = 0;
  const reports: FileReport[] = [];
  /** The storage fault that stopped the command (a full disk), thrown once the files before it are reported. */
  let fault: unknown = null;
  // Tells the app, if it has the library open, why its changes wait (see shared-use.ts).
  const unmark = markCliImport(ctx.dataDir);
  // PDFs need a reader (a worker thread) and, to be identified, the service: both opened at the first PDF.
  let reader: PdfReader | null = null;
  let opened: { service: CaptureService | null; close: () => Promise<void> } | null = null;
  // The first file's parse starts now, in the formats worker, while the library worker opens the
  // library: the parser began 0.44 s after the command's start in a 100,000-entry import, when the
  // library was open (a CPU profile on the loaded machine), and it is the slower of the two threads.
  const sentenceCase = sentenceCaseOf(p, ctx.dataDir);
  const firstPath = resolve(p.positionals[0]!);
  let early =
    isReferenceFile(firstPath) && !isZoteroFolder(firstPath)
      ? startParse({ kind: 'path', path: firstPath }, { fileName: basename(firstPath), sentenceCase })
      : null;
  try {
    await withLibrary(
      ctx.dataDir,
      async (client) => {
        for (const arg of p.positionals) {
          const path = resolve(arg);
          const report: FileReport = { file: arg, format: null, added: 0, duplicates: [], errors: [], warnings: [] };
          reports.push(report);
          try {
            if (!existsSync(path)) {
              const loop = (() => {
                try {
                  statSync(path);
                  return false;
                } catch (err) {
                  return (err as NodeJS.ErrnoException).code === 'ELOOP';
                }
              })();
              throw loop
                ? new CoreError('INVALID_INPUT', `${arg} is a loop of symbolic links; it leads to no file`)
                : new CoreError('NOT_FOUND', `${arg}: no such file`);
            }
            if (isZoteroFolder(path)) {
              // A Zotero data folder (or its zotero.sqlite): read from a copy, never changed.
              report.format = 'zotero';
              const base = p.values['zotero-base'] as string | undefined;
              const z = await client.lib.importZoteroFolder(path, {
                storeDir: join(ctx.dataDir, 'attachments'),
                mode: p.values.link === true ? 'link' : 'copy',
                ...(base !== undefined ? { baseDirectory: resolve(base) } : {}),
              });
              report.zotero = z;
              report.added = z.added;
              continue;
            }
            if (looksLikePdf(path)) {
              report.format = 'pdf';
              reader ??= new PdfReader({ timeLimitMs: 30_000 });
              if (!opened) {
                const svc = ctx.openService ? await ctx.openService() : null;
                opened = {
                  service: svc ? captureServiceOf(svc.service) : null,
                  close: svc ? svc.close : async () => {},
                };
              }
              const [pdf] = await capturePdfs(
                [path],
                { library: client, service: opened.service, reader },
                { mode: p.values.link === true ? 'link' : 'copy', storeDir: join(ctx.dataDir, 'attachments') },
              );
              report.pdf = pdf!;
              if (pdf!.status === 'failed') report.failed = pdf!.message;
              else if (pdf!.status !== 'duplicate') report.added = 1;
              else
                report.duplicates.push({
                  line: 0,
                  existingId: pdf!.itemId,
                  reason: pdf!.reason === 'checksum' ? 'the same file' : DUPLICATE_REASON[pdf!.reason],
                });
              continue;
            }
            // Parsed in the formats worker, which posts straight to the library worker (one transaction).
            const started = early && path === firstPath ? early : undefined;
            early = null;
            const imported = await importSource(
              client,
              { kind: 'path', path },
              { fileName: basename(path), started, sentenceCase },
            );
            if (imported.format === 'doi-list') {
              // Nothing was stored (a DOI list yields no items); metadata needs the service.
              throw new CoreError(
                'INVALID_INPUT',
                `${arg} is a list of DOIs; their metadata comes from the citation service, which "citewise import" does not use yet`,
              );
            }
            report.format = imported.format;
            report.added = imported.added;
            appendAll(
              report.duplicates,
              imported.duplicates.map((d) => ({
                line: d.line,
                ...(d.key ? { key: d.key } : {}),
                existingId: d.existingId,
                reason: DUPLICATE_REASON[d.reason],
              })),
            );
            appendAll(report.errors, imported.errors);
            appendAll(report.warnings, imported.warnings);
            if (imported.format === 'bibtex' && p.values['no-files'] !== true) {
              // The entries' files: of the items added, and of those already there (a second import attaches what they lack).
              const linked = await client.lib.withLinkedFiles([
                ...imported.ids,
                ...imported.duplicates.map((d) => d.existingId),
              ]);
              if (linked.length > 0) {
                const bibDir = filesFrom ?? dirname(path);
                const text = await readFile(path, 'utf8');
                report.files = await attachLinkedFiles(client.lib, linked, {
                  baseDirs: [...jabrefFileDirectories(text, bibDir), bibDir],
                  mode: p.values.link === true ? 'link' : 'copy',
                  storeDir: join(ctx.dataDir, 'attachments'),
                });
                pdfsAttached += report.files.pdfs;
              }
            }
          } catch (err) {
            // A full disk stops the command: the next file would meet it too (this one was rolled back).
            // The files before it were added: they are reported, then the fault.
            if (isStorageFault(err)) {
              reports.pop();
              fault = asStorageFault(err, ctx.dataDir);
              break;
            }
            if (!(err instanceof CoreError)) throw err;
            const line = (err.details as { line?: number } | undefined)?.line;
            report.failed = `${err.message}${line ? ` (line ${line})` : ''}`;
          }
        }
        if (pdfsAttached > 0) {
          // As for a dropped PDF: the attached PDFs' text is made searchable (fulltext:) at once.
          reader ??= new PdfReader({ timeLimitMs: 30_000 });
          ctx.stderr.write(`citewise: indexing the text of ${plural(pdfsAttached, 'attached PDF')}…\n`);
          await indexFulltext(client.fulltext, { reader });
        }
      },
      ctx.stderr,
    );
  } finally {
    // Not given to importSource: the library did not open, or the first file was never reached.
    early?.abort();
    unmark();
    await (reader as PdfReader | null)?.close();
    await (opened as { close: () => Promise<void> } | null)?.close();
  }

  const failed = reports.filter((r) => r.failed !== undefined).length;
  if (p.values.json) {
    // The JSON report calls a warning's reason `message`, as it always has: scripts read it.
    const files = reports.map((r) => ({
      ...r,
      warnings: r.warnings.map((w) => ({ line: w.line, message: w.reason })),
    }));
    printJson(ctx.stdout, {
      files,
      added: sum(reports, (r) => r.added),
      duplicates: sum(reports, (r) => r.duplicates.length),
      errors: sum(reports, (r) => r.errors.length),
      failedFiles: failed,
    });
  } else {
    for (const r of reports) {
      if (r.zotero) {
        ctx.stdout.write(`${zoteroSummary(r.file, r.zotero)}\n`);
        for (const m of r.zotero.attachments.missing)
          ctx.stderr.write(`${r.file}: warning: attachment file not found: ${m}\n`);
        for (const s of r.zotero.skipped)
          ctx.stderr.write(`${r.file}: warning: item ${s.key} not imported: ${s.reason}\n`);
        for (const w of r.zotero.warnings) ctx.stderr.write(`${r.file}: warning: ${w}\n`);
        continue;
      }
      if (r.pdf) {
        (r.pdf.status === 'failed' ? ctx.stderr : ctx.stdout).write(
          `${r.pdf.status === 'failed' ? 'citewise: ' : ''}${pdfLine(r.file, r.pdf)}\n`,
        );
        continue;
      }
      if (r.failed !== undefined) {
        ctx.stderr.write(`citewise: ${r.file}: not imported: ${r.failed}\n`);
        continue;
      }
      const parts = [`${plural(r.added, 'item')} added`];
      if (r.duplicates.length > 0) parts.push(`${plural(r.duplicates.length, 'duplicate')} skipped`);
      if (r.errors.length > 0) parts.push(`${plural(r.errors.length, 'entry', 'entries')} skipped with errors`);
      ctx.stdout.write(`${r.file} (${r.format}): ${parts.join(', ')}\n`);
      if (r.files) {
        ctx.stdout.write(`  ${r.file}: ${attachSummary(r.files)}\n`);
        for (const f of r.files.files) {
          const entry = `${r.file}: ${f.key}: ${f.written}`;
          if (f.status === 'attached')
            ctx.stdout.write(
              `  ${entry}: attached${f.alsoOn !== undefined ? ` (item ${f.alsoOn} has the same file)` : ''}\n`,
            );
          else if (f.status === 'duplicate') ctx.stdout.write(`  ${entry}: already attached\n`);
          else ctx.stderr.write(`${entry}: ${f.status === 'online' ? '' : 'not attached: '}${f.reason}\n`);
        }
      }
      for (const d of r.duplicates)
        ctx.stdout.write(
          `  ${r.file}:${d.line}: duplicate${d.key ? ` ${d.key}` : ''} (${d.reason} as item ${d.existingId}), skipped\n`,
        );
      for (const e of r.errors)
        ctx.stderr.write(`${r.file}:${e.line}: ${e.reason}${e.excerpt ? `: ${e.excerpt}` : ''}\n`);
      for (const w of r.warnings) ctx.stderr.write(`${r.file}:${w.line}: warning: ${w.reason}\n`);
    }
    const skipped = sum(reports, (r) => r.errors.length);
    if (skipped > 0)
      ctx.stderr.write(
        `citewise: ${plural(skipped, 'entry', 'entries')} with errors ${skipped === 1 ? 'was' : 'were'} not imported (see above); the other entries were.\n`,
      );
  }
  if (fault !== null) throw fault;
  return failed > 0 ? 1 : 0;
}

function zoteroSummary(file: string, z: ZoteroImportReport): string {
  const a = z.attachments;
  return [
    `${file} (Zotero data folder): ${plural(z.added, 'item')} added of ${z.items}`,
    z.duplicates > 0 ? `${plural(z.duplicates, 'item')} already in the library` : '',
    `${plural(z.notes, 'note')} (${z.standaloneNotes} standalone)`,
    `${plural(z.collections, 'collection')}`,
    `${plural(z.tags, 'tag')}`,
    `${plural(a.stored + a.linked, 'file')} (${a.stored} copied, ${a.linked} linked), ${plural(a.links, 'link')}`,
    a.missing.length > 0 ? `${plural(a.missing.length, 'file')} not found` : '',
    `${plural(z.pinnedKeys, 'citation key')} kept from Better BibTeX`,
    z.trashed > 0 ? `${z.trashed} in the Trash` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function sum<T>(list: readonly T[], f: (x: T) => number): number {
  return list.reduce((n, x) => n + f(x), 0);
}
