// The Assistant pane's two checks (renderer/src/panes/assistant/{reference-check,manuscript-check}
// .svelte.ts) in Node against a real in-process core and the local test service: files refused by
// kind and at both sides of the size limits, a reference check run to its rows, a key without the
// scope, and a manuscript checked against the library.
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REFCHECK_BYTES } from '../../../shared/model/assistant';
import { MAX_MANUSCRIPT_BYTES } from '../../../shared/model/manuscript';
import { ReferenceCheckState } from '../../../renderer/src/panes/assistant/reference-check.svelte';
import { ManuscriptCheckState } from '../../../renderer/src/panes/assistant/manuscript-check.svelte';
import { coreForTests, onlineCore, seed, until } from './helpers';

const env = coreForTests(() => onlineCore('checks'));

beforeAll(async () => {
  await seed(env.t.api, '@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020}\n');
});

const sized = (bytes: number, name: string): File => new File([new Uint8Array(bytes)], name);

describe('ReferenceCheckState', () => {
  it('refuses a file by its kind, when empty, and above 25 MB, and takes one of exactly 25 MB', async () => {
    const state = new ReferenceCheckState(env.t.api);
    await state.choose(new File(['x'], 'refs.xlsx'));
    expect(state.error?.message).toBe('refs.xlsx cannot be checked: choose a .pdf, .docx, .txt, .bib, .ris file.');
    await state.choose(sized(0, 'empty.bib'));
    expect(state.error?.message).toBe('empty.bib is empty.');
    await state.choose(sized(MAX_REFCHECK_BYTES + 1, 'big.pdf'));
    expect(state.error?.message).toBe('big.pdf is 25.0 MB; the largest file a check takes is 25 MB.');
    expect(state.file).toBeNull();
    await state.choose(sized(MAX_REFCHECK_BYTES, 'limit.pdf'));
    expect(state.error).toBeNull();
    expect(state.file?.size).toBe(MAX_REFCHECK_BYTES);
  });

  it('asks for a file before running', async () => {
    const state = new ReferenceCheckState(env.t.api);
    await state.run();
    expect(state.error?.message).toBe('Choose a manuscript or bibliography file first.');
    expect(state.status).toBe('idle');
  });

  it('checks a bibliography to its rows, each matched one formatted in the chosen style', async () => {
    const state = new ReferenceCheckState(env.t.api);
    const stop = state.start();
    try {
      const papers = env.t.svc.corpus.db.prepare('SELECT doi, title, year FROM papers ORDER BY id LIMIT 3').all() as {
        doi: string;
        title: string;
        year: number;
      }[];
      const bib = papers
        .map((p, i) => `@article{r${i},\n  title = {${p.title}},\n  doi = {${p.doi}},\n  year = {${p.year}}\n}\n`)
        .join('');
      await state.choose(new File([bib], 'refs.bib'));
      state.useStyle('vancouver', undefined);
      await state.run();
      expect(['running', 'done']).toContain(state.status);
      await until(() => state.status === 'done', 'the check to finish');
      expect(state.running).toBe(false);
      expect(state.error).toBeNull();
      expect(state.rows!.length).toBeGreaterThan(0);
      const matched = state.rows!.filter((r) => r.csl);
      expect(matched.length).toBeGreaterThan(0);
      await until(() => Object.keys(state.citations).length === matched.length, 'the formatted references');
    } finally {
      stop();
    }
  });

  it("fails with the service's refusal for a key without the scope", async () => {
    const pub = await onlineCore('checks-public', { key: (svc) => svc.publicKey });
    try {
      const state = new ReferenceCheckState(pub.api);
      await state.choose(new File(['@article{a, title = {A}}'], 'refs.bib'));
      await state.run();
      expect(state.status).toBe('failed');
      expect(state.error?.code).toBe('FORBIDDEN');
      expect(state.running).toBe(false);
    } finally {
      await pub.close();
    }
  });
});

describe('ManuscriptCheckState', () => {
  it("refuses a file by its kind and above 20 MB, takes one of exactly 20 MB, and keeps a LaTeX file's .aux", async () => {
    const state = new ManuscriptCheckState(env.t.api);
    await state.choose([new File(['x'], 'paper.pdf')]);
    expect(state.error?.message).toMatch(/^paper\.pdf cannot be checked: choose a /);
    await state.choose([sized(MAX_MANUSCRIPT_BYTES + 1, 'big.md')]);
    expect(state.error?.message).toBe('big.md is 20.0 MB; the largest manuscript the check takes is 20 MB.');
    expect(state.file).toBeNull();
    await state.choose([sized(MAX_MANUSCRIPT_BYTES, 'limit.md')]);
    expect(state.error).toBeNull();
    expect(state.file?.name).toBe('limit.md');
    await state.choose([new File(['\\cite{doe2020}'], 'paper.tex'), new File(['\\citation{doe2020}'], 'paper.aux')]);
    expect([state.file?.name, state.aux?.name]).toEqual(['paper.tex', 'paper.aux']);
  });

  it('checks pasted text against the library: one key found, one missing', async () => {
    const state = new ManuscriptCheckState(env.t.api);
    state.mode = 'paste';
    expect(state.ready).toBe(false);
    await state.run(); // nothing to check: nothing asked
    expect(state.report).toBeNull();
    state.pasted = 'Sleep helps [@doe2020; @nobody1999].\n';
    state.pasteAs = 'pasted.md';
    const running = state.run();
    expect(state.running).toBe(true);
    await running;
    expect(state.running).toBe(false);
    expect(state.error).toBeNull();
    expect(state.report?.cited.map((c) => [c.ref, c.flags.includes('missing')])).toEqual([
      ['doe2020', false],
      ['nobody1999', true],
    ]);
    expect(state.report?.problems).toBe(true);
    expect(state.text).toContain('nobody1999');
  });
});
