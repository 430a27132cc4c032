// RIS text → CSL items. A record runs from "TY  - " to "ER  - "; a line without a tag continues the
// field before it. Tags with no CSL variable, and repeats of single-valued ones, are kept in
// `custom.ris` so an RIS round trip loses nothing.
import type { CslDate, CslDateParts, CslItem, CslName } from '../../../../shared/model/csl';
import { doiFromUrl, parseDoi, writtenDoi } from '../../../../shared/model/doi';
import { ItemCollector, SinkFailure } from '../collector';
import { Deadline, FormatError, type ImportLimits } from '../limits';
import { excerptOf, type ImportedItem, type ImportIssue, type ParseResult } from '../result';
import { idKeyProblem } from '../source-id';
import { entryOrigin } from '../origin';
import { RIS_TYPE_TO_CSL, risRule } from './mapping';
import { grouped } from '../../../../shared/model/numbers';
import { parsePersonName } from '../../../../shared/model/person-name';
import { takeOthersNames } from '../../../../shared/model/others';

const TAG_LINE = /^([A-Z][A-Z0-9]) {1,2}-(?: (.*)|\s*)$/;

export interface RisCustom {
  type?: string;
  /** Tags kept verbatim, in order, with every value. */
  fields?: Record<string, string[]>;
  /** The keywords as separate KW lines, when they were joined into `keyword`. */
  keywords?: string[];
}

interface RawRecord {
  line: number;
  tags: [tag: string, value: string, line: number][];
}

export function importRis(text: string, limits: ImportLimits, out: ItemCollector = new ItemCollector()): ParseResult {
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const deadline = new Deadline(limits.timeBudgetMs);
  let record: RawRecord | undefined;
  let tooLong: string | undefined;
  let stray = -1;
  let lineNo = 0;
  let start = 0;
  const finish = (r: RawRecord) => {
    if (tooLong) errors.push({ line: r.line, reason: tooLong });
    else {
      try {
        const imported = recordToItem(r, warnings);
        imported.origin = entryOrigin(r.tags.map(([tag, value]) => `${tag}=${value}`));
        out.push(imported);
      } catch (err) {
        // The library could not take a chunk of records: not this record's fault, and the import ends.
        if (err instanceof SinkFailure) throw err;
        errors.push({ line: r.line, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    if (out.count + errors.length > limits.maxEntries)
      throw new FormatError(`The file has more than ${grouped(limits.maxEntries)} records, the import limit.`, r.line);
    tooLong = undefined;
  };
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    lineNo++;
    start = end + 1;
    if ((lineNo & 4095) === 0) deadline.check(lineNo);
    const m = TAG_LINE.exec(line);
    if (m) {
      const tag = m[1]!;
      const value = (m[2] ?? '').trim();
      if (tag === 'TY') {
        if (record && record.tags.length === 1) {
          // A TY repeated before any other tag is the same record (as Zotero, EndNote and JabRef read
          // it): one item, not one empty item per TY line. A type given only by a later line counts.
          if (record.tags[0]![1] === '') record.tags[0]![1] = value;
          else if (value !== '' && value !== record.tags[0]![1]) {
            warnings.push({
              line: lineNo,
              reason: `The record's type is given twice ("${record.tags[0]![1]}", then "${value}"); the first was used.`,
            });
          }
          continue;
        }
        if (record) {
          warnings.push({
            line: record.line,
            reason: 'The record is not closed with "ER  - " before the next "TY  - "; it was ended there.',
          });
          finish(record);
        }
        record = { line: lineNo, tags: [['TY', value, lineNo]] };
        stray = -1;
      } else if (tag === 'ER') {
        if (record) finish(record);
        else if (stray < 0)
          errors.push({ line: lineNo, reason: '"ER  - " ends a record that was never started with "TY  - ".' });
        record = undefined;
      } else if (record) {
        record.tags.push([tag, value, lineNo]);
        if (value.length > limits.maxFieldLength)
          tooLong = `The ${tag} field on line ${lineNo} is ${grouped(value.length)} characters long; the limit is ${grouped(limits.maxFieldLength)}.`;
      } else if (stray < 0) {
        stray = lineNo;
        errors.push({
          line: lineNo,
          reason: `The ${tag} line is outside any record: a record starts with "TY  - ".`,
          excerpt: excerptOf(line),
        });
      }
    } else if (record && line.trim() !== '') {
      const last = record.tags[record.tags.length - 1]!;
      last[1] = last[1] === '' ? line.trim() : `${last[1]} ${line.trim()}`;
      if (last[1].length > limits.maxFieldLength)
        tooLong = `The ${last[0]} field starting on line ${last[2]} is longer than ${grouped(limits.maxFieldLength)} characters, the limit.`;
    }
  }
  if (record) {
    // The last record without ER (Zotero, EndNote and JabRef import it too): kept when it has fields,
    // with a warning, since a file cut off in transfer also ends this way.
    if (record.tags.length > 1) {
      warnings.push({
        line: record.line,
        reason:
          'The file ends before this record\'s "ER  - " line; it was imported as it stands (check that it is complete).',
      });
      finish(record);
    } else
      errors.push({
        line: record.line,
        reason: 'The record is cut off: the file ends right after its "TY  - " line.',
        excerpt: excerptOf(`TY  - ${record.tags[0]![1]}`),
      });
  }
  if (out.count === 0 && errors.length === 0 && text.trim() !== '') {
    errors.push({
      line: 1,
      reason:
        'No RIS records were found: a record starts with a line "TY  - JOUR" (or another type) and ends with "ER  - ".',
    });
  }
  out.flush();
  return { format: 'ris', items: out.items, count: out.count, errors, warnings };
}

function recordToItem(record: RawRecord, warnings: ImportIssue[]): ImportedItem {
  const risType = record.tags[0]![1].toUpperCase();
  let type = RIS_TYPE_TO_CSL[risType];
  if (!type) {
    warnings.push({
      line: record.line,
      reason: `"${risType}" is not an RIS reference type; the record was imported as a document.`,
    });
    type = 'document';
  }
  const item: CslItem = { id: '', type };
  const custom: RisCustom = { type: risType };
  const kept: Record<string, string[]> = {};
  const keep = (tag: string, value: string) => (kept[tag] ??= []).push(value);
  const keywords: string[] = [];
  const partial: Record<string, { month: number; day?: number; tag: string; value: string }[]> = {};
  let startPage: string | undefined;
  let endPage: string | undefined;
  for (let i = 1; i < record.tags.length; i++) {
    const [tag, value, line] = record.tags[i]!;
    if (value === '') continue;
    const rule = risRule(tag, type);
    if (!rule) {
      keep(tag, value);
      continue;
    }
    switch (rule.kind) {
      case 'name': {
        const list = (item[rule.csl] as CslName[] | undefined) ?? [];
        list.push(parseRisName(value));
        item[rule.csl] = list;
        break;
      }
      case 'keyword':
        keywords.push(value);
        break;
      case 'start-page':
        if (startPage === undefined) startPage = value;
        else keep(tag, value);
        break;
      case 'end-page':
        if (endPage === undefined) endPage = value;
        else keep(tag, value);
        break;
      case 'year':
      case 'date': {
        const date = parseRisDate(value);
        const existing = item[rule.csl] as CslDate | undefined;
        const monthOnly = risMonthDay(value);
        if (monthOnly && date.literal !== undefined) {
          // "DA  - OCT 12" (Web of Science): the month and day of the year another tag gives.
          (partial[rule.csl] ??= []).push({ ...monthOnly, tag, value });
          break;
        }
        // PY gives the year, DA/Y1 often the full date: keep the more precise; a differing one verbatim.
        if (existing === undefined) item[rule.csl] = date;
        else if (sameYear(date, existing)) {
          if (precision(date) > precision(existing)) item[rule.csl] = date;
        } else keep(tag, value);
        break;
      }
      case 'issn-isbn': {
        // PubMed adds the medium: "0028-0836 (Print)".
        const csl = /^\s*\d{4}-?\d{3}[\dxX]\s*(?:\([^)]*\)\s*)?$/.test(value) ? 'ISSN' : 'ISBN';
        if (item[csl] === undefined) item[csl] = value;
        else keep(tag, value);
        break;
      }
      case 'doi': {
        if (item.DOI !== undefined) {
          keep(tag, value);
          break;
        }
        const parsed = parseDoi(value);
        if (parsed.ok) item.DOI = writtenDoi(value) ?? parsed.doi;
        else {
          item.DOI = value;
          warnings.push({
            line,
            reason: `The DOI "${value}" is not valid (${parsed.reason}); it was kept as written.`,
          });
        }
        break;
      }
      default:
        if (item[rule.csl] === undefined) item[rule.csl] = value;
        else keep(tag, value);
    }
  }
  for (const [csl, list] of Object.entries(partial)) {
    for (const p of list) {
      const parts = (item[csl] as CslDate | undefined)?.['date-parts']?.[0];
      if (parts && parts.length === 1)
        (item[csl] as CslDate)['date-parts'] = [p.day ? [parts[0]!, p.month, p.day] : [parts[0]!, p.month]];
      else keep(p.tag, p.value);
    }
  }
  if (startPage !== undefined)
    item.page = endPage !== undefined && endPage !== startPage ? `${startPage}-${endPage}` : startPage;
  else if (endPage !== undefined) keep('EP', endPage);
  if (keywords.length > 0) {
    item.keyword = keywords.join(', ');
    if (keywords.length > 1) custom.keywords = keywords;
  }
  readIdentifiers(item, kept);
  let replacedId: ImportedItem['replacedId'];
  const givenKey = typeof item['citation-key'] === 'string' ? item['citation-key'] : undefined;
  // A number is a record number (EndNote's ID), unless the label repeats it: Citewise writes a
  // numeric citation key as ID and LB both, so that it comes back as the key.
  const numericKey = givenKey !== undefined && /^\d+$/.test(givenKey) && item['citation-label'] === givenKey;
  if (numericKey) delete item['citation-label'];
  const idProblem = givenKey === undefined || numericKey ? null : idKeyProblem(givenKey);
  if (givenKey !== undefined && idProblem !== null) {
    // EndNote's and Reference Manager's record numbers: kept as the ID tag, not made the key.
    delete item['citation-key'];
    kept['ID'] = [givenKey, ...(kept['ID'] ?? [])];
    replacedId = { id: givenKey, reason: idProblem };
  }
  // A DOI given only as a resolver link (UR  - https://doi.org/10.…) is the item's DOI.
  if (item.DOI === undefined && typeof item.URL === 'string') {
    const doi = doiFromUrl(item.URL);
    if (doi !== null) item.DOI = doi;
  }
  if (Object.keys(kept).length > 0) custom.fields = kept;
  // A last author "et al." (as some databases write a cut list) is "and others", not a person.
  const others = takeOthersNames(item) ? (item.custom?.['bibtex'] as { others?: string[] }) : undefined;
  item.custom = others ? { ris: custom, bibtex: others } : { ris: custom };
  const key = typeof item['citation-key'] === 'string' ? item['citation-key'] : undefined;
  item.id = key ?? `ris-line-${record.line}`;
  const out: ImportedItem = key ? { item, line: record.line, sourceKey: key } : { item, line: record.line };
  if (replacedId) out.replacedId = replacedId;
  return out;
}

// A database whose accession number is the PubMed id: PubMed, MEDLINE (Ovid's "Ovid MEDLINE(R)"), NLM.
const PUBMED_DATABASE = /pubmed|medline|\bnlm\b/i;

/**
 * Identifiers RIS has no tag of its own for, as the tools that write them put them: the PubMed id as the
 * accession number of a PubMed or MEDLINE record (AN with DB or DP naming it, as Ovid and EndNote write
 * it) or as PubMed's "U1  - 13054692[pmid]"; the PMC id in C2 (EndNote's PMCID field).
 */
function readIdentifiers(item: CslItem, kept: Record<string, string[]>): void {
  const an = item['archive_location'];
  const database = `${String(item.source ?? '')} ${String(item.archive ?? '')}`;
  if (typeof an === 'string' && /^\d{1,9}$/.test(an) && PUBMED_DATABASE.test(database) && item.PMID === undefined) {
    item.PMID = an;
    delete item['archive_location'];
    // "DP  - NLM" only said whose number it is (Citewise writes it so beside AN): not an archive to print.
    if (item.archive === 'NLM') delete item.archive;
  }
  if (item.PMID === undefined) {
    const pmid = kept['U1']?.map((v) => /^(\d{1,9})\s*\[pmid\]$/i.exec(v)?.[1]).find((v) => v !== undefined);
    if (pmid !== undefined) item.PMID = pmid;
  }
  const c2 = kept['C2'];
  const pmcid = c2?.findIndex((v) => /^PMC\d+$/i.test(v)) ?? -1;
  if (c2 && pmcid >= 0 && item.PMCID === undefined) {
    item.PMCID = c2[pmcid]!.toUpperCase();
    c2.splice(pmcid, 1);
    if (c2.length === 0) delete kept['C2'];
  }
}

/**
 * "Last, First, Suffix" (the RIS specification); without a comma, "First Last" as Zotero, JabRef and
 * EndNote read it ("Catarina Barata"), "Last INITIALS" as PubMed, Embase and Ovid write it ("Barata C",
 * "Fanning E."), and a name that reads as an organisation ("World Health Organization") as one literal
 * name: the one reader of names written as text (shared/model/person-name.ts).
 */
export function parseRisName(value: string): CslName {
  return parsePersonName(value) ?? { literal: value };
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

function monthOf(text: string): number | undefined {
  const t = text.trim().replace(/\.$/, '').toLowerCase();
  if (/^\d{1,2}$/.test(t)) {
    const n = Number(t);
    return n >= 1 && n <= 12 ? n : undefined;
  }
  return MONTHS[t];
}

function dayOf(text: string | undefined): number | undefined {
  const t = text?.trim() ?? '';
  if (!/^\d{1,2}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= 31 ? n : undefined;
}

/**
 * "2020", "2020/05/17/", "2020/05//Spring", "2015/10/", "2015///", "2015/october", "2020-05-17",
 * "Oct 2015", "2015 Oct 12", "October 12, 2015": the year, with the month and day when given.
 */
export function parseRisDate(value: string): CslDate {
  const text = value.trim();
  const slashed = /^(\d{4})(?:([/-])([^/-]*)(?:[/-]([^/-]*)(?:\/(.*))?)?)?$/.exec(text);
  if (slashed) {
    const parts: CslDateParts = [Number(slashed[1])];
    const monthText = slashed[3]?.trim() ?? '';
    const month = monthText === '' ? undefined : monthOf(monthText);
    const date: CslDate = { 'date-parts': [parts] };
    if (month !== undefined) {
      parts.push(month);
      const day = dayOf(slashed[4]);
      if (day !== undefined) parts.push(day);
      else if (slashed[4]?.trim()) return { literal: text };
    } else if (monthText !== '') {
      // "2015/Spring": a season where the month goes; "2015/13" is no date.
      if (/\d/.test(monthText) || slashed[4]?.trim() || slashed[5]?.trim()) return { literal: text };
      date.season = monthText;
      return date;
    } else if (slashed[4]?.trim()) return { literal: text };
    const other = slashed[5]?.trim();
    if (other) date.season = other;
    return date;
  }
  // Words: a year, a month name and perhaps a day, in any order ("Oct 2015", "2015 Oct 12").
  const words = text.split(/[\s,]+/).filter(Boolean);
  const year = words.filter((w) => /^\d{4}$/.test(w));
  const months = words.map((w) => (/^\d/.test(w) ? undefined : monthOf(w))).filter((m) => m !== undefined);
  const days = words.filter((w) => /^\d{1,2}$/.test(w));
  if (
    year.length === 1 &&
    months.length <= 1 &&
    days.length <= (months.length === 1 ? 1 : 0) &&
    year.length + months.length + days.length === words.length
  ) {
    const parts: CslDateParts = [Number(year[0])];
    if (months.length === 1) {
      parts.push(months[0]!);
      const day = dayOf(days[0]);
      if (day !== undefined) parts.push(day);
    }
    return { 'date-parts': [parts] };
  }
  return { literal: text };
}

/** A month with perhaps a day and no year ("OCT", "OCT 12", "12 Oct"): what Web of Science puts in DA. */
function risMonthDay(value: string): { month: number; day?: number } | null {
  const words = value
    .trim()
    .split(/[\s,/]+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 2) return null;
  const monthWord = words.find((w) => !/^\d/.test(w));
  const month = monthWord === undefined ? undefined : monthOf(monthWord);
  if (month === undefined) return null;
  const dayWord = words.find((w) => w !== monthWord);
  if (dayWord === undefined) return { month };
  const day = dayOf(dayWord);
  return day === undefined ? null : { month, day };
}

export function formatRisDate(date: CslDate, yearOnly = false): string {
  const p = date['date-parts']?.[0];
  if (!p) return date.literal ?? date.raw ?? '';
  if (yearOnly) return String(p[0]);
  const [y, m, d] = p;
  return `${String(y).padStart(4, '0')}/${m ? String(m).padStart(2, '0') : ''}/${d ? String(d).padStart(2, '0') : ''}/${typeof date.season === 'string' ? date.season : ''}`;
}

function precision(d: CslDate): number {
  return d['date-parts']?.[0]?.length ?? 0;
}

function sameYear(a: CslDate, b: CslDate): boolean {
  return a['date-parts']?.[0]?.[0] === b['date-parts']?.[0]?.[0];
}
