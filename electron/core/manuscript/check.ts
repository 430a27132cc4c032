// The manuscript check: a manuscript's bytes → its citations (one parser per format) → the library
// items they are (one lookup in the library worker) → a report of what needs a second look. Offline:
// it reads only what the library holds (items, cached notices, tallies and preprint links).
import { closeSync } from 'node:fs';
import { basename, extname } from 'node:path';
import {
  flagsOf,
  groupCitations,
  manuscriptFormatOf,
  MANUSCRIPT_EXTENSIONS,
  MANUSCRIPT_FLAGS,
  MANY_CONTRASTING,
  MAX_MANUSCRIPT_BYTES,
  PROBLEM_FLAGS,
  type CitationLookup,
  type FoundCitation,
  type LookupResult,
  type ManuscriptFlag,
  type ManuscriptFormat,
  type ManuscriptReport,
} from '../../../shared/model/manuscript';
import { CoreError } from '../errors';
import { openRegularFile, readCapped, type FileProblemError } from '../fs/regular-file';
import { DocxError, parseDocx } from './docx';
import { parseAux, parseLatex } from './latex';
import { parseMarkdown, type ParsedCitations } from './markdown';
import { parseTypst } from './typst';
import { grouped } from '../../../shared/model/numbers';
import { hasControlCharacters, withoutControlCharacters } from '../../../shared/model/control-characters';

export interface ParsedManuscript extends ParsedCitations {
  file: string;
  format: ManuscriptFormat;
  notes: string[];
}

const EXTENSIONS = Object.keys(MANUSCRIPT_EXTENSIONS)
  .map((e) => `.${e}`)
  .join(', ');

/** Text of a manuscript: refused when it is binary (a NUL byte) or not UTF-8, saying where. */
function decodeText(name: string, bytes: Uint8Array, format: ManuscriptFormat): string {
  const nul = bytes.subarray(0, 65536).indexOf(0);
  if (nul >= 0)
    throw new CoreError(
      'INVALID_INPUT',
      `${name} is a binary file, not a ${format === 'latex' ? 'LaTeX' : format === 'typst' ? 'Typst' : 'Markdown'} manuscript (byte ${nul} is NUL).`,
      { file: name },
    );
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    let line = 1;
    // Where the first invalid byte is: decode line by line until one fails.
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, i));
        } catch {
          break;
        }
        line++;
        start = i + 1;
      }
    }
    throw new CoreError(
      'INVALID_INPUT',
      `${name} is not UTF-8 text (line ${line} has bytes that are not UTF-8); save it as UTF-8.`,
      { file: name, line },
    );
  }
}

type TextFormat = Exclude<ManuscriptFormat, 'docx'>;
const TEXT_FORMATS: readonly TextFormat[] = ['latex', 'markdown', 'typst'];
const TEXT_PARSERS: Record<TextFormat, (text: string) => ParsedCitations> = {
  latex: parseLatex,
  markdown: parseMarkdown,
  typst: parseTypst,
};
const FORMAT_LABELS: Record<TextFormat, string> = { latex: 'LaTeX', markdown: 'Markdown', typst: 'Typst' };
/** What each format's citations look like, for the notes. */
const CITATION_SYNTAX: Record<TextFormat, string> = {
  latex: '\\cite{key}, \\parencite{key}…',
  markdown: '[@key], @key',
  typst: '@key, #cite(<key>)',
};

function unsupported(name: string): CoreError {
  return new CoreError(
    'INVALID_INPUT',
    `${name}: the manuscript check reads ${EXTENSIONS} files, not "${extname(name) || 'a file without an extension'}".`,
    { file: name },
  );
}

/**
 * Parses a manuscript given as bytes (a file read, or one the Assistant pane sends). `aux` is a LaTeX
 * file's .aux, when there is one: it lists what BibTeX or biber saw cited, \input files included.
 */
export function parseManuscript(
  name: string,
  bytes: Uint8Array,
  aux?: { name: string; bytes: Uint8Array },
): ParsedManuscript {
  const named = manuscriptFormatOf(name);
  if (!named) throw unsupported(name);
  let format: ManuscriptFormat = named;
  if (bytes.length > MAX_MANUSCRIPT_BYTES)
    throw new CoreError(
      'INVALID_INPUT',
      `${name} is ${grouped(bytes.length)} bytes, more than the ${MAX_MANUSCRIPT_BYTES / 1024 / 1024} MB a manuscript may have.`,
      { file: name },
    );
  if (bytes.length === 0) throw new CoreError('INVALID_INPUT', `${name} is empty.`, { file: name });
  const notes: string[] = [];
  let parsed: ParsedCitations;
  if (format === 'docx') {
    try {
      parsed = parseDocx(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (err) {
      if (err instanceof DocxError) throw new CoreError('INVALID_INPUT', `${name}: ${err.message}.`, { file: name });
      throw err;
    }
  } else {
    const text = decodeText(name, bytes, format);
    parsed = /\.aux$/i.test(name) ? parseAux(text) : TEXT_PARSERS[format](text);
    // Text read as the wrong format (LaTeX pasted as Markdown) finds nothing: that is no all-clear.
    if (parsed.citations.length === 0 && !parsed.citesAll && !aux && !/\.aux$/i.test(name)) {
      const other = TEXT_FORMATS.filter((f) => f !== format)
        .map((f) => ({ f, got: TEXT_PARSERS[f](text) }))
        .find((o) => o.got.citations.length > 0 || o.got.citesAll);
      if (other) {
        notes.push(
          `Read as ${FORMAT_LABELS[other.f]}: it has no ${FORMAT_LABELS[format]} citations (${CITATION_SYNTAX[format]}) but ${FORMAT_LABELS[other.f]} ones (${CITATION_SYNTAX[other.f]}).`,
        );
        format = other.f;
        parsed = other.got;
      } else
        notes.push(
          `No citation syntax was found: no ${FORMAT_LABELS[format]} citations (${CITATION_SYNTAX[format]}), nor LaTeX, Markdown or Typst ones. Nothing was checked.`,
        );
    }
  }
  if (aux) {
    if (aux.bytes.length > MAX_MANUSCRIPT_BYTES)
      throw new CoreError('INVALID_INPUT', `${aux.name} is larger than ${MAX_MANUSCRIPT_BYTES / 1024 / 1024} MB.`, {
        file: aux.name,
      });
    const fromAux = parseAux(decodeText(aux.name, aux.bytes, 'latex'));
    const inTex = new Set(parsed.citations.map((c) => c.key));
    const extra = fromAux.citations.filter((c) => !inTex.has(c.key));
    if (extra.length > 0)
      notes.push(
        `${extra.length} of the keys come from ${aux.name} only (cited in an \\input or \\include file, or through a macro).`,
      );
    parsed = {
      citations: [...parsed.citations, ...extra.map((c) => ({ ...c, part: basename(aux.name) }))],
      citesAll: parsed.citesAll || fromAux.citesAll,
    };
  }
  if (format === 'docx' && parsed.citations.length === 0)
    notes.push(
      'No Zotero or Citewise citation fields were found (citations typed as plain text, or fields unlinked, are not read).',
    );
  const cleaned = cleanCitations(parsed.citations);
  if (cleaned.dropped > 0)
    notes.push(
      `${cleaned.dropped} citation${cleaned.dropped === 1 ? ' was' : 's were'} left out: nothing but control characters.`,
    );
  if (cleaned.changed > 0)
    notes.push(
      `Control characters (terminal escapes, bidi overrides) were removed from ${cleaned.changed} cited key${cleaned.changed === 1 ? '' : 's'}, DOI${cleaned.changed === 1 ? '' : 's'} or title${cleaned.changed === 1 ? '' : 's'}.`,
    );
  return { ...parsed, citations: cleaned.citations, file: name, format, notes };
}

/** The manuscript check's words for a file it cannot read as one (see fs/regular-file.ts). */
const refusal =
  (path: string): FileProblemError =>
  (problem) => {
    switch (problem.kind) {
      case 'folder':
        return new CoreError('INVALID_INPUT', `${path} is a folder, not a manuscript file.`, { file: path });
      case 'loop':
        return new CoreError('INVALID_INPUT', `${path} is a loop of symbolic links; it leads to no file.`, {
          file: path,
        });
      case 'permission':
        return new CoreError('INVALID_INPUT', `${path} cannot be read (permission denied).`, { file: path });
      case 'not-regular':
        return new CoreError(
          'INVALID_INPUT',
          `${path} is ${problem.what}, not a regular file; the manuscript check reads only files.`,
          { file: path },
        );
      case 'too-large':
        return new CoreError(
          'INVALID_INPUT',
          `${path} is ${grouped(problem.size)} bytes, more than the ${MAX_MANUSCRIPT_BYTES / 1024 / 1024} MB a manuscript may have.`,
          { file: path },
        );
    }
  };

/**
 * A manuscript file's bytes: a regular file of at most MAX_MANUSCRIPT_BYTES, its kind and size checked
 * before a byte is read (a FIFO, /dev/zero or a link to it, a sparse 2 GB .aux are refused at once).
 * Null when `optional` and there is no such file.
 */
function readManuscriptFile(path: string, optional: boolean): Buffer | null {
  const fail = refusal(path);
  let opened: { fd: number; size: number };
  try {
    opened = openRegularFile(path, MAX_MANUSCRIPT_BYTES, fail);
  } catch (err) {
    if (err instanceof CoreError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (optional && (code === 'ENOENT' || code === 'ENOTDIR')) return null;
    throw new CoreError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT',
      code === 'ENOENT' ? `${path}: no such file.` : `${path} cannot be read (${code ?? String(err)}).`,
      { file: path },
    );
  }
  try {
    if (!optional && !manuscriptFormatOf(path)) throw unsupported(path);
    return readCapped(opened.fd, MAX_MANUSCRIPT_BYTES, opened.size, fail);
  } catch (err) {
    if (err instanceof CoreError) throw err;
    throw new CoreError(
      'INVALID_INPUT',
      `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).`,
      {
        file: path,
      },
    );
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * The citations without control characters in their keys, DOIs and titles (withoutControlCharacters):
 * what the report prints must not drive the terminal it is printed to. A citation left with nothing
 * is dropped; both are counted for the report's notes.
 */
function cleanCitations(found: readonly FoundCitation[]): {
  citations: FoundCitation[];
  changed: number;
  dropped: number;
} {
  let changed = 0;
  let dropped = 0;
  const citations: FoundCitation[] = [];
  const clean = (v: string | undefined): string | undefined => {
    if (v === undefined || !hasControlCharacters(v)) return v;
    const out = withoutControlCharacters(v).trim();
    return out === '' ? undefined : out;
  };
  for (const c of found) {
    const key = clean(c.key);
    const doi = clean(c.doi);
    const title = clean(c.title);
    if (key === c.key && doi === c.doi && title === c.title) {
      citations.push(c);
      continue;
    }
    if (key === undefined && doi === undefined && title === undefined) {
      dropped++;
      continue;
    }
    changed++;
    citations.push({ ...c, key, doi, title });
  }
  return { citations, changed, dropped };
}

/** Reads a manuscript from disk with its .aux (LaTeX), refusing what is missing, not a regular file or too big. */
export function readManuscript(path: string): ParsedManuscript {
  const bytes = readManuscriptFile(path, false)!;
  const auxPath = /\.(?:tex|ltx)$/i.test(path) ? path.replace(/\.[^.]+$/, '.aux') : null;
  const auxBytes = auxPath ? readManuscriptFile(auxPath, true) : null;
  return parseManuscript(path, bytes, auxPath && auxBytes ? { name: auxPath, bytes: auxBytes } : undefined);
}

export type CitedLookup = (refs: CitationLookup[]) => Promise<LookupResult[]>;

/** The report of a parsed manuscript, from what the library holds. */
export async function checkManuscript(
  parsed: ParsedManuscript,
  lookup: CitedLookup,
  options: { contrasting?: number } = {},
): Promise<ManuscriptReport> {
  const threshold = options.contrasting ?? MANY_CONTRASTING;
  const groups = groupCitations(parsed.citations as FoundCitation[]);
  const results = groups.length > 0 ? await lookup(groups.map((g) => g.lookup)) : [];
  const cited = groups.map((g, i) => {
    const r = results[i] ?? null;
    return {
      ref: g.ref,
      places: g.places,
      line: g.line,
      matchedBy: r?.matchedBy ?? null,
      item: r?.item ?? null,
      flags: flagsOf(r?.item ?? null, threshold),
    };
  });
  const counts = Object.fromEntries(
    MANUSCRIPT_FLAGS.map((f) => [f, cited.filter((e) => e.flags.includes(f)).length]),
  ) as Record<ManuscriptFlag, number>;
  const notes = [...parsed.notes];
  if (cited.some((e) => e.item && e.item.tallies === null))
    notes.push(
      'Some cited items have no tallies in the library (not enriched yet, or unknown to the service): "citewise enrich" fetches them.',
    );
  return {
    file: parsed.file,
    format: parsed.format,
    citations: parsed.citations.length,
    cited,
    citesAll: parsed.citesAll,
    contrastingThreshold: threshold,
    counts,
    problems: cited.some((e) => e.flags.some((f) => PROBLEM_FLAGS.includes(f))),
    notes,
  };
}

/** The library items the report cites, once each, in order of first citation (what --write-bib writes). */
export function citedItemIds(report: ManuscriptReport): number[] {
  return [...new Set(report.cited.flatMap((e) => (e.item ? [e.item.id] : [])))];
}
