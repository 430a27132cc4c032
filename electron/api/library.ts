// What the editor API needs from the core, in its terms: items by citation key, ranked search, exports
// and formatted citations. Reads go to the library worker (its indexed search, its exporters);
// writes and formatting go through the core's handlers, so they are validated, undoable and announced
// to the app like any other change.
import type { Channel, InputOf, ResultOf } from '../../shared/ipc';
import type { CslItem } from '../../shared/model/csl';
import type { ItemStatus } from '../../shared/model/item-status';
import type { Collection, ItemDetail, LibraryRow } from '../../shared/model/library';
import type { Core } from '../core';
import type { ExportFormat } from '../core/formats';
import { RpcError, INVALID_PARAMS, INTERNAL_ERROR } from './json-rpc';
import { cslYaml } from './csl-yaml';
import { ExportGate } from './export-gate';
// The JSON, not styles.ts, which loads citeproc-js: the editor API starts without it.
import BUILT_IN_CSL_STYLES from '../core/formats/cite/built-in-styles.json';
import { CITATION_LOCALES, type CitationLocale } from '../../shared/model/settings';

export type ApiCore = Pick<Core, 'invoke' | 'library'>;

/**
 * Citewise's built-in styles by the CSL style ids Zotero and Better BibTeX clients send: each style's
 * own CSL id (the file it is built from), and the older or shorter names clients still send.
 */
const STYLE_ALIASES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(BUILT_IN_CSL_STYLES).map(([id, csl]) => [csl, id])),
  'chicago-note-bibliography': 'chicago',
  'apa-7th-edition': 'apa',
  apa7: 'apa',
};
const LOCALES: ReadonlySet<string> = new Set(CITATION_LOCALES);

/** How long the picker reuses the list of items with notices (a scan of the status table). */
const FLAGGED_TTL_MS = 10_000;

export class EditorLibrary {
  #flagged: { at: number; byId: Promise<Map<number, ItemStatus>> } | null = null;
  /** Every export of the API waits its turn here (export-gate.ts). */
  readonly exports: ExportGate;

  constructor(
    readonly core: ApiCore,
    options: { maxWaitingExports?: number } = {},
  ) {
    this.exports = new ExportGate(options.maxWaitingExports);
  }

  /** Items whose papers have an editorial notice (retraction, withdrawal, concern, correction), by id. */
  flagged(now = Date.now()): Promise<Map<number, ItemStatus>> {
    if (!this.#flagged || now - this.#flagged.at > FLAGGED_TTL_MS) {
      this.#flagged = {
        at: now,
        byId: this.core.library.enrichment.flaggedItems().then((items) => new Map(items.map((i) => [i.id, i.status]))),
      };
    }
    return this.#flagged.byId;
  }

  /** Runs a request of the core's contract; its error becomes the client's error. */
  async call<C extends Channel>(channel: C, input: InputOf<C>): Promise<ResultOf<C>> {
    const result = await this.core.invoke(channel, input);
    if (result.ok) return result.value as ResultOf<C>;
    const code =
      result.error.code === 'INVALID_INPUT' ||
      result.error.code === 'VALIDATION' ||
      result.error.code === 'NOT_FOUND' ||
      result.error.code === 'CONFLICT'
        ? INVALID_PARAMS
        : INTERNAL_ERROR;
    throw new RpcError(code, result.error.message);
  }

  get lib() {
    return this.core.library.lib;
  }

  get listing() {
    return this.core.library.listing;
  }

  /** Item ids by citation key (aliases of merged items included), in the order given; null: unknown. */
  async idsOfKeys(keys: readonly string[]): Promise<(number | null)[]> {
    return Promise.all(keys.map((k) => this.lib.findByCitationKey(k.replace(/^@/, ''))));
  }

  /** The ids of keys that must all exist; the error names the missing ones. */
  async requireKeys(keys: readonly string[]): Promise<number[]> {
    const ids = await this.idsOfKeys(keys);
    const missing = keys.filter((_, i) => ids[i] === null);
    if (missing.length > 0) throw new RpcError(INVALID_PARAMS, `not found: ${missing.join(', ')}`);
    return ids as number[];
  }

  search(query: string, limit: number): Promise<LibraryRow[]> {
    // What the pickers offer to cite: standalone notes are no references.
    return this.listing
      .list({ query, sort: { column: 'relevance', direction: 'desc' }, limit, references: true })
      .then((p) => p.rows);
  }

  /** The best `limit` matches as CSL-JSON, `key`'s item first when it is a citation key. */
  searchCsl(query: string, limit: number, key?: string): Promise<CslItem[]> {
    return this.lib.searchCsl(query, limit, key);
  }

  csl(ids: readonly number[]): Promise<CslItem[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.lib.cslOf(ids);
  }

  item(id: number): Promise<ItemDetail> {
    return this.lib.getItem(id);
  }

  /** A reference file of the items, written in the library worker (CSL YAML: from its CSL-JSON). */
  async exportText(ids: readonly number[], format: ExportFormat | 'cslyaml'): Promise<string> {
    if (format === 'cslyaml') return cslYaml(JSON.parse(await this.exportText(ids, 'csljson')) as unknown[]);
    if (ids.length === 0) return format === 'csljson' ? '[]' : '';
    return (await this.lib.exportText(ids, format)).content;
  }

  collections(): Promise<Collection[]> {
    return this.lib.listCollections();
  }

  /** Citewise's style id for a CSL style id or URL (http://www.zotero.org/styles/apa → apa). */
  async styleOf(requested: string | undefined): Promise<string> {
    if (requested === undefined || requested === '') return (await this.call('settings.get', {})).citationStyle;
    const name = requested.replace(/^https?:\/\/[^/]+\/styles\//, '').replace(/\.csl$/, '');
    const id = STYLE_ALIASES[name] ?? name;
    const styles = await this.call('library.styles.list', {});
    if (!styles.some((s) => s.id === id)) {
      throw new RpcError(
        INVALID_PARAMS,
        `CSL style "${requested}" not found; Citewise has ${styles.map((s) => s.id).join(', ')}`,
      );
    }
    return id;
  }

  async localeOf(requested: string | undefined): Promise<CitationLocale> {
    if (requested === undefined || requested === '') return (await this.call('settings.get', {})).locale;
    if (!LOCALES.has(requested))
      throw new RpcError(
        INVALID_PARAMS,
        `locale "${requested}" is not available; Citewise formats citations in the ${CITATION_LOCALES.length} CSL locales (${CITATION_LOCALES.slice(0, 4).join(', ')}, …)`,
      );
    return requested as CitationLocale;
  }

  /** A formatted bibliography or one in-text citation of the items, as text and allowlisted HTML. */
  cite(ids: readonly number[], style: string, locale: CitationLocale, kind: 'bibliography' | 'citation') {
    return this.call('library.cite', { ids: [...ids], style, locale, kind });
  }

  /**
   * The collection at a Better BibTeX path, created with its parents where missing, and with `ids`
   * made to hold exactly those items: one undo step in the app, which also removes what it created.
   */
  async fillCollection(
    path: string,
    ids?: readonly number[],
    source?: string,
  ): Promise<{ id: number; created: number; added: number; removed: number }> {
    const parts = collectionPathParts(path);
    return this.call('library.collections.fillPath', {
      path: parts,
      ...(ids === undefined ? {} : { ids: [...ids] }),
      ...(source === undefined ? {} : { source }),
    });
  }

  /**
   * The collection at a Better BibTeX path ("/My Library/thesis/aux", "//thesis/aux" or
   * "thesis/aux"); null when absent (fillCollection creates one).
   */
  async collectionAt(path: string): Promise<Collection | null> {
    const parts = collectionPathParts(path);
    const all = await this.collections();
    let parent: number | null = null;
    let found: Collection | null = null;
    for (const name of parts) {
      found = all.find((c) => c.parentId === parent && c.name === name) ?? null;
      if (!found) return null;
      parent = found.id;
    }
    return found;
  }
}

/** The names along a collection path; the first part of a rooted path is the library. */
export function collectionPathParts(path: string): string[] {
  let rest = path;
  if (rest.startsWith('/')) {
    const segments = rest.slice(1).split('/');
    const library = segments.shift() ?? '';
    if (library !== '' && library !== 'My Library' && library !== '1')
      throw new RpcError(
        INVALID_PARAMS,
        `library "${library}" not found; Citewise has one library ("My Library", or empty as in //path)`,
      );
    rest = segments.join('/');
  }
  const parts = rest.split('/').filter((p) => p.length > 0);
  if (parts.length === 0) throw new RpcError(INVALID_PARAMS, `"${path}" names no collection`);
  return parts;
}

/** Accepts the ways clients name the one library: absent, "*", 1, "1", "My Library". */
export function checkLibrary(library: unknown): void {
  if (
    library === undefined ||
    library === null ||
    library === '*' ||
    library === 1 ||
    library === '1' ||
    library === 'My Library'
  )
    return;
  throw new RpcError(
    INVALID_PARAMS,
    `library ${JSON.stringify(library)} not found; Citewise has one library, 1 ("My Library")`,
  );
}
