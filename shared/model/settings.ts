// Preference values shared by the core and the renderer. Kept apart from shared/ipc/settings.ts,
// whose zod schemas the renderer has no use for and should not bundle.

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEMES)[number];

/** The locales of citations and bibliographies (the CSL locales Citewise ships). */
export const CITATION_LOCALES = ['en-US', 'en-GB'] as const;
export type CitationLocale = (typeof CITATION_LOCALES)[number];
/** The locales' names, as the pickers show them. */
export const LOCALE_LABELS: Record<CitationLocale, string> = {
  'en-US': 'English (United States)',
  'en-GB': 'English (United Kingdom)',
};

export const DEFAULT_CITATION_STYLE = 'apa';
export const DEFAULT_CITATION_LOCALE: CitationLocale = 'en-US';

/** An absolute http(s) URL without user info, query or fragment (a key must never ride in a URL). */
export function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === ''
    );
  } catch {
    return false;
  }
}

/** Settings → PDFs: copy an added PDF into the library folder, or link to the file where it is. */
export const PDF_STORAGE = ['copy', 'link'] as const;
export type PdfStorage = (typeof PDF_STORAGE)[number];

/**
 * Settings → Import: what a BibTeX import does with an English title written in Title Case. CSL
 * stores titles in sentence case (styles that want Title Case make it), but Title Case cannot tell a
 * proper noun from a capitalised word, so lowering it loses names ("Keira Drake's Apology" →
 * "Keira drake's apology"):
 * - 'protected' (the default): only when the entry marks the words whose case matters with braces
 *   (`{DNA}`, `{America}`), as BibTeX styles expect; lowered then, the title reads as BibTeX itself
 *   would print it in a sentence-case style;
 * - 'always': every title that is Title Case by the strict test, as Better BibTeX does;
 * - 'off': every title as written.
 * The title as written is kept either way (Use the title as written; a BibTeX export writes it back).
 */
export const SENTENCE_CASE_MODES = ['protected', 'always', 'off'] as const;
export type SentenceCaseMode = (typeof SENTENCE_CASE_MODES)[number];
