// Evidence records → CSL-JSON: each dataset's mapping, from records shaped as the service sends them
// (highlighted values with markup, plain detail records), and how the citation styles then print them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../electron/core/formats/cite';
import {
  cslDate,
  evidenceToCsl,
  EvidenceRecordError,
  marked,
  personName,
  plain,
} from '../../../shared/model/evidence-records';
import { buildCslDir } from '../formats/cite/helpers';
import { DEVICE_DETAIL, FAERS, GRANT_DETAIL, hv, MAUDE, PATENT_FAMILY, TRIAL } from './fixtures';

describe('reading service values', () => {
  it('takes the plain name of a highlighted value, never its markup; the markup only for SafeMarkup', () => {
    const v = hv('Soil', '<strong class="highlight">Soil</strong>');
    expect(plain(v)).toBe('Soil');
    expect(marked(v)).toBe('<strong class="highlight">Soil</strong>');
    expect(plain(42)).toBe('42');
    expect(plain(null)).toBe('');
    expect(plain({ highlighted: '<b>x</b>' })).toBe('');
  });

  it('reads dates as far as they go, and epoch timestamps', () => {
    expect(cslDate('2019-03-05')).toEqual({ 'date-parts': [[2019, 3, 5]] });
    expect(cslDate('2019-13-05')).toEqual({ 'date-parts': [[2019]] });
    expect(cslDate(2019)).toEqual({ 'date-parts': [[2019]] });
    expect(cslDate(Date.UTC(2016, 4, 4))).toEqual({ 'date-parts': [[2016, 5, 4]] });
    expect(cslDate('unknown')).toBeUndefined();
  });

  it('splits personal names as registries write them, keeping particles with the family name', () => {
    expect(personName('Jan van der Berg')).toEqual({ family: 'van der Berg', given: 'Jan' });
    expect(personName('OKAFOR, NGOZI A')).toEqual({ family: 'Okafor', given: 'Ngozi A' });
    expect(personName('Lovelace, Ada')).toEqual({ family: 'Lovelace', given: 'Ada' });
    expect(personName('Cher')).toEqual({ literal: 'Cher' });
    expect(personName('  ')).toBeNull();
  });
});

describe('records as CSL items', () => {
  it('a patent family becomes a "patent" with number, authority, inventors, filing date and assignees', () => {
    const item = evidenceToCsl('patents', PATENT_FAMILY);
    expect(item).toMatchObject({
      type: 'patent',
      title: 'Method and system for measuring soil moisture',
      number: '10,234,567',
      authority: 'U.S.',
      publisher: 'U.S. Patent and Trademark Office',
      jurisdiction: 'US',
      author: [
        { family: 'Okafor', given: 'Ngozi' },
        { family: 'van der Berg', given: 'Jan' },
      ],
      issued: { 'date-parts': [[2019, 3, 5]] },
      submitted: { 'date-parts': [[2016, 5, 4]] },
      URL: 'https://patents.example.org/patent/US10234567B2',
      keyword: 'G01N33/24, A01G25/16',
      custom: {
        evidence: { dataset: 'patents', id: 'US10234567B2', familyId: '60000123', assignees: ['Acme Agritech'] },
      },
    });
    expect(item.note).toBe(
      'Publication: US10234567B2\nAssignee: Acme Agritech\nPatent family: 60000123\nStatus: granted',
    );
    expect(JSON.stringify(item)).not.toContain('<strong');
  });

  it('a clinical trial becomes a "report" with its registry number, sponsor and registry', () => {
    expect(evidenceToCsl('clinical-trials', TRIAL)).toMatchObject({
      type: 'report',
      genre: 'Clinical trial registration',
      title: 'Effect of Daily Aspirin on Stroke in Older Adults',
      number: 'NCT01000037',
      author: [{ literal: 'Riverside University Hospital' }],
      publisher: 'ClinicalTrials.gov',
      issued: { 'date-parts': [[2015, 4, 2]] },
      URL: 'https://clinicaltrials.gov/study/NCT01000037',
      abstract: 'Aspirin for stroke prevention in adults over 70.',
      keyword: 'Stroke, Atrial fibrillation',
      custom: {
        evidence: { dataset: 'clinical-trials', id: 'NCT01000037', sponsors: ['Riverside University Hospital'] },
      },
    });
  });

  it('a grant (detail record or search result) becomes a "report" with award number, PI and agency', () => {
    const fromDetail = evidenceToCsl('grants', GRANT_DETAIL);
    expect(fromDetail).toMatchObject({
      type: 'report',
      genre: 'Grant',
      number: 'NIH-2000013',
      author: [{ family: 'Lovelace', given: 'Ada' }],
      publisher: 'National Institutes of Health',
      authority: 'NIMH',
      issued: { 'date-parts': [[2019, 1, 2]] },
    });
    expect(fromDetail.note).toBe(
      'Awarded to: Lagos University\nProgram: R01\nAward amount: 250000\nProject end: 2023-01-02',
    );
    const wrapped = {
      slug: 's',
      dataset: 'grants',
      uid: 'NIH-2000013',
      grantsTotal: 1,
      grants: [
        Object.fromEntries(Object.entries(GRANT_DETAIL).map(([k, v]) => [k, typeof v === 'string' ? hv(v) : v])),
      ],
    };
    expect(evidenceToCsl('grants', wrapped)).toEqual(fromDetail);
  });

  it('a 510(k) device, a FAERS and a MAUDE report become "report"s published by the FDA', () => {
    expect(evidenceToCsl('device510k-summaries', DEVICE_DETAIL)).toMatchObject({
      type: 'report',
      genre: '510(k) premarket notification',
      number: 'K100017',
      title: 'Acme Infusion pump: 510(k) premarket notification',
      author: [{ literal: 'Acme Medical' }],
      publisher: 'U.S. Food and Drug Administration',
      issued: { 'date-parts': [[2019, 2, 2]] },
      URL: DEVICE_DETAIL.summaryUrl,
    });
    expect(evidenceToCsl('faers', FAERS)).toMatchObject({
      type: 'report',
      number: '10000031',
      title: 'Adverse event report 10000031: WARFARIN, ASPIRIN and Haemorrhage',
      author: [{ literal: 'U.S. Food and Drug Administration' }],
      issued: { 'date-parts': [[2019, 2, 2]] },
      keyword: 'WARFARIN, ASPIRIN, Haemorrhage',
    });
    expect(evidenceToCsl('maude', MAUDE)).toMatchObject({
      type: 'report',
      number: '15000023',
      title: 'Medical device report 15000023: Acme Infusion pump (malfunction)',
      abstract: MAUDE.narrative,
      issued: { 'date-parts': [[2020, 1, 1]] },
    });
  });

  it('leaves out what a record does not have instead of writing empty fields', () => {
    const item = evidenceToCsl('clinical-trials', { uid: 'NCT1', title: 'Bare trial' });
    expect(item).toEqual({
      id: 'trial-NCT1',
      type: 'report',
      genre: 'Clinical trial registration',
      title: 'Bare trial',
      number: 'NCT1',
      custom: { evidence: { dataset: 'clinical-trials', id: 'NCT1', sponsors: [] } },
    });
  });

  it.each([
    ['patents', { patents: [{ title: '' }] }, /patent record has no title \(patents\[0\]\.title\)/],
    ['patents', { patents: [{ title: 'T', publications: [] }] }, /no publication number/],
    ['clinical-trials', { title: 'T' }, /clinical trial record has no registry number \(uid\)/],
    ['grants', { grants: [{ id: 'G1' }] }, /grant record has no title/],
    ['device510k-summaries', { id: 'K1' }, /510\(k\) device record has no device name \(deviceName\)/],
    ['faers', { drugs: [] }, /FAERS report record has no report number/],
    ['maude', {}, /MAUDE report record has no report key/],
  ] as const)(
    'refuses a %s record without what a citation needs, saying what and where',
    (dataset, record, message) => {
      expect(() => evidenceToCsl(dataset, record)).toThrow(EvidenceRecordError);
      expect(() => evidenceToCsl(dataset, record)).toThrow(message);
    },
  );

  it('refuses a record that is not an object', () => {
    expect(() => evidenceToCsl('grants', [1, 2])).toThrow(/not an object/);
  });
});

describe('as the citation styles print them', () => {
  let f: CiteFormatter;
  beforeAll(() => {
    f = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
  });
  afterAll(async () => {
    await f.close();
  });

  // Titles are printed as the registries write them (citeproc does not sentence-case).
  it('apa: "U.S. Patent No.", the trial registration number, the grant number, the FDA as publisher', async () => {
    const items = [
      evidenceToCsl('patents', PATENT_FAMILY),
      evidenceToCsl('clinical-trials', TRIAL),
      evidenceToCsl('grants', GRANT_DETAIL),
      evidenceToCsl('device510k-summaries', DEVICE_DETAIL),
    ];
    const bib = await f.formatBibliography(items, { style: 'apa' });
    expect(bib.entries.map((e) => e.value)).toEqual([
      'Acme Medical. (2019). Acme Infusion pump: 510(k) premarket notification (510(k) Premarket Notification No. K100017). U.S. Food and Drug Administration. https://www.accessdata.fda.gov/cdrh_docs/pdf/K100017.pdf',
      'Lovelace, A. (2019). Mechanisms linking sleep to memory (Grant No. NIH-2000013). National Institutes of Health. https://grants.example.org/award/NIH-2000013',
      'Okafor, N., & van der Berg, J. (2019). Method and system for measuring soil moisture (U.S. Patent No. 10,234,567). U.S. Patent and Trademark Office. https://patents.example.org/patent/US10234567B2',
      'Riverside University Hospital. (2015). Effect of Daily Aspirin on Stroke in Older Adults (Clinical Trial Registration No. NCT01000037). ClinicalTrials.gov. https://clinicaltrials.gov/study/NCT01000037',
    ]);
  });
});
