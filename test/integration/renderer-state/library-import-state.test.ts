// The import flow (renderer/src/lib/state/library-import.svelte.ts) in Node against a real in-process
// core: a file refused before it is read, a dry run then one transaction with each bad entry reported
// by its line, a preview closed before it answers, and adding DOIs with no service to ask.
import { describe, expect, it } from 'vitest';
import { ImportFlow, importable, MAX_IMPORT_CHARS } from '../../../renderer/src/lib/state/library-import.svelte';
import { coreForTests, enrichmentSettled, offlineCore } from './helpers';

const env = coreForTests(() => offlineCore('import'));

const GOOD_AND_BAD = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020, doi = {10.1234/alpha}}

@article{broken, title = {Never closed
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019}
`;

describe('ImportFlow against the core', () => {
  it('refuses a file over the text bound, read or unread, and an empty one', async () => {
    const flow = new ImportFlow(env.t.api);
    const tooLarge = (fileName: string) => ({
      step: 'failed',
      fileName,
      error: {
        code: 'INVALID_INPUT',
        message: `${fileName} holds more than the 64 MB of text the app imports at once. Split it and import the parts, or import it with citewise import.`,
      },
    });
    // Over 3 bytes a character: over the bound whatever it holds, refused before it is read.
    await flow.open(new File([new Uint8Array(3 * MAX_IMPORT_CHARS + 1)], 'huge.bib'));
    expect(flow.state).toEqual(tooLarge('huge.bib'));
    // One character a byte: read, then refused by its length.
    await flow.open(new File([new Uint8Array(MAX_IMPORT_CHARS + 1)], 'ascii.bib'));
    expect(flow.state).toEqual(tooLarge('ascii.bib'));
    // More bytes than the bound but fewer characters (two bytes each): the core reads it.
    await flow.open(new File(['é'.repeat(MAX_IMPORT_CHARS / 2 + 1)], 'accents.bib'));
    expect(flow.state.step).not.toBe('reading');
    expect(flow.state).not.toEqual(tooLarge('accents.bib'));
    await flow.open(new File(['  \n'], 'blank.bib'));
    expect(flow.state).toEqual({
      step: 'failed',
      fileName: 'blank.bib',
      error: { code: 'INVALID_INPUT', message: 'blank.bib is empty.' },
    });
  });

  it('previews, then imports the good entries in one go and reports the bad one by its line', async () => {
    const flow = new ImportFlow(env.t.api);
    await flow.open(new File([GOOD_AND_BAD], 'mixed.bib'));
    const preview = flow.state.step === 'preview' ? flow.state.preview : null;
    expect(preview?.errors.map((e) => e.line)).toEqual([3]);
    expect(importable(preview!)).toBe(preview!.entries - 1);
    const list = await env.t.api.invoke('library.list', { limit: 10 });
    expect(list.ok && list.value.rows).toEqual([]); // a dry run writes nothing

    const importing = flow.confirm();
    expect(flow.state.step).toBe('importing');
    await importing;
    expect(flow.state.step).toBe('report');
    const report = flow.state.step === 'report' ? flow.state.report : null;
    expect(report?.added).toBe(importable(preview!));
    expect(report?.errors.map((e) => e.line)).toEqual([3]);
    await flow.confirm(); // nothing to confirm any more: nothing is imported twice
    const again = await env.t.api.invoke('library.list', { limit: 10 });
    expect(again.ok && again.value.rows.length).toBe(report!.added);
  });

  it('stays closed when the preview answers after the dialog was closed', async () => {
    const flow = new ImportFlow(env.t.api);
    const reading = flow.openText(GOOD_AND_BAD, 'late.bib');
    flow.close();
    await reading;
    expect(flow.state).toEqual({ step: 'idle' });
    await flow.confirm();
    expect(flow.state).toEqual({ step: 'idle' });
  });

  it('asks for DOIs when none are pasted, and queues them when the service cannot be reached', async () => {
    const flow = new ImportFlow(env.t.api);
    await flow.addDois(' ,\n ');
    expect(flow.dois).toEqual({
      busy: false,
      report: null,
      error: { code: 'INVALID_INPUT', message: 'Paste one or more DOIs, such as 10.1038/nature12373.' },
    });
    const adding = flow.addDois('10.1234/alpha, doi:10.5555/NEW.ONE');
    expect(flow.dois.busy).toBe(true);
    await adding;
    expect(flow.dois.busy).toBe(false);
    expect(flow.dois.error).toBeNull();
    expect(flow.dois.report?.duplicates.map((d) => d.doi)).toEqual(['10.1234/alpha']);
    expect(flow.dois.report?.queued.map((q) => q.doi)).toEqual(['10.5555/new.one']);
    flow.resetDois();
    expect(flow.dois.report).toBeNull();
    await enrichmentSettled(env.t.api, 2); // the import's and the placeholder's enrichments, which pause offline
  });
});
