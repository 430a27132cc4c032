// Citation keys: generated once with a Better BibTeX-like default formula (first author's family name
// lowercased + the first significant words of the title + the year, e.g. smithQuickBrownFox2020),
// made unique with a suffix (a, b, … z, aa, ab, …) and never changed unless the user asks.
import type { CslItem, CslName } from './csl';

// Letters NFKD does not decompose into ASCII.
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'Ae',
  œ: 'oe',
  Œ: 'Oe',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
};

/** Folds text to ASCII where a Latin equivalent exists: "Müller" → "Muller", "Łódź" → "Lodz". */
export function transliterate(text: string): string {
  // Most text is ASCII already; skipping NFKD for it keeps bulk imports fast.
  if (/^[ -~\t\n\r]*$/.test(text)) return text;
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæÆœŒøØłŁđĐðÐþÞı]/g, (c) => SPECIAL[c] ?? c);
}

/** Lowercase, diacritic-free, whitespace-collapsed text: the form used for sorting and comparing. */
export function foldText(text: string): string {
  return transliterate(text).toLowerCase().replace(/\s+/g, ' ').trim();
}

// Function words Better BibTeX skips when taking the "significant" words of a title.
export const SKIP_WORDS = new Set(
  'a an the some from on in to of do with der die das ein eine einer eines einem einen un une la le les du de des et at for and or but nor as by via into onto over under about against between through during without within upon is are was were be been'.split(
    ' ',
  ),
);

export interface CitekeyOptions {
  /** Significant title words to take (Better BibTeX's default shorttitle takes 3). */
  titleWords?: number;
}

export function familyOf(name: CslName | undefined): string | undefined {
  if (!name) return undefined;
  if (name.family) {
    // "van der Berg": BBT's auth uses the family name without particles' spaces.
    return name.family;
  }
  if (name.literal) return name.literal.split(/\s+/)[0];
  return name.given;
}

export function yearOf(item: CslItem): string {
  const parts = item.issued?.['date-parts']?.[0];
  const y = parts?.[0];
  if (typeof y === 'number' && Number.isFinite(y)) return String(y);
  const raw = item.issued?.raw ?? item.issued?.literal;
  const m = raw ? /\b(\d{4})\b/.exec(raw) : null;
  return m ? m[1]! : '';
}

const keyChars = (s: string): string => transliterate(s).replace(/[^A-Za-z0-9]/g, '');

/** The key the formula gives for an item, before uniqueness is ensured. Never empty. */
export function citationKeyBase(item: CslItem, options: CitekeyOptions = {}): string {
  const creator = item.author?.[0] ?? item.editor?.[0] ?? (item['container-author'] as CslName[] | undefined)?.[0];
  const auth = keyChars(familyOf(creator) ?? '').toLowerCase();
  const words = transliterate(String(item.title ?? ''))
    .replace(/<[^>]*>/g, ' ')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0 && !SKIP_WORDS.has(w.toLowerCase()))
    .slice(0, options.titleWords ?? 3)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());
  const key = `${auth}${words.join('')}${yearOf(item)}`;
  return key === '' ? 'anon' : key;
}

/** The suffix for the n-th clash (1 → a, 26 → z, 27 → aa). */
export function keySuffix(n: number): string {
  let s = '';
  let k = n;
  while (k > 0) {
    k--;
    s = String.fromCharCode(97 + (k % 26)) + s;
    k = Math.floor(k / 26);
  }
  return s;
}

/** `base` if free, else base + a, base + b, …: the first that `taken` (case-insensitive) rejects. */
export function uniqueCitationKey(base: string, taken: (key: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 1; ; n++) {
    const candidate = base + keySuffix(n);
    if (!taken(candidate)) return candidate;
  }
}

/**
 * Why a key cannot be used, or null if it can. Only what cannot work at all is refused: what ends a key
 * in a .bib file (blanks, comma, braces, parentheses, quote, "=", which biber reads as a field) or breaks
 * \cite{…} in LaTeX (backslash, "#", "%", "~"). Anything BibTeX and biber take, such as O'Hara_1999 or
 * Müller:2020, is the user's key and stays as it is.
 */
export function citationKeyProblem(key: string): string | null {
  if (key.trim() === '') return 'A citation key cannot be empty.';
  if (key.length > 200) return 'A citation key can have at most 200 characters.';
  if (/\s/.test(key)) return 'A citation key cannot contain spaces.';
  const bad = /[{}(),\\"#%~=]/.exec(key);
  if (bad) return `A citation key cannot contain "${bad[0]}": BibTeX and LaTeX would misread it.`;
  return null;
}
