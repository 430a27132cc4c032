// Citations of one document formatted in citeproc-js's citation-cluster mode, as Zotero formats
// them: each citation is a cluster whose text depends on the ones before it (ibid, subsequent,
// first-reference note numbers, disambiguation, year suffixes), so the engine keeps the document's
// citations in order. A refresh rebuilds that state once (rebuildProcessorState); inserting or editing
// one citation is one processCitationCluster call, which answers with just the citations whose text
// changed. The project's citeproc-js (with its patches, formats/cite/citeproc.ts) does the work.
import type { CslItem } from '../../../shared/model/csl';
import { citeproc, type CiteprocEngine } from '../../core/formats/cite/citeproc';
import type { LocaleLookup } from '../../core/formats/cite/locales';
import type { CiteRef } from '../../core/formats/cite/types';

/** A cite as citeproc-js takes it (the CSL citation schema's citationItem): the project's CiteRef. */
export type ClusterItem = CiteRef;

export interface Cluster {
  citationID: string;
  citationItems: ClusterItem[];
  properties: { noteIndex: number; unsorted?: boolean };
}

interface ClusterEngine extends CiteprocEngine {
  rebuildProcessorState(citations: Cluster[], mode: string, uncited?: string[]): [string, number, string][];
  processCitationCluster(
    citation: Cluster,
    pre: [string, number][],
    post: [string, number][],
  ): [{ bibchange: boolean; citation_errors: unknown[] }, [number, string, string][]];
  updateUncitedItems(ids: string[]): void;
  previewCitationCluster(citation: Cluster, pre: [string, number][], post: [string, number][], mode: string): string;
}

export interface EngineOptions {
  styleXml: string;
  lang: string | undefined;
  locales: LocaleLookup;
  /** The items the document cites, by the ids its clusters use. */
  item: (id: string) => CslItem | undefined;
  format: 'html' | 'text' | 'rtf';
}

export class ClusterFormatter {
  readonly #engine: ClusterEngine;
  readonly #format: EngineOptions['format'];
  /** The document's clusters in order, as the engine last saw them. */
  #clusters: Cluster[] = [];

  constructor(o: EngineOptions) {
    const { Engine } = citeproc();
    const sys = {
      retrieveLocale: (lang: string) => o.locales(lang),
      retrieveItem: (id: string) => {
        const item = o.item(id);
        if (!item) throw new Error(`the document cites item ${id}, which has no data`);
        return { ...item, id };
      },
    };
    this.#engine = new Engine(sys, o.styleXml, o.lang, o.lang !== undefined) as ClusterEngine;
    // As Zotero: DOIs and URLs printed as text, not wrapped (it double-encodes them otherwise).
    this.#engine.opt.development_extensions.wrap_url_and_doi = false;
    this.#format = o.format;
  }

  /** Formats the whole document from scratch: the text of each cluster, in order. */
  rebuild(clusters: readonly Cluster[], uncited: string[] = []): Map<string, string> {
    this.#clusters = clusters.map((c) => structuredClone(c));
    const out = this.#engine.rebuildProcessorState(this.#clusters, this.#format, uncited);
    return new Map(out.map(([id, , text]) => [id, text]));
  }

  /**
   * Puts one cluster at `index` (a new one) or replaces the one with its id, in one
   * processCitationCluster call; answers with every cluster whose text changed (the new one's included).
   */
  upsert(cluster: Cluster, index: number): { changed: Map<string, string>; bibchange: boolean } {
    const clusters = this.#clusters.filter((c) => c.citationID !== cluster.citationID);
    const at = Math.max(0, Math.min(index, clusters.length));
    const pre = clusters.slice(0, at).map((c): [string, number] => [c.citationID, c.properties.noteIndex]);
    const post = clusters.slice(at).map((c): [string, number] => [c.citationID, c.properties.noteIndex]);
    const copy = structuredClone(cluster);
    const [status, changed] = this.#engine.processCitationCluster(copy, pre, post);
    clusters.splice(at, 0, copy);
    this.#clusters = clusters;
    return { changed: new Map(changed.map(([, text, id]) => [id, text])), bibchange: status.bibchange };
  }

  /**
   * One cluster's text on its own, leaving the document's state as it was (Zotero's
   * writeDelayedCitation: previewCitationCluster with no citations before or after it).
   */
  preview(cluster: Cluster): string {
    return this.#engine.previewCitationCluster(structuredClone(cluster), [], [], this.#format);
  }

  /** The bibliography of what the clusters cite (and `uncited`): its entries' ids and texts, or null (a style without one). */
  bibliography(uncited: string[] = []): {
    ids: string[];
    entries: string[];
    start: string;
    end: string;
    /** The paragraph format word processors set once (Document.setBibliographyStyle), in twips. */
    layout: { firstLineIndent: number; indent: number; lineSpacing: number; entrySpacing: number; tabStops: number[] };
  } | null {
    this.#engine.updateUncitedItems(uncited);
    this.#engine.setOutputFormat(this.#format);
    const bib = this.#engine.makeBibliography();
    if (!bib) return null;
    const p = bib[0];
    // Word's units, as Zotero derives them: a hanging indent of half an inch, or the second field aligned.
    const layout = {
      firstLineIndent: 0,
      indent: 0,
      lineSpacing: 240 * (p.linespacing ?? 1),
      entrySpacing: 240 * (p.entryspacing ?? 1),
      tabStops: [] as number[],
    };
    if (p.hangingindent) {
      layout.indent = 720;
      layout.firstLineIndent = -720;
    } else if (p['second-field-align']) {
      const alignAt = 24 + (p.maxoffset ?? 0) * 120;
      layout.firstLineIndent = -alignAt;
      if (p['second-field-align'] === 'margin') layout.tabStops = [0];
      else {
        layout.indent = alignAt;
        layout.tabStops = [alignAt];
      }
    }
    return {
      ids: p.entry_ids.map((e) => String(e[0])),
      entries: bib[1],
      start: p.bibstart,
      end: p.bibend,
      layout,
    };
  }
}

/** A style's class and whether it has a bibliography, read from its XML (note styles put citations in footnotes). */
export function styleFacts(xml: string): { note: boolean; hasBibliography: boolean } {
  const head = /<style\b[^>]*>/.exec(xml)?.[0] ?? '';
  return { note: /\bclass\s*=\s*["']note["']/.test(head), hasBibliography: /<bibliography\b/.test(xml) };
}
