// What Zotero brings in: the Zotero Connector's saves (electron/api/connector calls these, the app
// hears them as `zotero.saved` and shows a toast), and a Zotero data folder imported directly.
import { createHash } from 'node:crypto';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CslItem } from '../../../shared/model/csl';
import { MAX_CONNECTOR_ITEMS } from '../../../shared/ipc';
import type { ConnectorSave, LibraryChange, PdfAddOutcome, zoteroFeature } from '../../../shared/ipc';
import { CoreError } from '../errors';
import { importInWorker } from '../formats/run-in-worker';
import { zoteroToCsl, type ZoteroItemJson } from '../formats/zotero/item';
import type { EventBus } from '../events';
import type { LibraryClient } from '../library/client';
import { ZOTERO_FLOW, type ConnectorItem } from '../library/zotero-room';
import type { JobRegistry } from '../jobs/registry';
import type { FeatureHandlers } from '../registry';
import type { ZoteroImportReport } from '../../../shared/ipc';

export interface ZoteroHandlerDeps {
  library: Pick<LibraryClient, 'lib'>;
  events: Pick<EventBus, 'emit'>;
  dataDir: string;
  changed: (change: LibraryChange) => void;
  onAdded?: (ids: readonly number[]) => void;
  /** A PDF's bytes captured for an item (handlers/pdfs.ts captureInto). */
  capturePdf: (
    upload: { name: string; base64: string; itemId: number; source: string },
    signal: AbortSignal,
  ) => Promise<PdfAddOutcome>;
  /** Imports a Zotero data folder (library worker), counting into and cancelled through `progress` (ZOTERO_FLOW). */
  importFolder: (path: string, signal: AbortSignal, progress: Int32Array, base?: string) => Promise<ZoteroImportReport>;
  /** The data-folder import runs as a job: the app shows its progress and offers Cancel. */
  jobs: Pick<JobRegistry, 'start'>;
}

/** A translator's attachment: a file to come (saveAttachment, saveSingleFile) or a link to keep. */
interface ConnectorAttachment {
  title?: unknown;
  url?: unknown;
  mimeType?: unknown;
  snapshot?: unknown;
  linkMode?: unknown;
}

/** The item as a CSL record, its tags, and its notes as sent (HTML; the library keeps them to the note allowlist); links the translator gave are kept on it. */
export function connectorItem(item: ZoteroItemJson, index: number) {
  const { csl, tags } = zoteroToCsl(item, `zotero-connector-${index + 1}`);
  const notes = (Array.isArray(item.notes) ? (item.notes as unknown[]) : [])
    .map((n) => (typeof n === 'string' ? n : n && typeof n === 'object' ? (n as { note?: unknown }).note : undefined))
    .filter((n): n is string => typeof n === 'string' && n.trim() !== '');
  // Links (snapshot: false) stay links: Zotero saves them as "linked URL" attachments.
  const links = (Array.isArray(item.attachments) ? (item.attachments as ConnectorAttachment[]) : [])
    .filter((a) => a && (a.snapshot === false || a.linkMode === 'linked_url') && typeof a.url === 'string')
    .map((a) => ({ title: typeof a.title === 'string' ? a.title : String(a.url), url: String(a.url) }));
  const withLinks: CslItem =
    links.length === 0
      ? csl
      : {
          ...csl,
          custom: {
            ...csl.custom,
            zotero: {
              ...((csl.custom?.['zotero'] as object | undefined) ?? { itemType: item.itemType }),
              links,
            },
          },
        };
  return { csl: withLinks, tags, notes };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'text/html': 'html',
  'application/xhtml+xml': 'xhtml',
  'application/epub+zip': 'epub',
  'text/plain': 'txt',
  'image/png': 'png',
  'image/jpeg': 'jpg',
};

export function zoteroHandlers(deps: ZoteroHandlerDeps) {
  const { lib } = deps.library;

  const titleOf = async (id: number): Promise<string | null> => (await lib.getItem(id)).title;
  const collectionOf = async (id: number | null): Promise<ConnectorSave['collection']> => {
    if (id === null) return null;
    const c = (await lib.listCollections()).find((x) => x.id === id);
    return c ? { id: c.id, name: c.name } : null;
  };
  const announce = (save: ConnectorSave): void => deps.events.emit('zotero.saved', save);

  /** A save from the browser: one undo step, filed in the collection, announced to the app. */
  const save = async (prepared: ConnectorItem[], collectionId: number | null, source: string) => {
    const saved = await lib.saveConnectorItems(prepared, collectionId);
    const out = await Promise.all(saved.map(async (s) => ({ ...s, title: await titleOf(s.id) })));
    const ids = saved.map((s) => s.id);
    deps.changed({ kind: 'items', ids });
    if (collectionId !== null) deps.changed({ kind: 'collections' });
    const added = saved.filter((s) => !s.existing).map((s) => s.id);
    if (added.length > 0) deps.onAdded?.(added);
    announce({ kind: 'saved', items: out, collection: await collectionOf(collectionId), source });
    return out;
  };

  return {
    'zotero.connector.save': ({ items, collectionId, source }) =>
      save(
        (items as ZoteroItemJson[]).map((item, i) => connectorItem(item, i)),
        collectionId,
        source,
      ),
    'zotero.connector.import': async ({ text, collectionId, source }, { signal }) => {
      // Read in the formats worker, as a file import is; Zotero answers 400 when nothing can be read.
      const parsed = await importInWorker({ kind: 'text', text }, { signal });
      if (parsed.format === 'doi-list' || parsed.count === 0) {
        const first = parsed.errors[0];
        throw new CoreError(
          'INVALID_INPUT',
          parsed.format === 'doi-list'
            ? 'The page offered a list of DOIs, not a bibliography: add them with Add → By DOI.'
            : `No entry of it could be read${first ? ` (line ${first.line}: ${first.reason})` : ''}: the page offered no BibTeX, RIS or CSL-JSON Citewise can read.`,
        );
      }
      if (parsed.items.length > MAX_CONNECTOR_ITEMS)
        throw new CoreError(
          'INVALID_INPUT',
          `The file holds ${parsed.items.length} entries; a save from the browser takes at most ${MAX_CONNECTOR_ITEMS}: download it and use Import… instead.`,
        );
      return save(
        parsed.items.map(({ item }) => ({ csl: item, tags: [], notes: [] })),
        collectionId,
        source,
      );
    },
    'zotero.connector.update': async (input) => {
      const notes = await lib.updateConnectorSave(input);
      deps.changed({ kind: 'items', ids: input.ids });
      deps.changed({ kind: 'collections' });
      if (input.fromCollectionId !== input.toCollectionId)
        announce({
          kind: 'moved',
          items: await Promise.all(input.ids.map(async (id) => ({ id, title: await titleOf(id), existing: true }))),
          collection: await collectionOf(input.toCollectionId),
          source: input.source,
        });
      return notes;
    },
    'zotero.connector.attach': async ({ itemId, name, mime, base64, source }, { signal }) => {
      await lib.getItem(itemId);
      let outcome: PdfAddOutcome;
      if (mime === 'application/pdf') outcome = await deps.capturePdf({ name, base64, itemId, source }, signal);
      else outcome = await keepFile(itemId, name, mime, base64);
      deps.changed({ kind: 'items', ids: [itemId] });
      if (outcome.status !== 'failed')
        announce({
          kind: 'attached',
          items: [{ id: itemId, title: await titleOf(itemId), existing: true }],
          collection: null,
          source,
          file: name,
        });
      return outcome;
    },
    'zotero.import.preview': ({ path, base }) => lib.previewZoteroFolder(path, base),
    'zotero.import': async ({ path, base }, { signal }) => {
      const flow = new Int32Array(new SharedArrayBuffer(4 * 3));
      let report: ZoteroImportReport | undefined;
      const job = deps.jobs.start('zotero.import', 'Importing the Zotero library', async (job) => {
        const cancel = () => Atomics.store(flow, ZOTERO_FLOW.cancel, 1);
        job.signal.addEventListener('abort', cancel, { once: true });
        signal.addEventListener('abort', cancel, { once: true });
        const timer = setInterval(() => {
          const done = Atomics.load(flow, ZOTERO_FLOW.done);
          const total = Atomics.load(flow, ZOTERO_FLOW.total);
          if (total > 0)
            job.progress(done, total, `${done.toLocaleString('en')} of ${total.toLocaleString('en')} records`);
        }, 100);
        try {
          report = await deps.importFolder(path, signal, flow, base);
        } finally {
          clearInterval(timer);
          job.signal.removeEventListener('abort', cancel);
          signal.removeEventListener('abort', cancel);
        }
      });
      // Cancel pressed as the import committed: it is in the library (and one undo step), so say what it brought.
      await job.done.catch((err: unknown) => {
        if (report === undefined) throw err;
      });
      if (report === undefined) throw new CoreError('INTERNAL', 'The Zotero import ended without a report.');
      deps.changed({ kind: 'all' });
      if (report.ids.length > 0) deps.onAdded?.(report.ids);
      return report;
    },
  } satisfies FeatureHandlers<typeof zoteroFeature>;

  /**
   * A file other than a PDF (a page snapshot, an EPUB): copied into the library folder under its
   * checksum, attached to the item; the same file twice is one attachment.
   */
  async function keepFile(itemId: number, name: string, mime: string, base64: string): Promise<PdfAddOutcome> {
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.byteLength === 0) throw new CoreError('INVALID_INPUT', `${name} is empty.`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const dir = join(deps.dataDir, 'attachments', sha256.slice(0, 2));
    const path = join(dir, `${sha256}.${EXTENSIONS[mime] ?? 'bin'}`);
    const item = await lib.getItem(itemId);
    const same = item.attachments.find((a) => a.path === path);
    if (same) return { name, status: 'duplicate', itemId, reason: 'checksum' };
    const there = await access(path).then(
      () => true,
      () => false,
    );
    if (!there) {
      await mkdir(dir, { recursive: true });
      await writeFile(path, bytes, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    }
    // No checksum on the row: the full-text index reads attachments with one, and it reads PDFs.
    await lib.addAttachment(itemId, { path, size: bytes.byteLength, mime, stored: 'copied', originalName: name });
    return {
      name,
      status: 'attached',
      itemId,
      state: 'identified',
      method: 'none',
      confidence: 1,
      doi: item.doi,
      title: item.title,
    };
  }
}
