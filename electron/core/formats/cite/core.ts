// The formatting core of one thread (the main process for small jobs, each pool worker for big ones):
// a warm citeproc-js engine per (style, locale), and a cache of rendered bibliography entries.
//
// Why a cache alone is not enough: an entry depends on more than its item. Sorting, citation numbers,
// year suffixes (2020a), the disambiguate condition and the "———" of a repeated author all come from the
// other items. So each cached entry is keyed by (style and its version, locale, format, item id, item
// version or content hash) *and* by the item's context as the engine's registry states it after the
// whole set is registered: its citation number (numbered styles), its disambiguation state, and the
// item before it (styles that substitute a repeated author). The engine keeps its registry between
// calls and is updated incrementally; only entries whose key misses are rendered, and when nothing
// changed the engine is not called at all.
import { createHash } from 'node:crypto';
import type { CslItem } from '../../../../shared/model/csl';
import { withOthersNames } from '../../../../shared/model/others';
import { CoreError } from '../../errors';
import { citeproc, type CiteprocEngine, type CslXmlNode } from './citeproc';
import { assertSafeHtml } from './html';
import type { LocaleLookup } from './locales';
import type { CslStyleDef } from './styles';
import type { BibliographyEntry, CitationCluster, OutputFormat } from './types';

export interface CoreRequest {
  style: CslStyleDef;
  /** A resolved, shipped locale tag. */
  locale: string;
  /** Whether the locale overrides the style's default-locale (it was asked for explicitly). */
  forceLocale: boolean;
  format: OutputFormat;
}

export interface CoreBibliography {
  entries: BibliographyEntry[];
  document: string;
}

export interface CoreStats {
  engines: number;
  cachedEntries: number;
  /** Entries rendered by citeproc since the core started. */
  rendered: number;
  /** Entries served from the cache since the core started. */
  reused: number;
}

interface EngineState {
  engine: CiteprocEngine;
  items: Map<string, CslItem>;
  order: string[];
  keys: Map<string, string>;
  lastUsed: number;
}

const DEFAULT_MAX_ENTRIES = 50_000;
const DEFAULT_MAX_ENGINES = 16;

/** The cache identity of an item's content: the store's version when given, else a hash of its CSL-JSON. */
export function itemKey(item: CslItem, version?: string | number): string {
  if (version !== undefined) return `v:${version}`;
  return `h:${createHash('sha1').update(JSON.stringify(item)).digest('base64url')}`;
}

export const RTF_HEADER = '{\\rtf1\\ansi\\uc0\\deff0{\\fonttbl{\\f0 Times New Roman;}}\\f0\\fs24\n';

export function bibliographyDocument(format: OutputFormat, values: readonly string[]): string {
  switch (format) {
    case 'text':
      return values.join('\n');
    case 'html':
      return `<div class="csl-bib-body">\n${values.map((v) => `  ${v}\n`).join('')}</div>`;
    case 'rtf':
      return `${RTF_HEADER}${values.map((v) => `${v}\\par\n`).join('')}}`;
  }
}

/**
 * The style as a bibliography needs it: without the <sort> of its <citation>. citeproc-js reads the
 * citation's sort keys only to order the cites inside a citation cluster (processCitationCluster,
 * makeCitationCluster); registering items, sorting and disambiguating them and rendering the
 * bibliography use the bibliography's sort and the citation's layout, which stay. Building those keys
 * is most of an engine's creation for styles whose sort keys call nested macros, which citeproc-js
 * expands anew at every call in a sort key: apa 1.38 s → 0.69 s CPU (1,504 of its 1,612 macro
 * expansions are in sort keys), chicago 94 → 73 ms. Output: test/unit/formats/cite/pinned.test.ts.
 */
export function bibliographyStyle(xml: string): CslXmlNode {
  const root = citeproc().parseXml(xml);
  for (const node of root.children) {
    if (typeof node === 'object' && node.name === 'citation')
      node.children = node.children.filter((c) => typeof c !== 'object' || c.name !== 'sort');
  }
  return root;
}

export class CiteCore {
  readonly #locales: LocaleLookup;
  readonly #engines = new Map<string, EngineState>();
  readonly #entries = new Map<string, string>();
  readonly #maxEntries: number;
  readonly #maxEngines: number;
  #rendered = 0;
  #reused = 0;
  #clock = 0;

  constructor(locales: LocaleLookup, options: { maxEntries?: number; maxEngines?: number } = {}) {
    this.#locales = locales;
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#maxEngines = options.maxEngines ?? DEFAULT_MAX_ENGINES;
  }

  stats(): CoreStats {
    return {
      engines: this.#engines.size,
      cachedEntries: this.#entries.size,
      rendered: this.#rendered,
      reused: this.#reused,
    };
  }

  clear(): void {
    this.#engines.clear();
    this.#entries.clear();
  }

  bibliography(req: CoreRequest, items: readonly CslItem[], keys: readonly string[]): CoreBibliography {
    const state = this.#state(req, 'bibliography');
    this.#register(state, items, keys);
    const { style, format } = req;
    const sorted = state.engine.registry.getSortedIds();
    const prefix = `${style.id}\u0000${style.version}\u0000${req.locale}\u0000${req.forceLocale ? 1 : 0}\u0000${format}\u0000`;
    const cacheKeys = new Map<string, string>();
    let previous = '';
    for (const id of sorted) {
      const reg = state.engine.registry.registry[id];
      const context = [
        style.numbered ? String(reg?.seq ?? '') : '',
        reg?.disambig ? JSON.stringify(reg.disambig) : '',
        style.substitutesAuthor ? previous : '',
      ].join('\u0001');
      const key = `${prefix}${id}\u0000${state.keys.get(id) ?? ''}\u0000${context}`;
      cacheKeys.set(id, key);
      previous = `${id}\u0002${state.keys.get(id) ?? ''}`;
    }
    const values = new Map<string, string>();
    const missing: string[] = [];
    for (const id of sorted) {
      const hit = this.#entries.get(cacheKeys.get(id)!);
      if (hit === undefined) missing.push(id);
      else values.set(id, hit);
    }
    if (missing.length) {
      for (const [id, value] of this.#render(state, req, sorted, missing)) {
        values.set(id, value);
        this.#remember(cacheKeys.get(id)!, value);
      }
    }
    this.#rendered += missing.length;
    this.#reused += sorted.length - missing.length;
    const entries = sorted.filter((id) => values.has(id)).map((id) => ({ id, value: values.get(id)! }));
    return {
      entries,
      document: bibliographyDocument(
        format,
        entries.map((e) => e.value),
      ),
    };
  }

  /**
   * Builds the engine a bibliography of this request will use, without registering anything, so that
   * a caller can pay for it while it is still reading the items (CiteFormatter.prepareBibliography).
   */
  prepare(req: CoreRequest): void {
    this.#state(req, 'bibliography');
  }

  /** In-text citations, one per cluster, in the context of `items` (for disambiguation and numbers). */
  citations(
    req: CoreRequest,
    items: readonly CslItem[],
    keys: readonly string[],
    clusters: readonly CitationCluster[],
  ): string[] {
    const state = this.#state(req, 'citations');
    this.#register(state, items, keys);
    state.engine.setOutputFormat(req.format);
    return clusters.map((cluster) => {
      if (cluster.length === 0) throw new CoreError('INVALID_INPUT', 'A citation needs at least one item.');
      for (const ref of cluster) {
        if (!state.items.has(ref.id))
          throw new CoreError('INVALID_INPUT', `The citation cites "${ref.id}", which is not among the items.`);
      }
      const value = state.engine.makeCitationCluster(cluster.map((ref) => ({ ...ref })));
      return req.format === 'html' ? assertSafeHtml(value) : value;
    });
  }

  /**
   * The warm engine for a request. Bibliographies and citations get engines of their own: a
   * bibliography's engine is built without the citation's sort keys (bibliographyStyle).
   */
  #state(req: CoreRequest, purpose: 'bibliography' | 'citations'): EngineState {
    const key = `${purpose}\u0000${req.style.id}\u0000${req.style.version}\u0000${req.locale}\u0000${req.forceLocale ? 1 : 0}`;
    let state = this.#engines.get(key);
    if (!state) {
      const items = new Map<string, CslItem>();
      const engine = new (citeproc().Engine)(
        {
          retrieveLocale: (lang) => this.#locales(lang) ?? this.#locales('en-US'),
          retrieveItem: (id) => {
            const item = items.get(id);
            if (!item) throw new Error(`citeproc asked for unknown item ${id}`);
            return item;
          },
        },
        purpose === 'bibliography' ? bibliographyStyle(req.style.xml) : req.style.xml,
        req.locale,
        req.forceLocale,
      );
      // Links are never generated: a URL from a file could be javascript:.
      engine.opt.development_extensions.wrap_url_and_doi = false;
      state = { engine, items, order: [], keys: new Map(), lastUsed: 0 };
      this.#engines.set(key, state);
      if (this.#engines.size > this.#maxEngines) {
        const oldest = [...this.#engines.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
        if (oldest) this.#engines.delete(oldest[0]);
      }
    }
    state.lastUsed = ++this.#clock;
    return state;
  }

  /** Brings the engine's registry to exactly these items, in this order; a no-op when nothing changed. */
  #register(state: EngineState, items: readonly CslItem[], keys: readonly string[]): void {
    const ids = items.map((item) => item.id);
    const unchanged =
      ids.length === state.order.length &&
      ids.every((id, i) => id === state.order[i] && keys[i] === state.keys.get(id));
    if (unchanged) return;
    const seen = new Set<string>();
    const next = new Map<string, string>();
    const changed = new Set<string>();
    items.forEach((item, i) => {
      if (typeof item?.id !== 'string' || item.id === '')
        throw new CoreError('INVALID_INPUT', `Item ${i + 1} has no id.`);
      if (seen.has(item.id)) throw new CoreError('INVALID_INPUT', `Two items have the id "${item.id}".`);
      seen.add(item.id);
      const key = keys[i]!;
      next.set(item.id, key);
      const old = state.keys.get(item.id);
      if (old !== undefined && old !== key) changed.add(item.id);
    });
    // A changed item is dropped from the registry first: citeproc keeps registered items as it first read them.
    if (changed.size) state.engine.updateItems(state.order.filter((id) => seen.has(id) && !changed.has(id)));
    state.items.clear();
    // "and others" as pandoc gives it to its citeproc: a last {"literal": "others"} (shared/model/others.ts).
    for (const item of items) state.items.set(item.id, withOthersNames(item));
    state.engine.updateItems(ids);
    state.order = ids;
    state.keys = next;
  }

  #render(
    state: EngineState,
    req: CoreRequest,
    sorted: readonly string[],
    missing: readonly string[],
  ): Map<string, string> {
    const { engine } = state;
    engine.setOutputFormat(req.format);
    const wanted = new Set(missing);
    let section: { include: Array<{ field: string; value: string }> } | undefined;
    if (missing.length < sorted.length) {
      const render = new Set(missing);
      // The author dash compares an entry with the one rendered before it, so render that one too.
      if (req.style.substitutesAuthor) {
        sorted.forEach((id, i) => {
          if (wanted.has(id) && i > 0) render.add(sorted[i - 1]!);
        });
      }
      section = { include: [...render].map((id) => ({ field: 'id', value: id })) };
    }
    const result = engine.makeBibliography(section);
    const out = new Map<string, string>();
    if (!result) return out;
    const [params, values] = result;
    params.entry_ids.forEach((ids, i) => {
      const id = ids[0];
      const raw = values[i];
      if (id === undefined || raw === undefined || !wanted.has(id)) return;
      out.set(id, this.#finish(req.format, raw));
    });
    return out;
  }

  #finish(format: OutputFormat, raw: string): string {
    switch (format) {
      case 'text':
        return raw.replace(/\s+$/, '');
      case 'html':
        return assertSafeHtml(raw.trim());
      case 'rtf':
        return raw.replace(/\s+$/, '');
    }
  }

  #remember(key: string, value: string): void {
    this.#entries.set(key, value);
    if (this.#entries.size > this.#maxEntries) {
      const drop = this.#entries.size - this.#maxEntries;
      let i = 0;
      for (const k of this.#entries.keys()) {
        if (i++ >= drop) break;
        this.#entries.delete(k);
      }
    }
  }
}
