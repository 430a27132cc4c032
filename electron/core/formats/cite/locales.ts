// Locale lookup with CSL's fallbacks: exact tag, then the language's primary dialect (de → de-DE),
// then any dialect of the language, then en-US (which the processor always needs as its base).
export type LocaleLookup = (lang: string) => string | undefined;

/** CSL's primary dialects (locales.json in the CSL locales repository), for languages with several. */
const PRIMARY_DIALECTS: Record<string, string> = {
  af: 'af-ZA',
  ar: 'ar',
  bg: 'bg-BG',
  ca: 'ca-AD',
  cs: 'cs-CZ',
  cy: 'cy-GB',
  da: 'da-DK',
  de: 'de-DE',
  el: 'el-GR',
  en: 'en-US',
  es: 'es-ES',
  et: 'et-EE',
  eu: 'eu',
  fa: 'fa-IR',
  fi: 'fi-FI',
  fr: 'fr-FR',
  he: 'he-IL',
  hi: 'hi-IN',
  hr: 'hr-HR',
  hu: 'hu-HU',
  id: 'id-ID',
  is: 'is-IS',
  it: 'it-IT',
  ja: 'ja-JP',
  km: 'km-KH',
  ko: 'ko-KR',
  la: 'la',
  lt: 'lt-LT',
  lv: 'lv-LV',
  mn: 'mn-MN',
  nb: 'nb-NO',
  nl: 'nl-NL',
  nn: 'nn-NO',
  pa: 'pa-PK',
  pl: 'pl-PL',
  pt: 'pt-PT',
  ro: 'ro-RO',
  ru: 'ru-RU',
  sk: 'sk-SK',
  sl: 'sl-SI',
  sr: 'sr-RS',
  sv: 'sv-SE',
  th: 'th-TH',
  tr: 'tr-TR',
  uk: 'uk-UA',
  vi: 'vi-VN',
  zh: 'zh-CN',
};

/** Normalises a tag as CSL writes it: en_us → en-US. */
export function normaliseLocale(lang: string): string {
  const [language = '', region] = lang.trim().replace(/_/g, '-').split('-');
  return region ? `${language.toLowerCase()}-${region.toUpperCase()}` : language.toLowerCase();
}

/** The shipped locale that serves `lang`, or undefined. `available` lists the shipped tags. */
export function resolveLocale(lang: string, available: readonly string[]): string | undefined {
  const tag = normaliseLocale(lang);
  if (available.includes(tag)) return tag;
  const language = tag.split('-')[0] ?? '';
  const primary = PRIMARY_DIALECTS[language];
  if (primary && available.includes(primary)) return primary;
  return available.find((l) => l.split('-')[0] === language);
}

/** A lookup over the locale XML a worker has been sent so far, with the same fallbacks. */
export function lookupFrom(xmlByTag: ReadonlyMap<string, string>): LocaleLookup {
  return (lang) => {
    const tag = resolveLocale(lang, [...xmlByTag.keys()]);
    return tag ? xmlByTag.get(tag) : undefined;
  };
}
