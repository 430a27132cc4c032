// `citewise import | export | search | stats | backup | restore`: the offline library from the command
// line. Each command opens the library in its worker (LibraryClient), does one thing and closes it.
// Exit codes: 0 done (import: also when some entries were skipped, which is said), 1 failure (e.g. a
// file that cannot be read as a whole), 2 wrong usage (unknown option, malformed query).
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Writable } from 'node:stream';
import { addByDoiSummary } from '../../../shared/model/add-by-doi';
import { CITATION_STYLE_IDS, isBuiltInStyle } from '../../../shared/model/csl';
import { parseDoi } from '../../../shared/model/doi';
import { parseQuery, QuerySyntaxError } from '../../../shared/model/query';
import { CoreError } from '../../core/errors';
import type { ExportFormat } from '../../core/formats';
import type { OutputFormat } from '../../core/formats/cite';
import { inspectBackup, listBackups, replaceLibraryFile, type BackupInfo } from '../../core/library/backup';
import { libraryBibliographyStore } from '../../core/library/cite-cache';
import { LibraryClient } from '../../core/library/client';
import { isStorageFault } from '../../core/library/faults';
import { searchIndexRepairNote } from '../../core/library/search-index';
import { markCliImport } from '../../core/library/shared-use';
import { importSource } from '../../core/library/import-source';
import { Enricher, type EnrichService } from '../../core/jobs/enrich';
import type { LibraryRow } from '../../core/library/types';
import { ensureDataDir, LIBRARY_FILE } from '../../core/paths';
import { EXIT_PAUSED, runCheck, runEnrich } from './enrich';
import { captureServiceOf, capturePdfs, type CaptureFileReport, type CaptureService } from '../../core/pdf/capture';
import { PdfReader } from '../../core/pdf/run-in-worker';
import { hitLines } from './fulltext';
import type { ServiceClient } from '../../core/service';

export class LibraryUsageError extends Error {}

const DUPLICATE_REASON = { doi: 'same DOI', 'key-title': 'same citation key and DOI or title', title: 'same title, creators, year and type' } as const;

export const LIBRARY_COMMANDS = ['import', 'add', 'export', 'search', 'stats', 'backup', 'restore', 'enrich', 'check', 'styles'] as const;
export type LibraryCommand = (typeof LIBRARY_COMMANDS)[number];

export function isLibraryCommand(name: string): name is LibraryCommand {
  return (LIBRARY_COMMANDS as readonly string[]).includes(name);
}

export const LIBRARY_HELP = `  import FILE…     Add references from BibTeX/BibLaTeX, RIS, CSL-JSON files (one transaction per file);
                   duplicates are skipped, bad entries are reported with file:line and left out.
                   A PDF becomes an item with the PDF attached (copied into the data folder),
                   identified by its DOI/arXiv id or its title through the citation service
    --link         For PDFs: link each where it is instead of copying it
  add DOI…         Add papers by DOI, with their metadata, tallies and editorial notices from the
                   citation service. When it cannot be reached, the DOIs are kept as placeholders
                   that "citewise enrich" completes (exit 4)
  enrich [DOI…]    Fetch metadata, tallies and editorial notices from the citation service and fill
                   the fields items lack (never fields you edited). Without a scope: continue an
                   interrupted enrichment, then fetch what is missing or stale. Progress on stderr.
    --collection N Only the items in collection N (and its subcollections)
    --query Q      Only the items a search finds
    --all          The whole library again, not only what is missing or stale
  check            Check that the search index holds every item (rebuilding it when not); refresh
                   stale editorial notices; list items that are retracted, withdrawn, corrected or
                   under an expression of concern, and those whose status changed since the last
                   check (which are then marked seen)
    --repair       Rebuild the search index from the items even when it looks right
    --offline      Use the notices already in the library; ask the service nothing
    --keep-unseen  Do not mark the changes as seen
  export           Write the library (or part of it) to standard output or a file
    --format F     bibtex, biblatex, ris, csl-json, text, html or rtf (default: bibtex)
    --style S      For text/html/rtf: apa, ieee, mla, ama, chicago, harvard, vancouver, bibtex,
                   or a style added with "citewise styles add" (default: apa)
    --collection N Only the items in collection N (and its subcollections)
    --query Q      Only the items a search finds
    -o FILE        Write to FILE (replaced atomically) instead of standard output
  search QUERY     Find items with the search language (title:, author:, year:>2015, type:, doi:, tag:…)
    --limit N      At most N results (default 50)
  stats            Count items: all, by type, with a DOI, with citation tallies, retracted
  backup           Write a verified backup of the library and print where it is
  restore [FILE]   Replace the library with a backup (default: the newest one that is not a pre-restore
                   copy); the current library is backed up first, so a restore can be undone
  styles [list]    The citation styles: the eight built in and those added from .csl files
  styles add FILE… Add CSL styles (checked first; kept in the data folder); then --style ID
  styles remove ID Remove an added style
  --json           On import, add, export (with -o), search, stats, backup and restore: print JSON
                   (import exits 0 when it skipped bad entries, and says so; 1 when a file could not
                   be read at all. add exits 1 when any DOI was not added, 4 when some is left for
                   "citewise enrich" because the service could not be reached.)
  Exit codes of enrich: 0 done, 1 failed (or some DOIs given up), 4 paused (offline or rate-limited;
                   the rest stays queued and "citewise enrich" continues it).
  Exit codes of check: 0 nothing flagged, 3 some items flagged, 4 nothing flagged but the notices
                   could not be refreshed (the answer may be out of date), 1 failure.`;

/** What `add`, `enrich` and `check` need of the service client (core.service). */
export type PaperSource = EnrichService;

export interface OpenedService {
  /** The paper search is what PDF capture matches a first page's title with. */
  service: PaperSource & Pick<ServiceClient, 'search'>;
  close: () => Promise<void>;
}

export interface LibraryCommandContext {
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
  /** The service client, opened only by commands that use it (add); closed with the returned close. */
  openService?: () => OpenedService | Promise<OpenedService>;
}

const GLOBAL = {
  'data-dir': { type: 'string' },
  'service-url': { type: 'string' },
  json: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

const OPTIONS: Record<LibraryCommand, ParseArgsConfig['options']> = {
  import: { ...GLOBAL, link: { type: 'boolean' } },
  add: { ...GLOBAL },
  styles: { ...GLOBAL },
  export: { ...GLOBAL, format: { type: 'string' }, style: { type: 'string' }, collection: { type: 'string' }, query: { type: 'string' }, output: { type: 'string', short: 'o' } },
  search: { ...GLOBAL, limit: { type: 'string' } },
  stats: { ...GLOBAL },
  backup: { ...GLOBAL },
  restore: { ...GLOBAL },
  enrich: { ...GLOBAL, collection: { type: 'string' }, query: { type: 'string' }, all: { type: 'boolean' } },
  check: { ...GLOBAL, offline: { type: 'boolean' }, 'keep-unseen': { type: 'boolean' }, repair: { type: 'boolean' } },
};

interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * Runs one library command. `argv` is the whole command line after the program name (global options
 * included; the first positional is the command). Returns the exit code; usage errors and CoreErrors
 * are reported on stderr as "citewise: …" with exit 2 and 1; anything else is thrown.
 */
export async function runLibraryCommand(command: LibraryCommand, argv: readonly string[], ctx: LibraryCommandContext): Promise<number> {
  try {
    let parsed: Parsed;
    try {
      const p = parseArgs({ args: [...argv], options: OPTIONS[command], allowPositionals: true, strict: true });
      parsed = { values: p.values as Parsed['values'], positionals: p.positionals.slice(p.positionals[0] === command ? 1 : 0) };
    } catch (err) {
      throw new LibraryUsageError(err instanceof Error ? err.message : String(err));
    }
    switch (command) {
      case 'import':
        return await importCommand(parsed, ctx);
      case 'add':
        return await addCommand(parsed, ctx);
      case 'export':
        return await exportCommand(parsed, ctx);
      case 'search':
        return await searchCommand(parsed, ctx);
      case 'stats':
        return await statsCommand(parsed, ctx);
      case 'backup':
        return await backupCommand(parsed, ctx);
      case 'restore':
        return await restoreCommand(parsed, ctx);
      case 'enrich':
        return await enrichCommand(parsed, ctx);
      case 'check':
        return await checkCommand(parsed, ctx);
      case 'styles':
        return await stylesCommand(parsed, ctx);
    }
  } catch (err) {
    if (err instanceof LibraryUsageError) {
      ctx.stderr.write(`citewise: ${err.message}\n`);
      return 2;
    }
    if (err instanceof CoreError) {
      ctx.stderr.write(`citewise: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

function libraryFile(dataDir: string): string {
  return join(dataDir, LIBRARY_FILE);
}

export async function withLibrary<T>(dataDir: string, run: (client: LibraryClient) => Promise<T>, stderr?: Writable): Promise<T> {
  ensureDataDir(dataDir);
  const client = await LibraryClient.start({ file: libraryFile(dataDir) });
  if (client.recovery && stderr) {
    const r = client.recovery;
    stderr.write(
      `citewise: the library file was damaged (${r.problem}); it was moved to ${r.setAside} and ${r.restoredFrom ? `restored from ${r.restoredFrom}` : 'no good backup was found, so the library starts empty'}.\n`,
    );
  }
  if (client.searchIndexRepair && stderr) stderr.write(`citewise: ${searchIndexRepairNote(client.searchIndexRepair)}\n`);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

function noExtraArgs(command: string, p: Parsed): void {
  if (p.positionals.length > 0) throw new LibraryUsageError(`${command} takes no arguments (got "${p.positionals[0]}")`);
}

function json(ctx: LibraryCommandContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

// ── import ──

interface FileReport {
  file: string;
  format: string | null;
  added: number;
  duplicates: { line: number; key?: string; existingId: number; reason: string }[];
  errors: { line: number; reason: string; excerpt?: string }[];
  warnings: { line: number; message: string }[];
  /** Set when the file as a whole could not be read; nothing from it was imported. */
  failed?: string;
  /** For a PDF: what capture made of it. */
  pdf?: CaptureFileReport;
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
            : `needs review: ${r.candidates.length > 0 ? `${plural(r.candidates.length, 'candidate')} (${r.candidates.map((c) => c.doi).join(', ')})` : r.evidence[0]?.detail ?? 'not identified'}`;
      return `${file} (pdf): ${where}, ${how} (confidence ${r.confidence.toFixed(2)})`;
    }
  }
}

async function importCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  if (p.positionals.length === 0) throw new LibraryUsageError('import needs at least one file: citewise import refs.bib');
  const reports: FileReport[] = [];
  // Tells the app, if it has the library open, why its changes wait (see shared-use.ts).
  const unmark = markCliImport(ctx.dataDir);
  // PDFs need a reader (a worker thread) and, to be identified, the service: both opened at the first PDF.
  let reader: PdfReader | null = null;
  let opened: { service: CaptureService | null; close: () => Promise<void> } | null = null;
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
              throw loop ? new CoreError('INVALID_INPUT', `${arg} is a loop of symbolic links; it leads to no file`) : new CoreError('NOT_FOUND', `${arg}: no such file`);
            }
            if (looksLikePdf(path)) {
              report.format = 'pdf';
              reader ??= new PdfReader({ timeLimitMs: 30_000 });
              if (!opened) {
                const svc = ctx.openService ? await ctx.openService() : null;
                opened = { service: svc ? captureServiceOf(svc.service) : null, close: svc ? svc.close : async () => {} };
              }
              const [pdf] = await capturePdfs([path], { library: client, service: opened.service, reader }, { mode: p.values.link === true ? 'link' : 'copy', storeDir: join(ctx.dataDir, 'attachments') });
              report.pdf = pdf!;
              if (pdf!.status === 'failed') report.failed = pdf!.message;
              else if (pdf!.status !== 'duplicate') report.added = 1;
              else report.duplicates.push({ line: 0, existingId: pdf!.itemId, reason: pdf!.reason === 'checksum' ? 'the same file' : DUPLICATE_REASON[pdf!.reason] });
              continue;
            }
            // Parsed in the formats worker, which posts straight to the library worker (one transaction).
            const imported = await importSource(client, { kind: 'path', path }, { fileName: basename(path) });
            if (imported.format === 'doi-list') {
              // Nothing was stored (a DOI list yields no items); metadata needs the service.
              throw new CoreError('INVALID_INPUT', `${arg} is a list of DOIs; their metadata comes from the citation service, which "citewise import" does not use yet`);
            }
            report.format = imported.format;
            report.added = imported.added;
            report.duplicates.push(...imported.duplicates.map((d) => ({ line: d.line, ...(d.key ? { key: d.key } : {}), existingId: d.existingId, reason: DUPLICATE_REASON[d.reason] })));
            report.errors.push(...imported.errors);
            report.warnings.push(...imported.warnings.map((w) => ({ line: w.line, message: w.reason })));
          } catch (err) {
            // A full disk stops the command: the next file would meet it too (this one was rolled back).
            if (!(err instanceof CoreError) || isStorageFault(err)) throw err;
            const line = (err.details as { line?: number } | undefined)?.line;
            report.failed = `${err.message}${line ? ` (line ${line})` : ''}`;
          }
        }
      },
      ctx.stderr,
    );
  } finally {
    unmark();
    await (reader as PdfReader | null)?.close();
    await (opened as { close: () => Promise<void> } | null)?.close();
  }

  const failed = reports.filter((r) => r.failed !== undefined).length;
  if (p.values.json) {
    json(ctx, { files: reports, added: sum(reports, (r) => r.added), duplicates: sum(reports, (r) => r.duplicates.length), errors: sum(reports, (r) => r.errors.length), failedFiles: failed });
  } else {
    for (const r of reports) {
      if (r.pdf) {
        (r.pdf.status === 'failed' ? ctx.stderr : ctx.stdout).write(`${r.pdf.status === 'failed' ? 'citewise: ' : ''}${pdfLine(r.file, r.pdf)}\n`);
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
      for (const d of r.duplicates) ctx.stdout.write(`  ${r.file}:${d.line}: duplicate${d.key ? ` ${d.key}` : ''} (${d.reason} as item ${d.existingId}), skipped\n`);
      for (const e of r.errors) ctx.stderr.write(`${r.file}:${e.line}: ${e.reason}${e.excerpt ? `: ${e.excerpt}` : ''}\n`);
      for (const w of r.warnings) ctx.stderr.write(`${r.file}:${w.line}: warning: ${w.message}\n`);
    }
    const skipped = sum(reports, (r) => r.errors.length);
    if (skipped > 0) ctx.stderr.write(`citewise: ${plural(skipped, 'entry', 'entries')} with errors ${skipped === 1 ? 'was' : 'were'} not imported (see above); the other entries were.\n`);
  }
  return failed > 0 ? 1 : 0;
}

function sum<T>(list: readonly T[], f: (x: T) => number): number {
  return list.reduce((n, x) => n + f(x), 0);
}

// ── add ──

/**
 * Through the app's own path: addDois (metadata from the service, one import transaction, the cache
 * filled; DOIs the service could not be asked about kept as placeholders), then the added items are
 * enriched as the app enriches new items. Exit 0 all added; 1 some DOI not added; 4 the service could
 * not be reached for some of it, which stays queued for the next `citewise enrich`.
 */
async function addCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  if (p.positionals.length === 0) throw new LibraryUsageError('add needs at least one DOI: citewise add 10.1038/171737a0');
  return withService(ctx, (service) =>
    withLibrary(
      ctx.dataDir,
      async (client) => {
        const { addDois } = await import('../../core/library/add-dois');
        const { ids, ...report } = await addDois(client, service, p.positionals, { source: 'doi' });
        let paused: { code: string; message: string } | null = null;
        if (ids.length > 0) {
          const enricher = new Enricher({ library: client.enrichment, service });
          try {
            const { outcome } = await enricher.enrich({ kind: 'items', ids }, { reason: 'import', label: 'Evidence of the added papers' });
            paused = outcome?.paused ?? null;
          } finally {
            await enricher.close();
          }
        }
        if (p.values.json) json(ctx, { ...report, paused });
        else {
          ctx.stdout.write(`${addByDoiSummary(report)}\n`);
          for (const a of report.added) ctx.stdout.write(`added ${a.doi} as ${a.citationKey}\n`);
          for (const q of report.queued) ctx.stdout.write(`${q.doi}: kept as a placeholder (item ${q.id}); its metadata is fetched by the next "citewise enrich"\n`);
          for (const d of report.duplicates) ctx.stdout.write(`${d.doi}: already in the library (item ${d.existingId}), skipped\n`);
          for (const n of report.notAdded) ctx.stderr.write(`citewise: ${n.doi}: not added: ${n.reason}\n`);
          if (paused) ctx.stderr.write(`citewise: the citation service could not be reached (${paused.message}); run "citewise enrich" later to complete what was added.\n`);
        }
        if (report.notAdded.length > 0) return 1;
        return paused || report.queued.length > 0 ? EXIT_PAUSED : 0;
      },
      ctx.stderr,
    ),
  );
}

// ── enrich and check ──

async function withService<T>(ctx: LibraryCommandContext, run: (service: PaperSource) => Promise<T>): Promise<T> {
  if (!ctx.openService) throw new CoreError('INTERNAL', 'this command needs the citation service, which is not available here.');
  const { service, close } = await ctx.openService();
  try {
    return await run(service);
  } finally {
    await close();
  }
}

async function enrichCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  const collection = p.values.collection as string | undefined;
  const query = p.values.query as string | undefined;
  const scopes = [p.positionals.length > 0, collection !== undefined, query !== undefined, p.values.all === true].filter(Boolean).length;
  if (scopes > 1) throw new LibraryUsageError('enrich takes one scope: DOIs, --collection, --query or --all');
  if (query !== undefined) checkQuery(query);
  for (const arg of p.positionals) {
    const parsed = parseDoi(arg);
    if (!parsed.ok) throw new LibraryUsageError(`"${arg}" is not a DOI: ${parsed.reason}`);
  }
  return withService(ctx, (service) =>
    withLibrary(
      ctx.dataDir,
      (library) => runEnrich({ dois: p.positionals, collection, query, all: p.values.all === true }, { stdout: ctx.stdout, stderr: ctx.stderr, json: p.values.json === true, library, service }),
      ctx.stderr,
    ),
  );
}

async function checkCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  noExtraArgs('check', p);
  const options = { offline: p.values.offline === true, keepUnseen: p.values['keep-unseen'] === true };
  const run = (service: PaperSource): Promise<number> =>
    withLibrary(
      ctx.dataDir,
      async (library) => {
        // The search index first: an item it lacks can never be found (an open that ran the integrity
        // check already rebuilt a drifted one, an ordinary open does not look; --repair rebuilds it regardless).
        const index = await library.searchIndex(p.values.repair === true ? 'always' : 'if-drifted');
        const drifted = index.before.missing > 0 || index.before.extra > 0;
        const line = drifted
          ? `Search index: ${index.before.missing} of ${index.before.items} items were missing from it and ${index.before.extra} rows belonged to deleted items; it was rebuilt.\n`
          : `Search index: all ${index.before.items} items are indexed${index.after ? '; rebuilt as asked (--repair)' : ''}.\n`;
        (p.values.json === true ? ctx.stderr : ctx.stdout).write(line);
        return runCheck(options, { stdout: ctx.stdout, stderr: ctx.stderr, json: p.values.json === true, library, service });
      },
      ctx.stderr,
    );
  if (options.offline) {
    return run({
      papers: () => Promise.reject(new CoreError('OFFLINE', 'check --offline asks the service nothing')),
      tallies: () => Promise.reject(new CoreError('OFFLINE', 'check --offline asks the service nothing')),
    });
  }
  return withService(ctx, run);
}

// ── export ──

const FILE_FORMATS: Record<string, ExportFormat> = { bibtex: 'bibtex', biblatex: 'biblatex', ris: 'ris', 'csl-json': 'csljson', csljson: 'csljson' };
const CITE_FORMATS: readonly OutputFormat[] = ['text', 'html', 'rtf'];

function checkQuery(query: string): void {
  try {
    parseQuery(query);
  } catch (err) {
    if (err instanceof QuerySyntaxError) {
      const pointer = `${' '.repeat(err.span.start)}${'^'.repeat(Math.max(1, err.span.end - err.span.start))}`;
      throw new LibraryUsageError(`malformed query at position ${err.span.start + 1}: ${err.message}\n  ${query}\n  ${pointer}`);
    }
    throw err;
  }
}

async function allRows(client: LibraryClient, options: { query?: string; collectionId?: number }): Promise<LibraryRow[]> {
  const rows: LibraryRow[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.lib.list({ ...options, sort: { column: 'dateAdded', direction: 'asc' }, limit: 1000, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

async function exportCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  noExtraArgs('export', p);
  const format = (p.values.format as string | undefined) ?? 'bibtex';
  const fileFormat = FILE_FORMATS[format];
  const citeFormat = CITE_FORMATS.find((f) => f === format);
  if (!fileFormat && !citeFormat) throw new LibraryUsageError(`--format must be one of bibtex, biblatex, ris, csl-json, text, html, rtf (got "${format}")`);
  const style = p.values.style as string | undefined;
  if (style !== undefined && !citeFormat) throw new LibraryUsageError('--style applies to --format text, html or rtf only');
  const { createCiteFormatter, exportItems, UserStyles } = await formatting();
  const userStyles = new UserStyles(stylesDir(ctx.dataDir));
  const styles = [...CITATION_STYLE_IDS, ...userStyles.ids()];
  if (style !== undefined && !styles.includes(style)) throw new LibraryUsageError(`--style must be one of ${styles.join(', ')} (got "${style}"; "citewise styles add FILE" adds a style from a .csl file)`);
  const query = p.values.query as string | undefined;
  if (query !== undefined) checkQuery(query);
  const output = p.values.output as string | undefined;
  const collection = p.values.collection as string | undefined;

  const exported = await withLibrary(ctx.dataDir, async (client) => {
    let collectionId: number | undefined;
    if (collection !== undefined) {
      const all = await client.lib.listCollections();
      const matches = all.filter((c) => c.name === collection);
      const found = matches.length > 0 ? matches : all.filter((c) => c.name.toLowerCase() === collection.toLowerCase());
      if (found.length === 0) throw new CoreError('NOT_FOUND', `no collection is called "${collection}"${all.length ? ` (there are: ${all.map((c) => c.name).join(', ')})` : ''}`);
      if (found.length > 1) throw new CoreError('CONFLICT', `${found.length} collections are called "${collection}"; rename one to export it`);
      collectionId = found[0]!.id;
    }
    const ids = await client.lib.idsOf({ ...(query ? { query } : {}), ...(collectionId !== undefined ? { collectionId } : {}) });
    const items = await client.lib.cslOf(ids);
    if (fileFormat) return { items, text: exportItems(items, fileFormat) };
    // Big bibliographies are formatted in a worker thread as in the app (one: a command uses one style).
    // A set formatted before in this style comes from the library's cache without starting an engine.
    const formatter = createCiteFormatter({ workers: 1 });
    try {
      if (style !== undefined && !isBuiltInStyle(style)) {
        const problem = userStyles.loadInto(formatter).find((x) => basename(x.file) === `${style}.csl`);
        if (problem) throw new CoreError('INVALID_INPUT', `the style "${style}" (${problem.file}) cannot be used: ${problem.problem}`);
      }
      const bib = await formatter.formatBibliography(items, { style: style ?? 'apa', format: citeFormat!, store: libraryBibliographyStore(client.lib) });
      return { items, text: bib.document };
    } finally {
      await formatter.close();
    }
  }, ctx.stderr);
  let text = exported.text;
  const items = exported.items;
  if (text.length > 0 && !text.endsWith('\n') && citeFormat !== 'rtf') text += '\n';

  if (output === undefined) {
    ctx.stdout.write(text);
    return 0;
  }
  const target = resolve(output);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text, { flush: true });
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new CoreError('INTERNAL', `could not write ${output}: ${(err as Error).message}`);
  }
  if (p.values.json) json(ctx, { file: target, format, ...(citeFormat ? { style: style ?? 'apa' } : {}), items: items.length });
  else ctx.stderr.write(`Exported ${plural(items.length, 'item')} to ${output}.\n`);
  return 0;
}

// ── styles ──

const stylesDir = (dataDir: string): string => join(dataDir, 'styles');

/**
 * The export formats and the citation processor, loaded by the commands that use them: with them,
 * every command took 0.2 s more to start (`import` loads its parser in the formats worker).
 */
async function formatting() {
  const [{ exportItems }, { createCiteFormatter }, { UserStyles }] = await Promise.all([import('../../core/formats'), import('../../core/formats/cite'), import('../../core/formats/cite/user-styles')]);
  return { exportItems, createCiteFormatter, UserStyles };
}

/** `citewise styles [list]`, `styles add FILE…`, `styles remove ID`: citation styles added from .csl files. */
async function stylesCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  const [action = 'list', ...args] = p.positionals;
  const { createCiteFormatter, UserStyles } = await formatting();
  const store = new UserStyles(stylesDir(ctx.dataDir));
  if (action === 'list' && args.length > 0) throw new LibraryUsageError('styles list takes no arguments');
  if (action === 'add' && args.length === 0) throw new LibraryUsageError('styles add needs a .csl file: citewise styles add my-journal.csl');
  if (action === 'remove' && args.length !== 1) throw new LibraryUsageError('styles remove needs one style id: citewise styles remove my-journal');
  if (!['list', 'add', 'remove'].includes(action)) throw new LibraryUsageError(`unknown styles action "${action}": use list, add FILE… or remove ID`);
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
      if (p.values.json) json(ctx, { added });
      else for (const a of added) ctx.stdout.write(`added "${a.title}" as ${a.id} (use --style ${a.id})\n`);
    } else if (action === 'remove') {
      store.remove(formatter, args[0]!);
      if (p.values.json) json(ctx, { removed: args[0] });
      else ctx.stdout.write(`removed ${args[0]}\n`);
    } else {
      const all = formatter.styles().map((s) => ({ id: s.id, title: s.title, builtIn: s.builtIn }));
      if (p.values.json) json(ctx, { styles: all, skipped });
      else for (const s of all) ctx.stdout.write(`${s.id.padEnd(16)} ${s.title}${s.builtIn ? '' : ' (added)'}\n`);
    }
    for (const x of skipped) ctx.stderr.write(`citewise: ${x.file} was skipped: ${x.problem}\n`);
    return failed > 0 ? 1 : 0;
  } finally {
    await formatter.close();
  }
}

// ── search ──

function evidenceJson(row: LibraryRow): unknown {
  return row.evidence.state === 'found' ? { supporting: row.evidence.supporting, contrasting: row.evidence.contrasting, mentioning: row.evidence.mentioning } : row.evidence.state;
}

async function searchCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  if (p.positionals.length === 0) throw new LibraryUsageError('search needs a query: citewise search "author:smith year:>2015"');
  const query = p.positionals.join(' ');
  checkQuery(query);
  const limitText = (p.values.limit as string | undefined) ?? '50';
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new LibraryUsageError(`--limit must be a number from 1 to 1000 (got "${limitText}")`);
  const { rows, total, hits } = await withLibrary(ctx.dataDir, async (client) => {
    const page = await client.lib.list({ query, limit });
    return { rows: page.rows, total: await client.lib.count({ query }), hits: await client.fulltext.hits(query, page.rows.map((r) => r.id)) };
  }, ctx.stderr);
  if (p.values.json) {
    json(ctx, {
      query,
      total,
      items: rows.map((r) => ({ id: r.id, citationKey: r.citationKey, type: r.type, title: r.title, creators: r.creators, year: r.year, container: r.container, doi: r.doi, evidence: evidenceJson(r), retracted: r.retracted, ...(hits.length ? { pages: hits.filter((h) => h.itemId === r.id).map((h) => ({ page: h.page, snippet: h.snippet })) } : {}) })),
    });
    return 0;
  }
  for (const r of rows) {
    ctx.stdout.write(`${r.citationKey}\t${r.year ?? ''}\t${r.creators ?? ''}\t${(r.title ?? '').replace(/<[^>]+>/g, '')}${r.doi ? `\t${r.doi}` : ''}\n${hitLines(hits, r.id)}`);
  }
  ctx.stderr.write(total > rows.length ? `${plural(total, 'item')} found; the first ${rows.length} shown (use --limit).\n` : `${plural(total, 'item')} found.\n`);
  return 0;
}

// ── stats ──

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

async function statsCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  noExtraArgs('stats', p);
  const stats = await withLibrary(ctx.dataDir, async (client): Promise<LibraryStats> => {
    const base = await client.lib.stats();
    const rows = await allRows(client, {});
    const byType: Record<string, number> = {};
    for (const r of rows) byType[r.type] = (byType[r.type] ?? 0) + 1;
    const sorted = Object.fromEntries(Object.entries(byType).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
    return {
      items: rows.length,
      byType: sorted,
      withDoi: rows.filter((r) => r.doi !== null).length,
      withTallies: rows.filter((r) => r.evidence.state === 'found').length,
      retracted: rows.filter((r) => r.retracted === true).length,
      trashed: base.trashed,
      collections: base.collections,
      tags: base.tags,
    };
  }, ctx.stderr);
  if (p.values.json) {
    json(ctx, stats);
    return 0;
  }
  const lines = [`Items:          ${stats.items.toLocaleString('en')}`];
  for (const [type, n] of Object.entries(stats.byType)) lines.push(`  ${type.padEnd(22)} ${n.toLocaleString('en')}`);
  lines.push(
    `With a DOI:     ${stats.withDoi.toLocaleString('en')}`,
    `With tallies:   ${stats.withTallies.toLocaleString('en')}`,
    `Retracted:      ${stats.retracted.toLocaleString('en')}`,
    `In the trash:   ${stats.trashed.toLocaleString('en')}`,
    `Collections:    ${stats.collections.toLocaleString('en')}`,
    `Tags:           ${stats.tags.toLocaleString('en')}`,
  );
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

// ── backup and restore ──

function backupJson(b: BackupInfo): unknown {
  return { file: b.file, reason: b.reason, createdAt: new Date(b.createdAt).toISOString(), size: b.size };
}

async function backupCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  noExtraArgs('backup', p);
  const info = await withLibrary(ctx.dataDir, (client) => client.backup('manual'), ctx.stderr);
  if (p.values.json) json(ctx, { ...(backupJson(info) as object), verified: true });
  else ctx.stdout.write(`Backup written and verified (integrity check ok): ${info.file} (${(info.size / 1024).toFixed(1)} KB)\n`);
  return 0;
}

async function restoreCommand(p: Parsed, ctx: LibraryCommandContext): Promise<number> {
  if (p.positionals.length > 1) throw new LibraryUsageError('restore takes at most one backup file');
  const file = libraryFile(ctx.dataDir);
  const backupDir = join(ctx.dataDir, 'backups');
  const named = p.positionals[0];
  let source: string;
  if (named !== undefined) {
    const candidates = isAbsolute(named) ? [named] : [resolve(named), join(backupDir, named)];
    const found = candidates.find((c) => existsSync(c));
    if (!found) throw new CoreError('NOT_FOUND', `no backup "${named}" (looked in ${candidates.join(' and ')}); citewise restore without a name takes the newest`);
    source = found;
  } else {
    const latest = listBackups(backupDir).find((b) => b.reason !== 'pre-restore');
    if (!latest) throw new CoreError('NOT_FOUND', `there are no backups in ${backupDir}; nothing was changed`);
    source = latest.file;
  }
  // Refuse anything not proven good before the current library is touched.
  const inspection = inspectBackup(source);
  if (inspection.problem !== null) throw new CoreError('INVALID_INPUT', `${source} is not a good backup (${inspection.problem}); nothing was changed`);
  const restoredItems = inspection.items;

  // The current library is backed up first (when there is one), so the restore can be undone.
  let saved: BackupInfo | null = null;
  if (existsSync(file)) {
    saved = await withLibrary(ctx.dataDir, (client) => client.backup('pre-restore'), ctx.stderr);
    // Closing the last connection removes the WAL; one still there means another process has the library open.
    if (existsSync(`${file}-wal`)) throw new CoreError('CONFLICT', `the library seems to be open in another Citewise (the app, citewise serve); close it and try again. Nothing was changed; a copy of the current library is at ${saved.file}`);
  }
  try {
    replaceLibraryFile(source, file);
  } catch (err) {
    throw new CoreError('INTERNAL', `could not restore: ${(err as Error).message}${saved ? `; the current library is saved at ${saved.file}` : ''}`);
  }
  // Open it once through the library worker: it must pass the same checks (and migrate) as at start-up.
  try {
    await withLibrary(ctx.dataDir, async () => undefined);
  } catch (err) {
    if (saved) replaceLibraryFile(saved.file, file);
    throw new CoreError('INVALID_INPUT', `${source} could not be opened as a library (${(err as Error).message}); ${saved ? 'the previous library was put back' : 'remove it and start again'}`);
  }
  if (p.values.json) {
    json(ctx, { restoredFrom: source, items: restoredItems, previousLibrary: saved ? backupJson(saved) : null });
  } else {
    ctx.stdout.write(`Restored the library from ${source} (${plural(restoredItems, 'item')}).\n`);
    if (saved) ctx.stdout.write(`The library as it was before is kept at ${saved.file}; "citewise restore ${basename(saved.file)}" undoes this.\n`);
  }
  return 0;
}

