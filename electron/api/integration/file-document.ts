// A word-processor document in a file (.docx or .odt) as the integration commands see a document:
// the Document and Field calls Zotero's plugins answer (getFields, setText, setCode,
// setBibliographyStyle, get/setDocumentData…), done on the file's XML, so the commands of session.ts
// refresh a file exactly as they refresh a document open in a word processor. The fields are those
// the plugins write:
// - Word (.docx): complex fields, fldChar begin, the instruction ` ADDIN ZOTERO_ITEM CSL_CITATION {…} `
//   in w:instrText runs, fldChar separate, the text, fldChar end; the bibliography
//   `ADDIN ZOTERO_BIBL {…} CSL_BIBLIOGRAPHY`; the document data in custom document properties
//   ZOTERO_PREF_1, ZOTERO_PREF_2… (255 characters each); field type `Field`.
// - LibreOffice (.odt): reference marks named `ZOTERO_ITEM CSL_CITATION {…} RNDxxxxxxxxxx`, the
//   bibliography a text section named `ZOTERO_BIBL {…} CSL_BIBLIOGRAPHY RNDxxxxxxxxxx` in paragraph
//   style "Bibliography 1", the document data in user-defined properties ZOTERO_PREF_1…; field type
//   `ReferenceMark`.
// Citations in footnotes and LibreOffice's Bookmark field type are not handled: a file with them is
// refused with a message, not half-refreshed.
import { randomBytes } from 'node:crypto';
import { decodeXmlEntities } from '../../core/formats/xml-entities';
import { ZipError, ZipReader, writeZip, type ZipEntry } from '../../core/manuscript/zip';
import {
  BUTTONS_OK,
  BUTTONS_YES_NO,
  ICON_STOP,
  IntegrationSessions,
  plainText,
  type DocumentCall,
  type DocPrefs,
  type IntegrationLibrary,
  type StyleSource,
} from './session';
import {
  bareCode,
  bibliographyCode,
  citationCode,
  parseDocumentData,
  serializeDocumentData,
  type CitationItem,
} from './codes';

export type DocumentFileKind = 'docx' | 'odt';

/** The field type Zotero's plugin for each kind of file writes into the document data. */
export const FILE_FIELD_TYPE: Readonly<Record<DocumentFileKind, string>> = { docx: 'Field', odt: 'ReferenceMark' };

/** A file that cannot be read or written as a document with citations; the message says what and where. */
export class DocumentFileError extends Error {
  override name = 'DocumentFileError';
}

/** The most one XML part may unpack to. */
const MAX_PART_BYTES = 64 * 1024 * 1024;
/** Zotero's plugins store the document data in properties of at most 255 characters. */
const PREF_CHUNK = 255;

const escapeXml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

// ---- formatted text ------------------------------------------------------------------------------

/** A piece of text with its character format. */
export interface Run {
  text: string;
  italic?: boolean;
  bold?: boolean;
  smallCaps?: boolean;
  underline?: boolean;
  sup?: boolean;
  sub?: boolean;
}
export type Paragraph = Run[];

type Format = Omit<Run, 'text'>;

/**
 * citeproc-js's HTML as paragraphs of formatted runs: a citation is one paragraph; a bibliography one
 * per `csl-entry` (a `csl-left-margin` is followed by a tab, as Zotero's RTF has it). Its text is
 * exactly `plainText(html)` for a citation, so a field's text matches its `plainCitation`.
 */
export function htmlParagraphs(html: string): Paragraph[] {
  const paragraphs: Paragraph[] = [[]];
  const blocks = /<div\b/i.test(html);
  const stack: { tag: string; format: Format; entry: boolean; margin: boolean }[] = [];
  const current = (): Format => stack[stack.length - 1]?.format ?? {};
  const inEntry = (): boolean => stack.some((s) => s.entry);
  for (const m of html.matchAll(/<(\/?)([a-z][a-z0-9]*)\b([^>]*)>|[^<]+|</gi)) {
    const [whole, close, rawTag, attrs = ''] = m;
    if (rawTag === undefined) {
      // The layout whitespace between block elements (a newline and indentation) is not text.
      if (blocks && whole.trim() === '' && (!inEntry() || whole.includes('\n'))) continue;
      const text = plainText(whole);
      if (text) paragraphs[paragraphs.length - 1]!.push({ text, ...current() });
      continue;
    }
    const tag = rawTag.toLowerCase();
    if (tag === 'br') {
      paragraphs[paragraphs.length - 1]!.push({ text: '\n', ...current() });
      continue;
    }
    if (close) {
      const at = stack.map((s) => s.tag).lastIndexOf(tag);
      if (at === -1) continue;
      const popped = stack.splice(at);
      if (popped.some((s) => s.margin)) paragraphs[paragraphs.length - 1]!.push({ text: '\t' });
      continue;
    }
    const f: Format = { ...current() };
    const style = /style\s*=\s*"([^"]*)"/i.exec(attrs)?.[1] ?? '';
    const cls = /class\s*=\s*"([^"]*)"/i.exec(attrs)?.[1] ?? '';
    if (tag === 'i' || tag === 'em') f.italic = true;
    if (tag === 'b' || tag === 'strong') f.bold = true;
    if (tag === 'u') f.underline = true;
    if (tag === 'sup') f.sup = true;
    if (tag === 'sub') f.sub = true;
    if (/font-style:\s*italic/i.test(style)) f.italic = true;
    if (/font-style:\s*normal/i.test(style)) f.italic = false;
    if (/font-weight:\s*bold/i.test(style)) f.bold = true;
    if (/font-weight:\s*normal/i.test(style)) f.bold = false;
    if (/font-variant:\s*small-caps/i.test(style)) f.smallCaps = true;
    if (/text-decoration:\s*underline/i.test(style)) f.underline = true;
    const entry = tag === 'div' && /\bcsl-entry\b/.test(cls);
    if (entry && (paragraphs.length > 1 || paragraphs[0]!.length > 0)) paragraphs.push([]);
    stack.push({ tag, format: f, entry, margin: tag === 'div' && /\bcsl-left-margin\b/.test(cls) });
  }
  return paragraphs.map((p) => p.filter((r) => r.text !== ''));
}

// ---- Word ----------------------------------------------------------------------------------------

function wordRun(r: Run): string {
  const props =
    (r.bold ? '<w:b/>' : '') +
    (r.italic ? '<w:i/>' : '') +
    (r.smallCaps ? '<w:smallCaps/>' : '') +
    (r.underline ? '<w:u w:val="single"/>' : '') +
    (r.sup ? '<w:vertAlign w:val="superscript"/>' : r.sub ? '<w:vertAlign w:val="subscript"/>' : '');
  const body = r.text
    .split(/(\t|\n)/)
    .map((t) =>
      t === '\t' ? '<w:tab/>' : t === '\n' ? '<w:br/>' : t ? `<w:t xml:space="preserve">${escapeXml(t)}</w:t>` : '',
    )
    .join('');
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}${body}</w:r>`;
}

const BIB_STYLE_WORD = 'Bibliography';

/** The runs of a field's text; paragraphs after the first are bibliography entries. */
function wordResult(paragraphs: Paragraph[]): string {
  return paragraphs
    .map((p) => p.map(wordRun).join(''))
    .join(`</w:p><w:p><w:pPr><w:pStyle w:val="${BIB_STYLE_WORD}"/></w:pPr>`);
}

/** A complex field as Word's Zotero plugin writes it; the instruction in runs of at most 255 characters. */
function wordField(code: string, result: string): string {
  const instruction = ` ADDIN ZOTERO_${code} `;
  let instr = '';
  for (let i = 0; i < instruction.length; i += 255)
    instr += `<w:r><w:instrText xml:space="preserve">${escapeXml(instruction.slice(i, i + 255))}</w:instrText></w:r>`;
  return (
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
    instr +
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
    result +
    '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
  );
}

interface XmlField {
  /** The field's code as the plugins give it (without Word's `ADDIN ZOTERO_`, without LibreOffice's ` RND…`). */
  code: string;
  text: string;
  /** Where the field is in its part: its whole span, and the span of its text. */
  start: number;
  end: number;
  resultStart: number;
  resultEnd: number;
  /** LibreOffice: the mark or section's name, and which it is. */
  name?: string;
  section?: boolean;
  /** LibreOffice's form of a Word field (a .docx it opened and saved as .odt). */
  fieldmark?: boolean;
}

/** The text Word shows of a span of document XML (deleted text left out). */
function wordText(xml: string): string {
  let out = '';
  for (const m of xml.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>|<w:t\s*\/>|<w:tab\/>|<w:br\b[^>]*\/>|<\/w:p>/g)) {
    if (m[1] !== undefined) out += decodeXmlEntities(m[1]);
    else if (m[0] === '<w:tab/>') out += '\t';
    else if (m[0] !== '<w:t/>' && !m[0].startsWith('<w:t ')) out += '\n';
  }
  return out;
}

/** A Word field's code as the plugin gives it; null for a field that is not Zotero's (PAGE, TOC…). */
function wordCode(instruction: string): string | null {
  const s = instruction.trim();
  if (/^ADDIN\s+ZOTERO_/.test(s)) return bareCode(s).trim();
  // Older Zotero and Mendeley wrote ADDIN CSL_CITATION {…}: the same citation.
  if (/^ADDIN\s+CSL_CITATION\b/.test(s)) return `ITEM ${s.replace(/^ADDIN\s+/, '')}`;
  return null;
}

/** The Zotero fields of a Word part, in document order (the outermost of nested fields). */
function wordFields(xml: string): XmlField[] {
  const out: XmlField[] = [];
  let depth = 0;
  let open: { start: number; instr: string; resultStart: number | null } | null = null;
  for (const m of xml.matchAll(/<w:r(?=[\s>/])[^>]*?(?:\/>|>[\s\S]*?<\/w:r>)/g)) {
    const run = m[0];
    const s = m.index;
    const e = s + run.length;
    const type = /<w:fldChar\b[^>]*w:fldCharType="(begin|separate|end)"/.exec(run)?.[1];
    if (type === 'begin') {
      depth++;
      if (depth === 1) open = { start: s, instr: '', resultStart: null };
    } else if (type === 'separate') {
      if (depth === 1 && open) open.resultStart = e;
    } else if (type === 'end') {
      if (depth === 1 && open) {
        const code = wordCode(open.instr);
        const resultStart = open.resultStart ?? s;
        if (code !== null)
          out.push({
            code,
            text: wordText(xml.slice(resultStart, s)),
            start: open.start,
            end: e,
            resultStart,
            resultEnd: s,
          });
        open = null;
      }
      depth = Math.max(0, depth - 1);
    } else if (depth === 1 && open && open.resultStart === null) {
      for (const t of run.matchAll(/<w:instrText\b[^>]*>([\s\S]*?)<\/w:instrText>/g))
        open.instr += decodeXmlEntities(t[1]!);
    }
  }
  return out;
}

// ---- OpenDocument --------------------------------------------------------------------------------

const ODF_PREFIXES = ['ZOTERO_', ' CSL_', ' ADDIN ZOTERO_'];

/** A reference mark's or section's code, as the LibreOffice plugin reads it (ReferenceMark.getCode). */
function odfCode(name: string): string | null {
  let rnd = name.lastIndexOf(' RND');
  if (rnd === -1) rnd = name.length - 6;
  for (const prefix of ODF_PREFIXES) {
    const at = name.indexOf(prefix);
    if (at !== -1) return rnd > 0 ? name.slice(at + prefix.length, rnd) : name;
  }
  return null;
}

function odfText(xml: string): string {
  let out = '';
  for (const m of xml.matchAll(
    /<text:s(?:\s+text:c="(\d+)")?\s*\/>|<text:tab\s*\/>|<text:line-break\s*\/>|<\/text:p>|<\/text:h>|<[^>]*>|[^<]+/g,
  )) {
    const t = m[0];
    if (/^<text:s[\s/]/.test(t)) out += ' '.repeat(Number(m[1] ?? 1));
    else if (t.startsWith('<text:tab')) out += '\t';
    else if (t.startsWith('<text:line-break')) out += '\n';
    else if (t === '</text:p>' || t === '</text:h>') out += '\n';
    else if (!t.startsWith('<')) out += decodeXmlEntities(t);
  }
  return out.replace(/\n$/, '');
}

function odfFields(xml: string): XmlField[] {
  const out: XmlField[] = [];
  for (const m of xml.matchAll(/<text:reference-mark-start\s+text:name="([^"]*)"\s*\/>/g)) {
    const name = decodeXmlEntities(m[1]!);
    const code = odfCode(name);
    if (code === null) continue;
    const endTag = `<text:reference-mark-end text:name="${m[1]}"/>`;
    const endAt = xml.indexOf(endTag, m.index);
    if (endAt === -1) throw new DocumentFileError(`the reference mark “${name.slice(0, 60)}…” has no end`);
    const resultStart = m.index + m[0].length;
    out.push({
      code,
      text: odfText(xml.slice(resultStart, endAt)),
      start: m.index,
      end: endAt + endTag.length,
      resultStart,
      resultEnd: endAt,
      name,
    });
  }
  for (const m of xml.matchAll(/<text:section\b[^>]*?\btext:name="([^"]*)"[^>]*>/g)) {
    const name = decodeXmlEntities(m[1]!);
    const code = odfCode(name);
    if (code === null) continue;
    const endAt = xml.indexOf('</text:section>', m.index);
    if (endAt === -1) throw new DocumentFileError(`the section “${name.slice(0, 60)}…” has no end`);
    const resultStart = m.index + m[0].length;
    out.push({
      code,
      text: odfText(xml.slice(resultStart, endAt)),
      start: m.index,
      end: endAt + '</text:section>'.length,
      resultStart,
      resultEnd: endAt,
      name,
      section: true,
    });
  }
  // A .docx's fields as LibreOffice keeps them when it opens one (fieldmarks holding Word's instruction).
  for (const m of xml.matchAll(
    /<field:fieldmark-start\b[^>]*>\s*<field:param\s+field:name="vnd\.oasis\.opendocument\.field\.code"\s+field:value="([^"]*)"\s*\/>\s*<\/field:fieldmark-start>\s*<field:fieldmark-separator\s*\/>/g,
  )) {
    const code = wordCode(decodeXmlEntities(m[1]!));
    if (code === null) continue;
    const endAt = xml.indexOf('<field:fieldmark-end/>', m.index);
    if (endAt === -1) throw new DocumentFileError(`the field “${code.slice(0, 60)}…” has no end`);
    const resultStart = m.index + m[0].length;
    out.push({
      code,
      text: odfText(xml.slice(resultStart, endAt)),
      start: m.index,
      end: endAt + '<field:fieldmark-end/>'.length,
      resultStart,
      resultEnd: endAt,
      fieldmark: true,
    });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The automatic text style of a format; styles are named so that one name is one format. */
function odfStyleName(r: Run): string | null {
  const flags =
    (r.italic ? 'i' : '') +
    (r.bold ? 'b' : '') +
    (r.smallCaps ? 'c' : '') +
    (r.underline ? 'u' : '') +
    (r.sup ? 'p' : r.sub ? 'd' : '');
  return flags ? `CitewiseT_${flags}` : null;
}

function odfStyleXml(name: string): string {
  const f = name.slice('CitewiseT_'.length);
  const props =
    (f.includes('i') ? ' fo:font-style="italic"' : '') +
    (f.includes('b') ? ' fo:font-weight="bold"' : '') +
    (f.includes('c') ? ' fo:font-variant="small-caps"' : '') +
    (f.includes('u')
      ? ' style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"'
      : '') +
    (f.includes('p') ? ' style:text-position="super 58%"' : f.includes('d') ? ' style:text-position="sub 58%"' : '');
  return `<style:style style:name="${name}" style:family="text"><style:text-properties${props}/></style:style>`;
}

/** Text as OpenDocument keeps it: spaces after the first, tabs and line breaks as elements. */
function odfEscape(text: string): string {
  return text
    .split(/(\t|\n| {2,}|^ )/)
    .map((t) => {
      if (t === '\t') return '<text:tab/>';
      if (t === '\n') return '<text:line-break/>';
      if (/^ +$/.test(t)) return t.length === 1 ? '<text:s/>' : ` <text:s text:c="${t.length - 1}"/>`;
      return escapeXml(t);
    })
    .join('');
}

function odfRuns(p: Paragraph, styles: Set<string>): string {
  return p
    .map((r) => {
      const name = odfStyleName(r);
      const body = odfEscape(r.text);
      if (!name) return body;
      styles.add(name);
      return `<text:span text:style-name="${name}">${body}</text:span>`;
    })
    .join('');
}

const BIB_STYLE_ODF = 'Bibliography_20_1';

/** A mark or section name as the LibreOffice plugin makes it: the code, then " RND" and 10 random characters. */
function odfName(code: string): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const rnd = [...randomBytes(10)].map((b) => chars[b % chars.length]).join('');
  return `ZOTERO_${code} RND${rnd}`;
}

// ---- the document --------------------------------------------------------------------------------

/** Twips as inches, for OpenDocument lengths. */
const inches = (twips: number): string => `${(twips / 1440).toFixed(4)}in`;

/** What a command said to the writer while it ran on the file (Document.displayAlert). */
export interface FileAlert {
  message: string;
  /** The answer given (a file has no one to ask: see FileDocument's `answer`). */
  answer: boolean;
  error: boolean;
}

export interface FileDocumentOptions {
  /**
   * The answer to a question a command asks (Yes/No, OK/Cancel). By default a citation changed by
   * hand is kept (and stops updating), as Zotero does when the writer says Yes, and any other
   * question (adding unknown items to the library, removing codes) is answered No.
   */
  answer?: (message: string, buttons: number) => boolean;
}

const keepHandEdits = (message: string, buttons: number): boolean =>
  buttons === BUTTONS_YES_NO && /changed this citation’s text by hand since it was generated/.test(message);

/** A .docx or .odt in memory, with the document calls the integration commands make. */
export class FileDocument {
  readonly kind: DocumentFileKind;
  /** The package's parts, in their order; the parts changed are replaced. */
  readonly #parts = new Map<string, Buffer | string>();
  #fields: XmlField[] | null = null;
  readonly alerts: FileAlert[] = [];
  /** The citations a command selected (the hand-edited ones it asked about), by their text. */
  readonly selected: string[] = [];
  readonly #answer: NonNullable<FileDocumentOptions['answer']>;
  #changed = false;

  private constructor(kind: DocumentFileKind, o: FileDocumentOptions) {
    this.kind = kind;
    this.#answer = o.answer ?? keepHandEdits;
  }

  /** Reads a file's package; DocumentFileError says what is wrong with it. */
  static read(bytes: Buffer, kind: DocumentFileKind, o: FileDocumentOptions = {}): FileDocument {
    let zip: ZipReader;
    try {
      zip = new ZipReader(bytes);
    } catch (err) {
      if (err instanceof ZipError)
        throw new DocumentFileError(
          `it is not ${kind === 'docx' ? 'a Word .docx' : 'an OpenDocument .odt'} file: ${err.message}`,
        );
      throw err;
    }
    const doc = new FileDocument(kind, o);
    const main = kind === 'docx' ? 'word/document.xml' : 'content.xml';
    if (!zip.has(main))
      throw new DocumentFileError(
        `it is a zip package but not a ${kind === 'docx' ? 'Word document' : 'text document'} (it has no ${main})`,
      );
    if (kind === 'odt') {
      const mime = zip.read('mimetype', 1000)?.toString('latin1').trim();
      if (mime !== undefined && mime !== 'application/vnd.oasis.opendocument.text')
        throw new DocumentFileError(`it is an OpenDocument file of type ${mime}, not a text document`);
    }
    for (const name of zip.names()) {
      if (name.endsWith('/')) continue;
      try {
        doc.#parts.set(name, zip.read(name, MAX_PART_BYTES)!);
      } catch (err) {
        if (err instanceof ZipError) throw new DocumentFileError(err.message);
        throw err;
      }
    }
    // Refused before any change: fields this adapter cannot write back.
    if (kind === 'docx') {
      for (const part of ['word/footnotes.xml', 'word/endnotes.xml'])
        if (doc.#xml(part) !== null && wordFields(doc.#xml(part)!).length > 0)
          throw new DocumentFileError(
            `it has citations in ${part.includes('foot') ? 'footnotes' : 'endnotes'}, which Citewise does not yet update in a file; refresh it in Word or LibreOffice`,
          );
    } else if (/<text:bookmark(?:-start)?\s+text:name="ZOTERO_BREF_/.test(doc.#xml('content.xml')!))
      throw new DocumentFileError(
        'its citations are LibreOffice bookmarks (the Bookmark field type), which Citewise does not update in a file; switch the document to reference marks in Zotero’s Document Preferences',
      );
    return doc;
  }

  /** A new, empty document with the given document data (Zotero's XML). */
  static create(kind: DocumentFileKind, o: FileDocumentOptions = {}): FileDocument {
    const doc = new FileDocument(kind, o);
    for (const [name, content] of Object.entries(kind === 'docx' ? WORD_SKELETON : ODF_SKELETON))
      doc.#parts.set(name, content);
    return doc;
  }

  get #main(): string {
    return this.kind === 'docx' ? 'word/document.xml' : 'content.xml';
  }

  #xml(name: string): string | null {
    const p = this.#parts.get(name);
    if (p === undefined) return null;
    if (typeof p !== 'string') {
      const s = p.toString('utf8');
      this.#parts.set(name, s);
      return s;
    }
    return p;
  }

  #set(name: string, xml: string): void {
    // Writing what is there already is no change (a refresh rewrites the data and the bibliography).
    if (this.#xml(name) === xml) return;
    this.#parts.set(name, xml);
    this.#changed = true;
    if (name === this.#main) this.#fields = null;
  }

  /** Whether a command changed the document. */
  get changed(): boolean {
    return this.#changed;
  }

  fields(): XmlField[] {
    this.#fields ??= this.kind === 'docx' ? wordFields(this.#xml(this.#main)!) : odfFields(this.#xml(this.#main)!);
    return this.#fields;
  }

  /** The text of the body, paragraphs on lines (what a reader sees). */
  text(): string {
    const xml = this.#xml(this.#main)!;
    return this.kind === 'docx' ? wordText(xml) : odfText(xml);
  }

  /** Appends a paragraph of text and fields; `fields` codes become fields with an empty text. */
  appendParagraph(parts: (string | { code: string })[], o: { heading?: boolean; bibliography?: boolean } = {}): void {
    const xml = this.#xml(this.#main)!;
    if (this.kind === 'docx') {
      const pPr = o.heading
        ? '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
        : o.bibliography
          ? `<w:pPr><w:pStyle w:val="${BIB_STYLE_WORD}"/></w:pPr>`
          : '';
      const body = parts
        .map((p) => (typeof p === 'string' ? wordRun({ text: p }) : wordField(p.code, wordRun({ text: '{Citation}' }))))
        .join('');
      this.#set(
        this.#main,
        xml.replace(/<w:sectPr\b/, () => `<w:p>${pPr}${body}</w:p><w:sectPr`),
      );
    } else {
      let body: string;
      if (o.bibliography) {
        const code = parts.find((p): p is { code: string } => typeof p !== 'string')!.code;
        body = `<text:section text:style-name="CitewiseSect" text:name="${escapeXml(odfName(code))}"><text:p text:style-name="${BIB_STYLE_ODF}">{Bibliography}</text:p></text:section>`;
      } else {
        const inner = parts
          .map((p) => {
            if (typeof p === 'string') return odfEscape(p);
            const name = escapeXml(odfName(p.code));
            return `<text:reference-mark-start text:name="${name}"/>{Citation}<text:reference-mark-end text:name="${name}"/>`;
          })
          .join('');
        body = o.heading
          ? `<text:h text:style-name="Heading_20_1" text:outline-level="1">${inner}</text:h>`
          : `<text:p text:style-name="Standard">${inner}</text:p>`;
      }
      this.#set(
        this.#main,
        xml.replace('</office:text>', () => `${body}</office:text>`),
      );
    }
  }

  // ---- the calls ---------------------------------------------------------------------------------

  /** The document side of the integration protocol, for IntegrationSessions.run. */
  readonly call: DocumentCall = async (command, args) => {
    const a = args.slice(1);
    switch (command) {
      case 'Application.getActiveDocument':
        // A file has no footnotes Citewise writes: note styles are formatted in the text, as Zotero does for Google Docs without notes.
        return { documentID: 'file', outputFormat: 'html', supportedNotes: [] };
      case 'Document.getDocumentData':
        return this.#documentData();
      case 'Document.setDocumentData':
        this.#setDocumentData(String(a[0]));
        return null;
      case 'Document.getFields':
        return this.fields().map((f, i) => ({ id: String(i), code: f.code, text: f.text, noteIndex: 0 }));
      case 'Document.cursorInField':
        return null;
      case 'Document.canInsertField':
        return false;
      case 'Document.displayAlert': {
        const [message, icon, buttons] = a as [string, number, number];
        const error = icon === ICON_STOP && buttons === BUTTONS_OK;
        const answer = error ? true : this.#answer(message, buttons);
        this.alerts.push({ message, answer, error });
        return answer;
      }
      case 'Document.activate':
      case 'Document.complete':
        return null;
      case 'Document.setBibliographyStyle':
        this.#setBibliographyStyle(...(a as [number, number, number, number, number[]]));
        return null;
      case 'Field.select':
        this.selected.push(this.#field(a[0]).text);
        return null;
      case 'Field.setText':
        this.#setText(a[0], String(a[1]));
        return null;
      case 'Field.setCode':
        this.#setCode(this.#field(a[0]), String(a[1]));
        return null;
      default:
        throw new Error(`${command} is not done on a document file`);
    }
  };

  #field(id: unknown): XmlField {
    const f = this.fields()[Number(id)];
    if (!f) throw new Error(`the document has no field ${String(id)}`);
    return f;
  }

  #setText(id: unknown, html: string): void {
    const paragraphs = htmlParagraphs(html);
    const index = Number(id);
    let result: string;
    if (this.kind === 'docx') result = wordResult(paragraphs);
    else {
      const styles = new Set<string>();
      if (this.#field(index).section)
        result = paragraphs
          .map((p) => `<text:p text:style-name="${BIB_STYLE_ODF}">${odfRuns(p, styles)}</text:p>`)
          .join('');
      else if (this.#field(index).fieldmark)
        result = paragraphs.map((p) => odfRuns(p, styles)).join(`</text:p><text:p text:style-name="${BIB_STYLE_ODF}">`);
      else result = paragraphs.map((p) => odfRuns(p, styles)).join('<text:line-break/>');
      // The styles go before the body: the field is found again after.
      this.#ensureOdfStyles(styles);
    }
    const f = this.#field(index);
    const xml = this.#xml(this.#main)!;
    this.#set(this.#main, xml.slice(0, f.resultStart) + result + xml.slice(f.resultEnd));
  }

  #setCode(f: XmlField, code: string): void {
    const xml = this.#xml(this.#main)!;
    if (this.kind === 'docx') {
      const head = xml.slice(f.start, f.resultStart);
      if (/<\/?w:p[\s>]/.test(head))
        throw new DocumentFileError('a citation field’s code runs over two paragraphs; it is not rewritten');
      const instruction = wordField(code, '');
      const begin = instruction.slice(0, instruction.indexOf('<w:r><w:fldChar w:fldCharType="end"/></w:r>'));
      this.#set(this.#main, xml.slice(0, f.start) + begin + xml.slice(f.resultStart));
      return;
    }
    if (f.fieldmark) {
      const open = xml
        .slice(f.start, f.resultStart)
        .replace(/\bfield:value="[^"]*"/, () => `field:value="${escapeXml(`ADDIN ZOTERO_${code}`)}"`);
      this.#set(this.#main, xml.slice(0, f.start) + open + xml.slice(f.resultStart));
      return;
    }
    const name = escapeXml(odfName(code));
    if (f.section) {
      const open = xml.slice(f.start, f.resultStart).replace(/\btext:name="[^"]*"/, () => `text:name="${name}"`);
      this.#set(this.#main, xml.slice(0, f.start) + open + xml.slice(f.resultStart));
    } else {
      this.#set(
        this.#main,
        xml.slice(0, f.start) +
          `<text:reference-mark-start text:name="${name}"/>` +
          xml.slice(f.resultStart, f.resultEnd) +
          `<text:reference-mark-end text:name="${name}"/>` +
          xml.slice(f.end),
      );
    }
  }

  #ensureOdfStyles(names: Set<string>): void {
    let xml = this.#xml('content.xml')!;
    const missing = [...names].filter((n) => !xml.includes(`style:name="${n}"`));
    if (missing.length === 0) return;
    const defs = missing.map(odfStyleXml).join('');
    if (/<office:automatic-styles\s*\/>/.test(xml))
      xml = xml.replace(/<office:automatic-styles\s*\/>/, `<office:automatic-styles>${defs}</office:automatic-styles>`);
    else if (xml.includes('</office:automatic-styles>'))
      xml = xml.replace('</office:automatic-styles>', `${defs}</office:automatic-styles>`);
    else xml = xml.replace(/<office:body\b/, `<office:automatic-styles>${defs}</office:automatic-styles><office:body`);
    this.#set('content.xml', xml);
  }

  /** The paragraph format of the bibliography, as the plugins set it (Word's "Bibliography", LibreOffice's "Bibliography 1"). */
  #setBibliographyStyle(
    firstLineIndent: number,
    indent: number,
    lineSpacing: number,
    entrySpacing: number,
    tabStops: number[],
  ): void {
    if (this.kind === 'docx') {
      const ind =
        firstLineIndent < 0
          ? `<w:ind w:left="${indent}" w:hanging="${-firstLineIndent}"/>`
          : `<w:ind w:left="${indent}" w:firstLine="${firstLineIndent}"/>`;
      const tabs = tabStops.length
        ? `<w:tabs>${tabStops.map((t) => `<w:tab w:val="left" w:pos="${t}"/>`).join('')}</w:tabs>`
        : '';
      const style = `<w:style w:type="paragraph" w:styleId="${BIB_STYLE_WORD}"><w:name w:val="Bibliography"/><w:basedOn w:val="Normal"/><w:pPr>${tabs}<w:spacing w:after="${entrySpacing}" w:line="${lineSpacing}" w:lineRule="atLeast"/>${ind}</w:pPr></w:style>`;
      this.#ensureWordStyles();
      let xml = this.#xml('word/styles.xml')!;
      const existing = new RegExp(`<w:style\\b[^>]*w:styleId="${BIB_STYLE_WORD}"[^>]*>[\\s\\S]*?</w:style>`);
      xml = existing.test(xml) ? xml.replace(existing, style) : xml.replace('</w:styles>', `${style}</w:styles>`);
      this.#set('word/styles.xml', xml);
      return;
    }
    const tabs = tabStops.length
      ? `<style:tab-stops>${tabStops.map((t) => `<style:tab-stop style:position="${inches(t)}"/>`).join('')}</style:tab-stops>`
      : '';
    const style = `<style:style style:name="${BIB_STYLE_ODF}" style:display-name="Bibliography 1" style:family="paragraph" style:parent-style-name="Standard" style:class="index"><style:paragraph-properties fo:margin-left="${inches(indent)}" fo:text-indent="${inches(firstLineIndent)}" fo:margin-bottom="${inches(entrySpacing)}" style:line-height-at-least="${inches(lineSpacing / 12)}">${tabs}</style:paragraph-properties></style:style>`;
    let xml = this.#xml('styles.xml');
    if (xml === null) return;
    const existing = new RegExp(
      `<style:style\\b[^>]*style:name="${BIB_STYLE_ODF}"[^>]*(?:/>|>[\\s\\S]*?</style:style>)`,
    );
    if (existing.test(xml)) xml = xml.replace(existing, style);
    else if (xml.includes('</office:styles>')) xml = xml.replace('</office:styles>', `${style}</office:styles>`);
    else xml = xml.replace(/<office:styles\s*\/>/, `<office:styles>${style}</office:styles>`);
    this.#set('styles.xml', xml);
  }

  #ensureWordStyles(): void {
    if (this.#xml('word/styles.xml') !== null) return;
    this.#set('word/styles.xml', WORD_STYLES);
    this.#addRelationship(
      'word/_rels/document.xml.rels',
      'http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles',
      'styles.xml',
    );
    this.#addOverride('/word/styles.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml');
  }

  #addRelationship(part: string, type: string, target: string): void {
    let xml =
      this.#xml(part) ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    if (xml.includes(`Type="${type}"`)) return;
    xml = xml.replace(/<Relationships\b([^>]*?)\s*\/>/, '<Relationships$1></Relationships>');
    let n = 1;
    while (xml.includes(`Id="rIdCitewise${n}"`)) n++;
    this.#set(
      part,
      xml.replace(
        '</Relationships>',
        `<Relationship Id="rIdCitewise${n}" Type="${type}" Target="${target}"/></Relationships>`,
      ),
    );
  }

  #addOverride(partName: string, contentType: string): void {
    let xml = this.#xml('[Content_Types].xml');
    if (xml === null || xml.includes(`PartName="${partName}"`)) return;
    xml = xml.replace(/<Types\b([^>]*?)\s*\/>/, '<Types$1></Types>');
    this.#set(
      '[Content_Types].xml',
      xml.replace('</Types>', `<Override PartName="${partName}" ContentType="${contentType}"/></Types>`),
    );
  }

  // ---- the document data ---------------------------------------------------------------------------

  #prefChunks(): string {
    const chunks = new Map<number, string>();
    if (this.kind === 'docx') {
      const xml = this.#xml('docProps/custom.xml') ?? '';
      for (const m of xml.matchAll(
        /<property\b[^>]*\bname="ZOTERO_PREF_(\d+)"[^>]*>\s*<vt:lpwstr>([\s\S]*?)<\/vt:lpwstr>/g,
      ))
        chunks.set(Number(m[1]), decodeXmlEntities(m[2]!));
    } else {
      const xml = this.#xml('meta.xml') ?? '';
      for (const m of xml.matchAll(
        /<meta:user-defined\b[^>]*\bmeta:name="ZOTERO_PREF_(\d+)"[^>]*>([\s\S]*?)<\/meta:user-defined>/g,
      ))
        chunks.set(Number(m[1]), decodeXmlEntities(m[2]!));
    }
    let out = '';
    for (let i = 1; chunks.has(i); i++) out += chunks.get(i);
    return out;
  }

  /**
   * The document data the plugin would give. The field type is the one this file's fields are (a
   * document LibreOffice saved as .docx still says ReferenceMark, but its fields are Word's now).
   */
  #documentData(): string {
    const raw = this.#prefChunks();
    if (!raw) return '';
    let data;
    try {
      data = parseDocumentData(raw);
    } catch {
      return raw; // the commands treat unreadable data as none, as Zotero does
    }
    if (!data) return '';
    if (data.prefs.fieldType && data.prefs.fieldType !== FILE_FIELD_TYPE[this.kind]) {
      data.prefs.fieldType = FILE_FIELD_TYPE[this.kind];
      return serializeDocumentData(data, data.zoteroVersion);
    }
    return raw;
  }

  #setDocumentData(text: string): void {
    if (text === this.#prefChunks()) return;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += PREF_CHUNK) chunks.push(text.slice(i, i + PREF_CHUNK));
    if (this.kind === 'docx') {
      const part = 'docProps/custom.xml';
      let xml =
        this.#xml(part) ??
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"></Properties>';
      xml = xml.replace(/<property\b[^>]*\bname="ZOTERO_PREF_\d+"[^>]*>[\s\S]*?<\/property>/g, '');
      xml = xml.replace(/<Properties([^>]*)\/>/, '<Properties$1></Properties>');
      let pid = Math.max(1, ...[...xml.matchAll(/\bpid="(\d+)"/g)].map((m) => Number(m[1])));
      const props = chunks
        .map(
          (c, i) =>
            `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="${++pid}" name="ZOTERO_PREF_${i + 1}"><vt:lpwstr>${escapeXml(c)}</vt:lpwstr></property>`,
        )
        .join('');
      this.#set(
        part,
        xml.replace('</Properties>', () => `${props}</Properties>`),
      );
      this.#addRelationship(
        '_rels/.rels',
        'http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties',
        'docProps/custom.xml',
      );
      this.#addOverride('/docProps/custom.xml', 'application/vnd.openxmlformats-officedocument.custom-properties+xml');
      return;
    }
    let xml = this.#xml('meta.xml') ?? ODF_SKELETON['meta.xml']!;
    xml = xml.replace(/<meta:user-defined\b[^>]*\bmeta:name="ZOTERO_PREF_\d+"[^>]*>[\s\S]*?<\/meta:user-defined>/g, '');
    xml = xml.replace(/<office:meta\s*\/>/, '<office:meta></office:meta>');
    const props = chunks
      .map((c, i) => `<meta:user-defined meta:name="ZOTERO_PREF_${i + 1}">${escapeXml(c)}</meta:user-defined>`)
      .join('');
    this.#set(
      'meta.xml',
      xml.replace('</office:meta>', () => `${props}</office:meta>`),
    );
    if (this.#parts.has('META-INF/manifest.xml') && !this.#xml('META-INF/manifest.xml')!.includes('"meta.xml"'))
      this.#set(
        'META-INF/manifest.xml',
        this.#xml('META-INF/manifest.xml')!.replace(
          '</manifest:manifest>',
          '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>',
        ),
      );
  }

  /** The package's bytes (an .odt's mimetype first and stored, as OpenDocument requires). */
  bytes(): Buffer {
    const entries: ZipEntry[] = [];
    const names = [...this.#parts.keys()];
    if (this.kind === 'odt') {
      entries.push({ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true });
    }
    for (const name of names) {
      if (name === 'mimetype') continue;
      entries.push({ name, data: this.#parts.get(name)! });
    }
    return writeZip(entries);
  }
}

// ---- new documents ---------------------------------------------------------------------------------

const WORD_STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:after="160" w:line="276" w:lineRule="auto"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="28"/></w:rPr></w:style>' +
  `<w:style w:type="paragraph" w:styleId="${BIB_STYLE_WORD}"><w:name w:val="Bibliography"/><w:basedOn w:val="Normal"/></w:style>` +
  '</w:styles>';

const WORD_SKELETON: Record<string, string> = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  'word/_rels/document.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  'word/document.xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>',
  'word/styles.xml': WORD_STYLES,
};

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';

const ODF_SKELETON: Record<string, string> = {
  'META-INF/manifest.xml':
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>',
  'content.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${ODF_NS} office:version="1.3"><office:automatic-styles><style:style style:name="CitewiseSect" style:family="section"><style:section-properties style:editable="false"/></style:style></office:automatic-styles><office:body><office:text></office:text></office:body></office:document-content>`,
  'styles.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${ODF_NS} office:version="1.3"><office:styles><style:style style:name="Standard" style:family="paragraph" style:class="text"><style:paragraph-properties fo:margin-bottom="0.0835in"/></style:style><style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Standard" style:default-outline-level="1" style:class="text"><style:text-properties fo:font-size="130%" fo:font-weight="bold"/></style:style><style:style style:name="${BIB_STYLE_ODF}" style:display-name="Bibliography 1" style:family="paragraph" style:parent-style-name="Standard" style:class="index"/></office:styles></office:document-styles>`,
  'meta.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta ${ODF_NS} office:version="1.3"><office:meta><meta:generator>Citewise</meta:generator></office:meta></office:document-meta>`,
};

// ---- what the app and the CLI call -----------------------------------------------------------------

export interface FileSessionOptions {
  library: IntegrationLibrary;
  styles: StyleSource;
  /** The version written into the document data (Zotero's `zotero-version`). */
  version: string;
  /** The prefix of this library's item URIs (…/items/KEY follows). */
  uriPrefix: string;
}

/** A paragraph of a new document: text, and citations (their items as a citation field holds them). */
export type DraftParagraph = (string | { citationItems: CitationItem[] })[];

export interface DraftDocument {
  paragraphs: DraftParagraph[];
  /** The heading above the bibliography ("References"); no bibliography when the draft cites nothing. */
  heading: string;
  /** The document's style (a Zotero or Citewise style id) and locale. */
  styleID: string;
  locale?: string;
}

/** What a command did to a file: the questions it answered, the hand-edited citations it kept. */
export interface FileReport {
  citations: number;
  bibliographies: number;
  /** Citations whose text was changed by hand: kept as they are, no longer updated (as Zotero asks). */
  keptHandEdits: string[];
  alerts: FileAlert[];
}

const fileSessions = (o: FileSessionOptions, prefs: DocPrefs | null): IntegrationSessions =>
  new IntegrationSessions({
    library: o.library,
    styles: o.styles,
    version: o.version,
    uriPrefix: o.uriPrefix,
    dialogs: {
      // No one is there to pick: a command that would open the picker is not run on a file.
      chooseCites: async () => null,
      documentPreferences: async (current) => prefs ?? current,
    },
  });

async function runOn(sessions: IntegrationSessions, doc: FileDocument, command: string): Promise<void> {
  await sessions.run(command, doc.call, new AbortController().signal, FILE_FIELD_TYPE[doc.kind]);
  const error = doc.alerts.find((a) => a.error);
  if (error) throw new DocumentFileError(error.message);
}

function reportOf(doc: FileDocument): FileReport {
  const fields = doc.fields();
  return {
    citations: fields.filter((f) => /^(ITEM|CITATION)/.test(f.code)).length,
    bibliographies: fields.filter((f) => f.code.startsWith('BIBL')).length,
    keptHandEdits: doc.selected,
    alerts: doc.alerts,
  };
}

/**
 * A new .docx or .odt of a draft: its paragraphs, each citation a live field, and the bibliography
 * a field under its heading; formatted by the same refresh a word-processor plugin runs, so its codes
 * are those a plugin session writes.
 */
export async function draftDocumentFile(
  kind: DocumentFileKind,
  draft: DraftDocument,
  o: FileSessionOptions,
): Promise<{ bytes: Buffer; report: FileReport }> {
  const doc = FileDocument.create(kind);
  let cites = 0;
  let n = 0;
  for (const p of draft.paragraphs)
    doc.appendParagraph(
      p.map((part) => {
        if (typeof part === 'string') return part;
        cites++;
        return {
          code: citationCode({
            citationID: `cw${(++n).toString(36)}${randomBytes(4).toString('hex')}`,
            properties: { noteIndex: 0 },
            citationItems: part.citationItems,
          }),
        };
      }),
    );
  if (cites > 0) {
    doc.appendParagraph([draft.heading], { heading: true });
    doc.appendParagraph([{ code: bibliographyCode({ uncited: [], omitted: [], custom: [] }) }], { bibliography: true });
    const sessions = fileSessions(o, {
      styleID: draft.styleID,
      ...(draft.locale ? { locale: draft.locale } : {}),
      noteType: 0,
    });
    await runOn(sessions, doc, 'refresh');
  }
  return { bytes: doc.bytes(), report: reportOf(doc) };
}

/**
 * Refreshes a .docx or .odt's citations and bibliography, as Zotero's Refresh does; with `style`
 * (or `locale`), the document takes it first (Document Preferences). A citation changed by hand is
 * kept and reported. Throws DocumentFileError (what is wrong, and where) and changes nothing then.
 */
export async function refreshDocumentFile(
  bytes: Buffer,
  kind: DocumentFileKind,
  o: FileSessionOptions & { style?: string; locale?: string },
): Promise<{ bytes: Buffer; report: FileReport; changed: boolean }> {
  const doc = FileDocument.read(bytes, kind);
  if (doc.fields().length === 0) throw new DocumentFileError('it has no Zotero or Citewise citations to refresh');
  // A document without its preferences (a copy that lost them) takes the style given, as a first Refresh asks for one.
  const given: DocPrefs | null = o.style
    ? { styleID: o.style, ...(o.locale ? { locale: o.locale } : {}), noteType: 0 }
    : null;
  await runOn(fileSessions(o, given), doc, 'refresh');
  if (!parseDocumentData(String(await doc.call('Document.getDocumentData', ['file'])))?.prefs.fieldType)
    throw new DocumentFileError(
      'it has no Zotero document preferences (its citation style is not stored in it); give the style to use',
    );
  if (o.style !== undefined || o.locale !== undefined) {
    const raw = await doc.call('Document.getDocumentData', ['file']);
    const data = parseDocumentData(String(raw));
    const prefs: DocPrefs = {
      styleID: o.style ?? data?.style.styleID ?? '',
      ...((o.locale ?? data?.style.locale) ? { locale: o.locale ?? data?.style.locale } : {}),
      noteType: 0,
    };
    await runOn(fileSessions(o, prefs), doc, 'setDocPrefs');
  }
  return { bytes: doc.changed ? doc.bytes() : bytes, report: reportOf(doc), changed: doc.changed };
}

/** The kind of document a file name says it is, or null. */
export function documentFileKind(name: string): DocumentFileKind | null {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext === 'docx' || ext === 'odt' ? ext : null;
}
