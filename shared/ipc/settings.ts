import { z } from 'zod';
import { event, feature, request } from './define';

import { STYLE_ID_PATTERN } from '../model/csl';
import { compileKeyFormula, MAX_FORMULA_LENGTH } from '../model/citekey-formula';
import {
  CITATION_LOCALES,
  DEFAULT_CITATION_LOCALE,
  DEFAULT_CITATION_STYLE,
  isServiceUrl,
  PDF_STORAGE,
  SENTENCE_CASE_MODES,
  THEMES,
  type CitationLocale,
  type PdfStorage,
  type SentenceCaseMode,
  type ThemePreference,
} from '../model/settings';

export { isServiceUrl };

export {
  PDF_STORAGE,
  SENTENCE_CASE_MODES,
  THEMES,
  type CitationLocale,
  type PdfStorage,
  type SentenceCaseMode,
  type ThemePreference,
};

export interface Settings {
  theme: ThemePreference;
  /** The service base URL; absent or null means the real service. --service-url / CITEWISE_SERVICE_URL win over it. */
  serviceUrl?: string | null;
  /**
   * The style of "copy citation", the export dialog and previews, until the user picks another there:
   * a built-in id or one added from a .csl file (removing that style sets this back to apa).
   */
  citationStyle: string;
  /** The locale of citations and bibliographies (dates, "and", "edited by"). */
  locale: CitationLocale;
  /** Settings → Editors: the app serves the editor API (Better BibTeX-compatible) on loopback. */
  editorApi: boolean;
  /** Its port; 23119 is the one Better BibTeX's clients use. */
  editorApiPort: number;
  /**
   * Settings → Editors: the folders in which editors may have Citewise read an .aux file
   * (collection.scanAUX) and keep a .bib or .json file in sync (autoexport.add); none by default.
   * settings.update checks each in the core (exists, a folder, readable) and stores it normalised.
   */
  editorApiFolders?: string[];
  /**
   * The Library's table columns (shown, in order), their widths and the panes' widths, as the user
   * left them: kept with the library rather than in the renderer's storage, which browser mode keys
   * by origin (its port changes with each launch).
   */
  libraryLayout?: LibraryLayout;
  /**
   * Settings → Watch a folder: PDFs that appear in it are captured (copied into the library folder);
   * null or absent: none. settings.update checks it in the core (exists, a folder, readable).
   */
  watchFolder?: string | null;
  /**
   * Settings → PDFs: what Add → PDFs… (desktop app) and the watched folder do with a PDF: copy it into
   * the library folder, or link to the file where it is. Uploads (browser mode) always copy: there is
   * no file on disk to link to.
   */
  pdfStorage: PdfStorage;
  /** Settings → Import: English Title Case titles in BibTeX imports (SentenceCaseMode). */
  sentenceCase: SentenceCaseMode;
  /**
   * Settings → Citation keys: the formula new keys are made with (docs/citation-keys.md), Better
   * BibTeX style; absent: the default (auth.lower + shorttitle(3,3) + year). Existing keys never change
   * with it; Regenerate citation keys applies it to chosen items.
   */
  citekeyFormula?: string;
}

export interface LibraryLayout {
  columns?: string[];
  columnWidths?: Record<string, number>;
  panes?: Record<string, number>;
  /** The table's sort order, kept across reloads and launches. */
  sort?: { column: string; direction: 'asc' | 'desc' };
}

export const DEFAULT_EDITOR_API_PORT = 23119;

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  citationStyle: DEFAULT_CITATION_STYLE,
  locale: DEFAULT_CITATION_LOCALE,
  editorApi: true,
  editorApiPort: DEFAULT_EDITOR_API_PORT,
  editorApiFolders: [],
  pdfStorage: 'copy',
  sentenceCase: 'protected',
};

/** Folders editors may use, at most. */
export const MAX_EDITOR_API_FOLDERS = 20;

const layoutName = z.string().max(40);
const layoutWidths = z
  .record(layoutName, z.number().finite())
  .refine((r) => Object.keys(r).length <= 40, 'must name at most 40 columns or panes');

/** Checked for shape and size only: the renderer keeps known names and clamps widths (sanitizeColumns, sanitizeWidths, sanitizePanes). */
export const libraryLayout = z
  .object({
    columns: z.array(layoutName).max(40).optional(),
    columnWidths: layoutWidths.optional(),
    panes: layoutWidths.optional(),
    sort: z
      .object({ column: layoutName, direction: z.enum(['asc', 'desc']) })
      .strict()
      .optional(),
  })
  .strict();

export const settingsPatch = z
  .object({
    libraryLayout: libraryLayout.optional(),
    theme: z.enum(THEMES).optional(),
    citationStyle: z.string().regex(STYLE_ID_PATTERN, 'must be a citation style id').optional(),
    locale: z.enum(CITATION_LOCALES).optional(),
    editorApi: z.boolean().optional(),
    editorApiPort: z
      .number()
      .int()
      .min(1024, 'must be a port from 1024 to 65535')
      .max(65535, 'must be a port from 1024 to 65535')
      .optional(),
    editorApiFolders: z
      .array(z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters'))
      .max(MAX_EDITOR_API_FOLDERS, `must name at most ${MAX_EDITOR_API_FOLDERS} folders`)
      .optional(),
    pdfStorage: z
      .enum(PDF_STORAGE, { message: 'must be "copy" (into the library folder) or "link" (to the file where it is)' })
      .optional(),
    sentenceCase: z
      .enum(SENTENCE_CASE_MODES, {
        message: 'must be "protected" (only titles that brace their proper nouns), "always" or "off"',
      })
      .optional(),
    watchFolder: z
      .string()
      .min(1, 'must not be empty')
      .max(4096, 'must be at most 4096 characters')
      .nullable()
      .optional(),
    citekeyFormula: z
      .string()
      .max(MAX_FORMULA_LENGTH, `must have at most ${MAX_FORMULA_LENGTH} characters`)
      .superRefine((text, ctx) => {
        const parsed = compileKeyFormula(text);
        if (!parsed.ok)
          ctx.addIssue({ code: 'custom', message: `${parsed.error.message} (at character ${parsed.error.at + 1})` });
      })
      .optional(),
    serviceUrl: z
      .string()
      .max(2048)
      .refine(isServiceUrl, 'must be an http:// or https:// address without a user name, query or fragment')
      .nullable()
      .optional(),
  })
  .strict();

export const settingsFeature = feature({
  requests: {
    'settings.get': request(z.object({}).strict()).returns<Settings>(),
    'settings.update': request(settingsPatch).returns<Settings>(),
  },
  events: {
    'settings.changed': event<Settings>(),
  },
});
