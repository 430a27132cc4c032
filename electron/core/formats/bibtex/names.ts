// BibTeX name lists ↔ CSL names. The grammar is BibTeX's own (Patashnik, "Designing BibTeX styles"):
// names are separated by "and" at brace level 0; each is "First von Last", "von Last, First" or
// "von Last, Jr, First"; von words start lower-case; a braced name is one literal (a corporate author).
// Biblatex's extended form "family=…, given=…, prefix=…" is read too.
import type { CslName } from '../../../../shared/model/csl';
import { decodeLatex, type DecodeOptions } from './latex-decode';
import { encodeText, type EncodeOptions } from './latex-encode';

export interface ParsedNames {
  names: CslName[];
  /** "and others" ended the list: BibTeX's "et al." marker, which CSL has no name for. */
  others: boolean;
}

/** Splits at " and " outside braces. */
export function splitNameList(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125) depth--;
    else if (c === 92) i++;
    else if (depth === 0 && isBlank(c) && i + 4 < n) {
      // " and " in any case, blanks on both sides
      const a = source.charCodeAt(i + 1) | 32;
      if (
        a === 97 &&
        (source.charCodeAt(i + 2) | 32) === 110 &&
        (source.charCodeAt(i + 3) | 32) === 100 &&
        isBlank(source.charCodeAt(i + 4))
      ) {
        out.push(source.slice(start, i));
        i += 4;
        start = i + 1;
      }
    }
  }
  out.push(source.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 126; // ~ ties words of one name part
}

export function parseNameList(source: string, decode: Omit<DecodeOptions, 'rich'>): ParsedNames {
  const parts = splitNameList(source);
  let others = false;
  if (parts.length > 0 && parts[parts.length - 1]!.toLowerCase() === 'others') {
    parts.pop();
    others = true;
  }
  const plain = !NEEDS_FULL_PARSE.test(source);
  const names: CslName[] = [];
  for (const part of parts) names.push((plain && simpleName(part)) || parseName(part, decode));
  return { names, others };
}

// Braces, commands, ties and line breaks need the full grammar; most names have none.
const NEEDS_FULL_PARSE = /[{}\\~\t\n\r]| {2}/;

/**
 * The common case, "Family, Given" with a one-word capitalised family, without the tokenizer: a big
 * library has hundreds of thousands of these. Anything else (particles, suffixes) returns undefined.
 */
function simpleName(part: string): CslName | undefined {
  const comma = part.indexOf(',');
  if (comma <= 0 || part.indexOf(',', comma + 1) >= 0) return undefined;
  const c = part.charCodeAt(0);
  if (c < 65 || c > 90) return undefined;
  const family = part.slice(0, comma);
  if (family.indexOf(' ') >= 0) return undefined;
  const given = part.slice(comma + 1).trim();
  return given === '' ? { family } : { family, given };
}

interface Token {
  text: string;
  /** Whether the token counts as lower-case (a von word) under BibTeX's rule. */
  lower: boolean;
}

/** Splits one name at top-level commas, then each part into words. */
function tokenize(name: string): Token[][] {
  const parts: Token[][] = [[]];
  let depth = 0;
  let start = 0;
  const n = name.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? name.charCodeAt(i) : 32;
    if (c === 92) {
      i++;
      continue;
    }
    if (c === 123) depth++;
    else if (c === 125) depth--;
    else if (depth === 0 && (c === 32 || c === 10 || c === 9 || c === 13 || c === 126 || c === 44)) {
      if (i > start) {
        const text = name.slice(start, i);
        parts[parts.length - 1]!.push({ text, lower: isLowerWord(text) });
      }
      if (c === 44) parts.push([]);
      start = i + 1;
    }
  }
  return parts;
}

const LETTER_COMMANDS = new Set(['aa', 'ae', 'oe', 'o', 'l', 'ss', 'i', 'j', 'AA', 'AE', 'OE', 'O', 'L', 'SS']);

function isLowerWord(word: string): boolean {
  const c0 = word.charCodeAt(0);
  if (c0 >= 97 && c0 <= 122) return true;
  if (c0 >= 65 && c0 <= 90) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '{') {
      if (word[i + 1] !== '\\') return false;
      const m = /^\{\\([a-zA-Z]+|.)\s*\{?\s*([a-zA-Z])?/.exec(word.slice(i));
      if (!m) return false;
      const cmd = m[1]!;
      if (LETTER_COMMANDS.has(cmd)) return cmd[0] === cmd[0]!.toLowerCase();
      const letter = m[2];
      return letter !== undefined && letter === letter.toLowerCase();
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (/\p{L}/u.test(c)) return c === c.toLowerCase() && c !== c.toUpperCase();
  }
  return false;
}

function join(tokens: Token[], decode: Omit<DecodeOptions, 'rich'>): string {
  let text = tokens[0]!.text;
  for (let i = 1; i < tokens.length; i++) text += ` ${tokens[i]!.text}`;
  return decodeLatex(text, decode.unknown ? { rich: false, unknown: decode.unknown } : PLAIN);
}

const PLAIN: DecodeOptions = { rich: false };

function parseName(source: string, decode: Omit<DecodeOptions, 'rich'>): CslName {
  const trimmed = source.trim();
  if (trimmed.charCodeAt(0) === 123 && trimmed.charCodeAt(trimmed.length - 1) === 125 && wholeGroup(trimmed)) {
    return { literal: decodeLatex(trimmed.slice(1, -1), { ...decode, rich: false }) };
  }
  const parts = tokenize(trimmed);
  if (parts.length > 1 && trimmed.includes('=') && parts.some((p) => p.some((t) => /^[a-z-]+=/i.test(t.text))))
    return parseExtended(trimmed, decode);
  const name: CslName = {};
  const set = (field: NamePart, tokens: Token[]) => setPart(name, field, tokens, decode);
  if (parts.length === 1) {
    // First von Last
    const words = parts[0]!;
    if (words.length === 1) return { family: join(words, decode) };
    let vonStart = -1;
    let vonEnd = -1;
    for (let i = 0; i < words.length - 1; i++) {
      if (words[i]!.lower) {
        if (vonStart < 0) vonStart = i;
        vonEnd = i;
      }
    }
    if (vonStart < 0) {
      set('given', words.slice(0, -1));
      set('family', words.slice(-1));
    } else {
      set('given', words.slice(0, vonStart));
      set('non-dropping-particle', words.slice(vonStart, vonEnd + 1));
      set('family', words.slice(vonEnd + 1));
    }
    return name;
  }
  // von Last, [Jr,] First
  const first = parts[0]!;
  let vonEnd = -1;
  // BibTeX makes everything up to the last lower-case word the von part, so "López de Molina, Ana"
  // would be von "López de", family "Molina", which no style prints right and which cannot be written
  // back. As pandoc and biber's Spanish users expect, a von part must start the name: "de la Fontaine,
  // Jean" has one, a compound family name that starts with a capital has none.
  if (first[0]?.lower) for (let i = 0; i < first.length - 1; i++) if (first[i]!.lower) vonEnd = i;
  set('non-dropping-particle', first.slice(0, vonEnd + 1));
  set('family', first.slice(vonEnd + 1));
  if (parts.length === 2) set('given', parts[1]!);
  else {
    set('suffix', parts[1]!);
    set('given', parts.slice(2).flat());
  }
  return name;
}

type NamePart = 'family' | 'given' | 'suffix' | 'non-dropping-particle';

function setPart(name: CslName, field: NamePart, tokens: Token[], decode: Omit<DecodeOptions, 'rich'>): void {
  if (tokens.length > 0) {
    const text = join(tokens, decode);
    if (text !== '') name[field] = text;
  }
}

function parseExtended(source: string, decode: Omit<DecodeOptions, 'rich'>): CslName {
  const name: CslName = {};
  for (const piece of splitTopLevel(source, ',')) {
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    const key = piece.slice(0, eq).trim().toLowerCase();
    let value = piece.slice(eq + 1).trim();
    if (value.startsWith('{') && value.endsWith('}') && wholeGroup(value)) value = value.slice(1, -1);
    const text = decodeLatex(value, { ...decode, rich: false });
    if (key === 'family') name.family = text;
    else if (key === 'given') name.given = text;
    else if (key === 'prefix') name['non-dropping-particle'] = text;
    else if (key === 'suffix') name.suffix = text;
  }
  return name;
}

function splitTopLevel(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** Whether a text starting with { ends with the } that matches it (so "{A} and {B}" is not one group). */
function wholeGroup(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i === text.length - 1;
  }
  return false;
}

// ── export ──

/** A name as BibTeX reads it back to the same CSL name. */
export function formatName(name: CslName, options: EncodeOptions = {}): string {
  const enc = (s: string) => encodeText(s, options);
  if (name.literal !== undefined && name.literal !== '') return `{${enc(name.literal)}}`;
  const family = name.family ?? '';
  const given = name.given ?? '';
  if (family === '') return given === '' ? '{}' : `{${enc(given)}}`;
  const particle = [name['dropping-particle'], name['non-dropping-particle']].filter((p): p is string => !!p).join(' ');
  // A family name that BibTeX would split (a lower-case word, a comma, an "and") is braced whole.
  // A particle BibTeX would not take for one (a capitalised "Van") can only travel inside the braced family.
  const lowerParticle = particle === '' || particle.split(/\s+/).every((w) => isLowerPlain(w));
  const fullFamily = lowerParticle ? family : `${particle} ${family}`;
  const familyTex = !lowerParticle || needsBraces(fullFamily) ? `{${enc(fullFamily)}}` : enc(fullFamily);
  const particleTex = lowerParticle && particle !== '' ? `${enc(particle)} ` : '';
  const givenTex = given === '' ? '' : /,|\band\b/i.test(given) ? `{${enc(given)}}` : enc(given);
  if (name.suffix) return `${particleTex}${familyTex}, ${enc(name.suffix)}, ${givenTex}`;
  // "Family," keeps a several-word family name without a given name from reading as "First Last".
  if (givenTex === '')
    return /\s/.test(fullFamily) && !familyTex.startsWith('{')
      ? `${particleTex}${familyTex},`
      : `${particleTex}${familyTex}`;
  return `${particleTex}${familyTex}, ${givenTex}`;
}

function isLowerPlain(word: string): boolean {
  const letter = /\p{L}/u.exec(word)?.[0];
  return letter !== undefined && letter === letter.toLowerCase() && letter !== letter.toUpperCase();
}

function needsBraces(family: string): boolean {
  if (/,|\band\b/i.test(family)) return true;
  const words = family.split(/[\s~]+/);
  if (words.length === 1) return false;
  return words.some((w) => !/\p{L}/u.test(w[0] ?? '') || isLowerPlain(w));
}

export function formatNameList(names: readonly CslName[], others: boolean, options: EncodeOptions = {}): string {
  const list = names.map((n) => formatName(n, options));
  if (others) list.push('others');
  return list.join(' and ');
}
