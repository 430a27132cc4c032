// The import flow (renderer/src/lib/state/library-import.svelte.ts) in Node against a real in-process
// core: a file refused before it is read, a dry run then one transaction with each bad entry reported
// by its line, a preview closed before it answers, and adding DOIs with no service to ask.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { ImportFlow, importable, MAX_IMPORT_CHARS } from '../../../renderer/src/lib/state/library-import.svelte';
import { MAX_IDENTIFIER_INPUT_CHARS, MAX_IDENTIFIERS_PER_CALL } from '../../../shared/model/add-by-identifier';
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

  it('attaches the PDFs a .bib names, asking where its relative paths start, and refusing a folder that is not one', async () => {
    const dir = tempDir('citewise-import-files-');
    try {
      mkdirSync(join(dir.path, 'pdfs'));
      writeFileSync(join(dir.path, 'pdfs', 'a.pdf'), await makePdf({ title: 'Attached', pages: [['Axolotls.']] }));
      const bib = [
        '@article{files1, title = {With a file}, year = 2021, file = {:pdfs/a.pdf:PDF;:pdfs/missing.pdf:PDF}}',
        `@article{files2, title = {Absolute}, year = 2021, file = {${join(dir.path, 'pdfs', 'a.pdf')}}}`,
      ].join('\n');
      const flow = new ImportFlow(env.t.api);
      await flow.openText(bib, 'refs.bib');
      const preview = flow.state.step === 'preview' ? flow.state.preview : null;
      expect(preview?.files).toEqual({ links: 3, relative: 2, folders: [] });
      flow.baseDir = join(dir.path, 'nowhere');
      await flow.confirm();
      // Nothing was imported: the preview is back, saying what is wrong with the folder.
      expect(flow.state).toMatchObject({
        step: 'preview',
        folderError: `There is no folder at ${join(dir.path, 'nowhere')}.`,
      });
      flow.baseDir = dir.path;
      await flow.confirm();
      const report = flow.state.step === 'report' ? flow.state.report : null;
      expect(report?.added).toBe(2);
      expect(report?.files).toMatchObject({ attached: 2, missing: 1, pdfs: 2 });
      expect(report?.files?.files.map((f) => [f.key, f.written, f.status])).toEqual([
        ['files1', 'pdfs/a.pdf', 'attached'],
        ['files1', 'pdfs/missing.pdf', 'missing'],
        ['files2', join(dir.path, 'pdfs', 'a.pdf'), 'attached'],
      ]);
      const item = await env.t.api.invoke('library.item.get', { id: report!.files!.files[0]!.itemId });
      expect(item.ok && item.value.attachments.map((a) => [a.originalName, a.stored])).toEqual([['a.pdf', 'copied']]);
    } finally {
      dir.remove();
    }
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

  it('asks for identifiers when none are pasted, queues DOIs and arXiv ids offline, refuses what cannot be looked up', async () => {
    const flow = new ImportFlow(env.t.api);
    await flow.addIdentifiers(' ,\n ');
    expect(flow.identifiers).toEqual({
      busy: false,
      report: null,
      error: {
        code: 'INVALID_INPUT',
        message: 'Paste one or more identifiers, such as 10.1038/nature12373 or arXiv:2101.00001.',
      },
    });
    const adding = flow.addIdentifiers(
      '10.1234/alpha, doi:10.5555/NEW.ONE\narXiv:2101.00001v2\nPMID: 31452104\n0-306-40615-2',
    );
    expect(flow.identifiers.busy).toBe(true);
    await adding;
    expect(flow.identifiers.busy).toBe(false);
    expect(flow.identifiers.error).toBeNull();
    const outcomes = flow.identifiers.report!.outcomes.map((o) => [o.label, o.status]);
    expect(outcomes).toEqual([
      ['10.1234/alpha', 'duplicate'],
      ['10.5555/NEW.ONE', 'queued'],
      ['arXiv:2101.00001v2', 'queued'],
      ['PMID 31452104', 'not-added'],
      ['ISBN 9780306406157', 'not-added'],
    ]);
    expect(flow.identifiers.report!.outcomes[4]).toMatchObject({ isbn: '9780306406157', code: 'NO_SOURCE' });
    flow.resetIdentifiers();
    expect(flow.identifiers.report).toBeNull();
    await enrichmentSettled(env.t.api, 2); // the import's and the placeholders' enrichments, which pause offline
  });

  it('reports every input of a list longer than one call takes, and an input too long for a call', async () => {
    const flow = new ImportFlow(env.t.api);
    const pmids = (n: number): string => Array.from({ length: n }, (_, i) => `PMID:${i + 1}`).join('\n');
    // At the bound: one call; one over it: two calls, nothing dropped.
    for (const n of [MAX_IDENTIFIERS_PER_CALL, MAX_IDENTIFIERS_PER_CALL + 1]) {
      await flow.addIdentifiers(pmids(n));
      expect(flow.identifiers.error).toBeNull();
      const outcomes = flow.identifiers.report!.outcomes;
      expect(outcomes).toHaveLength(n);
      expect(outcomes.at(-1)).toMatchObject({ label: `PMID ${n}`, status: 'not-added', code: 'NO_SOURCE' });
      flow.resetIdentifiers();
    }
    // Longer than a call carries: refused on its own line, the rest of the list looked at.
    const long = `10.1234/${'x'.repeat(MAX_IDENTIFIER_INPUT_CHARS)}`;
    await flow.addIdentifiers(`${long}\n0-306-40615-2`);
    expect(flow.identifiers.error).toBeNull();
    const [tooLong, isbn] = flow.identifiers.report!.outcomes;
    expect(tooLong).toMatchObject({ status: 'not-added', code: 'INVALID_INPUT' });
    expect(tooLong!.reason).toContain('longer than');
    expect(isbn).toMatchObject({ label: 'ISBN 9780306406157', status: 'not-added' });
  });
});
