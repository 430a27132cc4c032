// Citations in a Word .docx written by Zotero's Word plugin (or Mendeley Cite, or Citewise, which
// write the same field): a complex field whose instruction is
//   ADDIN ZOTERO_ITEM CSL_CITATION {"citationID":…,"citationItems":[{"id":…,"uris":[…],"itemData":{CSL-JSON}}],…}
// The instruction may be split over many w:instrText runs (Word splits long ones, and an edit splits
// a run), and its JSON is XML-escaped. The body, footnotes and endnotes are read (note styles put
// citations in footnotes). Each cited item is named by its citation key when the item data carries
// one, else by DOI, else by title; the library matches them in that order.
import type { FoundCitation } from '../../../shared/model/manuscript';
import type { ParsedCitations } from './markdown';
import { ZipError, ZipReader } from './zip';
import { decodeXmlEntities } from '../formats/xml-entities';
import { withoutControlCharacters } from '../../../shared/model/control-characters';

export class DocxError extends Error {}

const PARTS: [string, string | undefined][] = [
  ['word/document.xml', undefined],
  ['word/footnotes.xml', 'footnotes'],
  ['word/endnotes.xml', 'endnotes'],
];
/** The most one XML part may unpack to. */
const MAX_PART_BYTES = 64 * 1024 * 1024;
/** The instruction of a citation field; older Zotero versions add " RND" and a random id after the JSON. */
const FIELD = /^\s*ADDIN\s+(?:ZOTERO_ITEM\s+)?CSL_CITATION(?:\s+([\s\S]*?))?(?:\s+RND\w+)?\s*$/;

/** The field instructions of one part, with the paragraph each begins in. */
export function fieldInstructions(xml: string): { instruction: string; paragraph: number }[] {
  const out: { instruction: string; paragraph: number }[] = [];
  // Open complex fields, innermost last; each collects its instruction until "separate" or "end".
  const stack: { text: string; collecting: boolean; paragraph: number }[] = [];
  let paragraph = 0;
  const token =
    /<w:p[\s>]|<w:fldChar\b[^>]*w:fldCharType="(begin|separate|end)"[^>]*>|<w:instrText\b[^>]*>([\s\S]*?)<\/w:instrText>|<w:fldSimple\b[^>]*w:instr="([^"]*)"/g;
  for (const m of xml.matchAll(token)) {
    if (m[0].startsWith('<w:p') && !m[0].startsWith('<w:fld')) {
      paragraph++;
      continue;
    }
    if (m[1] === 'begin') stack.push({ text: '', collecting: true, paragraph });
    else if (m[1] === 'separate' || m[1] === 'end') {
      const top = stack[stack.length - 1];
      if (top?.collecting) {
        top.collecting = false;
        out.push({ instruction: decodeXmlEntities(top.text), paragraph: top.paragraph });
      }
      if (m[1] === 'end') stack.pop();
    } else if (m[2] !== undefined) {
      const top = stack[stack.length - 1];
      if (top?.collecting) top.text += m[2];
    } else if (m[3] !== undefined) out.push({ instruction: decodeXmlEntities(m[3]), paragraph });
  }
  return out;
}

interface CitationItem {
  itemData?: Record<string, unknown>;
  uris?: unknown;
}

/** The citations of one CSL_CITATION instruction; throws DocxError when its JSON is not readable. */
export function citationsOfField(instruction: string): Omit<FoundCitation, 'line' | 'part'>[] | null {
  const m = FIELD.exec(instruction);
  if (!m) return null;
  let data: unknown;
  try {
    data = JSON.parse(m[1] ?? '');
  } catch (err) {
    // V8 quotes the JSON around the fault, which may hold control characters: never sent raw to a terminal.
    throw new DocxError(`a citation field's JSON cannot be read (${withoutControlCharacters((err as Error).message)})`);
  }
  const items = (data as { citationItems?: unknown }).citationItems;
  if (!Array.isArray(items)) throw new DocxError('a citation field has no citationItems list');
  const out: Omit<FoundCitation, 'line' | 'part'>[] = [];
  for (const raw of items as CitationItem[]) {
    const d = raw && typeof raw.itemData === 'object' && raw.itemData !== null ? raw.itemData : {};
    const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
    // Zotero 7 puts the Citation Key field in the item data; Better BibTeX and older versions keep it
    // in "note"/"extra" as "Citation Key: …".
    const extra = str(d.note) ?? str(d.extra);
    const keyInExtra = extra ? /^\s*Citation Key:\s*(\S+)/im.exec(extra)?.[1] : undefined;
    const key = str(d['citation-key']) ?? str(d.citationKey) ?? str(d['citation-label']) ?? keyInExtra;
    const doi = str(d.DOI) ?? str(d.doi);
    const title = str(d.title);
    if (!key && !doi && !title) {
      const uri = Array.isArray(raw?.uris) ? str(raw.uris[0]) : undefined;
      out.push({ title: uri ? `(item ${uri} without data)` : '(an item without data)' });
      continue;
    }
    out.push({ key, doi, title });
  }
  return out;
}

/** Reads a .docx's citation fields; DocxError says what is wrong with the file. */
export function parseDocx(bytes: Buffer): ParsedCitations {
  let zip: ZipReader;
  try {
    zip = new ZipReader(bytes);
  } catch (err) {
    if (err instanceof ZipError) throw new DocxError(`it is not a Word .docx file: ${err.message}`);
    throw err;
  }
  if (!zip.has('word/document.xml'))
    throw new DocxError('it is a zip package but not a Word document (it has no word/document.xml)');
  const citations: FoundCitation[] = [];
  for (const [name, part] of PARTS) {
    let xml: Buffer | null;
    try {
      xml = zip.read(name, MAX_PART_BYTES);
    } catch (err) {
      if (err instanceof ZipError) throw new DocxError(err.message);
      throw err;
    }
    if (!xml) continue;
    for (const f of fieldInstructions(xml.toString('utf8'))) {
      let found;
      try {
        found = citationsOfField(f.instruction);
      } catch (err) {
        if (err instanceof DocxError) throw new DocxError(`${name}, paragraph ${f.paragraph}: ${err.message}`);
        throw err;
      }
      for (const c of found ?? [])
        citations.push({ ...c, line: f.paragraph, part: part ? `${part} paragraph` : 'paragraph' });
    }
  }
  return { citations, citesAll: false };
}
