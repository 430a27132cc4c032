// The style registry: the built-in styles (Citewise's ids → official CSL styles) and styles a user adds
// from a .csl file. Here they live for the process; user-styles.ts keeps them in the data folder.
import { createHash } from 'node:crypto';
import { CITATION_STYLE_IDS, STYLE_ID_PATTERN, type CitationStyleId } from '../../../../shared/model/csl';
import { CoreError } from '../../errors';
import type { CslAssets } from './assets';
import builtInStyles from './built-in-styles.json';
import { citeproc, type CslXmlNode } from './citeproc';
import type { StyleId, StyleInfo } from './types';

/**
 * Citewise style id → official CSL style name. 'bibtex' is not CSL: it produces BibTeX entries.
 * One JSON file, so scripts/build-csl.mjs ships exactly these styles.
 */
export const BUILT_IN_CSL_STYLES = builtInStyles satisfies Record<Exclude<CitationStyleId, 'bibtex'>, string>;

/** Everything the engine needs to know about one CSL style. Plain data, so it can go to a worker. */
export interface CslStyleDef {
  id: StyleId;
  name: string;
  title: string;
  xml: string;
  builtIn: boolean;
  defaultLocale?: string;
  /** Content hash of the XML: part of every cache key, so a re-registered style never serves stale entries. */
  version: string;
  /** The style prints citation numbers: an entry depends on its position. */
  numbered: boolean;
  /** The bibliography replaces a repeated author by a dash: an entry depends on the one before it. */
  substitutesAuthor: boolean;
}

const MAX_STYLE_BYTES = 2_000_000;

function child(node: CslXmlNode, name: string): CslXmlNode | undefined {
  return node.children.find((c): c is CslXmlNode => typeof c !== 'string' && c.name === name);
}

function text(node: CslXmlNode | undefined): string {
  return node
    ? node.children
        .filter((c): c is string => typeof c === 'string')
        .join('')
        .trim()
    : '';
}

/** Reads a CSL style's XML and checks that it is an independent CSL 1.0 style a processor can run. */
export function inspectStyle(xml: string): { tree: CslXmlNode; title: string; cslId: string; defaultLocale?: string } {
  if (typeof xml !== 'string' || xml.length === 0) throw new CoreError('INVALID_INPUT', 'The style file is empty.');
  if (xml.length > MAX_STYLE_BYTES)
    throw new CoreError('INVALID_INPUT', 'The style file is too large to be a CSL style.');
  if (!/<style[\s>]/.test(xml) || !xml.includes('http://purl.org/net/xbiblio/csl')) {
    throw new CoreError('INVALID_INPUT', 'This is not a CSL style: there is no <style> element in the CSL namespace.');
  }
  let tree: CslXmlNode;
  try {
    tree = citeproc().parseXml(xml);
  } catch (err) {
    throw new CoreError(
      'INVALID_INPUT',
      `The style file is not well-formed XML: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (tree?.name !== 'style')
    throw new CoreError('INVALID_INPUT', 'This is not a CSL style: the root element is not <style>.');
  if (!/^1\.0/.test(tree.attrs.version ?? ''))
    throw new CoreError('INVALID_INPUT', 'Only CSL 1.0 styles are supported (version="1.0").');
  if (!['in-text', 'note'].includes(tree.attrs.class ?? ''))
    throw new CoreError('INVALID_INPUT', 'The style has no class="in-text" or class="note".');
  const info = child(tree, 'info');
  const parent = info?.children.find(
    (c): c is CslXmlNode => typeof c !== 'string' && c.name === 'link' && c.attrs.rel === 'independent-parent',
  );
  if (!child(tree, 'citation')) {
    throw new CoreError(
      'INVALID_INPUT',
      parent
        ? `This is a dependent style; add its parent style instead (${parent.attrs.href ?? 'see its independent-parent link'}).`
        : 'The style has no <citation> element.',
    );
  }
  const defaultLocale = tree.attrs['default-locale'];
  return {
    tree,
    title: text(info && child(info, 'title')),
    cslId: text(info && child(info, 'id')),
    ...(defaultLocale ? { defaultLocale } : {}),
  };
}

/** The attributes of the first start tag named `name` in a style's XML (a shipped style: see builtInFacts). */
function startTagAttrs(xml: string, name: string): Record<string, string> | undefined {
  const open = new RegExp(`<${name}(?=[\\s/>])([^>]*)>`).exec(xml);
  if (!open) return undefined;
  const attrs: Record<string, string> = {};
  for (const m of open[1]!.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    attrs[m[1]!] = m[2] ?? m[3] ?? '';
  return attrs;
}

/**
 * What describe() reads from a shipped style, without parsing it: a built-in style is the CSL
 * project's own file, which scripts/build-csl.mjs checked with citeproc-js's own parser, and reading it this way spares
 * a cold process loading citeproc-js when its bibliography comes from the library's cache.
 * test/unit/formats/cite/lazy-citeproc.test.ts checks it against the full parse for every built-in style.
 */
export function builtInFacts(xml: string): { defaultLocale?: string; substitutesAuthor: boolean } | undefined {
  const style = startTagAttrs(xml, 'style');
  if (!style || !xml.includes('http://purl.org/net/xbiblio/csl') || !/^1\.0/.test(style.version ?? ''))
    return undefined;
  const bibliography = startTagAttrs(xml, 'bibliography');
  const defaultLocale = style['default-locale'];
  return {
    ...(defaultLocale ? { defaultLocale } : {}),
    substitutesAuthor: bibliography?.['subsequent-author-substitute'] !== undefined,
  };
}

function describe(
  id: StyleId,
  name: string,
  title: string,
  xml: string,
  builtIn: boolean,
  tree: CslXmlNode,
  defaultLocale?: string,
): CslStyleDef {
  const bibliography = child(tree, 'bibliography');
  return describeFacts(id, name, title, xml, builtIn, {
    ...(defaultLocale ? { defaultLocale } : {}),
    substitutesAuthor: bibliography?.attrs['subsequent-author-substitute'] !== undefined,
  });
}

function describeFacts(
  id: StyleId,
  name: string,
  title: string,
  xml: string,
  builtIn: boolean,
  facts: { defaultLocale?: string; substitutesAuthor: boolean },
): CslStyleDef {
  const { defaultLocale, substitutesAuthor } = facts;
  return {
    id,
    name,
    title: title || name,
    xml,
    builtIn,
    ...(defaultLocale ? { defaultLocale } : {}),
    version: createHash('sha256').update(xml).digest('base64url').slice(0, 16),
    numbered: xml.includes('citation-number'),
    substitutesAuthor,
  };
}

/** What a user style's id may be: letters, digits, ".", "_" and "-". */
export const USER_STYLE_ID = STYLE_ID_PATTERN;

export class StyleRegistry {
  readonly #assets: CslAssets;
  readonly #builtIn = new Map<StyleId, CslStyleDef>();
  readonly #user = new Map<StyleId, CslStyleDef>();

  constructor(assets: CslAssets) {
    this.#assets = assets;
  }

  /** The CSL definition of a style, or 'bibtex'. Throws NOT_FOUND for an unknown id. */
  get(id: StyleId): CslStyleDef | 'bibtex' {
    if (id === 'bibtex') return 'bibtex';
    const user = this.#user.get(id);
    if (user) return user;
    let def = this.#builtIn.get(id);
    if (!def && Object.hasOwn(BUILT_IN_CSL_STYLES, id)) {
      const name = BUILT_IN_CSL_STYLES[id as keyof typeof BUILT_IN_CSL_STYLES];
      const xml = this.#assets.styleXml(id);
      const facts = this.#assets.manifest.styles[id]?.title ? builtInFacts(xml) : undefined;
      if (facts) def = describeFacts(id, name, this.#assets.manifest.styles[id]!.title, xml, true, facts);
      else {
        const { tree, title, defaultLocale } = inspectStyle(xml);
        def = describe(id, name, this.#assets.manifest.styles[id]?.title ?? title, xml, true, tree, defaultLocale);
      }
      this.#builtIn.set(id, def);
    }
    if (!def) throw new CoreError('NOT_FOUND', `Unknown citation style "${id}".`);
    return def;
  }

  /**
   * Adds a style from a .csl file. The id defaults to the last segment of the style's <info><id>;
   * built-in ids cannot be replaced. Registering the same id again replaces that user style.
   */
  register(xml: string, options: { id?: string } = {}): StyleInfo {
    const { tree, title, cslId, defaultLocale } = inspectStyle(xml);
    const id = (options.id ?? cslId.split('/').filter(Boolean).pop() ?? '').toLowerCase();
    if (!USER_STYLE_ID.test(id) || id.includes('..'))
      throw new CoreError('INVALID_INPUT', `"${id}" is not a usable style id (letters, digits, ".", "_" and "-").`);
    if ((CITATION_STYLE_IDS as readonly string[]).includes(id))
      throw new CoreError('CONFLICT', `"${id}" is a built-in style; give the new style another id.`);
    // Prove the processor accepts it before anyone relies on it.
    try {
      new (citeproc().Engine)(
        {
          retrieveItem: () => ({ id: 'x', type: 'book' }),
          retrieveLocale: (l) => this.#assets.localeXml(l) ?? this.#assets.localeXml('en-US'),
        },
        tree,
        defaultLocale ?? 'en-US',
      );
    } catch (err) {
      throw new CoreError(
        'INVALID_INPUT',
        `The CSL processor rejects this style: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const def = describe(id, id, title, xml, false, tree, defaultLocale);
    this.#user.set(id, def);
    return this.#info(def);
  }

  unregister(id: StyleId): boolean {
    return this.#user.delete(id);
  }

  list(): StyleInfo[] {
    const builtIn = CITATION_STYLE_IDS.map((id): StyleInfo => {
      if (id === 'bibtex') return { id, title: 'BibTeX', name: 'bibtex', builtIn: true, kind: 'bibtex' };
      return this.#info(this.get(id) as CslStyleDef);
    });
    return [...builtIn, ...[...this.#user.values()].map((d) => this.#info(d))];
  }

  #info(def: CslStyleDef): StyleInfo {
    return {
      id: def.id,
      title: def.title,
      name: def.name,
      builtIn: def.builtIn,
      kind: 'csl',
      ...(def.defaultLocale ? { defaultLocale: def.defaultLocale } : {}),
    };
  }
}
