// Evidence dataset records (patents, clinical trials, grants, 510(k) devices, FAERS and MAUDE
// reports) as citable library items. Records come from the service as loose objects, many of their
// values wrapped as highlighted values ({id, name, highlighted}); everything here reads them
// defensively and only ever takes the plain `name`, never the markup.
import type { CslDate, CslItem, CslName } from './csl';
import { parsePersonName } from './person-name';

/** The datasets a record can be saved from (search result or detail record). */
export const EVIDENCE_RECORD_DATASETS = [
  'patents',
  'clinical-trials',
  'grants',
  'device510k-summaries',
  'faers',
  'maude',
] as const;
export type EvidenceRecordDataset = (typeof EVIDENCE_RECORD_DATASETS)[number];

/** The dataset in words, for messages and headings. */
export const EVIDENCE_DATASET_LABELS: Record<EvidenceRecordDataset, string> = {
  patents: 'Patents',
  'clinical-trials': 'Clinical trials',
  grants: 'Grants',
  'device510k-summaries': '510(k) devices',
  faers: 'FAERS reports',
  maude: 'MAUDE reports',
};

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A highlighted value's plain text, or a plain string/number/boolean as text; '' for anything else. */
/** An http(s) address as the record gives it, or '' (a saved item's URL is exported and may become a link). */
export function webUrl(value: string): string {
  if (!value) return '';
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : '';
  } catch {
    return '';
  }
}

export function plain(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (isObject(v) && 'name' in v) return plain(v.name);
  return '';
}

/** A highlighted value's markup (for SafeMarkup only), falling back to its plain text. */
export function marked(v: unknown): string {
  if (isObject(v) && typeof v.highlighted === 'string' && v.highlighted.trim() !== '') return v.highlighted;
  return plain(v);
}

/** The plain texts of a list of values (highlighted or not), empty ones dropped. */
export function plainList(v: unknown): string[] {
  return Array.isArray(v) ? v.map(plain).filter((s) => s !== '') : [];
}

/** A list of objects (anything else is dropped). */
export function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** A nested value by a dotted path through objects ("trialState.status"). */
export function at(record: unknown, path: string): unknown {
  let cur: unknown = record;
  for (const key of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** The first non-empty plain text among the paths. */
export function first(record: unknown, ...paths: string[]): string {
  for (const p of paths) {
    const s = plain(at(record, p));
    if (s !== '') return s;
  }
  return '';
}

/** A date as CSL date-parts from "YYYY", "YYYY-MM", "YYYY-MM-DD…" or an epoch-milliseconds timestamp. */
export function cslDate(v: unknown): CslDate | undefined {
  const s = typeof v === 'number' && Number.isFinite(v) && v > 1e11 ? new Date(v).toISOString() : plain(v);
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?/.exec(s);
  if (!m) return undefined;
  const parts: [number, number?, number?] = [Number(m[1])];
  if (m[2] && Number(m[2]) >= 1 && Number(m[2]) <= 12) {
    parts.push(Number(m[2]));
    if (m[3] && Number(m[3]) >= 1 && Number(m[3]) <= 31) parts.push(Number(m[3]));
  }
  return { 'date-parts': [parts] };
}

/** A personal name as registries write it: "Family, Given", "Given Family", or UPPER CASE; institutions go in literal. */
export function personName(raw: string): CslName | null {
  const name = raw.replace(/\s+/g, ' ').trim();
  if (!name) return null;
  const cased =
    name === name.toUpperCase() && /[A-Z]/.test(name)
      ? name.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase())
      : name;
  const parsed = parsePersonName(cased);
  // "Okafor," (no given name) is the family name alone, which registries use for a body's name too.
  return parsed && parsed.family !== undefined && parsed.given === undefined && cased.includes(',')
    ? { literal: parsed.family }
    : parsed;
}

const PATENT_OFFICES: Record<string, string> = {
  US: 'U.S. Patent and Trademark Office',
  EP: 'European Patent Office',
  WO: 'World Intellectual Property Organization',
  CN: 'China National Intellectual Property Administration',
  JP: 'Japan Patent Office',
  KR: 'Korean Intellectual Property Office',
  DE: 'German Patent and Trade Mark Office',
  GB: 'UK Intellectual Property Office',
  FR: 'French National Institute of Industrial Property',
  CA: 'Canadian Intellectual Property Office',
  AU: 'IP Australia',
};

/** How citation styles name a patent's jurisdiction before "Patent No." (APA: "U.S. Patent No. …"). */
const PATENT_JURISDICTIONS: Record<string, string> = {
  US: 'U.S.',
  EP: 'European',
  WO: 'International',
  CN: 'Chinese',
  JP: 'Japanese',
  KR: 'Korean',
  DE: 'German',
  GB: 'U.K.',
  FR: 'French',
  CA: 'Canadian',
  AU: 'Australian',
};

/** The office that issues patents of a country or office code ("US"), or the code itself when unknown. */
export function patentOffice(code: string): string {
  return PATENT_OFFICES[code.toUpperCase()] ?? code;
}

/** The issuing authority as styles print it before "Patent No." ("U.S."), or the code itself when unknown. */
export function patentAuthority(code: string): string {
  return PATENT_JURISDICTIONS[code.toUpperCase()] ?? code;
}

const FDA = 'U.S. Food and Drug Administration';

/** Why a record cannot become a library item: what is missing, and where in the record. */
export class EvidenceRecordError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'EvidenceRecordError';
  }
}

function need(value: string, what: string, path: string, dataset: EvidenceRecordDataset): string {
  if (value === '')
    throw new EvidenceRecordError(
      `This ${datasetNoun(dataset)} record has no ${what} (${path}), so it cannot be saved as a citable item.`,
      path,
    );
  return value;
}

export function datasetNoun(dataset: EvidenceRecordDataset): string {
  return {
    patents: 'patent',
    'clinical-trials': 'clinical trial',
    grants: 'grant',
    'device510k-summaries': '510(k) device',
    faers: 'FAERS report',
    maude: 'MAUDE report',
  }[dataset];
}

/** Drops empty strings, empty arrays and undefined, so the stored item carries only what the record had. */
function compact(item: CslItem): CslItem {
  const out: Obj = {};
  for (const [k, v] of Object.entries(item)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (isObject(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out as CslItem;
}

const names = (list: string[]): CslName[] => list.map(personName).filter((n): n is CslName => n !== null);
const institution = (name: string): CslName[] => (name ? [{ literal: name }] : []);
const uniq = (list: string[]): string[] => [...new Set(list)];

/** The patent (family member) a family record is cited by: its first publication. */
function patentItem(record: Obj): CslItem {
  // A family (search result) holds patents[]; a single patent may also be given directly.
  const patent = objects(record.patents)[0] ?? record;
  const pub = objects(patent.publications)[0] ?? {};
  const title = need(plain(patent.title), 'title', 'patents[0].title', 'patents');
  const country = first(pub, 'pubRef.country') || first(patent, 'appRef.patentOffice');
  const docNumber = first(pub, 'pubRef.docNumber') || first(patent, 'appRef.docNumber');
  const kind = first(pub, 'pubRef.kind');
  const publication = need(
    first(pub, 'pubRef.name') || (docNumber ? `${country}${docNumber}${kind}` : ''),
    'publication number',
    'patents[0].publications[0].pubRef',
    'patents',
  );
  // Styles print "U.S. Patent No. 10,234,567": the office's own number, without country code and kind;
  // the whole publication number (with its kind code) stays in the note and in custom.evidence.
  const number = docNumber
    ? country.toUpperCase() === 'US' && /^\d{4,}$/.test(docNumber)
      ? Number(docNumber).toLocaleString('en-US')
      : docNumber
    : publication;
  const inventors = objects(patent.inventors).map((i) => plain(i.normalizedName) || plain(i.name));
  const assignees = uniq(
    objects(patent.assignees)
      .map((a) => plain(a.normalizedName) || plain(a.name))
      .filter(Boolean),
  );
  const cpc = objects(patent.classifications)
    .map((c) => plain(c.cpcSymbol))
    .filter(Boolean);
  return compact({
    id: `patent-${publication}`,
    type: 'patent',
    title,
    author: names(inventors),
    number,
    authority: country ? patentAuthority(country) : undefined,
    publisher: country ? patentOffice(country) : undefined,
    jurisdiction: country || undefined,
    issued: cslDate(at(pub, 'pubRef.date')) ?? cslDate(at(pub, 'pubRef.year')),
    submitted: cslDate(at(patent, 'appRef.filingDate')),
    abstract: plain(patent.abstract),
    URL: webUrl(first(pub, 'externalLink')),
    keyword: cpc.join(', '),
    note: [
      `Publication: ${publication}`,
      assignees.length ? `Assignee: ${assignees.join('; ')}` : '',
      first(record, 'familyId') ? `Patent family: ${first(record, 'familyId')}` : '',
      plain(patent.filingStatus) ? `Status: ${plain(patent.filingStatus)}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    custom: {
      evidence: { dataset: 'patents', id: publication, familyId: first(record, 'familyId') || undefined, assignees },
    },
  });
}

function trialItem(record: Obj): CslItem {
  const id = need(first(record, 'uid', 'id', 'esId'), 'registry number', 'uid', 'clinical-trials');
  const title = need(plain(record.title), 'title', 'title', 'clinical-trials');
  const sponsors = plainList(record.sponsors);
  const registry = first(record, 'dataSource', 'registry');
  return compact({
    id: `trial-${id}`,
    type: 'report',
    genre: 'Clinical trial registration',
    title,
    author: sponsors.map((s) => ({ literal: s })),
    number: id,
    publisher: registry,
    issued: cslDate(at(record, 'dates.startDate')) ?? cslDate(at(record, 'dates.lastUpdatedDate')),
    URL: webUrl(first(record, 'externalLink')),
    abstract: plain(record.briefDescription) || plain(record.description),
    keyword: plainList(record.conditions).join(', '),
    note: [
      first(record, 'trialState.status') ? `Status: ${first(record, 'trialState.status')}` : '',
      first(record, 'trialState.phase') ? `Phase: ${first(record, 'trialState.phase')}` : '',
      sponsors.length ? `Sponsor: ${sponsors.join('; ')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    custom: {
      evidence: { dataset: 'clinical-trials', id, registry: first(record, 'registry') || undefined, sponsors },
    },
  });
}

function grantItem(record: Obj): CslItem {
  const grant = objects(record.grants)[0] ?? record;
  const id = need(first(grant, 'id', 'uid') || first(record, 'uid'), 'award number', 'grants[0].id', 'grants');
  const title = need(plain(grant.title), 'title', 'grants[0].title', 'grants');
  const agency = plain(grant.agency);
  const organization = plain(grant.organization);
  const amount = plain(grant.awardAmount);
  return compact({
    id: `grant-${id}`,
    type: 'report',
    genre: 'Grant',
    title,
    author: names([plain(grant.piName)].filter(Boolean)),
    number: id,
    publisher: agency,
    authority: plain(grant.branch),
    issued: cslDate(grant.awardStartDate) ?? cslDate(grant.awardNoticeDate),
    URL: webUrl(plain(grant.externalLink)),
    abstract: plain(grant.abstract),
    keyword: plainList(grant.researchKeywords).join(', '),
    note: [
      organization ? `Awarded to: ${organization}` : '',
      plain(grant.program) ? `Program: ${plain(grant.program)}` : '',
      amount ? `Award amount: ${amount}` : '',
      plain(grant.awardCloseDate) ? `Project end: ${plain(grant.awardCloseDate)}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    custom: {
      evidence: { dataset: 'grants', id, organization: organization || undefined, agency: agency || undefined },
    },
  });
}

function deviceItem(record: Obj): CslItem {
  const id = need(first(record, 'kNumber', 'id', 'uid'), '510(k) number', 'kNumber', 'device510k-summaries');
  const device = first(record, 'deviceName', 'device.deviceName');
  const applicant = first(record, 'applicant', 'device.applicant');
  const title = need(
    device ? `${device}: 510(k) premarket notification` : '',
    'device name',
    'deviceName',
    'device510k-summaries',
  );
  return compact({
    id: `device510k-${id}`,
    type: 'report',
    genre: '510(k) premarket notification',
    title,
    author: institution(applicant),
    number: id,
    publisher: FDA,
    issued:
      cslDate(first(record, 'decisionDate', 'device.decisionDate')) ??
      cslDate(first(record, 'dateReceived', 'device.dateReceived')),
    URL: webUrl(first(record, 'summaryUrl', 'externalLink')),
    note: [
      first(record, 'productCode') ? `Product code: ${first(record, 'productCode')}` : '',
      first(record, 'reviewPanel') ? `Review panel: ${first(record, 'reviewPanel')}` : '',
      first(record, 'decision') ? `Decision: ${first(record, 'decision')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    custom: { evidence: { dataset: 'device510k-summaries', id, applicant: applicant || undefined } },
  });
}

function faersItem(record: Obj): CslItem {
  const id = need(
    first(record, 'safety_report_id', 'safetyreportid', 'id'),
    'report number',
    'safety_report_id',
    'faers',
  );
  const drugs = uniq(
    objects(record.drugs)
      .map((d) => plain(d.medicinal_product) || plain(d.medicinalproduct))
      .filter(Boolean),
  );
  const reactions = uniq(
    objects(record.reactions)
      .map((r) => plain(r.reaction_meddra_pt) || plain(r.reactionmeddrapt))
      .filter(Boolean),
  );
  const about = [drugs.join(', '), reactions.join(', ')].filter(Boolean).join(' and ');
  return compact({
    id: `faers-${id}`,
    type: 'report',
    genre: 'FAERS adverse event report',
    title: about ? `Adverse event report ${id}: ${about}` : `Adverse event report ${id}`,
    author: institution(FDA),
    number: id,
    publisher: 'FDA Adverse Event Reporting System (FAERS)',
    issued: cslDate(first(record, 'receive_date', 'receivedate')),
    keyword: [...drugs, ...reactions].join(', '),
    note: [
      record.serious === true ? 'Serious' : record.serious === false ? 'Not serious' : '',
      first(record, 'reporter_country') ? `Reporter country: ${first(record, 'reporter_country')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    custom: { evidence: { dataset: 'faers', id } },
  });
}

function maudeItem(record: Obj): CslItem {
  const id = need(first(record, 'mdr_report_key', 'id', 'report_number'), 'report key', 'mdr_report_key', 'maude');
  const brand = first(record, 'brand_name', 'generic_name');
  const eventType = first(record, 'event_type');
  return compact({
    id: `maude-${id}`,
    type: 'report',
    genre: 'MAUDE medical device report',
    title: `Medical device report ${id}${brand ? `: ${brand}` : ''}${eventType ? ` (${eventType.toLowerCase()})` : ''}`,
    author: institution(FDA),
    number: id,
    publisher: 'Manufacturer and User Facility Device Experience (MAUDE) database',
    issued: cslDate(first(record, 'date_received', 'date_of_event')),
    abstract: first(record, 'narrative'),
    keyword: plainList(record.product_problems).join(', '),
    note: [
      first(record, 'manufacturer_name') ? `Manufacturer: ${first(record, 'manufacturer_name')}` : '',
      first(record, 'product_code') ? `Product code: ${first(record, 'product_code')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    custom: { evidence: { dataset: 'maude', id } },
  });
}

const MAPPERS: Record<EvidenceRecordDataset, (record: Obj) => CslItem> = {
  patents: patentItem,
  'clinical-trials': trialItem,
  grants: grantItem,
  'device510k-summaries': deviceItem,
  faers: faersItem,
  maude: maudeItem,
};

/**
 * A record as a CSL-JSON item: patent → "patent" (number, authority, inventors, assignees in the
 * note); trial → "report" (registry number, sponsor as author, the registry as publisher); grant →
 * "report" (award number, PI, agency); 510(k), FAERS and MAUDE → "report" with the FDA as publisher.
 * Throws EvidenceRecordError naming what is missing and where.
 */
export function evidenceToCsl(dataset: EvidenceRecordDataset, record: unknown): CslItem {
  if (!isObject(record)) throw new EvidenceRecordError(`The ${datasetNoun(dataset)} record is not an object.`, '');
  return MAPPERS[dataset](record);
}
