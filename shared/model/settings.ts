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
