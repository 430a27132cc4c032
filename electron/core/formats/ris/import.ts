// RIS text → CSL items. A record runs from "TY  - " to "ER  - "; a line without a tag continues the
// field before it. Tags with no CSL variable, and repeats of single-valued ones, are kept in
// `custom.ris` so an RIS round trip loses nothing.
import type { CslDate, CslDateParts, CslItem, CslName } from '../../../../shared/model/csl';
import { parseDoi } from '../../../../shared/model/doi';
import { ItemCollector } from '../collector';
import { Deadline, FormatError, type ImportLimits } from '../limits';
import { excerptOf, type ImportedItem, type ImportIssue, type ImportResult } from '../result';
import { RIS_TYPE_TO_CSL, risRule } from './mapping';

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

export function importRis(text: string, limits: ImportLimits, out: ItemCollector = new ItemCollector()): ImportResult {
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
        out.push(recordToItem(r, warnings));
      } catch (err) {
        errors.push({ line: r.line, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    if (out.count + errors.length > limits.maxEntries) throw new FormatError(`The file has more than ${limits.maxEntries.toLocaleString('en')} records, the import limit.`, r.line);
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
        if (record) {
          warnings.push({ line: record.line, reason: 'The record is not closed with "ER  - " before the next "TY  - "; it was ended there.' });
          finish(record);
        }
        record = { line: lineNo, tags: [['TY', value, lineNo]] };
        stray = -1;
      } else if (tag === 'ER') {
        if (record) finish(record);
        else if (stray < 0) errors.push({ line: lineNo, reason: '"ER  - " ends a record that was never started with "TY  - ".' });
        record = undefined;
      } else if (record) {
        record.tags.push([tag, value, lineNo]);
        if (value.length > limits.maxFieldLength) tooLong = `The ${tag} field on line ${lineNo} is ${value.length.toLocaleString('en')} characters long; the limit is ${limits.maxFieldLength.toLocaleString('en')}.`;
      } else if (stray < 0) {
        stray = lineNo;
        errors.push({ line: lineNo, reason: `The ${tag} line is outside any record: a record starts with "TY  - ".`, excerpt: excerptOf(line) });
      }
    } else if (record && line.trim() !== '') {
      const last = record.tags[record.tags.length - 1]!;
      last[1] = last[1] === '' ? line.trim() : `${last[1]} ${line.trim()}`;
      if (last[1].length > limits.maxFieldLength) tooLong = `The ${last[0]} field starting on line ${last[2]} is longer than ${limits.maxFieldLength.toLocaleString('en')} characters, the limit.`;
    }
  }
  if (record) errors.push({ line: record.line, reason: 'The record is cut off: the file ends before its "ER  - " line.', excerpt: excerptOf(`TY  - ${record.tags[0]![1]}`) });
  if (out.count === 0 && errors.length === 0 && text.trim() !== '') {
    errors.push({ line: 1, reason: 'No RIS records were found: a record starts with a line "TY  - JOUR" (or another type) and ends with "ER  - ".' });
  }
  out.flush();
  return { format: 'ris', items: out.items, count: out.count, errors, warnings };
}

function recordToItem(record: RawRecord, warnings: ImportIssue[]): ImportedItem {
  const risType = record.tags[0]![1].toUpperCase();
  let type = RIS_TYPE_TO_CSL[risType];
  if (!type) {
    warnings.push({ line: record.line, reason: `"${risType}" is not an RIS reference type; the record was imported as a document.` });
    type = 'document';
  }
  const item: CslItem = { id: '', type };
  const custom: RisCustom = { type: risType };
  const kept: Record<string, string[]> = {};
  const keep = (tag: string, value: string) => (kept[tag] ??= []).push(value);
  const keywords: string[] = [];
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
        // PY gives the year, DA/Y1 often the full date: keep the more precise; a differing one verbatim.
        if (existing === undefined) item[rule.csl] = date;
        else if (sameYear(date, existing)) {
          if (precision(date) > precision(existing)) item[rule.csl] = date;
        } else keep(tag, value);
        break;
      }
      case 'issn-isbn': {
        const csl = /^\s*\d{4}-?\d{3}[\dxX]\s*$/.test(value) ? 'ISSN' : 'ISBN';
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
        if (parsed.ok) item.DOI = parsed.doi;
        else {
          item.DOI = value;
          warnings.push({ line, reason: `The DOI "${value}" is not valid (${parsed.reason}); it was kept as written.` });
        }
        break;
      }
      default:
        if (item[rule.csl] === undefined) item[rule.csl] = value;
        else keep(tag, value);
    }
  }
  if (startPage !== undefined) item.page = endPage !== undefined && endPage !== startPage ? `${startPage}-${endPage}` : startPage;
  else if (endPage !== undefined) keep('EP', endPage);
  if (keywords.length > 0) {
    item.keyword = keywords.join(', ');
    if (keywords.length > 1) custom.keywords = keywords;
  }
  if (Object.keys(kept).length > 0) custom.fields = kept;
  item.custom = { ris: custom };
  const key = typeof item['citation-key'] === 'string' ? item['citation-key'] : undefined;
  item.id = key ?? `ris-line-${record.line}`;
  return key ? { item, line: record.line, sourceKey: key } : { item, line: record.line };
}

/** "Last, First, Suffix"; a name without a comma is an organisation. */
export function parseRisName(value: string): CslName {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length === 1) return { literal: parts[0]! };
  const name: CslName = { family: parts[0]! };
  if (parts[1]) name.given = parts[1];
  if (parts[2]) name.suffix = parts.slice(2).join(', ');
  return name;
}

/** "2020", "2020/05/17/", "2020/05//Spring", "2020-05-17". */
export function parseRisDate(value: string): CslDate {
  const m = /^(\d{4})(?:[/-](\d{1,2})?(?:[/-](\d{1,2})?(?:\/(.*))?)?)?\s*$/.exec(value.trim());
  if (!m) return { literal: value.trim() };
  const parts: CslDateParts = [Number(m[1])];
  const month = m[2] ? Number(m[2]) : undefined;
  const day = m[3] ? Number(m[3]) : undefined;
  if (month !== undefined && month >= 1 && month <= 12) {
    parts.push(month);
    if (day !== undefined && day >= 1 && day <= 31) parts.push(day);
  }
  const date: CslDate = { 'date-parts': [parts] };
  if (m[4]) date.season = m[4];
  return date;
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
