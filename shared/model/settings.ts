// Preference values shared by the core and the renderer. Kept apart from shared/ipc/settings.ts,
// whose zod schemas the renderer has no use for and should not bundle.

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEMES)[number];

/**
 * The locales of citations and bibliographies: every CSL locale, as scripts/build-csl.mjs ships them
 * with the app (the CSL locales repository's files, committed in resources/csl/locales; test/unit/formats/cite/locales-list.test.ts
 * keeps this list and the shipped files the same).
 */
export const CITATION_LOCALES = [
  'af-ZA',
  'ar',
  'bg-BG',
  'ca-AD',
  'cs-CZ',
  'cy-GB',
  'da-DK',
  'de-AT',
  'de-CH',
  'de-DE',
  'el-GR',
  'en-GB',
  'en-US',
  'es-CL',
  'es-ES',
  'es-MX',
  'et-EE',
  'eu',
  'fa-IR',
  'fi-FI',
  'fr-CA',
  'fr-FR',
  'gl-ES',
  'he-IL',
  'hi-IN',
  'hr-HR',
  'hu-HU',
  'id-ID',
  'is-IS',
  'it-IT',
  'ja-JP',
  'km-KH',
  'ko-KR',
  'la',
  'lt-LT',
  'lv-LV',
  'mn-MN',
  'nb-NO',
  'nl-NL',
  'nn-NO',
  'pa-PK',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'ro-RO',
  'ru-RU',
  'sk-SK',
  'sl-SI',
  'sr-RS',
  'sv-SE',
  'th-TH',
  'tr-TR',
  'uk-UA',
  'vi-VN',
  'zh-CN',
  'zh-TW',
] as const;
export type CitationLocale = (typeof CITATION_LOCALES)[number];

const LOCALE_NAMES =
  typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;

/** A locale's name as the pickers show it: "German (Austria) — de-AT". */
export function localeLabel(code: string): string {
  if (code.trim() === '') return code;
  let name: string | undefined;
  try {
    name = LOCALE_NAMES?.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} — ${code}` : code;
}

/** The locales in the order of their names, as the pickers list them. */
export const CITATION_LOCALES_BY_NAME: readonly CitationLocale[] = [...CITATION_LOCALES].sort((a, b) =>
  localeLabel(a).localeCompare(localeLabel(b), 'en'),
);

/** Whether a string is one of the shipped locales. */
export const isCitationLocale = (value: string): value is CitationLocale =>
  (CITATION_LOCALES as readonly string[]).includes(value);

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
