// The Styles browser (docs/styles.md): the CSL styles repository shipped with the app (built from
// the machine's citation-style-language-styles), searched by name, field and citation format,
// previewed on the Library's selection with the export engine, and installed into the library's
// styles (the same store as a .csl file added by hand, so export, copy, Quick Copy, auto-export and
// the CLI use it).
import { z } from 'zod';
import { CITATION_LOCALES } from '../model/settings';
import { feature, request } from './define';
import type { CitationStyleInfo } from './library';

/** A style of the collection, as the browser lists it. */
export interface CollectionStyleInfo {
  /** Its file name in the CSL repository; also the id it is installed under. */
  name: string;
  title: string;
  short?: string;
  fields?: string[];
  /** author-date, numeric, note, label or author. */
  format?: string;
  locale?: string;
  /** A dependent style's parent (file name and title): installed, it formats as its parent does. */
  parent?: string;
  parentTitle?: string;
  /** The built-in Citewise style it is (apa, ieee, …): nothing to install. */
  builtIn?: string;
  /** Installed in this library already. */
  installed: boolean;
}

export interface StyleCollectionPage {
  /** False when the app was built on a machine without the CSL styles: `reason` says so. */
  available: boolean;
  reason?: string;
  source?: string;
  license?: string;
  /** Styles in the collection. */
  total: number;
  /** Styles that match the query (styles holds the first `limit` of them). */
  matched: number;
  styles: CollectionStyleInfo[];
  fields: { name: string; count: number }[];
  formats: { name: string; count: number }[];
}

const itemId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const styleName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'must be a style file name such as nature or apa');

export const stylesFeature = feature({
  requests: {
    'styles.collection.search': request(
      z
        .object({
          text: z.string().max(500).default(''),
          field: z.string().max(100).optional(),
          format: z.string().max(100).optional(),
          limit: z.number().int().min(1).max(500).default(100),
        })
        .strict(),
    ).returns<StyleCollectionPage>(),
    /** Installs a style of the collection (a dependent one as its parent, under its own name and title). */
    'styles.collection.install': request(z.object({ name: styleName }).strict()).returns<CitationStyleInfo>(),
    /**
     * A bibliography and a citation of these items (or, with none, of sample items) in a style of the
     * collection, installed or not, rendered by the export engine.
     */
    'styles.collection.preview': request(
      z
        .object({
          name: styleName,
          ids: z.array(itemId).max(20).default([]),
          locale: z.enum(CITATION_LOCALES).optional(),
        })
        .strict(),
    ).returns<{
      bibliography: { text: string; html: string };
      citation: { text: string; html: string };
      sample: boolean;
    }>(),
  },
  events: {},
});
