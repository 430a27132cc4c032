import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute } from 'node:path';
import type { ChosenFiles } from '../chosen-files';
import type { ImportFormat, WorkerSource } from '../formats';
import type {
  ImportReport,
  AddDoisReport,
  CitationStyleInfo,
  ExportOutput,
  ExportScope,
  ImportPreview,
  LibraryChange,
  LibrarySelection,
  libraryFeature,
} from '../../../shared/ipc';
import type { CslItem } from '../../../shared/model/csl';
import { newItemProblems } from '../../../shared/model/item-form';
import { REFERENCE_FORMAT_INFO, referenceFormatNamed } from '../../../shared/model/reference-formats';
import type { AttachFilesReport, LinkedFilesPreview } from '../../../shared/model/linked-files';
import { fileFieldValues, isRelativeLink, parseFileField } from '../formats/bibtex/file-field';
import { addIdentifiers } from '../library/add-identifiers';
import { jabrefFileDirectories } from '../pdf/attach-files';
import { CoreError } from '../errors';
import type { EventBus } from '../events';
import { addDois, cachePapers, type PaperSource } from '../library/add-dois';
import type { CiteFormatter, OutputFormat, StyleInfo } from '../formats/cite';
import type { UserStyles } from '../formats/cite/user-styles';
import type { JobRegistry } from '../jobs/registry';
import { listBackups } from '../library/backup';
import { libraryBibliographyStore } from '../library/cite-cache';
import type { LibraryClient } from '../library/client';
import { cslOfIds, exportLocale, idsInScope } from '../library/export-scope';
import { importSource, previewSource, type KeptParse } from '../library/import-source';
import type { FeatureHandlers } from '../registry';
import { grouped } from '../../../shared/model/numbers';
import { appendAll } from '../../../shared/model/arrays';
import type { SentenceCaseMode } from '../../../shared/model/settings';

export interface LibraryHandlerDeps {
  library: LibraryClient;
  file: string;
  events: EventBus;
  jobs: JobRegistry;
  service: PaperSource;
  /** The citation formatter, started on first use (its workers cost memory and start-up time). */
  formatter: () => CiteFormatter;
  /** Styles added from .csl files, kept in the data folder (the formatter loads them when it starts). */
  styles: UserStyles;
  /** Settings → Import: what a BibTeX import makes of Title Case titles ('protected' when not given). */
  sentenceCase?: () => SentenceCaseMode;
  /** Called when a removed style was the default one, to set the default back. */
  onStyleRemoved?: (id: string) => void;
  /** Told after the library changed, e.g. to enrich new items or run auto-exports. */
  onChange?: (change: LibraryChange) => void;
  /** Told which items an import or an add by DOI created (to enrich them). */
  onAdded?: (ids: readonly number[]) => void;
  /**
   * Attaches the files an imported .bib's entries name (handlers/pdfs.ts attachFiles): absent, they
   * stay named in the entries only.
   */
  attachFiles?: (
    itemIds: readonly number[],
    baseDirs: readonly string[],
    label: string,
    signal: AbortSignal,
  ) => Promise<AttachFilesReport>;
  /** Files chosen in the desktop app's dialog or drop, or uploaded in browser mode: what an import reads. */
  chosen?: ChosenFiles;
}

/** An import's source as the call named it: a chosen file read from disk by the parser, or pasted text. */
interface ImportInput {
  file?: { selection: string; index: number } | undefined;
  text?: string | undefined;
  fileName?: string | undefined;
}

interface ResolvedImport {
  source: WorkerSource;
  fileName: string | undefined;
  /** The folder of a file chosen where it is (its relative links start there); null for uploads and pastes. */
  folder: string | null;
  /** The source's text, for the .bib's file links (read from disk only when asked). */
  text(): Promise<string>;
  /** Deletes an upload's temporary file once it is imported. */
  release(): void;
}

/**
 * What a .bib's text says of the files its entries name, before it is imported. `folder`: the .bib's
 * own folder when it was chosen where it is, the first guess for its relative links.
 */
function filesPreview(text: string, folder: string | null): LinkedFilesPreview | undefined {
  if (!/file\s*=/i.test(text)) return undefined;
  const links = fileFieldValues(text).flatMap(parseFileField);
  if (links.length === 0) return undefined;
  const named = jabrefFileDirectories(text, folder);
  return {
    links: links.length,
    relative: links.filter(isRelativeLink).length,
    folders: folder && !named.includes(folder) ? [...named, folder] : named,
  };
}

/** The source an import call names; a selection the core no longer holds is NOT_FOUND. */
function resolveImport(input: ImportInput, chosen: ChosenFiles | undefined): ResolvedImport {
  if (input.file === undefined) {
    const text = input.text ?? '';
    return {
      source: { kind: 'text', text },
      fileName: input.fileName,
      folder: null,
      text: () => Promise.resolve(text),
      release: () => {},
    };
  }
  const { selection, index } = input.file;
  const file = chosen?.get(selection, index);
  if (file === undefined)
    throw new CoreError(
      'NOT_FOUND',
      'Citewise no longer holds the file chosen for this import; choose it again (Add → Import file…).',
      { field: 'file' },
    );
  return {
    source: { kind: 'path', path: file.path },
    fileName: file.name,
    folder: file.upload ? null : dirname(file.path),
    text: () => readFile(file.path, 'utf8'),
    release: () => (file.upload ? chosen?.release(selection) : undefined),
  };
}

/** The folder a .bib's relative paths start from, as the user typed it: it must be one. */
function checkedFolder(dir: string): string {
  const field = { field: 'baseDir' };
  if (!isAbsolute(dir))
    throw new CoreError(
      'INVALID_INPUT',
      `"${dir}" is not a full path to a folder (it must start at the root, such as /home/… or C:\\…).`,
      field,
    );
  const info = (() => {
    try {
      return statSync(dir);
    } catch {
      return null;
    }
  })();
  if (!info) throw new CoreError('INVALID_INPUT', `There is no folder at ${dir}.`, field);
  if (!info.isDirectory()) throw new CoreError('INVALID_INPUT', `${dir} is a file, not a folder.`, field);
  return dir;
}

/**
 * A preview keeps its parsed entries for the import that follows while they take at most this many
 * bytes in the library worker (a 35 MB BibTeX file of 50,000 entries keeps 85 MB); a larger source is
 * parsed again by the import.
 */
const KEEP_PARSE_BYTES = 256 * 1024 * 1024;

/**
 * What names one parse of an import's source: the chosen file (or the pasted text's digest), its name,
 * and the options the parser was given. A preview's kept parse serves only an import with the same.
 */
function parseIdentity(
  input: ImportInput,
  format: ImportFormat | undefined,
  sentenceCase: SentenceCaseMode | undefined,
): string {
  const source = input.file
    ? { file: [input.file.selection, input.file.index] }
    : {
        text: createHash('sha256')
          .update(input.text ?? '')
          .digest('base64'),
      };
  return JSON.stringify({
    ...source,
    fileName: input.fileName ?? null,
    format: format ?? null,
    sentenceCase: sentenceCase ?? null,
  });
}

/** Lists ids in a change event only while that stays small. */
const MAX_EVENT_IDS = 5000;

const CITE_FORMATS: Record<OutputFormat, { mime: string; extension: string }> = {
  text: { mime: 'text/plain', extension: 'txt' },
  html: { mime: 'text/html', extension: 'html' },
  rtf: { mime: 'application/rtf', extension: 'rtf' },
};

/** library.item.versions asks again for a linked paper the service did not know after this long. */
export const UNKNOWN_PAPER_RETRY_MS = 24 * 3_600_000;

/** Exports of at least this many items run as a job (progress in the status bar, Cancel). */
const EXPORT_JOB_ITEMS = 2_000;

const styleInfo = (s: StyleInfo): CitationStyleInfo => ({ id: s.id, title: s.title, builtIn: s.builtIn });

export function libraryHandlers(deps: LibraryHandlerDeps) {
  const { library, events } = deps;
  const lib = library.lib;
  const changed = (kind: LibraryChange['kind'], ids?: readonly number[]): void => {
    const change: LibraryChange = ids && ids.length <= MAX_EVENT_IDS ? { kind, ids: [...ids] } : { kind };
    events.emit('library.changed', change);
    deps.onChange?.(change);
  };
  const idsOf = (scope: ExportScope): Promise<number[]> => idsInScope(library.listing, scope);
  // The Library pane's selection lives only in memory: it is the app window's, not the library's.
  let selection: LibrarySelection = { kind: 'items', ids: [] };
  let shownCollection: number | null = null;
  const cslOf = (ids: readonly number[]): Promise<CslItem[]> => cslOfIds(lib, ids);

  // The last preview's parse, kept for the import of the same source (one at a time; an import takes it).
  let keptParse: { identity: string; parse: KeptParse } | null = null;

  /** One import, as a job: the items, a DOI list's papers from the service, and a .bib's PDFs. */
  const importFrom = async (
    input: ImportInput,
    from: ResolvedImport,
    typed: string | null,
    format: ImportFormat | undefined,
    signal: AbortSignal,
  ): Promise<ImportReport> => {
    const { fileName } = from;
    const label = fileName ? `Importing ${basename(fileName)}` : 'Importing pasted references';
    const sentenceCase = deps.sentenceCase?.();
    const identity = keptParse ? parseIdentity(input, format, sentenceCase) : null;
    const kept = keptParse?.identity === identity ? keptParse!.parse : undefined;
    keptParse = null;
    const job = deps.jobs.start('library.import', label, (job) => {
      const both = AbortSignal.any([job.signal, signal]);
      return importSource(library, from.source, {
        fileName,
        format,
        signal: both,
        onProgress: (n) => job.progress(n, null, `${grouped(n)} stored`),
        sentenceCase,
        kept,
      });
    });
    const report = await job.done;
    if (report.dois.length > 0) {
      // A DOI list: the metadata comes from the service (or the DOIs wait as placeholders).
      const { ids, ...byDoi } = await addDois(library, deps.service, report.dois, {
        signal,
        source: fileName ? basename(fileName) : 'doi',
      });
      report.byDoi = byDoi;
      report.added += ids.length;
      appendAll(report.ids, ids);
    }
    if (report.ids.length > 0) {
      changed('items', report.ids);
      deps.onAdded?.(report.ids);
    }
    // A .bib from Better BibTeX, JabRef or Mendeley names its PDFs: they come with it (re-importing
    // the file attaches what the items already there lack). Relative links start from the folder the
    // user typed, else the .bib's own folder when it was chosen where it is.
    if (report.format !== 'bibtex' || !deps.attachFiles) return report;
    const text = await from.text();
    if (!/file\s*=/i.test(text)) return report;
    const folder = typed ?? from.folder;
    const itemIds = [...report.ids, ...report.duplicates.map((d) => d.existingId)];
    const dirs = [...(folder ? [folder] : []), ...jabrefFileDirectories(text, folder)];
    const files = await deps.attachFiles(
      itemIds,
      dirs,
      fileName ? basename(fileName) : 'the pasted references',
      signal,
    );
    if (files.files.length > 0) report.files = files;
    return report;
  };

  return {
    'library.status': async () => ({
      file: deps.file,
      ...(await lib.stats()),
      recovery: library.recovery,
      backupDir: library.backupDir,
    }),
    'library.list': (input) => library.listing.list(input),
    'library.count': (input) => library.listing.count(input),
    'library.selection.set': ({ selection: next, collectionId }) => {
      selection = next;
      if (collectionId !== undefined) shownCollection = collectionId;
      return null;
    },
    'library.selection.collection': async () =>
      shownCollection !== null && (await lib.listCollections()).some((c) => c.id === shownCollection)
        ? shownCollection
        : null,
    'library.selection.get': async () =>
      selection.kind === 'items' ? [...selection.ids] : library.listing.idsOf(selection.where),

    'library.item.get': ({ id }) => lib.getItem(id),
    'library.item.update': async ({ id, csl }) => {
      await lib.updateItem(id, csl as CslItem);
      changed('items', [id]);
      return lib.getItem(id);
    },
    'library.item.setKey': async ({ id, key }) => {
      const citationKey = await lib.setCitationKey(id, key);
      changed('items', [id]);
      return { citationKey };
    },
    'library.item.regenerateKey': async ({ id }) => {
      const citationKey = await lib.regenerateCitationKey(id);
      changed('items', [id]);
      return { citationKey };
    },
    'library.item.related': ({ id }) => lib.relatedItems(id),
    'library.item.versions': async ({ id, fetch }, { signal }) => {
      const versions = await lib.paperVersions(id);
      if (!fetch) return versions;
      // Only what is linked but unnamed (neither in the library nor in the cache) is asked for, and a
      // DOI the service did not know is asked again only a day later: showing an item is not a refresh.
      const unnamed: string[] = [];
      for (const v of [...versions.published, ...versions.preprints]) {
        if (v.itemId !== null || v.title !== null) continue;
        const cached = await library.serviceCache.getPaper(v.doi);
        if (
          cached.state === 'not-fetched' ||
          (cached.state === 'unknown' && Date.now() - cached.fetchedAt > UNKNOWN_PAPER_RETRY_MS)
        )
          unnamed.push(v.doi);
      }
      if (unnamed.length === 0) return versions;
      const result = await deps.service.papers(unnamed, { signal });
      await cachePapers(library, result);
      return lib.paperVersions(id);
    },

    'library.tags.list': () => lib.listTags(),
    'library.titles.asWritten': async ({ ids }) => {
      const done = await lib.useTitlesAsWritten(ids);
      if (done.length > 0) changed('items', done);
      return { changed: done.length };
    },
    'library.tags.add': async ({ ids, tags }) => {
      await lib.addTags(ids, tags);
      changed('tags', ids);
      return null;
    },
    'library.tags.remove': async ({ ids, tags }) => {
      await lib.removeTags(ids, tags);
      changed('tags', ids);
      return null;
    },

    'library.notes.add': async ({ itemId, body }) => {
      const id = await lib.addNote(itemId, body);
      changed('items', [itemId]);
      return { id };
    },
    'library.notes.addStandalone': async ({ body, collectionId }) => {
      const made = await lib.addStandaloneNote(body, collectionId ?? null);
      changed('items', [made.itemId]);
      return made;
    },
    'library.notes.update': async ({ id, body }) => {
      await lib.updateNote(id, body);
      changed('items');
      return null;
    },
    'library.notes.delete': async ({ id }) => {
      await lib.deleteNote(id);
      changed('items');
      return null;
    },
    'library.attachments.remove': async ({ id }) => {
      await lib.removeAttachment(id);
      changed('items');
      return null;
    },

    'library.collections.list': () => lib.listCollections(),
    'library.collections.create': async ({ name, parentId }) => {
      const id = await lib.createCollection(name, parentId);
      changed('collections');
      return { id };
    },
    'library.collections.rename': async ({ id, name }) => {
      await lib.renameCollection(id, name);
      changed('collections');
      return null;
    },
    'library.collections.move': async ({ id, parentId }) => {
      await lib.moveCollection(id, parentId);
      changed('collections');
      return null;
    },
    // To the Trash, with its subcollections and its items' membership (organise.ts restores or deletes it for good).
    'library.collections.delete': async ({ id }) => {
      await lib.trashCollection(id);
      changed('collections');
      return null;
    },
    'library.collections.addItems': async ({ collectionId, ids }) => {
      await lib.addToCollection(collectionId, ids);
      changed('collections', ids);
      return null;
    },
    'library.collections.removeItems': async ({ collectionId, ids }) => {
      await lib.removeFromCollection(collectionId, ids);
      changed('collections', ids);
      return null;
    },
    'library.collections.setItems': async ({ collectionId, ids, source }) => {
      const result = await lib.setCollectionItems(collectionId, ids, source);
      if (result.changed.length > 0) changed('collections', result.changed);
      return { added: result.added, removed: result.removed };
    },
    'library.collections.fillPath': async ({ path, ids, source }) => {
      const result = await lib.fillCollectionAt(path, ids, source);
      if (result.created > 0 || result.changed.length > 0) changed('collections', result.changed);
      return { id: result.id, created: result.created, added: result.added, removed: result.removed };
    },
    'library.collections.moveItems': async ({ ids, fromId, toId }) => {
      await lib.moveToCollection(ids, fromId, toId);
      changed('collections', ids);
      return null;
    },

    'library.trash': async ({ ids }) => {
      await lib.trashItems(ids);
      changed('trash', ids);
      return null;
    },
    'library.restore': async ({ ids }) => {
      await lib.restoreItems(ids);
      changed('trash', ids);
      return null;
    },
    'library.delete': async ({ ids }) => {
      await lib.deleteItems(ids);
      changed('trash', ids);
      return null;
    },
    'library.trash.empty': async () => {
      const deleted = await lib.emptyTrash();
      changed('trash');
      return { deleted };
    },

    'library.searches.list': () => library.listing.listSavedSearches(),
    'library.searches.save': async ({ name, query, sort }) => {
      const id = await library.listing.saveSearch(name, query, sort);
      changed('searches');
      return { id };
    },
    'library.searches.delete': async ({ id }) => {
      await library.listing.deleteSavedSearch(id);
      changed('searches');
      return null;
    },

    'library.duplicates': () => lib.findDuplicates(),
    'library.duplicates.notDuplicates': async ({ ids, mark }) => {
      await lib.markNotDuplicates(ids, mark);
      return null;
    },
    'library.merge': async ({ keepId, otherIds, csl }) => {
      await lib.mergeItems(keepId, otherIds, csl as CslItem | undefined);
      changed('all', [keepId, ...otherIds]);
      return lib.getItem(keepId);
    },

    'library.undo': async ({ id }) => {
      const outcome = await lib.undoStep(id);
      if (outcome) changed('all', outcome.itemIds);
      return outcome ?? { label: null };
    },
    'library.redo': async ({ id }) => {
      try {
        const outcome = await lib.redoStep(id);
        if (outcome) changed('all', outcome.itemIds);
        return outcome ?? { label: null };
      } catch (err) {
        // A refused redo may have dropped its stale step: the offers must hear of it.
        changed('all');
        throw err;
      }
    },
    'library.history': () => lib.undoHistory(),
    'library.undo.tops': () => lib.undoTops(),

    'library.import': async ({ baseDir, format, ...input }, { signal }) => {
      const typed = baseDir === undefined ? null : checkedFolder(baseDir);
      const from = resolveImport(input, deps.chosen);
      try {
        return await importFrom(input, from, typed, format, signal);
      } finally {
        from.release();
      }
    },
    'library.import.preview': async ({ sample, format, ...input }, { signal }): Promise<ImportPreview> => {
      const from = resolveImport(input, deps.chosen);
      const { fileName } = from;
      const sentenceCase = deps.sentenceCase?.();
      keptParse = null;
      const { kept, ...preview } = await previewSource(library, from.source, {
        fileName,
        format,
        signal,
        sample,
        sentenceCase,
        keep: KEEP_PARSE_BYTES,
      });
      if (kept) keptParse = { identity: parseIdentity(input, format, sentenceCase), parse: kept };
      const files = preview.format === 'bibtex' ? filesPreview(await from.text(), from.folder) : undefined;
      return files ? { ...preview, files } : preview;
    },
    'library.addIdentifiers': async ({ inputs }, { signal }) => {
      const { ids, ...report } = await addIdentifiers(library, deps.service, inputs, { signal });
      if (ids.length > 0) {
        changed('items', ids);
        deps.onAdded?.(ids);
      }
      return report;
    },
    'library.items.addCited': async ({ items }) => {
      const made = await lib.addCitedItems(items as CslItem[]);
      const ids = made.filter((id): id is number => id !== null);
      if (ids.length > 0) {
        changed('items', ids);
        deps.onAdded?.(ids);
      }
      return made;
    },
    'library.item.create': async ({ csl, collectionId }) => {
      const problems = newItemProblems(csl);
      if (problems.length > 0)
        throw new CoreError('INVALID_INPUT', problems.map((p) => p.message).join(' '), { problems });
      const id = await lib.addItem(csl as CslItem, collectionId);
      changed('items', [id]);
      // An item typed with a DOI gets its evidence as any new item does.
      deps.onAdded?.([id]);
      return lib.getItem(id);
    },
    'library.item.duplicate': async ({ id, collectionId }) => {
      const copy = await lib.duplicateItem(id, collectionId);
      changed('items', [copy]);
      return lib.getItem(copy);
    },
    'library.items.regenerateKeys': async ({ ids }) => {
      const changes = await lib.regenerateCitationKeys(ids);
      const moved = changes.filter((c) => c.from !== c.to).length;
      changed('items', ids);
      return { changed: moved, unchanged: changes.length - moved };
    },
    'library.addDois': async ({ dois }, { signal }): Promise<AddDoisReport> => {
      const { ids, ...report } = await addDois(library, deps.service, dois, { signal });
      if (ids.length > 0) {
        changed('items', ids);
        deps.onAdded?.(ids);
      }
      return report;
    },

    'library.export': async ({ scope, format, style, locale, limit, notes }, { signal }): Promise<ExportOutput> => {
      // Standalone notes are no references: left out of every format, and counted.
      const scoped = await idsOf(scope);
      const noteItems = new Set(await lib.noteItemIds(scoped));
      const all = noteItems.size === 0 ? scoped : scoped.filter((id) => !noteItems.has(id));
      const skipped = noteItems.size > 0 ? { notesSkipped: noteItems.size } : {};
      const ids = limit !== undefined ? all.slice(0, limit) : all;
      const run = async (cancelled: AbortSignal): Promise<ExportOutput> => {
        const file = referenceFormatNamed(format);
        if (file) {
          const out = await lib.exportText(ids, file, notes ? { notes: true } : {});
          const { mime, extension } = REFERENCE_FORMAT_INFO[file];
          return { ...out, total: all.length, ...skipped, mime, extension };
        }
        const items = await cslOf(ids);
        if (cancelled.aborted) throw new CoreError('CANCELLED', 'The export was cancelled.');
        const formatter = deps.formatter();
        const bib = await formatter.formatBibliography(items, {
          style,
          locale: exportLocale(formatter.styles(), style, locale),
          format: format as OutputFormat,
          store: libraryBibliographyStore(library.citeCache),
        });
        return {
          content: bib.document,
          items: items.length,
          total: all.length,
          ...skipped,
          ...CITE_FORMATS[format as OutputFormat],
        };
      };
      // A preview or a small export answers at once; a big one is a job the status bar shows, with Cancel.
      if (ids.length < EXPORT_JOB_ITEMS) return run(signal);
      const job = deps.jobs.start('library.export', `Exporting ${grouped(ids.length)} items`, async (control) => {
        const both = AbortSignal.any([control.signal, signal]);
        const out = await run(both);
        if (both.aborted) throw new CoreError('CANCELLED', 'The export was cancelled.');
        control.progress(out.items, ids.length, `${grouped(out.items)} exported`);
        return out;
      });
      return job.done;
    },
    'library.cite': async ({ ids: asked, style, locale, kind }) => {
      // A standalone note is never a reference: a bibliography or citation of notes alone is refused.
      const noteItems = new Set(await lib.noteItemIds(asked));
      const ids = asked.filter((id) => !noteItems.has(id));
      if (ids.length === 0)
        throw new CoreError('INVALID_INPUT', 'Notes are not references: choose items to cite, not only notes.');
      const items = await cslOf(ids);
      if (items.length !== ids.length)
        throw new CoreError(
          'NOT_FOUND',
          `${ids.length - items.length} of the items to cite are no longer in the library.`,
        );
      const formatter = deps.formatter();
      if (kind === 'citation') {
        const cluster = items.map((i) => ({ id: String(i.id) }));
        const [text, html] = await Promise.all([
          formatter.formatCitation(items, cluster, { style, locale, format: 'text' }),
          formatter.formatCitation(items, cluster, { style, locale, format: 'html' }),
        ]);
        return { text: text.value, html: html.value };
      }
      const [text, html] = await Promise.all([
        formatter.formatBibliography(items, { style, locale, format: 'text' }),
        formatter.formatBibliography(items, { style, locale, format: 'html' }),
      ]);
      return { text: text.document, html: html.document };
    },

    'library.citeRecords': async ({ records, style, locale }) => {
      const formatter = deps.formatter();
      const out: { text: string; html: string }[] = [];
      for (const record of records) {
        const items = [record as unknown as CslItem];
        const [text, html] = await Promise.all([
          formatter.formatBibliography(items, { style, locale, format: 'text' }),
          formatter.formatBibliography(items, { style, locale, format: 'html' }),
        ]);
        out.push({ text: text.document, html: html.document });
      }
      return out;
    },

    'library.styles.list': () => deps.formatter().styles().map(styleInfo),
    'library.styles.add': ({ xml }) => styleInfo(deps.styles.add(deps.formatter(), xml)),
    'library.styles.remove': ({ id }) => {
      deps.styles.remove(deps.formatter(), id);
      deps.onStyleRemoved?.(id);
      return null;
    },

    'library.backup': () => library.backup('manual'),
    'library.backups': () => listBackups(library.backupDir),
  } satisfies FeatureHandlers<typeof libraryFeature>;
}
