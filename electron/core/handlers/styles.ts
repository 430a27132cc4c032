// The Styles browser's requests (shared/ipc/styles.ts): search the shipped CSL styles repository,
// preview a style of it with the export engine, install one into the library's styles.
import type { CollectionStyleInfo, StyleCollectionPage, stylesFeature } from '../../../shared/ipc';
import type { CslItem } from '../../../shared/model/csl';
import { CoreError } from '../errors';
import type { CiteFormatter } from '../formats/cite';
import type { StyleCollection, CollectionStyle } from '../formats/cite/style-collection';
import type { UserStyles } from '../formats/cite/user-styles';
import type { LibraryClient } from '../library/client';
import { cslOfIds } from '../library/export-scope';
import type { FeatureHandlers } from '../registry';

export interface StylesHandlerDeps {
  library: LibraryClient;
  collection: () => StyleCollection;
  formatter: () => CiteFormatter;
  styles: UserStyles;
}

/** What a preview shows when nothing is selected: a journal article, a book and a chapter. */
export const SAMPLE_ITEMS: CslItem[] = [
  {
    id: 'sample-article',
    type: 'article-journal',
    title: 'Molecular structure of nucleic acids: a structure for deoxyribose nucleic acid',
    author: [
      { family: 'Watson', given: 'James D.' },
      { family: 'Crick', given: 'Francis H. C.' },
    ],
    'container-title': 'Nature',
    volume: '171',
    issue: '4356',
    page: '737-738',
    issued: { 'date-parts': [[1953, 4, 25]] },
    DOI: '10.1038/171737a0',
  },
  {
    id: 'sample-book',
    type: 'book',
    title: 'The structure of scientific revolutions',
    author: [{ family: 'Kuhn', given: 'Thomas S.' }],
    publisher: 'University of Chicago Press',
    'publisher-place': 'Chicago',
    edition: '2',
    issued: { 'date-parts': [[1970]] },
  },
  {
    id: 'sample-chapter',
    type: 'chapter',
    title: 'The growth of knowledge',
    author: [{ family: 'Popper', given: 'Karl' }],
    editor: [
      { family: 'Lakatos', given: 'Imre' },
      { family: 'Musgrave', given: 'Alan' },
    ],
    'container-title': 'Criticism and the growth of knowledge',
    publisher: 'Cambridge University Press',
    'publisher-place': 'Cambridge',
    page: '51-58',
    issued: { 'date-parts': [[1970]] },
  },
];

/** The id a collection style is registered under while it is previewed (never saved, never listed for long). */
const PREVIEW_ID = 'collection-preview';

export function stylesHandlers(deps: StylesHandlerDeps) {
  // Previews register a style under one id: one at a time, so two never format with each other's.
  let previews: Promise<unknown> = Promise.resolve();
  const installedIds = (): Set<string> =>
    new Set(
      deps
        .formatter()
        .styles()
        .filter((s) => !s.builtIn)
        .map((s) => s.id),
    );
  const info = (
    s: CollectionStyle & { parentTitle?: string; builtIn?: string },
    installed: Set<string>,
  ): CollectionStyleInfo => ({
    ...s,
    installed: installed.has(s.name),
  });

  return {
    'styles.collection.search': ({ text, field, format, limit }): StyleCollectionPage => {
      const c = deps.collection();
      const base = {
        available: c.available,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.source ? { source: c.source } : {}),
        ...(c.license ? { license: c.license } : {}),
        total: c.size,
      };
      if (!c.available) return { ...base, matched: 0, styles: [], fields: [], formats: [] };
      const found = c.search({ text, ...(field ? { field } : {}), ...(format ? { format } : {}), limit });
      const installed = installedIds();
      return { ...base, matched: found.matched, styles: found.styles.map((s) => info(s, installed)), ...c.facets() };
    },

    'styles.collection.install': ({ name }) => {
      const c = deps.collection();
      const style = c.get(name);
      if (style.builtIn)
        throw new CoreError(
          'CONFLICT',
          `“${style.title}” is built in as ${style.builtIn}: choose it in the style list.`,
        );
      const added = deps.styles.add(deps.formatter(), c.xml(name), { id: name });
      return { id: added.id, title: added.title, builtIn: added.builtIn };
    },

    'styles.collection.preview': ({ name, ids, locale }) => {
      const c = deps.collection();
      const xml = c.xml(name);
      const run = previews.then(async () => {
        const picked = ids.length > 0 ? await cslOfIds(deps.library.lib, ids) : [];
        const items = picked.length > 0 ? picked : SAMPLE_ITEMS;
        const formatter = deps.formatter();
        formatter.registerStyle(xml, { id: PREVIEW_ID });
        try {
          const options = { style: PREVIEW_ID, ...(locale ? { locale } : {}) };
          const cluster = items.map((i) => ({ id: String(i.id) }));
          const [text, html, citeText, citeHtml] = await Promise.all([
            formatter.formatBibliography(items, { ...options, format: 'text' }),
            formatter.formatBibliography(items, { ...options, format: 'html' }),
            formatter.formatCitation(items, cluster, { ...options, format: 'text' }),
            formatter.formatCitation(items, cluster, { ...options, format: 'html' }),
          ]);
          return {
            bibliography: { text: text.document, html: html.document },
            citation: { text: citeText.value, html: citeHtml.value },
            sample: picked.length === 0,
          };
        } finally {
          formatter.unregisterStyle(PREVIEW_ID);
        }
      });
      previews = run.catch(() => undefined);
      return run;
    },
  } satisfies FeatureHandlers<typeof stylesFeature>;
}
