// Month macros and month values. BibTeX predefines jan…dec as the English names; files also write
// months as numbers, abbreviations or full names in several languages' spellings of English.
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
export const MONTH_MACRO_NAMES = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
] as const;

export const MONTH_MACROS: ReadonlyArray<readonly [string, string]> = MONTH_MACRO_NAMES.map(
  (m, i) => [m, MONTH_NAMES[i]!] as const,
);

/** 1–12 for a month written as a number, an abbreviation or a name; undefined otherwise. */
export function parseMonth(value: string): number | undefined {
  const v = value.trim().replace(/\.$/, '').toLowerCase();
  if (/^\d{1,2}$/.test(v)) {
    const n = Number(v);
    return n >= 1 && n <= 12 ? n : undefined;
  }
  if (v.length < 3) return undefined;
  const i = MONTH_MACRO_NAMES.findIndex(
    (m, k) =>
      v === m || MONTH_NAMES[k]!.toLowerCase() === v || (v.length >= 3 && MONTH_NAMES[k]!.toLowerCase().startsWith(v)),
  );
  if (i >= 0) return i + 1;
  return v === 'sept' ? 9 : undefined;
}
