// DOIs and ISSNs as Citewise stores and sends them. Normalised once, at the edge where they enter
// (import, paste, IPC, the service client), so every lookup and cache key agrees with the service,
// which keys its bulk answers by the lowercased DOI.

/** A normalised DOI: trimmed, lower-case, without `doi:` or resolver prefixes. */
export type NormalizedDoi = string & { readonly __normalizedDoi: true };

export type DoiParse = { ok: true; doi: NormalizedDoi } | { ok: false; reason: string };

// Resolver and scheme prefixes people paste and tools write: doi:, DOI: , "DOI 10.…" (Web of Science,
// Springer), https://doi.org/, http://dx.doi.org/, doi.org/…, ACM's http://doi.acm.org/, the URI forms
// info:doi/ and urn:doi:.
const PREFIX =
  /^(?:doi(?::\s*|\s+(?=10\.))|info:doi\/|urn:doi:|(?:https?:\/\/)?(?:(?:dx\.|www\.)?doi\.org|doi\.acm\.org)\/)/i;
// Braces around the whole DOI: Web of Science writes DOI = {{10.1016/…}}, and a copied BibTeX value keeps them.
const BRACED = /^\{+\s*([^{}]*?)\s*\}+$/;
// "10." + a registrant code of digits (dot-separated subdivisions allowed) + "/" + a non-empty suffix.
const SHAPE = /^10\.\d{4,9}(?:\.\d+)*\/\S+$/;
/** Longer than any registered DOI; guards against pasted documents. */
export const MAX_DOI_LENGTH = 300;

/** Parses one DOI; the reason says in plain words what is wrong with a rejected one. */
export function parseDoi(input: string): DoiParse {
  const written = unprefixed(input);
  if (written === null) return { ok: false, reason: 'The DOI contains a broken percent-escape.' };
  if (written === '') return { ok: false, reason: 'The DOI is empty.' };
  const text = written.toLowerCase();
  if (text.length > MAX_DOI_LENGTH)
    return { ok: false, reason: `The DOI is longer than ${MAX_DOI_LENGTH} characters.` };
  if (!text.startsWith('10.'))
    return {
      ok: false,
      reason: 'A DOI starts with "10." followed by a number, a slash and a suffix, as in 10.1000/xyz123.',
    };
  if (!text.includes('/'))
    return { ok: false, reason: 'The DOI has no "/" between its prefix and its suffix, as in 10.1000/xyz123.' };
  if (/\s/.test(text)) return { ok: false, reason: 'The DOI contains a space; a DOI never does.' };
  // \S lets control characters through: %00 decoded is a NUL, which no DOI has and no URL or file can carry.
  if (hasControlCharacter(text))
    return { ok: false, reason: 'The DOI contains a control character (such as %00); a DOI never does.' };
  if (!SHAPE.test(text))
    return {
      ok: false,
      reason: 'The DOI prefix must be "10." followed by at least four digits, as in 10.1000/xyz123.',
    };
  return { ok: true, doi: text as NormalizedDoi };
}

/** Whether a DOI holds a control character, written as such or as a percent-escape (%00 to %1F, %7F). */
export function hasControlCharacter(doi: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]|%(?:[01][0-9a-f]|7f)/i.test(doi);
}

/** The DOI without resolver prefixes and percent-escapes, in the case it was written; null for a broken escape. */
function unprefixed(input: string): string | null {
  let text = String(input).trim();
  const braced = BRACED.exec(text);
  // As many braces close as open: {{10.1/x}}, not {10.1/x}} (a stray brace stays and is refused).
  if (braced && /^\{*/.exec(text)![0].length === /\}*$/.exec(text)![0].length) text = braced[1]!;
  // A pasted resolver link may carry percent-escapes (10.1000%2Fabc); a DOI itself never contains "%xx".
  for (let i = 0; i < 2 && PREFIX.test(text); i++) text = text.replace(PREFIX, '').trim();
  if (/%[0-9a-f]{2}/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  return text;
}

/**
 * A valid DOI as the user wrote it (10.1038/NATURE12373), for an item to keep and every style to
 * print: DOIs are case-insensitive, so lookups use parseDoi's lower-cased form, but the user's case is
 * theirs. Null when the DOI is not valid.
 */
export function writtenDoi(input: string): string | null {
  const parsed = parseDoi(input);
  return parsed.ok ? (unprefixed(input) ?? parsed.doi) : null;
}

// A resolver link, and nothing else: a publisher's page URL may hold a DOI-like path that is not one.
const RESOLVER_URL = /^(?:https?:\/\/)?(?:(?:dx\.|www\.)?doi\.org|doi\.acm\.org)\/(10\.\S+)$/i;

/**
 * The DOI a URL resolves, when the URL is a DOI resolver's link (https://doi.org/10.…, http://dx.doi.org/…,
 * http://doi.acm.org/…), as written; null for any other URL. Tools that have no DOI field write the DOI
 * so (a BibTeX url, an RIS UR line), and the item should still be enriched and checked for duplicates.
 */
export function doiFromUrl(url: string): string | null {
  const m = RESOLVER_URL.exec(String(url).trim());
  return m ? writtenDoi(m[0]) : null;
}

export class InvalidDoiError extends Error {
  readonly input: string;
  constructor(input: string, reason: string) {
    super(`"${shorten(input)}" is not a valid DOI. ${reason}`);
    this.name = 'InvalidDoiError';
    this.input = input;
  }
}

/** The normalised DOI, or an InvalidDoiError with a message fit for the researcher. */
export function normalizeDoi(input: string): NormalizedDoi {
  const parsed = parseDoi(input);
  if (!parsed.ok) throw new InvalidDoiError(input, parsed.reason);
  return parsed.doi;
}

export interface InvalidEntry {
  input: string;
  reason: string;
}

/** Normalises a list: valid DOIs once each, in first-seen order, and every rejected input with its reason. */
export function normalizeDois(inputs: Iterable<string>): { dois: NormalizedDoi[]; invalid: InvalidEntry[] } {
  const seen = new Set<string>();
  const dois: NormalizedDoi[] = [];
  const invalid: InvalidEntry[] = [];
  for (const input of inputs) {
    const parsed = parseDoi(input);
    if (!parsed.ok) invalid.push({ input, reason: parsed.reason });
    else if (!seen.has(parsed.doi)) {
      seen.add(parsed.doi);
      dois.push(parsed.doi);
    }
  }
  return { dois, invalid };
}

// ── ISSNs ──

export type NormalizedIssn = string & { readonly __normalizedIssn: true };
export type IssnParse = { ok: true; issn: NormalizedIssn } | { ok: false; reason: string };

/** Parses an ISSN into dddd-dddC (C a digit or X), checking the mod-11 check digit. */
export function parseIssn(input: string): IssnParse {
  const compact = String(input)
    .trim()
    .toUpperCase()
    .replace(/^ISSN[:\s]*/, '')
    .replace(/[\s-]/g, '');
  if (!/^\d{7}[\dX]$/.test(compact))
    return { ok: false, reason: 'An ISSN has eight characters, as in 0028-0836 (the last may be X).' };
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(compact[i]) * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  if ((check === 10 ? 'X' : String(check)) !== compact[7])
    return { ok: false, reason: 'The ISSN check digit does not match; it may be mistyped.' };
  return { ok: true, issn: `${compact.slice(0, 4)}-${compact.slice(4)}` as NormalizedIssn };
}

export function normalizeIssns(inputs: Iterable<string>): { issns: NormalizedIssn[]; invalid: InvalidEntry[] } {
  const seen = new Set<string>();
  const issns: NormalizedIssn[] = [];
  const invalid: InvalidEntry[] = [];
  for (const input of inputs) {
    const parsed = parseIssn(input);
    if (!parsed.ok) invalid.push({ input, reason: parsed.reason });
    else if (!seen.has(parsed.issn)) {
      seen.add(parsed.issn);
      issns.push(parsed.issn);
    }
  }
  return { issns, invalid };
}

function shorten(text: string): string {
  const t = String(text).trim();
  return t.length > 60 ? `${t.slice(0, 57)}…` : t;
}
