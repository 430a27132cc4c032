// The CSL styles repository the Styles browser offers (docs/styles.md): the index and gzipped style
// files scripts/build-style-collection.mjs writes from the machine's copy (Debian's
// citation-style-language-styles) into out/csl-collection/. Searching it is a scan of ~10,000 small
// records (well under a millisecond a keystroke); installing a style hands its XML to UserStyles, the
// same store as a .csl file added by hand. A dependent style (a journal using its publisher's style)
// is installed as its parent's XML under the dependent's own name, title and default locale.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CoreError } from '../../errors';
import { defaultCslDir } from './assets';
import { BUILT_IN_CSL_STYLES } from './styles';

/** One style of the collection, as the index has it. */
export interface CollectionStyle {
  /** The file name without .csl, which is also the id it is installed under. */
  name: string;
  title: string;
  short?: string;
  /** The style's CSL <id> (a URI). */
  id?: string;
  /** CSL's discipline categories ("biology", "law", …). */
  fields?: string[];
  /** CSL's citation format: author-date, numeric, note, label or author. */
  format?: string;
  locale?: string;
  /** A dependent style's independent parent (its file name). */
  parent?: string;
}

interface CollectionIndex {
  available: boolean;
  reason?: string;
  source?: string;
  license?: string;
  styles?: CollectionStyle[];
}

export interface CollectionQuery {
  text?: string;
  field?: string;
  format?: string;
  limit?: number;
}

export interface CollectionResult {
  /** Ranked matches, at most `limit`. */
  styles: (CollectionStyle & { parentTitle?: string; builtIn?: string })[];
  /** How many styles matched in all. */
  matched: number;
}

/** Folds case and diacritics, so "Zeitschrift für" finds "zeitschrift fur". */
const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Built-in Citewise ids by the CSL file name they are built from (apa → apa, chicago-author-date → chicago). */
const BUILT_IN_BY_NAME = new Map(Object.entries(BUILT_IN_CSL_STYLES).map(([id, name]) => [name as string, id]));

export class StyleCollection {
  readonly available: boolean;
  /** Why there is no collection, when there is none. */
  readonly reason: string | undefined;
  readonly source: string | undefined;
  readonly license: string | undefined;
  readonly #styles: CollectionStyle[];
  readonly #byName: Map<string, CollectionStyle>;
  readonly #haystack: string[];
  readonly #titles: [string, string][];
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
    let index: CollectionIndex;
    try {
      index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as CollectionIndex;
    } catch {
      index = {
        available: false,
        reason: existsSync(dir)
          ? `the style collection's index in ${dir} is unreadable: run npm run build`
          : `no style collection was built into this app (${dir})`,
      };
    }
    this.available = index.available === true && Array.isArray(index.styles);
    this.reason = this.available ? undefined : (index.reason ?? 'no style collection on this machine');
    this.source = index.source;
    this.license = index.license;
    this.#styles = this.available ? index.styles! : [];
    this.#byName = new Map(this.#styles.map((s) => [s.name, s]));
    // Words only, space-separated, so a word start is a plain substring test (no regex per keystroke).
    const words = (t: string) =>
      ` ${fold(t)
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()}`;
    this.#haystack = this.#styles.map((s) => words(`${s.title} ${s.short ?? ''} ${s.name}`));
    this.#titles = this.#styles.map((s) => [words(s.title).trim(), words(s.short ?? '').trim()]);
  }

  get size(): number {
    return this.#styles.length;
  }

  /** The fields (disciplines) and citation formats, each with how many styles have it, most first. */
  facets(): { fields: { name: string; count: number }[]; formats: { name: string; count: number }[] } {
    // The same for every search (the browser asks on each keystroke): counted once.
    return (this.#facets ??= this.#countFacets());
  }

  #facets: ReturnType<StyleCollection['facets']> | undefined;

  #countFacets(): { fields: { name: string; count: number }[]; formats: { name: string; count: number }[] } {
    const fields = new Map<string, number>();
    const formats = new Map<string, number>();
    for (const s of this.#styles) {
      for (const f of s.fields ?? []) fields.set(f, (fields.get(f) ?? 0) + 1);
      if (s.format) formats.set(s.format, (formats.get(s.format) ?? 0) + 1);
    }
    const sorted = (m: Map<string, number>) =>
      [...m]
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    return { fields: sorted(fields), formats: sorted(formats) };
  }

  /**
   * The styles whose title, short title or file name contain every word of `text` (case and accents
   * ignored), in the field and format asked: whole-title and title-start matches first, then word
   * starts, then the rest, each alphabetically.
   */
  search(query: CollectionQuery = {}): CollectionResult {
    const words = fold(query.text ?? '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    const phrase = words.join(' ');
    const limit = query.limit ?? 100;
    const hits: { s: CollectionStyle; rank: number }[] = [];
    for (let i = 0; i < this.#styles.length; i++) {
      const s = this.#styles[i]!;
      if (query.field && !s.fields?.includes(query.field)) continue;
      if (query.format && s.format !== query.format) continue;
      const hay = this.#haystack[i]!;
      if (!words.every((w) => hay.includes(w))) continue;
      let rank = 3;
      if (words.length > 0) {
        const [title, short] = this.#titles[i]!;
        if (title === phrase || short === phrase || s.name === phrase) rank = 0;
        else if (title.startsWith(phrase) || short.startsWith(phrase)) rank = 1;
        else if (words.every((w) => hay.includes(` ${w}`))) rank = 2;
      }
      // Independent styles before the journals that borrow them, at equal rank.
      hits.push({ s, rank: rank * 2 + (s.parent ? 1 : 0) });
    }
    // The index is in title order (the build sorts it), and sort is stable: by rank, then title.
    hits.sort((a, b) => a.rank - b.rank);
    return {
      matched: hits.length,
      styles: hits.slice(0, limit).map(({ s }) => this.#decorate(s)),
    };
  }

  get(name: string): CollectionStyle & { parentTitle?: string; builtIn?: string } {
    const s = this.#byName.get(name);
    if (!s)
      throw new CoreError(
        'NOT_FOUND',
        this.available
          ? `The style collection has no style "${name}" (citewise styles search TEXT finds one).`
          : `There is no style collection on this machine: ${this.reason}.`,
      );
    return this.#decorate(s);
  }

  /**
   * The XML to install for a style: an independent style's own file, byte for byte; for a dependent
   * one its parent's, with the dependent's <id>, <title> (and <title-short>) and default locale, so it
   * shows and cites as the journal it is.
   */
  xml(name: string): string {
    const s = this.get(name);
    const parent = s.parent ? this.get(s.parent) : s;
    let xml: string;
    try {
      xml = gunzipSync(readFileSync(join(this.#dir, 'styles', `${parent.name}.csl.gz`))).toString('utf8');
    } catch (err) {
      throw new CoreError(
        'INTERNAL',
        `The style collection's file for "${parent.name}" cannot be read (${err instanceof Error ? err.message : String(err)}): run npm run build.`,
      );
    }
    if (!s.parent) return xml;
    const text = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return xml
      .replace(
        /(<info>[\s\S]*?<title(?:\s[^>]*)?>)[\s\S]*?(<\/title>)/,
        (_, a: string, b: string) => `${a}${text(s.title)}${b}`,
      )
      .replace(/<title-short(?:\s[^>]*)?>[\s\S]*?<\/title-short>\s*/, '')
      .replace(/(<link\s+href=")[^"]*("\s+rel="self")/, (_, a: string, b: string) => `${a}${text(s.id ?? s.name)}${b}`)
      .replace(/(<info>[\s\S]*?<id>)[\s\S]*?(<\/id>)/, (_, a: string, b: string) => `${a}${text(s.id ?? s.name)}${b}`)
      .replace(/(<style\b[^>]*?)(\s+default-locale="[^"]*")?(\s*>)/, (_, a: string, _l: string, c: string) =>
        s.locale ? `${a} default-locale="${text(s.locale)}"${c}` : `${a}${_l ?? ''}${c}`,
      );
  }

  #decorate(s: CollectionStyle): CollectionStyle & { parentTitle?: string; builtIn?: string } {
    const out: CollectionStyle & { parentTitle?: string; builtIn?: string } = { ...s };
    if (s.parent) {
      const p = this.#byName.get(s.parent);
      if (p) out.parentTitle = p.title;
    }
    const builtIn = BUILT_IN_BY_NAME.get(s.name);
    if (builtIn) out.builtIn = builtIn;
    return out;
  }
}

/**
 * The collection folder for this process: $CITEWISE_STYLE_COLLECTION_DIR, else csl-collection beside
 * the CSL folder (out/csl-collection).
 */
export function defaultCollectionDir(): string {
  const fromEnv = process.env.CITEWISE_STYLE_COLLECTION_DIR;
  if (fromEnv) return resolve(fromEnv);
  return join(dirname(defaultCslDir()), 'csl-collection');
}

let shared: StyleCollection | undefined;
/** The collection of this process, read once on first use (about 2 MB of index). */
export function styleCollection(dir?: string): StyleCollection {
  if (dir !== undefined) return new StyleCollection(dir);
  shared ??= new StyleCollection(defaultCollectionDir());
  return shared;
}
