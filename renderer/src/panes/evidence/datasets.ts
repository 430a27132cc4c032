// What the Evidence pane knows of each dataset: its name, the sort options the interface spec lists
// (the schema endpoint's `sortable` list replaces them when it answers), how to name a record, and
// the one-line summary of a record in the result list.
import {
  at,
  first,
  isObject,
  marked,
  objects,
  plain,
  plainList,
  type EvidenceRecordDataset,
} from '../../../../shared/model/evidence-records';

export type DatasetId = EvidenceRecordDataset;

export interface DatasetInfo {
  id: DatasetId;
  label: string;
  /** One record, in words ("patent family"), and more than one. */
  noun: string;
  plural: string;
  /** The sort fields known from the interface spec, _relevance first. */
  sorts: readonly string[];
  /** What a first search could look like, shown as the search field's placeholder. */
  example: string;
}

export const DATASETS: readonly DatasetInfo[] = [
  {
    id: 'patents',
    label: 'Patents',
    noun: 'patent family',
    plural: 'patent families',
    sorts: [
      '_relevance',
      'forwardCitationCount',
      'familySize',
      'patents.publications.pubRef.date',
      'patents.appRef.filingDate',
    ],
    example: 'battery AND (anode OR cathode) NOT lithium',
  },
  {
    id: 'clinical-trials',
    label: 'Clinical trials',
    noun: 'clinical trial',
    plural: 'clinical trials',
    sorts: ['_relevance', 'dates.startDate', 'dates.completedDate', 'dates.lastUpdatedDate'],
    example: '"atrial fibrillation" AND anticoagulation',
  },
  {
    id: 'grants',
    label: 'Grants',
    noun: 'grant',
    plural: 'grants',
    sorts: ['_relevance', 'awardStartDate', 'awardCloseDate', 'awardNoticeDate', 'awardAmount', 'employeeCount'],
    example: 'sleep AND memory',
  },
  {
    id: 'device510k-summaries',
    label: '510(k)',
    noun: '510(k) summary',
    plural: '510(k) summaries',
    sorts: ['_relevance'],
    example: '"infusion pump" AND software',
  },
  {
    id: 'faers',
    label: 'FAERS',
    noun: 'FAERS report',
    plural: 'FAERS reports',
    sorts: ['_relevance'],
    example: 'warfarin AND haemorrhage',
  },
  {
    id: 'maude',
    label: 'MAUDE',
    noun: 'MAUDE report',
    plural: 'MAUDE reports',
    sorts: ['_relevance'],
    example: 'pump AND occlusion',
  },
];

export function datasetInfo(id: DatasetId): DatasetInfo {
  return DATASETS.find((d) => d.id === id)!;
}

const SORT_LABELS: Record<string, string> = {
  _relevance: 'Relevance',
  forwardCitationCount: 'Forward citations',
  familySize: 'Family size',
  'patents.publications.pubRef.date': 'Publication date',
  'patents.appRef.filingDate': 'Filing date',
  'dates.startDate': 'Start date',
  'dates.completedDate': 'Completion date',
  'dates.lastUpdatedDate': 'Last updated',
  awardStartDate: 'Award start',
  awardCloseDate: 'Award end',
  awardNoticeDate: 'Award notice',
  awardAmount: 'Award amount',
  employeeCount: 'Employees',
};

/** A sort field in words: the known ones named, others from their camelCase or snake_case name. */
export function sortLabel(field: string): string {
  if (SORT_LABELS[field]) return SORT_LABELS[field];
  const last = field.split('.').pop()!;
  const words = last
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A filter field in words, for the builder's menu ("trialState.phase" → "Trial state: phase"). */
export function fieldLabel(field: string): string {
  const parts = field.split('.').map((p) =>
    p
      .replace(/\[\]$/, '')
      .replace(/_/g, ' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase(),
  );
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(' ')}: ${parts.at(-1)!}` : parts[0]!;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

type Rec = Record<string, unknown>;

/** The record's identifier within its dataset (used to fetch its detail and to remember it was saved). */
export function recordId(dataset: DatasetId, record: unknown): string {
  switch (dataset) {
    case 'patents':
      return first(record, 'familyId', 'id', 'uid');
    case 'clinical-trials':
      return first(record, 'uid', 'id', 'esId');
    case 'grants':
      return first(objects(at(record, 'grants'))[0], 'id') || first(record, 'uid');
    case 'device510k-summaries':
      return first(record, 'id', 'uid');
    case 'faers':
      return first(record, 'safety_report_id', 'id');
    case 'maude':
      return first(record, 'mdr_report_key', 'id');
  }
}

export interface RecordSummary {
  /** Markup (through SafeMarkup only). */
  title: string;
  /** Plain text facts: numbers, dates, names. */
  facts: string[];
  /** A passage: the service's highlighted markup (SafeMarkup), or plain text where the record has no highlights. */
  snippet: { kind: 'markup' | 'text'; value: string };
}

const short = (text: string, max = 320): string => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** What the result list shows of a record. Markup only ever comes from the service's highlighted values. */
export function summarize(dataset: DatasetId, record: unknown): RecordSummary {
  const r: Rec = isObject(record) ? record : {};
  switch (dataset) {
    case 'patents': {
      const p = objects(r.patents)[0] ?? {};
      const pub = objects(p.publications)[0] ?? {};
      const assignee = objects(p.assignees).map((a) => plain(a.normalizedName) || plain(a.name))[0] ?? '';
      return {
        title: marked(p.title) || `Patent family ${recordId(dataset, r)}`,
        facts: [
          first(pub, 'pubRef.name'),
          assignee,
          first(pub, 'pubRef.date') && `Published ${first(pub, 'pubRef.date')}`,
          plain(p.filingStatus),
          plain(r.familySize) && `Family of ${plain(r.familySize)}`,
          plain(r.forwardCitationCount) && `${plain(r.forwardCitationCount)} forward citations`,
        ].filter(Boolean),
        snippet: { kind: 'markup', value: marked(p.abstract) },
      };
    }
    case 'clinical-trials':
      return {
        title: marked(r.title) || recordId(dataset, r),
        facts: [
          recordId(dataset, r),
          first(r, 'trialState.status'),
          first(r, 'trialState.phase'),
          plainList(r.sponsors)[0] ?? '',
          first(r, 'dates.startDate') && `Started ${first(r, 'dates.startDate')}`,
          plain(r.hasResults) === 'Yes' ? 'Has results' : '',
        ].filter(Boolean),
        snippet: { kind: 'markup', value: marked(r.briefDescription) || marked(r.description) },
      };
    case 'grants': {
      const g = objects(r.grants)[0] ?? {};
      const amount = Number(plain(g.awardAmount));
      return {
        title: marked(g.title) || recordId(dataset, r),
        facts: [
          plain(g.id),
          plain(g.agency),
          plain(g.piName),
          plain(g.organization),
          Number.isFinite(amount) && plain(g.awardAmount) ? `$${amount.toLocaleString('en-US')}` : '',
          plain(g.awardStartDate) && `${plain(g.awardStartDate)} – ${plain(g.awardCloseDate)}`,
        ].filter(Boolean),
        snippet: { kind: 'markup', value: marked(g.abstract) },
      };
    }
    case 'device510k-summaries': {
      const a = objects(r.attachments)[0] ?? {};
      const tags = plainList(at(a, 'ontology.tags'));
      return {
        title: `${recordId(dataset, r)}: 510(k) summary`,
        facts: [
          plain(at(a, 'file.filename')) || plain(r.filename),
          ...tags,
          plain(a.pagesTotal) && `${plain(a.pagesTotal)} pages`,
        ].filter(Boolean),
        snippet: { kind: 'text', value: short(first(a, 'attachment.content')) },
      };
    }
    case 'faers': {
      const drugs = objects(r.drugs)
        .map((d) => plain(d.medicinal_product))
        .filter(Boolean);
      const reactions = objects(r.reactions)
        .map((x) => plain(x.reaction_meddra_pt))
        .filter(Boolean);
      return {
        title: `${drugs.join(', ') || 'Unnamed drug'}: ${reactions.join(', ') || 'no reaction given'}`,
        facts: [
          `Report ${recordId(dataset, r)}`,
          plain(r.receive_date) && `Received ${plain(r.receive_date)}`,
          r.serious === true ? 'Serious' : r.serious === false ? 'Not serious' : '',
          plain(r.patient_sex),
          plain(r.patient_age) && `${plain(r.patient_age)} ${plain(r.patient_age_unit).toLowerCase() || 'years'}`,
          plain(r.reporter_country),
        ].filter(Boolean),
        snippet: { kind: 'text', value: '' },
      };
    }
    case 'maude':
      return {
        title: `${first(r, 'brand_name', 'generic_name') || 'Device'}: ${first(r, 'event_type') || 'event'}`,
        facts: [
          `Report ${recordId(dataset, r)}`,
          plain(r.manufacturer_name),
          plain(r.date_received) && `Received ${plain(r.date_received)}`,
          ...plainList(r.product_problems),
        ].filter(Boolean),
        snippet: { kind: 'text', value: short(plain(r.narrative)) },
      };
  }
}
