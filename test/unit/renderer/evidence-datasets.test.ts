// What the Evidence pane's result list shows of each dataset's records, and which text may carry markup.
import { describe, expect, it } from 'vitest';
import { DATASETS, fieldLabel, recordId, sortLabel, summarize } from '../../../renderer/src/panes/evidence/datasets';
import { FAERS, hv, MAUDE, PATENT_FAMILY, TRIAL } from '../evidence/fixtures';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe('result summaries', () => {
  it('patents: the highlighted title and abstract as markup, the facts as text', () => {
    const s = summarize('patents', PATENT_FAMILY);
    expect(s.title).toBe('Method and system for measuring <strong class="highlight">soil</strong> moisture');
    expect(s.facts).toEqual([
      'US10234567B2',
      'Acme Agritech',
      'Published 2019-03-05',
      'granted',
      'Family of 3',
      '12 forward citations',
    ]);
    expect(s.snippet).toEqual({ kind: 'markup', value: 'A method is disclosed.' });
    expect(recordId('patents', PATENT_FAMILY)).toBe('60000123');
  });

  it('trials: registry number, status, phase, sponsor and start as facts', () => {
    const s = summarize('clinical-trials', TRIAL);
    expect(s.facts).toEqual([
      'NCT01000037',
      'Completed',
      'Phase 3',
      'Riverside University Hospital',
      'Started 2015-04-02',
      'Has results',
    ]);
    expect(recordId('clinical-trials', TRIAL)).toBe('NCT01000037');
  });

  it('grants: the award number comes from the grant inside the result', () => {
    const record = {
      uid: 'G-1',
      grants: [{ id: hv('G-1'), title: hv('T'), awardAmount: hv('250000'), agency: hv('NIH') }],
    };
    expect(recordId('grants', record)).toBe('G-1');
    expect(summarize('grants', record).facts).toEqual(['G-1', 'NIH', '$250,000']);
  });

  it('FAERS and MAUDE records have no highlights: their text is never treated as markup', () => {
    const faers = summarize('faers', { ...FAERS, drugs: [{ medicinal_product: HOSTILE }] });
    expect(faers.title).toBe(`${HOSTILE}: Haemorrhage`);
    const maude = summarize('maude', { ...MAUDE, narrative: HOSTILE });
    expect(maude.snippet).toEqual({ kind: 'text', value: HOSTILE });
    expect(
      summarize('device510k-summaries', { id: 'K1', attachments: [{ attachment: { content: HOSTILE } }] }).snippet,
    ).toEqual({ kind: 'text', value: HOSTILE });
    expect(recordId('faers', FAERS)).toBe('10000031');
    expect(recordId('maude', MAUDE)).toBe('15000023');
  });

  it('reads a record that is not an object as an empty one', () => {
    for (const d of DATASETS) expect(() => summarize(d.id, null)).not.toThrow();
  });
});

describe('labels', () => {
  it('names sort and filter fields in words', () => {
    expect(sortLabel('_relevance')).toBe('Relevance');
    expect(sortLabel('patents.appRef.filingDate')).toBe('Filing date');
    expect(sortLabel('receive_date')).toBe('Receive date');
    expect(sortLabel('decisionDate')).toBe('Decision date');
    expect(fieldLabel('trialState.phase')).toBe('Trial state: phase');
    expect(fieldLabel('assignees.normalizedName')).toBe('Assignees: normalized name');
    expect(fieldLabel('event_type')).toBe('Event type');
  });
});
