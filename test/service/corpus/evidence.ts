// Evidence datasets: patents, clinical trials, grants, 510(k) summaries, FAERS and MAUDE reports.
// Each record is stored as one JSON document with plain values plus a text column for full-text search
// and numeric sort columns; values are wrapped as highlighted values when served.
import type Database from 'better-sqlite3';
import { base62, rngFor, slugify, type Rng } from './rng';
import { KIND, topicFor, type Topic } from './text';
import {
  FIELDS,
  COUNTRIES,
  COMPANIES,
  AGENCIES,
  US_STATES,
  DEVICE_TYPES,
  DRUGS,
  REACTIONS,
  MAUDE_PROBLEMS,
  GIVEN_NAMES,
  FAMILY_NAMES,
  AFFILIATIONS,
} from './vocab';

export const DATASETS = ['patents', 'clinical-trials', 'grants', 'device510k-summaries', 'faers', 'maude'] as const;
export type Dataset = (typeof DATASETS)[number];

/** Sort columns (sort1..sort5) per dataset, by the `s` values that select them. */
export const SORT_COLUMNS: Record<Dataset, readonly string[]> = {
  patents: ['forwardCitationCount', 'familySize', 'patents.publications.pubRef.date', 'patents.appRef.filingDate'],
  'clinical-trials': ['dates.startDate', 'dates.completedDate', 'dates.lastUpdatedDate'],
  grants: ['awardStartDate', 'awardCloseDate', 'awardNoticeDate', 'awardAmount', 'employeeCount'],
  'device510k-summaries': ['decisionDate', 'receivedDate', 'pagesTotal'],
  faers: ['receive_date', 'patient_age'],
  maude: ['date_received', 'date_of_event'],
};

const cap = (s: string): string => s[0]!.toUpperCase() + s.slice(1);
const day = (r: Rng, y0: number, y1: number): string =>
  `${r.int(y0, y1)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
const epochDays = (date: string | null): number | null => (date ? Math.floor(Date.parse(date) / 86_400_000) : null);
const person = (r: Rng): string => `${r.pick(GIVEN_NAMES)} ${r.pick(FAMILY_NAMES)}`;

type Doc = Record<string, unknown>;
interface Row {
  id: string;
  doc: Doc;
  text: string;
  sorts: Array<number | null>;
  filters: Record<string, Array<string | number | boolean | null | undefined>>;
}

function patent(seed: number, n: number): Row {
  const r = rngFor(seed, KIND.evidence + 10, n);
  const t: Topic = topicFor(seed, 900000 + n, r.int(0, FIELDS.length - 1));
  const country = r.pick(['US', 'EP', 'WO', 'CN', 'JP', 'KR']);
  const familyId = String(60000000 + n * 7 + r.int(0, 6));
  const docNumber = String(r.int(9000000, 11999999));
  const kind = r.pick(['B1', 'B2', 'A1', 'A2']);
  const filingDate = day(r, 2004, 2022);
  const pubDate = `${Number(filingDate.slice(0, 4)) + r.int(1, 3)}${filingDate.slice(4)}`;
  const title = r.pick([
    `Method and system for measuring ${t.subject} using ${t.method}`,
    `Compositions comprising ${t.factor} for improving ${t.outcome}`,
    `Apparatus for monitoring ${t.outcome} based on ${t.mechanism}`,
    `Use of ${t.factor} in the treatment of conditions associated with ${t.subject}`,
  ]);
  const abstract = `${cap(title)} is disclosed. The invention relates to ${t.subject} and, in particular, to ${t.factor}. ${cap(t.method)} is applied to obtain ${t.outcome} with improved accuracy, wherein ${t.mechanism} is modulated.`;
  const company = r.pick(COMPANIES);
  const org = {
    name: company.toUpperCase(),
    normalizedName: company,
    country: r.pick(COUNTRIES),
    orgType: ['company'],
  };
  const inventors = Array.from({ length: r.int(1, 4) }, () => {
    const name = person(r);
    return { name: name.toUpperCase(), normalizedName: name };
  });
  const classifications = Array.from({ length: r.int(1, 4) }, (_, i) => ({
    cpcSymbol: `${r.pick(['A61K', 'G06N', 'H01M', 'G01N', 'C12N', 'A61B'])}${r.int(1, 49)}/${r.int(10, 99)}`,
    position: i === 0 ? 'F' : 'L',
  }));
  const appRef = {
    docId: `${country}${docNumber}`,
    patentOffice: country,
    docNumber,
    kind: 'A',
    filingDate,
    epodoc: { docNumber: `${country}${docNumber}`, kind: 'A' },
    original: { docNumber, kind: 'A' },
    name: `${country} ${docNumber}`,
  };
  const pubRef = {
    country,
    docNumber,
    kind,
    year: Number(pubDate.slice(0, 4)),
    date: pubDate,
    epodoc: { docNumber: `${country}${docNumber}`, kind },
    original: { docNumber, kind },
    name: `${country}${docNumber}${kind}`,
  };
  const id = `${country}-${docNumber}-${kind}`;
  const forwardCitationCount = Math.floor(r.pareto(1.3) * 3) - 3 + r.int(0, 3);
  const familySize = r.int(1, 14);
  const patentDoc = {
    slug: `${slugify(title, 8)}-${base62(r, 6)}`,
    familyId,
    title,
    abstract,
    filingStatus: r.pick(['granted', 'pending', 'expired']),
    tags: [t.field.topic, t.subject],
    classifications,
    inventors,
    assignees: [org],
    applicants: [org],
    appRef,
    publications: [
      {
        ids: [id],
        docId: id,
        familyId,
        filingStatus: 'granted',
        pubRef,
        appRef,
        inventors,
        assignees: [org],
        applicants: [org],
        classifications,
        priorityClaims: [
          { country, docNumber: String(r.int(60000000, 69999999)), year: Number(filingDate.slice(0, 4)) - 1 },
        ],
        id,
        usptoPath: country === 'US' ? `/patents/${docNumber}` : null,
        externalLink: `https://patents.example.org/patent/${country}${docNumber}${kind}`,
        backwardCitationCount: r.int(3, 80),
        compounds:
          t.field.stats === 'clinical'
            ? [
                {
                  compoundComplexity: r.int(100, 900),
                  exactMatch: r.chance(0.5),
                  logPXlogp3Aa: Number((r.next() * 5).toFixed(1)),
                  massExact: Number((200 + r.next() * 500).toFixed(3)),
                  molecularWeight: Number((200 + r.next() * 500).toFixed(2)),
                },
              ]
            : [],
      },
    ],
    languages: ['en'],
    id,
    legalEvents: {},
  };
  const doc = {
    slug: patentDoc.slug,
    familyId,
    uid: familyId,
    dataset: 'patents',
    forwardCitationCount,
    familySize,
    id: familyId,
    patentsTotal: 1,
    patents: [patentDoc],
  };
  return {
    id: familyId,
    doc,
    text: `${title} ${abstract} ${company} ${inventors.map((i) => i.normalizedName).join(' ')} ${t.field.topic}`,
    sorts: [forwardCitationCount, familySize, epochDays(pubDate), epochDays(filingDate), null],
    filters: {
      country: [country],
      filingStatus: [patentDoc.filingStatus],
      'assignees.normalizedName': [company],
      'inventors.normalizedName': inventors.map((i) => i.normalizedName),
      'classifications.cpcSymbol': classifications.map((c) => c.cpcSymbol),
      tags: patentDoc.tags,
      kind: [kind],
    },
  };
}

function trial(seed: number, n: number): Row {
  const r = rngFor(seed, KIND.evidence + 11, n);
  const fi = r.pick([1, 2, 0]);
  const t = topicFor(seed, 800000 + n, fi);
  const nct = `NCT0${String(1000000 + n * 37 + r.int(0, 36)).padStart(7, '0')}`;
  const drug = r.pick(DRUGS);
  const phase = r.pick(['Phase 1', 'Phase 2', 'Phase 3', 'Phase 4']);
  const title = r.pick([
    `A ${phase} Study of ${cap(drug.toLowerCase())} in ${cap(t.population)}`,
    `Effect of ${t.factor} on ${t.outcome} in ${t.population}`,
    `${cap(t.factor)} Versus Standard Care for ${cap(t.subject)}: a Randomized Trial`,
  ]);
  const start = day(r, 2005, 2021);
  const completed = r.chance(0.75)
    ? day(r, Number(start.slice(0, 4)) + 1, Math.min(2025, Number(start.slice(0, 4)) + 6))
    : null;
  const status = completed
    ? r.pick(['Completed', 'Completed', 'Terminated'])
    : r.pick(['Recruiting', 'Active, not recruiting']);
  const hasResults = completed !== null && r.chance(0.6);
  const groups = [
    {
      groupId: 'EG000',
      title: cap(drug.toLowerCase()),
      description: `Participants received ${drug.toLowerCase()} once daily.`,
    },
    { groupId: 'EG001', title: 'Placebo', description: 'Participants received matching placebo.' },
  ];
  const atRisk = [r.int(60, 600), r.int(60, 600)];
  const events = REACTIONS.slice(r.int(0, 5), r.int(7, 13))
    .map((term, k) => ({
      eventType: k < 2 ? 'serious' : 'other',
      category: r.pick([
        'Gastrointestinal disorders',
        'Nervous system disorders',
        'Cardiac disorders',
        'General disorders',
      ]),
      subtitleDisplay: term,
      subtitle: term,
      assessmentMethod: 'Systematic Assessment',
      description: `${term} (MedDRA preferred term)`,
      counts: groups.map((g, gi) => {
        const affected = r.int(0, Math.floor(atRisk[gi]! / 5));
        return {
          groupId: g.groupId,
          events: affected + r.int(0, 5),
          subjectsAffected: affected,
          subjectsAtRisk: atRisk[gi]!,
        };
      }),
    }))
    .map((e) => ({ ...e, subtitleTotal: e.counts.reduce((n, c) => n + c.events, 0) }));
  const description = `This ${phase.toLowerCase()} trial evaluates whether ${t.factor} improves ${t.outcome} in ${t.population}. The primary endpoint is ${t.outcome}; secondary endpoints include ${t.subject} and safety.`;
  const sponsor = r.chance(0.6) ? r.pick(COMPANIES) : r.pick(AFFILIATIONS);
  const doc = {
    id: nct,
    title,
    uid: nct,
    dataSource: 'ClinicalTrials.gov',
    registry: 'clinicaltrials.gov',
    hasResults: hasResults ? 'Yes' : 'No',
    esId: nct,
    slug: `${slugify(title, 8)}-${nct.toLowerCase()}`,
    dataset: 'clinical-trials',
    externalLink: `https://clinicaltrials.gov/study/${nct}`,
    briefDescription: `${cap(t.factor)} for ${t.subject} in ${t.population}.`,
    description: r.chance(0.85) ? description : null,
    sponsors: [sponsor],
    conditions: [cap(t.subject)],
    interventions: [`Drug: ${drug}`, 'Other: Placebo'],
    tags: [t.field.topic, phase],
    pi: { name: person(r), affiliation: r.pick(AFFILIATIONS) },
    trialState: { status, phase, studyType: 'Interventional' },
    eligibility: {
      sex: r.pick(['All', 'Female', 'Male']),
      minimumAge: `${r.int(18, 40)} Years`,
      maximumAge: r.chance(0.5) ? `${r.int(60, 85)} Years` : null,
      healthyVolunteers: false,
    },
    enrollment: { count: atRisk[0]! + atRisk[1]!, type: completed ? 'Actual' : 'Anticipated' },
    dates: {
      startDate: start,
      completedDate: completed,
      lastUpdatedDate: day(r, Math.max(Number(start.slice(0, 4)), 2019), 2025),
    },
    publicationsMetadata: { count: 0 },
    citations: [],
    reportedEvents: hasResults
      ? {
          timeFrame: `Up to ${r.int(12, 60)} months`,
          eventsDescription: 'Adverse events were collected at every visit.',
          groupList: groups,
          seriousVocab: ['MedDRA 25.0'],
          seriousDefaultAssessment: 'Systematic Assessment',
          otherVocab: ['MedDRA 25.0'],
          otherDefaultAssessment: 'Systematic Assessment',
          events,
        }
      : null,
  };
  const d = doc.dates;
  return {
    id: nct,
    doc,
    text: `${title} ${description} ${drug} ${sponsor} ${t.subject}`,
    sorts: [epochDays(d.startDate), epochDays(d.completedDate), epochDays(d.lastUpdatedDate), null, null],
    filters: {
      'trialState.status': [status],
      'trialState.phase': [phase],
      sponsors: doc.sponsors,
      conditions: doc.conditions,
      interventions: doc.interventions,
      hasResults: [doc.hasResults],
      registry: [doc.registry],
      tags: doc.tags,
    },
  };
}

function grant(seed: number, n: number): Row {
  const r = rngFor(seed, KIND.evidence + 12, n);
  const t = topicFor(seed, 700000 + n, r.int(0, FIELDS.length - 1));
  const [agency, branch, program] = r.pick(AGENCIES);
  const id = `${agency
    .split(' ')
    .map((w) => w[0])
    .join('')}-${String(2000000 + n * 13 + r.int(0, 12))}`;
  const title = r.pick([
    `Mechanisms linking ${t.factor} to ${t.subject}`,
    `${cap(t.method)} to understand ${t.mechanism}`,
    `Improving ${t.outcome} in ${t.population} through ${t.factor}`,
  ]);
  const startDate = day(r, 2008, 2024);
  const closeDate = `${Number(startDate.slice(0, 4)) + r.int(1, 5)}${startDate.slice(4)}`;
  const amount = Math.round(r.pareto(1.2) * 150000);
  const organization = agency.startsWith('Small') ? r.pick(COMPANIES) : r.pick(AFFILIATIONS);
  const abstract = r.chance(0.85)
    ? `This project will investigate ${t.subject} in ${t.population}. Using ${t.method}, we will test whether ${t.factor} affects ${t.outcome} via ${t.mechanism}.`
    : null;
  const g = {
    id,
    slug: `${slugify(title, 8)}-${id.toLowerCase()}`,
    title,
    abstract,
    organization,
    country: 'US',
    state: r.pick(US_STATES),
    piName: person(r),
    awardAmount: amount,
    agency,
    branch,
    researchKeywords: [t.subject, t.method, t.field.topic],
    dataSource: agency === 'European Research Council' ? 'CORDIS' : 'NIH RePORTER',
    phase: agency.startsWith('Small') ? r.pick(['Phase I', 'Phase II']) : null,
    program,
    tags: [t.field.topic],
    awardStartDate: startDate,
    awardCloseDate: closeDate,
    awardNoticeDate: startDate,
    externalLink: `https://grants.example.org/award/${id}`,
    employeeCount: agency.startsWith('Small') ? r.int(3, 450) : null,
  };
  const doc = { slug: g.slug, dataset: 'grants', uid: id, grantsTotal: 1, grants: [g] };
  return {
    id,
    doc,
    text: `${title} ${abstract ?? ''} ${organization} ${g.piName} ${agency} ${branch}`,
    sorts: [epochDays(startDate), epochDays(closeDate), epochDays(startDate), amount, g.employeeCount],
    filters: {
      country: [g.country],
      state: [g.state],
      agency: [agency],
      branch: [branch],
      program: [program],
      phase: [g.phase],
      organization: [organization],
      piName: [g.piName],
      dataSource: [g.dataSource],
      researchKeywords: g.researchKeywords,
    },
  };
}

function device510k(seed: number, n: number): Row {
  const r = rngFor(seed, KIND.evidence + 13, n);
  const [device, productCode, panel] = r.pick(DEVICE_TYPES);
  const k = `K${String(100000 + n * 17 + r.int(0, 16)).slice(-6)}`;
  const company = r.pick(COMPANIES);
  const received = day(r, 2010, 2024);
  const decision = `${received.slice(0, 4)}-${String(Math.min(12, Number(received.slice(5, 7)) + r.int(1, 5))).padStart(2, '0')}-${received.slice(8)}`;
  const pagesTotal = r.int(3, 14);
  const filename = `${k}.pdf`;
  const pageTexts = Array.from({ length: pagesTotal }, (_, i) =>
    i === 0
      ? `510(k) Summary. Submitter: ${company}. Device trade name: ${company.split(' ')[0]} ${device}. Classification panel: ${panel}. Product code: ${productCode}.`
      : r.pick([
          `Performance testing demonstrated that the ${device.toLowerCase()} is substantially equivalent to the predicate device.`,
          `Biocompatibility was evaluated according to ISO 10993-1. Electrical safety testing followed IEC 60601-1.`,
          `Software verification and validation were performed in accordance with FDA guidance for device software functions.`,
          `Indications for use: the ${device.toLowerCase()} is intended for use by healthcare professionals in clinical settings.`,
        ]),
  );
  const attachmentId = `${k}-att-1`;
  const pages = pageTexts.map((_, i) => ({
    slug: `${k.toLowerCase()}-page-${i + 1}`,
    id: `${attachmentId}-p${i + 1}`,
    pageIndex: i,
    attachment: attachmentId,
  }));
  const doc = {
    id: k,
    slug: `${slugify(device, 6)}-${k.toLowerCase()}`,
    dataset: 'device510k-summaries',
    uid: k,
    type: '510k-summary',
    filename,
    attachmentsTotal: 1,
    attachments: [
      {
        slug: `${k.toLowerCase()}-summary`,
        id: attachmentId,
        path: `/510k/${received.slice(0, 4)}/${filename}`,
        origin: 'fda.gov',
        pagesTotal,
        pageCount: pagesTotal,
        pages,
        ontology: { tags: [panel, productCode], categories: ['510(k) summary'] },
        file: {
          filename,
          fileSize: String(40000 + pagesTotal * r.int(20000, 60000)),
          mimeType: 'application/pdf',
          isDuplicate: 'false',
          createdAt: `${decision}T00:00:00Z`,
          modifiedAt: `${decision}T00:00:00Z`,
        },
        attachment: { content: pageTexts.join('\n\n'), contentType: 'application/pdf' },
      },
    ],
    device: {
      kNumber: k,
      deviceName: `${company.split(' ')[0]} ${device}`,
      applicant: company,
      productCode,
      reviewPanel: panel,
      decisionDate: decision,
      dateReceived: received,
      decision: 'Substantially Equivalent (SESE)',
      clearanceType: r.pick(['Traditional', 'Special', 'Abbreviated']),
    },
  };
  return {
    id: k,
    doc,
    text: `${device} ${company} ${panel} ${productCode} ${pageTexts.join(' ')}`,
    sorts: [epochDays(decision), epochDays(received), pagesTotal, null, null],
    filters: {
      'device.productCode': [productCode],
      'device.reviewPanel': [panel],
      'device.applicant': [company],
      'device.decision': [doc.device.decision],
      'device.clearanceType': [doc.device.clearanceType],
      'ontology.tags': [panel, productCode],
    },
  };
}

function faers(seed: number, n: number): Row {
  const r = rngFor(seed, KIND.evidence + 14, n);
  const id = String(10000000 + n * 31 + r.int(0, 30));
  const drugs = r.sample(DRUGS, r.int(1, 3));
  const reactions = r.sample(REACTIONS, r.int(1, 3));
  const receiveDate = day(r, 2012, 2025);
  const age = r.int(18, 92);
  const serious = r.chance(0.6);
  const doc = {
    id,
    safety_report_id: id,
    receive_date: receiveDate,
    serious,
    seriousness_death: serious && r.chance(0.08),
    seriousness_hospitalization: serious && r.chance(0.5),
    reporter_country: r.pick(COUNTRIES),
    reporter_qualification: r.pick(['Physician', 'Pharmacist', 'Consumer', 'Other health professional']),
    patient_age: age,
    patient_age_unit: 'Years',
    patient_sex: r.pick(['Female', 'Male']),
    patient_weight_kg: r.int(45, 120),
    drugs: drugs.map((d, i) => ({
      medicinal_product: d,
      drug_characterization: i === 0 ? 'Suspect' : 'Concomitant',
      drug_indication: r.pick([
        'Hypertension',
        'Type 2 diabetes mellitus',
        'Depression',
        'Non-small cell lung cancer',
        'Atrial fibrillation',
      ]),
      route: r.pick(['Oral', 'Intravenous', 'Subcutaneous']),
    })),
    reactions: reactions.map((term) => ({
      reaction_meddra_pt: term,
      reaction_outcome: r.pick(['Recovered', 'Recovering', 'Not recovered', 'Unknown']),
    })),
  };
  return {
    id,
    doc,
    text: `${drugs.join(' ')} ${reactions.join(' ')} ${doc.drugs.map((d) => d.drug_indication).join(' ')}`,
    sorts: [epochDays(receiveDate), age, null, null, null],
    filters: {
      reporter_country: [doc.reporter_country],
      serious: [serious],
      patient_sex: [doc.patient_sex],
      medicinal_product: drugs,
      reaction: reactions,
      reporter_qualification: [doc.reporter_qualification],
    },
  };
}

function maude(seed: number, n: number): Row {
  const r = rngFor(seed, KIND.evidence + 15, n);
  const id = String(15000000 + n * 23 + r.int(0, 22));
  const [device, productCode, panel] = r.pick(DEVICE_TYPES);
  const company = r.pick(COMPANIES);
  const eventType = r.weighted(['Malfunction', 'Injury', 'Death'], [70, 27, 3]);
  const problems = r.sample(MAUDE_PROBLEMS, r.int(1, 2));
  const eventDate = day(r, 2012, 2025);
  const narrative = `It was reported that the ${device.toLowerCase()} exhibited ${problems.join(' and ').toLowerCase()} during use. ${eventType === 'Malfunction' ? 'No patient harm was reported.' : 'The patient required medical intervention.'} The manufacturer's investigation is ongoing.`;
  const doc = {
    id,
    mdr_report_key: id,
    event_type: eventType,
    date_received: eventDate,
    date_of_event: eventDate,
    report_source_code: r.pick(['Manufacturer report', 'Voluntary report', 'User facility report']),
    brand_name: `${company.split(' ')[0]} ${device}`,
    generic_name: device,
    manufacturer_name: company,
    product_code: productCode,
    device_class: r.pick(['II', 'III']),
    review_panel: panel,
    product_problems: problems,
    narrative,
  };
  return {
    id,
    doc,
    text: `${device} ${company} ${eventType} ${problems.join(' ')} ${narrative}`,
    sorts: [epochDays(eventDate), epochDays(eventDate), null, null, null],
    filters: {
      event_type: [eventType],
      manufacturer_name: [company],
      product_code: [productCode],
      device_class: [doc.device_class],
      review_panel: [panel],
      product_problems: problems,
      report_source_code: [doc.report_source_code],
      brand_name: [doc.brand_name],
      generic_name: [device],
    },
  };
}

const BUILDERS: Record<Dataset, (seed: number, n: number) => Row> = {
  patents: patent,
  'clinical-trials': trial,
  grants: grant,
  'device510k-summaries': device510k,
  faers,
  maude,
};

export function evidenceCount(papers: number): number {
  return Math.max(200, Math.min(10000, Math.round(papers / 10)));
}

export function generateEvidence(db: Database.Database, options: { seed: number; papers: number }): void {
  const count = evidenceCount(options.papers);
  const ins = db.prepare(
    'INSERT INTO evidence (dataset, id, seq, doc, text, sort1, sort2, sort3, sort4, sort5) VALUES (?,?,?,?,?,?,?,?,?,?)',
  );
  const insField = db.prepare('INSERT INTO evidence_fields (dataset, field, value, display, rid) VALUES (?,?,?,?,?)');
  db.transaction(() => {
    for (const dataset of DATASETS) {
      const seen = new Set<string>();
      for (let n = 0; n < count; n++) {
        const row = BUILDERS[dataset](options.seed, n);
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        const rid = Number(
          ins.run(dataset, row.id, n, JSON.stringify(row.doc), row.text, ...row.sorts).lastInsertRowid,
        );
        for (const [field, values] of Object.entries(row.filters)) {
          for (const v of new Set(values))
            if (v !== null && v !== undefined) insField.run(dataset, field, String(v).toLowerCase(), String(v), rid);
        }
      }
    }
  })();
}
