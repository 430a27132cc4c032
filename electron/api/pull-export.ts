// Pull export: the library, a collection (by its path) or the Library's selection as a file, for
// biblatex's location=remote, the Overleaf helpers and the Obsidian plugin's key list. Better
// BibTeX's form puts the whole request in the query: /better-bibtex/library?/1/library.biblatex,
// /better-bibtex/collection?/1/thesis/chapter-1.bibtex, /better-bibtex/select?csljson (rbbt), and
// the same under /better-bibtex/export/ (library, collection, selected). The extension is a
// translator name or id; options follow after "&" (exportNotes=true).
import type { EditorLibrary } from './library';
import { INVALID_PARAMS, RpcError } from './json-rpc';
import { translate } from './methods';
import { findTranslator, TRANSLATOR_NAMES } from './translators';

export interface PullAnswer {
  status: number;
  type: string;
  body: string;
}

const KINDS: Readonly<Record<string, 'library' | 'collection' | 'selected'>> = {
  '/better-bibtex/library': 'library',
  '/better-bibtex/collection': 'collection',
  '/better-bibtex/select': 'selected',
  '/better-bibtex/export/library': 'library',
  '/better-bibtex/export/collection': 'collection',
  '/better-bibtex/export/selected': 'selected',
};

export function isPullExport(pathname: string): boolean {
  return Object.hasOwn(KINDS, pathname);
}

const text = (status: number, body: string): PullAnswer => ({ status, type: 'text/plain; charset=utf-8', body });

export async function pullExport(
  pathname: string,
  rawQuery: string,
  library: EditorLibrary,
  selection: () => Promise<number[]>,
): Promise<PullAnswer> {
  const kind = KINDS[pathname]!;
  const [target = '', ...optionParts] = decodeQuery(rawQuery).split('&');
  const options = new URLSearchParams(optionParts.join('&'));
  const dot = target.lastIndexOf('.');
  // /select?csljson names only the translator; the others end in name.translator.
  const extension = kind === 'selected' && dot < 0 ? target.replace(/^\//, '') : target.slice(dot + 1);
  const path = kind === 'selected' && dot < 0 ? '' : target.slice(0, Math.max(0, dot));
  const translator = findTranslator(extension);
  if (!translator)
    return text(
      400,
      `Citewise: unknown export format "${extension}"; use ${TRANSLATOR_NAMES}, e.g. ${pathname}?/1/library.biblatex\n`,
    );

  let ids: number[];
  try {
    if (kind === 'selected') ids = await selection();
    else {
      // "/1/…": the library (Citewise has one, 1); then the collection's path.
      const m = /^\/(\d+|[^/]*)\/(.*)$/.exec(path);
      if (!m)
        return text(
          400,
          `Citewise: expected ${pathname}?/1/${kind === 'library' ? 'library' : 'path/to/collection'}.${extension}\n`,
        );
      const [, lib, rest] = m as unknown as [string, string, string];
      if (lib !== '1' && lib !== '' && lib !== 'My Library')
        return text(404, `Citewise: library "${lib}" not found; Citewise has one library, 1\n`);
      if (kind === 'library') ids = await library.listing.idsOf({});
      else {
        const collection = await library.collectionAt(`//${rest}`, false);
        if (!collection) return text(404, `Citewise: no collection at "${rest}"\n`);
        ids = await library.listing.idsOf({
          collectionId: collection.id,
          includeSubcollections: options.get('recursive') !== 'false',
        });
      }
    }
    const body = await translate(library, ids, translator, { notes: options.get('exportNotes') === 'true' });
    return { status: 200, type: translator.mime, body };
  } catch (err) {
    if (err instanceof RpcError && err.code === INVALID_PARAMS) return text(400, `Citewise: ${err.message}\n`);
    throw err;
  }
}

/** The query as the client wrote it, "+" as a space the way query strings are read. */
export function decodeQuery(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new RpcError(INVALID_PARAMS, 'the query is not valid percent-encoding');
  }
}
