// The field codes and document data of Zotero's word-processor integration, read and written as
// Zotero does, so a document moves between Zotero and Citewise either way. A citation's code is
// `ITEM CSL_CITATION {json}` (Word shows it as `ADDIN ZOTERO_ITEM CSL_CITATION {json}`; the plugins
// strip and restore the `ADDIN ZOTERO_` part), a bibliography's `BIBL {json} CSL_BIBLIOGRAPHY`, and
// the document's preferences are one small XML element (data-version 3) the plugin stores for us.
import type { CslItem } from '../../../shared/model/csl';
import type { CiteRef } from '../../core/formats/cite/types';

export const CSL_CITATION_SCHEMA = 'https://github.com/citation-style-language/schema/raw/master/csl-citation.json';
/** The document data version Zotero 5 and later write (and refuse to downgrade from). */
export const DATA_VERSION = 3;

/** An error in a document's codes or data, named by where it is (shown to the writer in the document). */
export class DocumentDataError extends Error {
  override name = 'DocumentDataError';
}

/** A cite as a citation field stores it: the formatter's CiteRef, with the item's URIs and data. */
export interface CitationItem extends Omit<CiteRef, 'id'> {
  /** Citewise's item id, or `sessionID/random` for an item known only by its embedded data. */
  id: number | string;
  uris?: string[];
  itemData?: CslItem;
}

export interface CitationProperties {
  formattedCitation?: string;
  plainCitation?: string;
  noteIndex?: number;
  dontUpdate?: boolean;
  custom?: string;
  unsorted?: boolean;
}

export interface CitationCode {
  citationID?: string;
  properties: CitationProperties;
  citationItems: CitationItem[];
}

export interface BibliographyCode {
  uncited: string[][];
  omitted: string[][];
  custom: [string[], string][];
}

export type FieldKind = 'citation' | 'bibliography' | 'temp';

/** The code as the integration layer sees it: without Word's `ADDIN ZOTERO_` prefix. */
export function bareCode(code: string): string {
  return code.replace(/^\s*ADDIN\s+ZOTERO_/, '');
}

/** What a field is, by its code's first word, as Zotero decides (ITEM/CITATION, BIBL, anything else). */
export function fieldKind(code: string): FieldKind {
  const bare = bareCode(code);
  if (bare.startsWith('ITEM') || bare.startsWith('CITATION')) return 'citation';
  if (bare.startsWith('BIBL')) return 'bibliography';
  return 'temp';
}

/** The JSON part of a code: from its first `{` to its last `}` ('{}' when there is none), as Zotero reads it. */
function jsonPart(code: string): string {
  const start = code.indexOf('{');
  if (start === -1) return '{}';
  return code.slice(start, code.lastIndexOf('}') + 1);
}

const LOCATOR_LABELS = [
  'page',
  'book',
  'chapter',
  'column',
  'figure',
  'folio',
  'issue',
  'line',
  'note',
  'opus',
  'paragraph',
  'part',
  'section',
  'sub verbo',
  'volume',
  'verse',
];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field code's JSON object; the error names the field (`where`) and what is wrong. */
function codeObject(code: string, where: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonPart(bareCode(code)));
  } catch (err) {
    throw new DocumentDataError(
      `The code of ${where} is not valid JSON (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  if (!isRecord(raw)) throw new DocumentDataError(`The code of ${where} is not a JSON object.`);
  return raw;
}

/**
 * A citation field's code as data. `where` names the field in the error (e.g. "citation 3"). Older
 * shapes Zotero still reads are upgraded the way it upgrades them (uppercase keys, `uri`,
 * `suppressAuthor`, numeric labels, top-level `custom`/`sort`).
 */
export function parseCitationCode(code: string, where: string): CitationCode {
  const c = codeObject(code, where);
  if (Array.isArray(c.CITATIONITEMS) && !c.citationItems) {
    c.citationItems = (c.CITATIONITEMS as unknown[]).map((it) =>
      Object.fromEntries(
        Object.entries(isRecord(it) ? it : {}).map(([k, v]) => [k === 'ITEMID' ? 'itemID' : k.toLowerCase(), v]),
      ),
    );
  }
  const items = c.citationItems ?? [];
  if (!Array.isArray(items)) throw new DocumentDataError(`The code of ${where} has citationItems that is not a list.`);
  const properties: CitationProperties = isRecord(c.properties) ? { ...(c.properties as CitationProperties) } : {};
  if (typeof c.custom === 'string') properties.custom = c.custom;
  if (typeof c.sort === 'boolean') properties.unsorted = !c.sort;
  const citationItems = items.map((raw, i): CitationItem => {
    if (!isRecord(raw)) throw new DocumentDataError(`Item ${i + 1} of ${where} is not a JSON object.`);
    const it: Record<string, unknown> = { ...raw };
    if (it.locatorType !== undefined) {
      it.label = it.locatorType;
      delete it.locatorType;
    } else if (it.suppressAuthor !== undefined) {
      it['suppress-author'] = it.suppressAuthor;
      delete it.suppressAuthor;
    }
    if (typeof it.label === 'number' || (typeof it.label === 'string' && /^\d+$/.test(it.label)))
      it.label = LOCATOR_LABELS[Number(it.label)];
    if (it.uri !== undefined) {
      const more = Array.isArray(it.uri) ? it.uri : [it.uri];
      it.uris = [...new Set([...(Array.isArray(it.uris) ? it.uris : []), ...more])];
      delete it.uri;
    }
    if (it.uris !== undefined && (!Array.isArray(it.uris) || !it.uris.every((u) => typeof u === 'string')))
      throw new DocumentDataError(`Item ${i + 1} of ${where} has uris that are not a list of text.`);
    if (it.itemData !== undefined && !isRecord(it.itemData))
      throw new DocumentDataError(`Item ${i + 1} of ${where} has itemData that is not a JSON object.`);
    if (it.itemData && isRecord(it.itemData) && it.itemData.shortTitle !== undefined) {
      const data = { ...it.itemData };
      data['title-short'] = data.shortTitle;
      delete data.shortTitle;
      it.itemData = data;
    }
    if (it.id === undefined) it.id = it.itemID ?? `missing-${i}`;
    if (typeof it.locator === 'number') it.locator = String(it.locator);
    return it as unknown as CitationItem;
  });
  return {
    ...(typeof c.citationID === 'string' || typeof c.citationID === 'number'
      ? { citationID: String(c.citationID) }
      : {}),
    properties,
    citationItems,
  };
}

const SAVED_PROPERTIES = [
  'custom',
  'unsorted',
  'formattedCitation',
  'plainCitation',
  'dontUpdate',
  'noteIndex',
] as const;
const SAVED_ITEM_KEYS = ['locator', 'label', 'suppress-author', 'author-only', 'prefix', 'suffix'] as const;

/** A citation's code as Zotero writes it (the same keys, in the same order), ready for Field.setCode. */
export function citationCode(c: CitationCode): string {
  const properties: Record<string, unknown> = {};
  for (const k of SAVED_PROPERTIES) if (c.properties[k] !== undefined) properties[k] = c.properties[k];
  const citationItems = c.citationItems.map((it) => {
    const out: Record<string, unknown> = { id: it.id, uris: it.uris ?? [], itemData: it.itemData };
    for (const k of SAVED_ITEM_KEYS) if (it[k] !== undefined) out[k] = it[k];
    return out;
  });
  return `ITEM CSL_CITATION ${JSON.stringify({ citationID: c.citationID, properties, citationItems, schema: CSL_CITATION_SCHEMA })}`;
}

/** A bibliography field's code as data; `where` names it in errors. An empty `{}` is an empty bibliography. */
export function parseBibliographyCode(code: string, where: string): BibliographyCode {
  const raw = codeObject(code, where);
  const uriLists = (v: unknown, name: string): string[][] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every((l) => Array.isArray(l) && l.every((u) => typeof u === 'string')))
      throw new DocumentDataError(`The ${name} list of ${where} is not a list of URI lists.`);
    return v as string[][];
  };
  const custom = raw.custom ?? [];
  if (
    !Array.isArray(custom) ||
    !custom.every((e) => Array.isArray(e) && Array.isArray(e[0]) && typeof e[1] === 'string')
  )
    throw new DocumentDataError(`The custom list of ${where} is not a list of [URIs, text] pairs.`);
  return {
    uncited: uriLists(raw.uncited, 'uncited'),
    omitted: uriLists(raw.omitted, 'omitted'),
    custom: custom as [string[], string][],
  };
}

export function bibliographyCode(b: BibliographyCode): string {
  return `BIBL ${JSON.stringify({ uncited: b.uncited, omitted: b.omitted, custom: b.custom })} CSL_BIBLIOGRAPHY`;
}

export interface DocumentData {
  sessionID: string | null;
  zoteroVersion: string;
  dataVersion: number;
  style: { styleID: string; locale?: string; hasBibliography: boolean; bibliographyStyleHasBeenSet: boolean };
  prefs: Record<string, string | number | boolean>;
}

const escapeXml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);
const unescapeXml = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|apos|#0*39|#x0*27);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );

/** The XML Zotero stores as the document's data (Zotero.Integration.DocumentData.serialize). */
export function serializeDocumentData(d: DocumentData, zoteroVersion: string): string {
  let prefs = '';
  for (const [name, value] of Object.entries(d.prefs)) {
    if (!value) continue;
    prefs += `<pref name="${escapeXml(name)}" value="${escapeXml(String(value))}"/>`;
  }
  return (
    `<data data-version="${DATA_VERSION}" zotero-version="${escapeXml(zoteroVersion)}">` +
    `<session id="${escapeXml(d.sessionID ?? '')}"/>` +
    `<style id="${escapeXml(d.style.styleID)}" ` +
    (d.style.locale ? `locale="${escapeXml(d.style.locale)}" ` : '') +
    `hasBibliography="${d.style.hasBibliography ? 1 : 0}" ` +
    `bibliographyStyleHasBeenSet="${d.style.bibliographyStyleHasBeenSet ? 1 : 0}"/>` +
    (prefs ? `<prefs>${prefs}</prefs>` : '<prefs/>') +
    '</data>'
  );
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    out[m[1]!] = unescapeXml(m[2] ?? m[3] ?? '');
  return out;
}

/**
 * The document's data as the plugin returns it: Zotero's XML (data-version 3), its JSON form
 * (data-version 4, Zotero 4 to 5 transition), or '' for a document without any. Anything else is
 * an error saying so (the caller may start afresh, as Zotero does).
 */
export function parseDocumentData(text: string): DocumentData | null {
  const s = text.trim();
  if (s === '') return null;
  if (s.startsWith('{')) {
    let j: unknown;
    try {
      j = JSON.parse(s);
    } catch (err) {
      throw new DocumentDataError(`The document's Zotero data is not valid JSON (${(err as Error).message}).`);
    }
    if (!isRecord(j) || !isRecord(j.style)) throw new DocumentDataError("The document's Zotero data has no style.");
    const st = j.style;
    return {
      sessionID: typeof j.sessionID === 'string' ? j.sessionID : null,
      zoteroVersion: String(j.zoteroVersion ?? ''),
      dataVersion: Number(j.dataVersion ?? 4),
      style: {
        styleID: String(st.styleID ?? ''),
        ...(typeof st.locale === 'string' && st.locale ? { locale: st.locale } : {}),
        hasBibliography: st.hasBibliography === true,
        bibliographyStyleHasBeenSet: st.bibliographyStyleHasBeenSet === true,
      },
      prefs: isRecord(j.prefs) ? (j.prefs as DocumentData['prefs']) : {},
    };
  }
  if (!s.startsWith('<data'))
    throw new DocumentDataError("The document's Zotero data is neither Zotero's XML nor JSON.");
  const root = /^<data\b[^>]*>/.exec(s);
  const style = /<style\b[^>]*>/.exec(s);
  if (!root || !style || !s.endsWith('</data>'))
    throw new DocumentDataError("The document's Zotero data is incomplete XML (no <data> or <style>).");
  const r = attrs(root[0]);
  const st = attrs(style[0]);
  const session = /<session\b[^>]*>/.exec(s);
  const prefs: DocumentData['prefs'] = {};
  const prefsBlock = /<prefs\b[^>]*>([\s\S]*?)<\/prefs>/.exec(s)?.[1] ?? '';
  for (const m of prefsBlock.matchAll(/<pref\b[^>]*>/g)) {
    const p = attrs(m[0]);
    if (p.name === undefined) continue;
    prefs[p.name] = p.value === 'true' ? true : p.value === 'false' ? false : (p.value ?? '');
  }
  prefs.noteType = Number.parseInt(String(prefs.noteType ?? 0), 10) || 0;
  return {
    sessionID: session ? (attrs(session[0]).id ?? null) : null,
    zoteroVersion: r['zotero-version'] ?? '2.0',
    dataVersion: Number(r['data-version'] ?? 2),
    style: {
      styleID: st.id ?? '',
      ...(st.locale ? { locale: st.locale } : {}),
      hasBibliography: st.hasBibliography === '1',
      bibliographyStyleHasBeenSet: st.bibliographyStyleHasBeenSet === '1',
    },
    prefs,
  };
}

/** Zotero's item key at the end of an item URI (http://zotero.org/users/…/items/KEY), or null. */
export function itemKeyOfUri(uri: string): string | null {
  return (
    /^https?:\/\/zotero\.org\/(?:users|groups)\/[^/]+(?:\/[^/]+)?\/items\/([23456789A-Z]{8})$/.exec(uri)?.[1] ?? null
  );
}
