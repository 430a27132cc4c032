// BibTeX/BibLaTeX syntax → raw entries (type, key, fields as LaTeX source), in one linear pass.
// Hand-written because the general parsers (PEG grammars, pandoc, citation-js) are 5–50× too slow for
// a 100,000-entry library. Values keep their LaTeX; decoding to Unicode happens per field later, so
// unknown fields can be kept verbatim for the round trip.
//
// Error recovery follows biber: a broken entry is reported with the line it starts on and skipped up to
// the next `@` that begins a line, so one stray brace costs one entry, not the rest of the file.
import { Deadline, FormatError, type ImportLimits } from '../limits';
import { excerptOf, type ImportIssue } from '../result';
import { MONTH_MACROS } from './months';
import { grouped } from '../../../../shared/model/numbers';

export interface RawEntry {
  /** Entry type, lower-cased: article, inproceedings… */
  type: string;
  key: string;
  /** Field name (lower-cased) → value as LaTeX source, with @string macros expanded and # concatenated. */
  fields: Map<string, string>;
  line: number;
}

export interface RawBibliography {
  entries: RawEntry[];
  preambles: string[];
  errors: ImportIssue[];
  warnings: ImportIssue[];
}

class EntryError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const AT = 64;
const LBRACE = 123;
const RBRACE = 125;
const LPAREN = 40;
const RPAREN = 41;
const QUOTE = 34;
const HASH = 35;
const COMMA = 44;
const EQUALS = 61;
const BACKSLASH = 92;
const PERCENT = 37;

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB || c === 12;
}

// Characters BibTeX does not allow in identifiers (entry types, field names, macro names).
function isIdentChar(c: number): boolean {
  if (c >= 97 && c <= 122) return true; // a-z
  if (c >= 65 && c <= 90) return true; // A-Z
  if (c >= 48 && c <= 57) return true; // 0-9
  if (c <= SPACE || c === 127) return false;
  return !(
    c === LBRACE ||
    c === RBRACE ||
    c === LPAREN ||
    c === RPAREN ||
    c === QUOTE ||
    c === HASH ||
    c === COMMA ||
    c === EQUALS ||
    c === 37 ||
    c === 39 ||
    c === AT
  );
}

// Keys may hold more than identifiers (colons, slashes, plus) but never these. As in BibTeX, a key
// ends at the entry's own closing delimiter: in @article{Smith(2020), …} the parentheses belong to
// the key (which the mapping then replaces, since \cite cannot use it); in @article(key, …) a ")" ends it.
function isKeyChar(c: number, close: number): boolean {
  return !(
    c <= SPACE ||
    c === COMMA ||
    c === RBRACE ||
    (c === RPAREN && close === RPAREN) ||
    c === LBRACE ||
    c === QUOTE ||
    c === HASH ||
    c === EQUALS ||
    c === 127
  );
}

/**
 * Parses the whole text. With `onEntry`, each entry is handed over as soon as it is read and not kept
 * (the importer streams when no crossref/xdata needs the whole file first).
 */
export function parseBibtex(text: string, limits: ImportLimits, onEntry?: (entry: RawEntry) => void): RawBibliography {
  const parser = new BibParser(limits, onEntry);
  parser.feed(text, 1, 0, null);
  return parser.result();
}

/** Where the next window of a file parsed in windows (BibParser.feed) begins. */
export interface WindowEnd {
  /** Offset in the window's text of the line the next window starts with. */
  lineStart: number;
  /** That line's number in the file. */
  line: number;
  /** Offset within that line where parsing resumes (the text before it was parsed already). */
  resumeAt: number;
}

/**
 * The last line of `text` that opens an entry as the parser sees one (entryStartsAt), after offset
 * `after` and at least `tail` characters before the end: a place where a file can be cut into windows
 * that parse exactly as the whole does, since no value or comment runs across such a line (and an
 * error's excerpt, which reads on past its entry, still finds the text it would in the whole file).
 * Returns the line's offset, or -1 when there is none.
 */
export function lastEntryLine(text: string, after: number, tail = 256): number {
  const last = text.length - tail;
  for (let at = last < 0 ? -1 : text.lastIndexOf('@', last); at > after; at = text.lastIndexOf('@', at - 1)) {
    let lineStart = at;
    while (lineStart > 0 && (text.charCodeAt(lineStart - 1) === SPACE || text.charCodeAt(lineStart - 1) === TAB))
      lineStart--;
    if (lineStart <= after || text.charCodeAt(lineStart - 1) !== LF) continue;
    if (entryHeaderEnd(text, lineStart, text.length) > 0) return lineStart;
  }
  return -1;
}

/** When a line starting at `from` opens an entry (optional blanks, "@", a type, optional blanks, "{" or "("): the offset just past the brace; else -1. */
function entryHeaderEnd(text: string, from: number, n: number): number {
  let i = from;
  while (i < n && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  if (text.charCodeAt(i) !== AT) return -1;
  i++;
  const start = i;
  while (i < n && isIdentChar(text.charCodeAt(i))) i++;
  if (i === start || i - start > 20) return -1;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  return c === LBRACE || c === LPAREN ? i + 1 : -1;
}

/**
 * The parser. `feed` takes the whole text at once, or a file in windows: each window but the last ends
 * just past the header of an entry line (lastEntryLine) and stops before parsing that entry. Whatever
 * the parser would have read past a window's end (an entry it could not finish inside the window)
 * is undone and parsed again with the next window, so the result, lines and messages included, is the
 * whole text's, while only one window of the file's text is in memory at a time.
 */
export class BibParser {
  private text = '';
  private n = 0;
  private pos = 0;
  private readonly macros = new Map<string, string>(MONTH_MACROS);
  private readonly entries: RawEntry[] = [];
  private readonly preambles: string[] = [];
  private readonly errors: ImportIssue[] = [];
  private readonly warnings: ImportIssue[] = [];
  private readonly deadline: Deadline;
  // Line bookkeeping: lines are counted incrementally from the last asked-for position.
  private linePos = 0;
  private lineNo = 1;
  private entryLine = 1;
  /** Set when the parse of an element reached the end of the text (only matters before the last window). */
  private hitEnd = false;
  private count = 0;

  private entryCount = 0;

  constructor(
    private readonly limits: ImportLimits,
    private readonly onEntry?: (entry: RawEntry) => void,
  ) {
    this.deadline = new Deadline(limits.timeBudgetMs);
  }

  result(): RawBibliography {
    return { entries: this.entries, preambles: this.preambles, errors: this.errors, warnings: this.warnings };
  }

  /**
   * Parses `text`, whose first line is line `firstLine` of the file, from offset `resumeAt`.
   * `stopAt` null: this is the end of the file. Otherwise the offset of the entry line the window ends
   * with (lastEntryLine): parsing stops before it, or before an element that would read past the
   * window, and the answer says where the next window starts.
   */
  feed(text: string, firstLine: number, resumeAt: number, stopAt: number | null): WindowEnd | null {
    this.text = text;
    this.n = text.length;
    this.pos = resumeAt;
    this.linePos = 0;
    this.lineNo = firstLine;
    const windowEnd = (at: number): WindowEnd => {
      let lineStart = at;
      while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== LF) lineStart--;
      return { lineStart, line: this.lineAt(lineStart), resumeAt: at - lineStart };
    };
    for (;;) {
      const at = text.indexOf('@', this.pos);
      if (at < 0) break;
      // The window's entry line, or past it when the last element ran on across it (a value whose line
      // break a backslash escapes does): the next window goes on from where this one stopped reading.
      if (stopAt !== null && at >= stopAt) return windowEnd(this.pos);
      const marks = [this.errors.length, this.warnings.length, this.preambles.length];
      this.hitEnd = false;
      this.element(at);
      if (stopAt !== null && this.hitEnd) {
        // This element runs on past the window: forget what it said and read it again with the next one.
        this.errors.length = marks[0]!;
        this.warnings.length = marks[1]!;
        this.preambles.length = marks[2]!;
        return windowEnd(at);
      }
      if (this.entryCount > this.limits.maxEntries) {
        throw new FormatError(
          `The file has more than ${grouped(this.limits.maxEntries)} entries, the import limit.`,
          this.entryLine,
        );
      }
    }
    if (stopAt !== null) throw new Error('A window must end with an entry line (lastEntryLine).');
    return null;
  }

  /** One top-level element starting with the "@" at `at`. */
  private element(at: number): void {
    const { text } = this;
    this.pos = at + 1;
    if ((++this.count & 255) === 0) this.deadline.check(this.lineAt(at));
    this.skipSpace();
    const typeStart = this.pos;
    while (this.pos < this.n && isIdentChar(text.charCodeAt(this.pos))) this.pos++;
    if (this.pos === typeStart) return; // an @ in free text between entries: a comment, as in BibTeX
    const type = this.intern(text.slice(typeStart, this.pos));
    this.skipSpace();
    const open = text.charCodeAt(this.pos);
    if (open !== LBRACE && open !== LPAREN) {
      // "@comment text": BibTeX skips the word and the rest is free text, as Better BibTeX and pandoc read it.
      if (type === 'comment') return;
      // "@article" without a body: in BibTeX free text this is a comment, but if it starts a line it
      // was almost certainly meant as an entry.
      if (this.startsLine(at))
        this.errors.push({
          line: this.lineAt(at),
          reason: `"@${type}" is not followed by "{" or "(": the entry has no body.`,
          excerpt: excerptOf(text, at),
        });
      return;
    }
    const close = open === LBRACE ? RBRACE : RPAREN;
    this.pos++;
    this.entryLine = this.lineAt(at);
    try {
      if (type === 'comment') this.skipComment(close);
      else if (type === 'string') this.parseString(close);
      else if (type === 'preamble') this.preambles.push(this.parseBody(close));
      else this.parseEntry(type, close);
    } catch (err) {
      if (!(err instanceof EntryError)) throw err;
      const where = this.lineAt(err.at);
      const line = this.entryLine;
      this.errors.push({
        line,
        reason: where > line ? `${err.message} (at line ${where})` : err.message,
        excerpt: excerptOf(text, at),
      });
      this.pos = this.nextEntryStart(at + 1);
    }
  }

  private parseEntry(type: string, close: number): void {
    const { text } = this;
    this.skipBlank();
    const keyStart = this.pos;
    while (this.pos < this.n && isKeyChar(text.charCodeAt(this.pos), close)) this.pos++;
    let key = text.slice(keyStart, this.pos);
    this.skipBlank();
    let c = text.charCodeAt(this.pos);
    if (c === EQUALS) {
      // "@misc{title = …": no key at all; what we read was the first field name.
      this.pos = keyStart;
      key = '';
      this.warnings.push({
        line: this.entryLine,
        reason: `The @${type} entry has no citation key; one will be generated.`,
      });
    } else if (c === COMMA) {
      this.pos++;
    } else if (c !== close) {
      if (this.pos >= this.n)
        throw new EntryError(`The @${type} entry "${key}" is cut off: the file ends inside it.`, this.pos);
      throw new EntryError(`Expected "," after the citation key "${key}" but found "${text[this.pos]}".`, this.pos);
    }
    if (key === '' && c !== EQUALS)
      this.warnings.push({
        line: this.entryLine,
        reason: `The @${type} entry has no citation key; one will be generated.`,
      });
    const fields = new Map<string, string>();
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.n)
        throw new EntryError(
          `The @${type} entry "${key}" is cut off: the file ends before its closing "${String.fromCharCode(close)}".`,
          this.pos,
        );
      c = text.charCodeAt(this.pos);
      if (c === close) {
        this.pos++;
        break;
      }
      if (c === COMMA) {
        this.pos++;
        continue;
      }
      const nameStart = this.pos;
      while (this.pos < this.n && isIdentChar(text.charCodeAt(this.pos))) this.pos++;
      if (this.pos === nameStart) {
        if (c === AT)
          throw new EntryError(`The @${type} entry "${key}" is not closed before the next entry starts.`, this.pos);
        throw new EntryError(
          `Expected a field name in the @${type} entry "${key}" but found "${text[this.pos]}".`,
          this.pos,
        );
      }
      const name = this.intern(text.slice(nameStart, this.pos));
      this.skipBlank();
      if (text.charCodeAt(this.pos) !== EQUALS) {
        throw new EntryError(`Expected "=" after the field name "${name}" in the @${type} entry "${key}".`, this.pos);
      }
      this.pos++;
      const value = this.parseValue(close, name);
      if (fields.has(name)) {
        this.warnings.push({
          line: this.lineAt(nameStart),
          reason: `The field "${name}" appears twice in "${key}"; the first value is kept.`,
        });
      } else {
        fields.set(name, value);
      }
      this.skipBlank();
      c = text.charCodeAt(this.pos);
      if (c === COMMA) this.pos++;
      else if (c === close) {
        this.pos++;
        break;
      } else if (this.pos >= this.n) {
        throw new EntryError(
          `The @${type} entry "${key}" is cut off: the file ends before its closing "${String.fromCharCode(close)}".`,
          this.pos,
        );
      } else if (c === AT) {
        throw new EntryError(
          `The @${type} entry "${key}" is not closed before the next entry; a brace is probably missing.`,
          this.pos,
        );
      } else {
        throw new EntryError(
          `Expected "," or "${String.fromCharCode(close)}" after the field "${name}" in "${key}" but found "${text[this.pos]}".`,
          this.pos,
        );
      }
    }
    this.entryCount++;
    const entry: RawEntry = { type, key, fields, line: this.entryLine };
    if (this.onEntry) this.onEntry(entry);
    else this.entries.push(entry);
  }

  private parseString(close: number): void {
    for (;;) {
      this.skipBlank();
      const c = this.text.charCodeAt(this.pos);
      if (c === close) {
        this.pos++;
        return;
      }
      if (c === COMMA) {
        this.pos++;
        continue;
      }
      const nameStart = this.pos;
      while (this.pos < this.n && isIdentChar(this.text.charCodeAt(this.pos))) this.pos++;
      if (this.pos === nameStart) throw new EntryError('Expected a macro name in @string.', this.pos);
      const name = this.text.slice(nameStart, this.pos).toLowerCase();
      this.skipBlank();
      if (this.text.charCodeAt(this.pos) !== EQUALS)
        throw new EntryError(`Expected "=" after the @string name "${name}".`, this.pos);
      this.pos++;
      this.macros.set(name, this.parseValue(close, name));
    }
  }

  private parseBody(close: number): string {
    const value = this.parseValue(close, 'preamble');
    this.skipBlank();
    if (this.text.charCodeAt(this.pos) !== close) throw new EntryError('Expected the end of @preamble.', this.pos);
    this.pos++;
    return value;
  }

  /** A value: pieces ({…}, "…", a number or a macro name) joined with #. */
  private parseValue(close: number, field: string): string {
    const { text } = this;
    let value = '';
    for (;;) {
      this.skipBlank();
      const c = text.charCodeAt(this.pos);
      if (c === LBRACE) {
        value += this.delimited(RBRACE, field);
      } else if (c === QUOTE) {
        value += this.delimited(QUOTE, field);
      } else if (c >= 48 && c <= 57) {
        const start = this.pos;
        while (this.pos < this.n && isIdentChar(text.charCodeAt(this.pos))) this.pos++;
        value += text.slice(start, this.pos);
      } else if (this.pos < this.n && isIdentChar(c)) {
        const start = this.pos;
        while (this.pos < this.n && isIdentChar(text.charCodeAt(this.pos))) this.pos++;
        const name = text.slice(start, this.pos);
        const expansion = this.macros.get(name.toLowerCase());
        if (expansion === undefined) {
          this.warnings.push({
            line: this.lineAt(start),
            reason: `The macro "${name}" in the field "${field}" is not defined by any @string; its name is kept as the value.`,
          });
          value += name;
        } else value += expansion;
      } else if (this.pos >= this.n) {
        throw new EntryError(`The file ends where the value of "${field}" should be.`, this.pos);
      } else if (c === COMMA || c === close) {
        throw new EntryError(`The field "${field}" has no value.`, this.pos);
      } else {
        throw new EntryError(`Unexpected "${text[this.pos]}" in the value of "${field}".`, this.pos);
      }
      if (value.length > this.limits.maxFieldLength) {
        throw new EntryError(
          `The field "${field}" is ${grouped(value.length)} characters long; the limit is ${grouped(this.limits.maxFieldLength)}.`,
          this.pos,
        );
      }
      this.skipBlank();
      if (text.charCodeAt(this.pos) !== HASH) return value;
      this.pos++;
    }
  }

  /**
   * The text between { and its matching }, or between " and the next " outside braces, without the
   * delimiters. Escaped braces (\{ \}) do not count. A new line that starts with "@type{" inside a value
   * means a brace was never closed: stop there rather than swallow the following entries.
   */
  private delimited(end: number, field: string): string {
    const { text, n } = this;
    const openAt = this.pos;
    let i = this.pos + 1;
    let depth = 0;
    const maxDepth = this.limits.maxDepth;
    const maxLen = this.limits.maxFieldLength;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      // Letters, digits and blanks are most of any value: decide them first.
      if ((c >= 97 && c <= 122) || c === SPACE || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c > 125) continue;
      if (c === LBRACE) {
        if (++depth > maxDepth)
          throw new EntryError(`Braces in the field "${field}" are nested more than ${maxDepth} levels deep.`, i);
      } else if (c === RBRACE) {
        if (depth === 0) {
          if (end === RBRACE) break;
          throw new EntryError(`The field "${field}" has a "}" without a matching "{".`, i);
        }
        depth--;
      } else if (c === QUOTE) {
        if (end === QUOTE && depth === 0) break;
      } else if (c === BACKSLASH) {
        i++; // \{ \} \" are characters, not delimiters
      } else if (c === LF) {
        if (this.entryStartsAt(i + 1)) {
          throw new EntryError(
            `The "${end === RBRACE ? '{' : '"'}" opening the field "${field}" on line ${this.lineAt(openAt)} is not closed before the next entry.`,
            openAt,
          );
        }
      }
    }
    if (i >= n) this.hitEnd = true;
    if (i - openAt > maxLen) {
      throw new EntryError(
        `The field "${field}" is ${grouped(i - openAt - 1)} characters long; the limit is ${grouped(maxLen)}.`,
        openAt,
      );
    }
    if (i >= n) {
      throw new EntryError(
        `The "${end === RBRACE ? '{' : '"'}" opening the field "${field}" on line ${this.lineAt(openAt)} is never closed: the file ends inside it.`,
        openAt,
      );
    }
    this.pos = i + 1;
    return text.slice(openAt + 1, i);
  }

  /** @comment{…}: skipped with balanced braces (biber), or to the closing parenthesis. */
  private skipComment(close: number): void {
    const { text, n } = this;
    let depth = 0;
    for (let i = this.pos; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === LBRACE) depth++;
      else if (c === RBRACE || c === RPAREN) {
        if (c === close && depth === 0) {
          this.pos = i + 1;
          return;
        }
        if (c === RBRACE) depth--;
      }
      if (c === LF && this.entryStartsAt(i + 1)) {
        this.warnings.push({
          line: this.entryLine,
          reason: 'An @comment is not closed before the next entry; it was ended there.',
        });
        this.pos = i + 1;
        return;
      }
    }
    this.hitEnd = true;
    this.pos = n;
  }

  /** Whether a line starting at `from` opens an entry: optional blanks, "@", a type, optional blanks, "{" or "(". */
  private entryStartsAt(from: number): boolean {
    return entryHeaderEnd(this.text, from, this.n) > 0;
  }

  private nextEntryStart(from: number): number {
    const { text } = this;
    for (let i = text.indexOf('\n', from); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (this.entryStartsAt(i + 1)) return i + 1;
    }
    this.hitEnd = true;
    return this.n;
  }

  private startsLine(at: number): boolean {
    for (let i = at - 1; i >= 0; i--) {
      const c = this.text.charCodeAt(i);
      if (c === LF) return true;
      if (c !== SPACE && c !== TAB && c !== CR) return false;
    }
    return true;
  }

  // Entry types and field names repeat 100,000 times in a big file: one lower-cased copy of each.
  private readonly names = new Map<string, string>();
  private intern(raw: string): string {
    let name = this.names.get(raw);
    if (name === undefined) {
      name = raw.toLowerCase();
      if (this.names.size < 10_000) this.names.set(raw, name);
    }
    return name;
  }

  private skipSpace(): void {
    const { text, n } = this;
    let p = this.pos;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === SPACE || c === LF || c === CR || c === TAB || c === 12) p++;
      else break;
    }
    if (p >= n) this.hitEnd = true;
    this.pos = p;
  }

  /**
   * Blanks and "%" comments between the parts of an entry (a commented-out field, a JabRef or hand-written
   * note): BibTeX itself would stop at the "%", but biber, Better BibTeX and pandoc skip the comment to
   * the end of its line, and so does this. Inside a value "%" is text, as everywhere.
   */
  private skipBlank(): void {
    this.skipSpace();
    while (this.text.charCodeAt(this.pos) === PERCENT) {
      const eol = this.text.indexOf('\n', this.pos);
      if (eol < 0) {
        this.hitEnd = true;
        this.pos = this.n;
        return;
      }
      this.pos = eol + 1;
      this.skipSpace();
    }
  }

  private lineAt(pos: number): number {
    const { text } = this;
    if (pos >= this.linePos) {
      let i = text.indexOf('\n', this.linePos);
      while (i >= 0 && i < pos) {
        this.lineNo++;
        i = text.indexOf('\n', i + 1);
      }
    } else {
      let i = text.lastIndexOf('\n', this.linePos - 1);
      while (i >= pos) {
        this.lineNo--;
        i = i === 0 ? -1 : text.lastIndexOf('\n', i - 1);
      }
    }
    this.linePos = pos;
    return this.lineNo;
  }
}
