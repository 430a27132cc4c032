// Evidence records shaped as the service sends them: search results with highlighted values, and plain detail records.
export const hv = (name: string, highlighted = name) => ({
  id: name.toLowerCase().replace(/\W+/g, '-'),
  name,
  highlighted,
});

export const PATENT_FAMILY = {
  slug: 'method-x',
  familyId: '60000123',
  uid: hv('60000123'),
  dataset: 'patents',
  forwardCitationCount: hv('12'),
  familySize: hv('3'),
  id: '60000123',
  patentsTotal: 1,
  patents: [
    {
      slug: 'method-x',
      familyId: '60000123',
      title: hv(
        'Method and system for measuring soil moisture',
        'Method and system for measuring <strong class="highlight">soil</strong> moisture',
      ),
      abstract: hv('A method is disclosed.'),
      filingStatus: hv('granted'),
      tags: [hv('Soil science')],
      classifications: [
        { cpcSymbol: 'G01N33/24', position: 'F' },
        { cpcSymbol: 'A01G25/16', position: 'L' },
      ],
      inventors: [
        { name: 'OKAFOR NGOZI', normalizedName: 'Ngozi Okafor' },
        { name: 'VAN DER BERG JAN', normalizedName: 'Jan van der Berg' },
      ],
      assignees: [{ name: 'ACME AGRITECH', normalizedName: 'Acme Agritech', country: 'US', orgType: ['company'] }],
      applicants: [],
      appRef: { docId: 'US10234567', patentOffice: 'US', docNumber: '10234567', kind: 'A', filingDate: '2016-05-04' },
      publications: [
        {
          id: 'US-10234567-B2',
          pubRef: {
            country: 'US',
            docNumber: '10234567',
            kind: 'B2',
            year: 2019,
            date: '2019-03-05',
            name: 'US10234567B2',
          },
          externalLink: 'https://patents.example.org/patent/US10234567B2',
          backwardCitationCount: 14,
        },
      ],
    },
  ],
};

export const TRIAL = {
  id: hv('NCT01000037'),
  uid: hv('NCT01000037'),
  title: hv('Effect of Daily Aspirin on Stroke in Older Adults'),
  dataSource: hv('ClinicalTrials.gov'),
  registry: hv('clinicaltrials.gov'),
  hasResults: hv('Yes'),
  esId: 'NCT01000037',
  slug: 'effect-nct01000037',
  dataset: 'clinical-trials',
  externalLink: 'https://clinicaltrials.gov/study/NCT01000037',
  briefDescription: hv('Aspirin for stroke prevention in adults over 70.'),
  description: null,
  sponsors: [hv('Riverside University Hospital')],
  conditions: [hv('Stroke'), hv('Atrial fibrillation')],
  interventions: [hv('Drug: Aspirin')],
  tags: [],
  trialState: { status: 'Completed', phase: 'Phase 3' },
  dates: { startDate: '2015-04-02', completedDate: '2019-01-01', lastUpdatedDate: '2020-02-02' },
};

export const GRANT_DETAIL = {
  id: 'NIH-2000013',
  slug: 'mechanisms-nih-2000013',
  title: 'Mechanisms linking sleep to memory',
  abstract: 'This project will investigate sleep.',
  organization: 'Lagos University',
  country: 'US',
  state: 'MA',
  piName: 'Ada Lovelace',
  awardAmount: 250000,
  agency: 'National Institutes of Health',
  branch: 'NIMH',
  researchKeywords: ['sleep', 'memory'],
  dataSource: 'NIH RePORTER',
  phase: null,
  program: 'R01',
  tags: ['neuroscience'],
  awardStartDate: '2019-01-02',
  awardCloseDate: '2023-01-02',
  awardNoticeDate: '2018-12-01',
  externalLink: 'https://grants.example.org/award/NIH-2000013',
};

export const DEVICE_DETAIL = {
  id: 'K100017',
  kNumber: 'K100017',
  deviceName: 'Acme Infusion pump',
  applicant: 'Acme Medical',
  productCode: 'FRN',
  reviewPanel: 'General Hospital',
  decisionDate: '2019-02-02',
  dateReceived: '2018-11-02',
  decision: 'Substantially Equivalent (SESE)',
  summaryUrl: 'https://www.accessdata.fda.gov/cdrh_docs/pdf/K100017.pdf',
};

export const FAERS = {
  id: '10000031',
  safety_report_id: '10000031',
  receive_date: '2019-02-02',
  serious: true,
  reporter_country: 'US',
  drugs: [{ medicinal_product: 'WARFARIN', drug_characterization: 'Suspect' }, { medicinal_product: 'ASPIRIN' }],
  reactions: [{ reaction_meddra_pt: 'Haemorrhage' }],
};

export const MAUDE = {
  id: '15000023',
  mdr_report_key: '15000023',
  event_type: 'Malfunction',
  date_received: '2020-01-01',
  brand_name: 'Acme Infusion pump',
  manufacturer_name: 'Acme Medical',
  product_code: 'FRN',
  product_problems: ['Occlusion'],
  narrative: 'It was reported that the pump stopped.',
};
