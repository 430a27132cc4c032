// The citation formatter: formatted bibliographies (text, HTML, RTF) and in-text citations (single and
// grouped) in the eight Citewise styles and any style a user adds from a .csl file. Small jobs run in
// this thread; big ones go to the worker pool. Each thread keeps warm engines and an entry cache (core.ts).
import type { CslItem } from '../../../../shared/model/csl';
import { CoreError } from '../../errors';
import { defaultCslDir, directoryAssets, type CslAssets } from './assets';
import { bibtexCitation, bibtexDocument, bibtexEntry } from './bibtex';
import { bibliographyDocument, CiteCore, itemKey, RTF_HEADER, type CoreRequest } from './core';
import { persistKey } from './persist';
import { resolveLocale } from './locales';
import { WorkerPool, type Holds, type WorkerEntry } from './pool';
import type { JobBase } from './protocol';
import { StyleRegistry, type CslStyleDef } from './styles';
import {
  OUTPUT_FORMATS,
  type Bibliography,
  type BibliographyEntry,
  type Citation,
  type CitationCluster,
  type CiteRef,
  type FormatOptions,
  type OutputFormat,
  type StyleId,
  type StyleInfo,
} from './types';

export interface CiteFormatterOptions {
  /** Styles and locales; default: the build-csl folder (defaultCslDir()). */
  assets?: CslAssets;
  /** Worker threads for big jobs (default 2); 0 formats everything in this thread. */
  workers?: number;
  /** Jobs with at least this many items go to a worker (default 100). */
  workerThreshold?: number;
  /** The worker script; default: locateWorker('cite-worker') (electron/core/worker-entry.ts). */
  workerEntry?: WorkerEntry;
}

const MAX_ITEMS = 100_000;

export class CiteFormatter {
  readonly #assets: CslAssets;
  readonly #registry: StyleRegistry;
  readonly #core: CiteCore;
  readonly #pool: WorkerPool | undefined;
  readonly #threshold: number;
  readonly #persisted = { hits: 0, misses: 0 };
  /** Engines built ahead by prepareBibliography, by #engineKey: their jobs go to the worker whatever their size. */
  readonly #prepared = new Set<string>();

  constructor(options: CiteFormatterOptions = {}) {
    this.#assets = options.assets ?? directoryAssets(defaultCslDir());
    this.#registry = new StyleRegistry(this.#assets);
    this.#core = new CiteCore((lang) => {
      const tag = resolveLocale(lang, this.#assets.manifest.locales);
      return tag ? this.#assets.localeXml(tag) : undefined;
    });
    const workers = options.workers ?? 2;
    this.#pool = workers > 0 ? new WorkerPool(workers, options.workerEntry) : undefined;
    this.#threshold = options.workerThreshold ?? 100;
  }

  /** The built-in styles (the eight CitationStyleIds, in order) and the registered user styles. */
  styles(): StyleInfo[] {
    return this.#registry.list();
  }

  locales(): string[] {
    return [...this.#assets.manifest.locales];
  }

  /** Adds a style from a .csl file's text; see StyleRegistry.register. */
  registerStyle(xml: string, options: { id?: string } = {}): StyleInfo {
    return this.#registry.register(xml, options);
  }

  unregisterStyle(id: StyleId): boolean {
    return this.#registry.unregister(id);
  }

  async formatBibliography(items: readonly CslItem[], options: FormatOptions): Promise<Bibliography> {
    return this.#bibliography(items, options, false);
  }

  /**
   * Starts the worker that serves a style and builds its engine ahead of the first big job (call it
   * at start-up for the user's default style): the first export then skips worker start and engine set-up.
   */
  async warmUp(options: Pick<FormatOptions, 'style' | 'locale'>): Promise<void> {
    const sample: CslItem[] = [
      {
        id: 'warm-up-1',
        type: 'article-journal',
        title: 'Warm-up',
        author: [{ family: 'Citewise', given: 'A.' }],
        'container-title': 'Journal',
        issued: { 'date-parts': [[2020]] },
        volume: '1',
        page: '1-2',
      },
    ];
    await this.#bibliography(sample, { ...options, format: 'text' }, true);
  }

  /**
   * Starts the thread of the worker that serves a style, without loading citeproc-js or building
   * anything: the CLI calls it while the library opens, so that prepareBibliography finds it running.
   */
  startWorker(options: Pick<FormatOptions, 'style' | 'locale'>): void {
    const { style, format, locale, forceLocale } = this.#resolve([], options);
    if (style !== 'bibtex') this.#pool?.start(this.#slot({ style, format, locale, forceLocale }));
  }

  /**
   * Builds a style's bibliography engine in its worker (loading citeproc-js and engine creation:
   * 0.2 to 0.5 s of a cold apa export) while the caller is still reading the items, when it knows
   * that they will be rendered (the library's cache holds no bibliography in this style,
   * electron/cli/commands/export.ts). Nothing is registered or rendered, so the bibliography that
   * follows is the one a fresh engine prints; it goes to this worker even below the worker
   * threshold. Without workers, or for bibtex, there is nothing to build ahead.
   */
  async prepareBibliography(options: Pick<FormatOptions, 'style' | 'locale' | 'format'>): Promise<void> {
    const { style, format, locale, forceLocale } = this.#resolve([], options);
    if (style === 'bibtex' || !this.#pool) return;
    const req: CoreRequest = { style, locale, forceLocale, format };
    this.#prepared.add(this.#engineKey(req));
    const result = await this.#pool.run(this.#slot(req), (holds) => ({
      kind: 'prepare',
      ...this.#job(req, holds, [], []),
    }));
    if (result.kind !== 'prepare')
      throw new CoreError('INTERNAL', 'The citation worker answered with the wrong result.');
  }

  async #bibliography(items: readonly CslItem[], options: FormatOptions, pooled: boolean): Promise<Bibliography> {
    const { style, format, locale, forceLocale } = this.#resolve(items, options);
    if (style === 'bibtex') {
      const entries = items.map((item) => bibtexEntry(item, format));
      return {
        style: options.style,
        locale,
        format,
        entries,
        document: bibtexDocument(
          format,
          entries.map((e) => e.value),
          RTF_HEADER,
        ),
      };
    }
    const req: CoreRequest = { style, locale, forceLocale, format };
    const store = pooled ? undefined : options.store;
    const key = store ? persistKey({ ...req, localeXml: this.#localeXml(req), items }) : '';
    if (store) {
      const kept = await store.get(key);
      if (kept) {
        this.#persisted.hits++;
        return {
          style: options.style,
          locale,
          format,
          entries: kept,
          document: bibliographyDocument(
            format,
            kept.map((e) => e.value),
          ),
        };
      }
      this.#persisted.misses++;
    }
    const value = await this.#render(req, items, options, pooled);
    // A store that cannot keep it (a full disk, a read-only library) costs the next export a render, nothing more.
    if (store) await Promise.resolve(store.put(key, { style: style.id, format }, value.entries)).catch(() => undefined);
    return { style: options.style, locale, format, ...value };
  }

  async #render(
    req: CoreRequest,
    items: readonly CslItem[],
    options: FormatOptions,
    pooled: boolean,
  ): Promise<{ entries: BibliographyEntry[]; document: string }> {
    const versions = items.map((item) => options.versionOf?.(item));
    if (this.#pool && (pooled || items.length >= this.#threshold || this.#prepared.has(this.#engineKey(req)))) {
      const result = await this.#pool.run(this.#slot(req), (holds) => ({
        kind: 'bibliography',
        ...this.#job(req, holds, items, versions),
      }));
      if (result.kind === 'bibliography') return result.value;
      throw new CoreError('INTERNAL', 'The citation worker answered with the wrong result.');
    }
    return this.#core.bibliography(
      req,
      items,
      items.map((item, i) => itemKey(item, versions[i])),
    );
  }

  /** The XML of the locales an engine for this request may read, in a fixed order. */
  #localeXml(req: CoreRequest): string[] {
    const tags = new Set(
      ['en-US', req.locale, ...(req.style.defaultLocale ? [req.style.defaultLocale] : [])].map(
        (l) => resolveLocale(l, this.#assets.manifest.locales) ?? l,
      ),
    );
    return [...tags].sort().map((tag) => this.#assets.localeXml(tag) ?? '');
  }

  /**
   * One in-text citation: a single item (a CiteRef or an id) or a group cited together. `items` is the
   * context, normally every item of the document's bibliography: disambiguation (2020a, initials) and
   * citation numbers depend on it, and numbers follow its order.
   */
  async formatCitation(
    items: readonly CslItem[],
    cite: string | CiteRef | CitationCluster,
    options: FormatOptions,
  ): Promise<Citation> {
    const cluster: CitationCluster =
      typeof cite === 'string' ? [{ id: cite }] : Array.isArray(cite) ? (cite as CitationCluster) : [cite as CiteRef];
    const [one] = await this.formatCitations(items, [cluster], options);
    return one!;
  }

  /** Several citations in the same context, one result per cluster. */
  async formatCitations(
    items: readonly CslItem[],
    clusters: readonly CitationCluster[],
    options: FormatOptions,
  ): Promise<Citation[]> {
    const { style, format, locale, forceLocale } = this.#resolve(items, options);
    if (
      !Array.isArray(clusters) ||
      clusters.some((c) => !Array.isArray(c) || c.some((r) => typeof r?.id !== 'string'))
    ) {
      throw new CoreError('INVALID_INPUT', 'A citation is a list of { id } references.');
    }
    if (style === 'bibtex') {
      const byId = new Map(items.map((item) => [item.id, item]));
      return clusters.map((cluster) => {
        for (const ref of cluster)
          if (!byId.has(ref.id))
            throw new CoreError('INVALID_INPUT', `The citation cites "${ref.id}", which is not among the items.`);
        return { value: bibtexCitation(cluster, byId, format) };
      });
    }
    const req: CoreRequest = { style, locale, forceLocale, format };
    const versions = items.map((item) => options.versionOf?.(item));
    if (this.#pool && items.length >= this.#threshold) {
      const result = await this.#pool.run(this.#slot(req), (holds) => ({
        kind: 'citations',
        clusters: clusters.map((c) => [...c]),
        ...this.#job(req, holds, items, versions),
      }));
      if (result.kind === 'citations') return result.value.map((value) => ({ value }));
      throw new CoreError('INTERNAL', 'The citation worker answered with the wrong result.');
    }
    const keys = items.map((item, i) => itemKey(item, versions[i]));
    return this.#core.citations(req, items, keys, clusters).map((value) => ({ value }));
  }

  /** Cache and engine counters of this thread's core (workers keep their own). */
  stats(): ReturnType<CiteCore['stats']> {
    return this.#core.stats();
  }

  /** Bibliographies served from and missed in a BibliographyStore (FormatOptions.store) by this formatter. */
  persistedStats(): { hits: number; misses: number } {
    return { ...this.#persisted };
  }

  async close(): Promise<void> {
    this.#core.clear();
    await this.#pool?.close();
  }

  #resolve(
    items: readonly CslItem[],
    options: FormatOptions,
  ): { style: CslStyleDef | 'bibtex'; format: OutputFormat; locale: string; forceLocale: boolean } {
    if (!Array.isArray(items)) throw new CoreError('INVALID_INPUT', 'Items must be a list of CSL-JSON items.');
    if (items.length > MAX_ITEMS)
      throw new CoreError('INVALID_INPUT', `At most ${MAX_ITEMS} items can be formatted at once.`);
    for (const [i, item] of items.entries()) {
      if (
        typeof item !== 'object' ||
        item === null ||
        typeof item.id !== 'string' ||
        item.id === '' ||
        typeof item.type !== 'string'
      ) {
        throw new CoreError('INVALID_INPUT', `Item ${i + 1} is not a CSL-JSON item with an id and a type.`);
      }
    }
    const format = options.format ?? 'text';
    if (!OUTPUT_FORMATS.includes(format))
      throw new CoreError('INVALID_INPUT', `Unknown output format "${String(format)}".`);
    const style = this.#registry.get(options.style);
    const wanted = options.locale ?? (style === 'bibtex' ? undefined : style.defaultLocale) ?? 'en-US';
    const locale = resolveLocale(wanted, this.#assets.manifest.locales);
    if (!locale) throw new CoreError('INVALID_INPUT', `No CSL locale for "${wanted}".`);
    return { style, format, locale, forceLocale: options.locale !== undefined };
  }

  #engineKey(req: CoreRequest): string {
    return `${req.style.version}\u0000${req.locale}\u0000${req.forceLocale ? 1 : 0}`;
  }

  #slot(req: CoreRequest): number {
    return this.#pool!.slotFor(`${req.style.id}\u0000${req.locale}`);
  }

  /** A job's common part, with only the style and locale XML the worker does not hold yet. */
  #job(
    req: CoreRequest,
    holds: Holds,
    items: readonly CslItem[],
    versions: Array<string | number | undefined>,
  ): Omit<JobBase, 'id'> {
    const locales: Record<string, string> = {};
    for (const lang of new Set(['en-US', req.locale, ...(req.style.defaultLocale ? [req.style.defaultLocale] : [])])) {
      const tag = resolveLocale(lang, this.#assets.manifest.locales);
      if (!tag || holds.locales.has(tag)) continue;
      const xml = this.#assets.localeXml(tag);
      if (xml) {
        locales[tag] = xml;
        holds.locales.add(tag);
      }
    }
    const style = holds.styles.has(req.style.version) ? { version: req.style.version } : req.style;
    holds.styles.add(req.style.version);
    return {
      style,
      locale: req.locale,
      forceLocale: req.forceLocale,
      format: req.format,
      locales,
      items: [...items],
      versions,
    };
  }
}

export function createCiteFormatter(options: CiteFormatterOptions = {}): CiteFormatter {
  return new CiteFormatter(options);
}
