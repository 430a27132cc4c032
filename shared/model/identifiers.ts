// The identifiers "Add by identifier" takes, in one box or on the command line: DOIs, arXiv ids (the
// new 2101.00001v2 form and the old hep-th/9901001 one), PubMed ids (PMIDs), PubMed Central ids
// (PMCIDs) and ISBNs, written bare, with a label (arXiv:, PMID:, ISBN) or as a link. Each input is
// recognised once here, so the dialog and `citewise add` say the same thing about it.
import { parseDoi, writtenDoi, type NormalizedDoi } from './doi';

export type IdentifierKind = 'doi' | 'arxiv' | 'pmid' | 'pmcid' | 'isbn';

export type Identifier =
  | { kind: 'doi'; input: string; doi: NormalizedDoi; written: string }
  | {
      kind: 'arxiv';
      input: string;
      /** The canonical id, without version: 2101.00001, hep-th/9901001 (a subject class such as math.GT dropped). */
      id: string;
      /** The version written (2 for v2), or null. */
      version: number | null;
      /** The DOI arXiv registers for the id (DataCite, 10.48550), lower-cased as the library keys DOIs. */
      doi: NormalizedDoi;
      /** The same DOI as arXiv writes it: 10.48550/arXiv.2101.00001. */
      written: string;
    }
  | { kind: 'pmid'; input: string; pmid: string }
  | { kind: 'pmcid'; input: string; pmcid: string }
  | { kind: 'isbn'; input: string; isbn13: string; isbn10: string | null }
  | { kind: 'invalid'; input: string; reason: string };

/** The names each kind goes by in messages. */
export const IDENTIFIER_NAMES: Record<IdentifierKind, string> = {
  doi: 'DOI',
  arxiv: 'arXiv id',
  pmid: 'PMID',
  pmcid: 'PMCID',
  isbn: 'ISBN',
};

/** More characters than any identifier has: a pasted paragraph is refused, not searched. */
export const MAX_IDENTIFIER_LENGTH = 300;

// arXiv's archives of the old scheme (1991 to March 2007), whose ids are archive/YYMMNNN.
const OLD_ARCHIVES = new Set(
  (
    'acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg comp-gas cond-mat cs ' +
    'dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph mtrl-th nlin nucl-ex nucl-th patt-sol ' +
    'physics plasm-ph q-alg q-bio q-fin quant-ph solv-int stat supr-con'
  ).split(' '),
);

const ARXIV_LINK = /^(?:https?:\/\/)?(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf|html)\/(.+?)(?:\.pdf)?\/?$/i;
const ARXIV_LABEL = /^arxiv\s*:\s*/i;
const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;
const NEW_ARXIV = /^(\d{2})(\d{2})\.(\d{4,5})(?:v(\d+))?$/;
const OLD_ARXIV = /^([a-z-]+)(?:\.([a-z]{2}))?\/(\d{2})(\d{2})(\d{3})(?:v(\d+))?$/i;

/** The DOI arXiv registers for an id without its version (DataCite prefix 10.48550), as arXiv writes it. */
export function arxivDoiOf(id: string): string {
  return `10.48550/arXiv.${id}`;
}

type ArxivParse = { ok: true; id: string; version: number | null } | { ok: false; reason: string };

/** An arXiv id as written after any label or link has been taken off; explains what is wrong with one that is not. */
export function parseArxivId(text: string): ArxivParse {
  const t = text.trim();
  const m = NEW_ARXIV.exec(t);
  if (m) {
    const [yy, mm, serial, v] = [Number(m[1]), Number(m[2]), m[3]!, m[4]];
    const yymm = yy * 100 + mm;
    if (mm < 1 || mm > 12)
      return { ok: false, reason: `"${m[2]}" is not a month: a new-style arXiv id is YYMM.NNNNN.` };
    if (yymm < 704) return { ok: false, reason: 'arXiv ids of the form YYMM.NNNNN start in April 2007 (0704).' };
    const digits = yymm < 1501 ? 4 : 5;
    if (serial.length !== digits)
      return {
        ok: false,
        reason: `arXiv ids of ${m[1]}${m[2]} have ${digits} digits after the dot (${digits === 4 ? 'until' : 'from'} 2015).`,
      };
    return { ok: true, id: `${m[1]}${m[2]}.${serial}`, version: v === undefined ? null : Number(v) };
  }
  const o = OLD_ARXIV.exec(t);
  if (o) {
    const archive = o[1]!.toLowerCase();
    if (!OLD_ARCHIVES.has(archive)) return { ok: false, reason: `"${o[1]}" is not an arXiv archive (such as hep-th).` };
    const [yy, mm] = [Number(o[3]), Number(o[4])];
    const year = yy >= 91 ? 1900 + yy : 2000 + yy;
    if (mm < 1 || mm > 12 || year * 100 + mm < 199108 || year * 100 + mm > 200703)
      return { ok: false, reason: 'An old-style arXiv id (archive/YYMMNNN) dates from August 1991 to March 2007.' };
    // The subject class (math.GT/0309136) is not part of the id: arXiv lists the paper as math/0309136.
    return { ok: true, id: `${archive}/${o[3]}${o[4]}${o[5]}`, version: o[6] === undefined ? null : Number(o[6]) };
  }
  return {
    ok: false,
    reason: 'An arXiv id looks like 2101.00001 (with an optional version, 2101.00001v2) or hep-th/9901001.',
  };
}

/** ISBN-10 check: the weighted sum (10 … 1) is a multiple of 11; X stands for 10 in the last place. */
function isbn10CheckDigit(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(first9[i]) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/** ISBN-13 (EAN-13) check: weights 1 and 3 alternating, the sum a multiple of 10. */
function isbn13CheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

export type IsbnParse = { ok: true; isbn13: string; isbn10: string | null } | { ok: false; reason: string };

/**
 * An ISBN-10 or ISBN-13, hyphens and spaces allowed, its check digit verified. The ISBN-13 is the form
 * kept and compared (an ISBN-10 is the same book as 978 + its first nine digits + a new check digit).
 */
export function parseIsbn(input: string): IsbnParse {
  const compact = String(input)
    .trim()
    .replace(/^isbn(?:-1[03])?\s*:?\s*/i, '')
    .replace(/[\s\u2010-\u2015-]/g, '')
    .toUpperCase();
  if (/^\d{9}[\dX]$/.test(compact)) {
    const check = isbn10CheckDigit(compact.slice(0, 9));
    if (check !== compact[9])
      return {
        ok: false,
        reason: `The ISBN-10 check digit should be ${check}, not ${compact[9]}: the ISBN is probably mistyped.`,
      };
    const body = `978${compact.slice(0, 9)}`;
    return { ok: true, isbn13: body + isbn13CheckDigit(body), isbn10: compact };
  }
  if (/^\d{13}$/.test(compact)) {
    if (!compact.startsWith('978') && !compact.startsWith('979'))
      return { ok: false, reason: 'An ISBN-13 starts with 978 or 979.' };
    const check = isbn13CheckDigit(compact.slice(0, 12));
    if (check !== compact[12])
      return {
        ok: false,
        reason: `The ISBN-13 check digit should be ${check}, not ${compact[12]}: the ISBN is probably mistyped.`,
      };
    const isbn10 = compact.startsWith('978') ? compact.slice(3, 12) + isbn10CheckDigit(compact.slice(3, 12)) : null;
    return { ok: true, isbn13: compact, isbn10 };
  }
  return {
    ok: false,
    reason: `An ISBN has 10 or 13 digits (the last of an ISBN-10 may be X); this one has ${compact.replace(/[^\dX]/g, '').length}.`,
  };
}

/**
 * The ISBN-13s of every valid ISBN in a field's text: books often list several ("0-306-40615-2
 * (pbk.); 978-3-16-148410-0"), separated by commas, semicolons or spaces, each maybe written with spaces.
 */
export function isbnsIn(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[,;]/)) {
    const whole = parseIsbn(part.replace(/\([^)]*\)/g, ''));
    if (whole.ok) out.push(whole.isbn13);
    else
      for (const word of part.split(/\s+/)) {
        const one = parseIsbn(word);
        if (one.ok) out.push(one.isbn13);
      }
  }
  return [...new Set(out)];
}

const PMID_LINK = /^(?:https?:\/\/)?(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov|ncbi\.nlm\.nih\.gov\/pubmed)\/(\d+)\/?$/i;
const PMCID_LINK =
  /^(?:https?:\/\/)?(?:www\.)?(?:pmc\.ncbi\.nlm\.nih\.gov|ncbi\.nlm\.nih\.gov\/pmc)\/articles\/(pmc\d+)\/?$/i;
const PMID_LABEL = /^pmid\s*:?\s*/i;
const PMCID_LABEL = /^pmcid\s*:?\s*/i;
const ISBN_LABEL = /^isbn(?:-1[03])?\s*:?\s*/i;
const DOI_SHAPED = /^(?:doi\s*:|(?:https?:\/\/)?(?:dx\.|www\.)?doi\.org\/|10\.)/i;

function arxiv(input: string, text: string): Identifier {
  const parsed = parseArxivId(text);
  if (!parsed.ok) return { kind: 'invalid', input, reason: parsed.reason };
  const written = arxivDoiOf(parsed.id);
  return {
    kind: 'arxiv',
    input,
    id: parsed.id,
    version: parsed.version,
    doi: written.toLowerCase() as NormalizedDoi,
    written,
  };
}

function pmid(input: string, digits: string): Identifier {
  if (!/^\d{1,9}$/.test(digits) || /^0+$/.test(digits))
    return { kind: 'invalid', input, reason: 'A PMID is a number of one to nine digits, as in 31452104.' };
  return { kind: 'pmid', input, pmid: String(Number(digits)) };
}

function pmcid(input: string, text: string): Identifier {
  const m = /^pmc(\d{1,9})$/i.exec(text);
  if (!m || /^0+$/.test(m[1]!))
    return { kind: 'invalid', input, reason: 'A PMCID is "PMC" followed by digits, as in PMC6704497.' };
  return { kind: 'pmcid', input, pmcid: `PMC${Number(m[1])}` };
}

function isbn(input: string, text: string): Identifier {
  const parsed = parseIsbn(text);
  return parsed.ok
    ? { kind: 'isbn', input, isbn13: parsed.isbn13, isbn10: parsed.isbn10 }
    : { kind: 'invalid', input, reason: parsed.reason };
}

/** What one input is. Never throws: an input that is none of them comes back 'invalid' with a reason. */
export function parseIdentifier(raw: string): Identifier {
  const input = String(raw);
  // A list pasted from prose leaves a comma, a semicolon or a full stop after an identifier.
  const text = input.trim().replace(/[.,;]+$/, '');
  if (text === '') return { kind: 'invalid', input, reason: 'It is empty.' };
  if (text.length > MAX_IDENTIFIER_LENGTH)
    return {
      kind: 'invalid',
      input,
      reason: `It is longer than the ${MAX_IDENTIFIER_LENGTH} characters of any identifier.`,
    };
  let m: RegExpExecArray | null;
  if ((m = ARXIV_LINK.exec(text))) return arxiv(input, m[1]!);
  if (ARXIV_LABEL.test(text)) return arxiv(input, text.replace(ARXIV_LABEL, ''));
  if ((m = PMID_LINK.exec(text))) return pmid(input, m[1]!);
  if ((m = PMCID_LINK.exec(text))) return pmcid(input, m[1]!);
  if (PMCID_LABEL.test(text)) return pmcid(input, text.replace(PMCID_LABEL, ''));
  if (PMID_LABEL.test(text)) return pmid(input, text.replace(PMID_LABEL, ''));
  if (ISBN_LABEL.test(text)) return isbn(input, text);
  if (DOI_SHAPED.test(text)) {
    const parsed = parseDoi(text);
    if (!parsed.ok) return { kind: 'invalid', input, reason: parsed.reason };
    // arXiv's own DOI is an arXiv id: the item gets its arXiv link and number too.
    const ax = ARXIV_DOI.exec(parsed.doi);
    if (ax) {
      const asArxiv = arxiv(input, ax[1]!);
      if (asArxiv.kind === 'arxiv') return asArxiv;
    }
    return { kind: 'doi', input, doi: parsed.doi, written: writtenDoi(text) ?? parsed.doi };
  }
  if (/^pmc\d+$/i.test(text)) return pmcid(input, text);
  if (NEW_ARXIV.test(text) || OLD_ARXIV.test(text)) return arxiv(input, text);
  const digits = text.replace(/[\s\u2010-\u2015-]/g, '');
  if (/^\d{9}[\dXx]$|^\d{13}$/.test(digits)) return isbn(input, text);
  if (/^\d{1,9}$/.test(text)) return pmid(input, text);
  return {
    kind: 'invalid',
    input,
    reason:
      'not a DOI (10.1000/xyz), an arXiv id (2101.00001, hep-th/9901001), a PMID (PMID: 31452104), a PMCID (PMC6704497) or an ISBN (978-0-306-40615-7).',
  };
}

// A label or link prefix standing alone on a line, whose identifier follows after a space.
const LONE_LABEL = /^(?:doi|arxiv|pmid|pmcid|isbn(?:-1[03])?)\s*:?$/i;

/**
 * The inputs of a pasted text, in order, each once (by what it names): one identifier a line, or
 * several on a line separated by spaces or commas. A line that reads whole as one identifier (an ISBN
 * written with spaces, "PMID: 123") is taken whole. Semicolons separate nothing: old Wiley DOIs contain one.
 */
export function splitIdentifiers(text: string): string[] {
  const out: string[] = [];
  for (const line of String(text).split(/\r?\n/)) {
    const whole = line.trim().replace(/,+$/, '').trim();
    if (whole === '') continue;
    if (/\s/.test(whole) && parseIdentifier(whole).kind !== 'invalid') {
      out.push(whole);
      continue;
    }
    const parts = whole.split(/[\s,]+/).filter((p) => p !== '');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (LONE_LABEL.test(part) && i + 1 < parts.length) {
        out.push(`${part} ${parts[++i]!}`);
        continue;
      }
      out.push(part);
    }
  }
  const seen = new Set<string>();
  return out.filter((input) => {
    const id = parseIdentifier(input);
    const key = identityOf(id) ?? `raw:${input}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What an identifier names, for telling two inputs of the same thing apart ("10.1/x" and "doi:10.1/X"). */
export function identityOf(id: Identifier): string | null {
  switch (id.kind) {
    case 'doi':
    case 'arxiv':
      return `doi:${id.doi}`;
    case 'pmid':
      return `pmid:${id.pmid}`;
    case 'pmcid':
      return `pmcid:${id.pmcid}`;
    case 'isbn':
      return `isbn:${id.isbn13}`;
    case 'invalid':
      return null;
  }
}

/** The identifier as the report names it: "arXiv:2101.00001v2", "ISBN 9780306406157", the DOI. */
export function identifierLabel(id: Identifier): string {
  switch (id.kind) {
    case 'doi':
      return id.written;
    case 'arxiv':
      return `arXiv:${id.id}${id.version === null ? '' : `v${id.version}`}`;
    case 'pmid':
      return `PMID ${id.pmid}`;
    case 'pmcid':
      return id.pmcid;
    case 'isbn':
      return `ISBN ${id.isbn13}`;
    case 'invalid':
      return id.input.trim();
  }
}

/** The arXiv fields an item added by its arXiv id carries besides the service's metadata. */
export function arxivFields(id: Extract<Identifier, { kind: 'arxiv' }>): {
  number: string;
  URL: string;
  version?: string;
} {
  const versioned = `${id.id}${id.version === null ? '' : `v${id.version}`}`;
  return {
    number: `arXiv:${id.id}`,
    URL: `https://arxiv.org/abs/${versioned}`,
    ...(id.version === null ? {} : { version: String(id.version) }),
  };
}
