// Adding PDFs (renderer/src/lib/state/pdf-add.svelte.ts) in Node against a real in-process core with
// no service: files refused before they are sent, a real PDF captured and kept for review until the
// service can name it, the same file again as a duplicate, and Cancel between two files.
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PDF_UPLOAD_BYTES } from '../../../shared/model/pdf-capture';
import { PdfAddFlow, summarise } from '../../../renderer/src/lib/state/pdf-add.svelte';
import { makePdf } from '../../helpers/pdfs';
import { coreForTests, enrichmentSettled, offlineCore } from './helpers';

let pdf: (name: string, seed: number) => Promise<File>;

const env = coreForTests(() => offlineCore('pdf-add'));

beforeAll(async () => {
  pdf = async (name, seed) =>
    new File(
      [
        new Uint8Array(
          await makePdf({
            title: `A Study of Sleep Number ${seed}`,
            byline: 'Jane Doe',
            xmpDoi: `10.5555/sleep.${seed}`,
          }),
        ),
      ],
      name,
      { type: 'application/pdf' },
    );
});

describe('PdfAddFlow against the core', () => {
  it('refuses an empty file and one over 40 MB without sending them', async () => {
    const flow = new PdfAddFlow(env.t.api);
    await flow.add([new File([], 'empty.pdf'), new File([new Uint8Array(MAX_PDF_UPLOAD_BYTES + 1)], 'huge.pdf')]);
    expect(flow.state.step).toBe('summary');
    const outcomes = flow.state.step === 'summary' ? flow.state.outcomes : [];
    expect(outcomes.map((o) => (o.status === 'failed' ? o.message : o.status))).toEqual([
      'empty.pdf was not added: it is empty.',
      'huge.pdf was not added: it is 40.0 MB; the app takes PDFs up to 40 MB (larger ones: citewise import on the command line).',
    ]);
    const list = await env.t.api.invoke('library.list', { limit: 10 });
    expect(list.ok && list.value.rows).toEqual([]);
    flow.close();
    expect(flow.state.step).toBe('idle');
  });

  it('adds a PDF as an item to review while offline, and the same file again as a duplicate', async () => {
    const flow = new PdfAddFlow(env.t.api);
    await flow.add([await pdf('sleep.pdf', 1)]);
    const first = flow.state.step === 'summary' ? summarise(flow.state.outcomes) : null;
    expect(first?.failed).toEqual([]);
    expect(first!.added.length + first!.review.length).toBe(1);

    await flow.add([await pdf('sleep-again.pdf', 1)]);
    const second = flow.state.step === 'summary' ? summarise(flow.state.outcomes) : null;
    expect(second?.duplicates.map((o) => o.name)).toEqual(['sleep-again.pdf']);
    await enrichmentSettled(env.t.api);
  });

  it('stops after the file being sent when cancelled, and counts the rest as cancelled', async () => {
    const flow = new PdfAddFlow(env.net.api);
    const release = env.net.hold('pdfs.add');
    const adding = flow.add([await pdf('one.pdf', 2), await pdf('two.pdf', 3), await pdf('three.pdf', 4)]);
    await new Promise((r) => setTimeout(r, 50));
    expect(flow.busy).toBe(true);
    await flow.add([await pdf('ignored.pdf', 5)]); // one run at a time
    flow.cancel();
    expect(flow.state.step === 'running' && flow.state.cancelling).toBe(true);
    release();
    await adding;
    expect(flow.state.step === 'summary' && [flow.state.outcomes.map((o) => o.name), flow.state.cancelled]).toEqual([
      ['one.pdf'],
      2,
    ]);
    expect(flow.busy).toBe(false);
    await enrichmentSettled(env.t.api);
  });
});
