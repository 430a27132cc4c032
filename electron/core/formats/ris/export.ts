// CSL items → RIS. Tags an item brought from an RIS file (custom.ris) are written back, so an RIS round
// trip keeps every tag.
import { plainCslText, type CslDate, type CslItem, type CslName } from '../../../../shared/model/csl';
import { othersRoles } from '../../../../shared/model/others';
import { formatRisDate, type RisCustom } from './import';
import { CSL_TO_TAG, risTypeOf } from './mapping';

const SKIP = new Set(['id', 'type', 'custom', 'issued', 'accessed', 'page', 'keyword', 'citation-key']);

export interface RisExportOptions {
  /**
   * Each item's notes (HTML), by the items' order: an N1 line each, HTML as Zotero's RIS export writes
   * notes (and reads an N1 with markup back as a note).
   */
  notes?: readonly (readonly string[] | undefined)[];
}

export function toRis(items: readonly CslItem[], options: RisExportOptions = {}): string {
  return items.map((item, i) => recordText(item, options.notes?.[i] ?? [])).join('');
}

function risCustomOf(item: CslItem): RisCustom {
  const r = (item.custom as Record<string, unknown> | undefined)?.['ris'];
  return r !== null && typeof r === 'object' ? (r as RisCustom) : {};
}

function recordText(item: CslItem, notes: readonly string[]): string {
  const source = risCustomOf(item);
  const lines: string[] = [`TY  - ${risTypeOf(item.type, source.type)}`];
  // RIS is plain text: a title's CSL markup (<span class="nocase">, <i>) would be read as characters.
  const add = (tag: string, value: unknown) => {
    const text = plainCslText(String(value)).replace(/\s+/g, ' ').trim();
    if (text !== '') lines.push(`${tag}  - ${text}`);
  };
  // Names first, as every RIS writer does, then the other variables.
  for (const names of [true, false]) {
    for (const [csl, value] of Object.entries(item)) {
      if (SKIP.has(csl) || value === undefined || value === null || Array.isArray(value) !== names) continue;
      const tag = CSL_TO_TAG[csl];
      if (tag === undefined) continue;
      if (Array.isArray(value)) {
        for (const name of value as CslName[]) add(tag, formatRisName(name));
        // "and others" goes back as the "et al." line it came as from an RIS file; other tools read
        // an RIS author "et al." as a person, so items from elsewhere have none.
        if (source.type !== undefined && value.length > 0 && othersRoles(item).includes(csl)) add(tag, 'et al.');
      } else if (typeof value === 'string' || typeof value === 'number') add(tag, value);
    }
  }
  const issued = item.issued as CslDate | undefined;
  if (issued) {
    const parts = issued['date-parts']?.[0];
    if (parts) {
      add('PY', parts[0]);
      if (parts.length > 1 || issued.season !== undefined) add('DA', formatRisDate(issued));
    } else add('PY', issued.literal ?? issued.raw ?? '');
  }
  const accessed = item.accessed as CslDate | undefined;
  if (accessed) add('Y2', formatRisDate(accessed));
  if (item.page !== undefined) {
    const [start, ...rest] = String(item.page).split(/[-\u2013\u2014]+/);
    add('SP', start);
    if (rest.length > 0) add('EP', rest.join('-'));
  }
  if (typeof item.keyword === 'string' && item.keyword !== '') {
    // An RIS record's single KW line ("dermoscopy; melanoma") goes back as one line, as it came.
    const fromOneLine = source.type !== undefined && source.keywords === undefined;
    const list =
      source.keywords && source.keywords.join(', ') === item.keyword
        ? source.keywords
        : fromOneLine
          ? [item.keyword]
          : item.keyword.split(/\s*[,;]\s*/);
    for (const k of list) add('KW', k);
  }
  if (typeof item['citation-key'] === 'string') {
    add('ID', item['citation-key']);
    // A numeric key reads as a record number (EndNote numbers its records so); the same value as the
    // label marks it as the key (readIdentifiers' counterpart in import.ts).
    if (/^\d+$/.test(item['citation-key']) && item['citation-label'] === undefined) add('LB', item['citation-key']);
  }
  // A thesis's or report's kind is RIS's "type of work" (M3), unless the item has a medium there.
  if ((item.type === 'thesis' || item.type === 'report') && typeof item.genre === 'string' && item.medium === undefined)
    add('M3', item.genre);
  // The PubMed id as EndNote and Ovid write it: the accession number of an NLM record.
  const pmidElsewhere = source.fields?.['U1']?.some((v) => /\[pmid\]$/i.test(v)) ?? false;
  if (typeof item.PMID === 'string' || typeof item.PMID === 'number') {
    if (item['archive_location'] === undefined && !pmidElsewhere) {
      add('AN', item.PMID);
      if (item.archive === undefined && item.source === undefined) add('DP', 'NLM');
    } else if (!pmidElsewhere) add('U1', `${item.PMID}[pmid]`);
  }
  for (const [tag, values] of Object.entries(source.fields ?? {})) {
    if (/^[A-Z][A-Z0-9]$/.test(tag) && Array.isArray(values)) for (const v of values) add(tag, v);
  }
  // One line each: a line break inside a note is markup's (<br>, </p>), so none is lost.
  for (const html of notes) {
    const line = html.replace(/\s*[\r\n]+\s*/g, ' ').trim();
    if (line !== '') lines.push(`N1  - ${line}`);
  }
  lines.push('ER  - ');
  return `${lines.join('\n')}\n\n`;
}

function formatRisName(name: CslName): string {
  if (name.literal) return name.literal;
  const family = [name['dropping-particle'], name['non-dropping-particle'], name.family].filter(Boolean).join(' ');
  // "Family," keeps a one-part personal name apart from an organisation (written without a comma).
  if (!name.given && !name.suffix) return `${family},`;
  return name.suffix ? `${family}, ${name.given ?? ''}, ${name.suffix}` : `${family}, ${name.given}`;
}
