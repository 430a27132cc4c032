// The assistant through the IPC contract: a real core (library worker, citation formatter) against
// the local citation service. Questions are kept in the library with their answers; drafts, adding
// references and reference checks build on what was stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantChange, CitewiseApi, Result, TaskFinished } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import type { PaperRow } from '../../service/store';
import { tempDir } from '../../helpers/tmp';
import { service } from '../service-client/helpers';

let svc: Awaited<ReturnType<typeof service>>;
let dir: ReturnType<typeof tempDir>;
let core: Core;
let api: CitewiseApi;
const changes: AssistantChange[] = [];
const finished: TaskFinished[] = [];

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

async function until<T>(get: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  svc = await service();
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: { ...silentLogger, error: (m: string, e?: unknown) => console.error(m, e) } as typeof silentLogger,
    serviceUrl: svc.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
  });
  api = createInProcessApi(core);
  api.on('assistant.changed', (c) => changes.push(c));
  api.on('service.task.finished', (f) => finished.push(f));
}, 60_000);
afterAll(async () => {
  await core?.close();
  await svc?.close();
  dir?.remove();
});

describe('assistant over IPC', () => {
  let sessionId = 0;
  let turnId = 0;

  it('asks a question, keeps the answer and its references in the library, and continues the conversation', async () => {
    const asked = value(
      await api.invoke('assistant.ask', {
        sessionId: null,
        question: 'Does sleep deprivation impair working memory in older adults?',
        options: { numReferences: 5, answerLength: 'medium', citationStyle: 'vancouver', effort: 'high' },
      }),
    );
    ({ sessionId, turnId } = asked);
    await until(() => changes.find((c) => c.turnId === turnId && c.kind === 'answered'));
    const session = value(await api.invoke('assistant.sessions.get', { id: sessionId }));
    expect(session.title).toBe('Does sleep deprivation impair working memory in older adults?');
    const [turn] = session.records;
    expect(turn).toMatchObject({
      status: 'answered',
      question: 'Does sleep deprivation impair working memory in older adults?',
      taskId: asked.task.taskId,
    });
    expect(turn!.references.length).toBeGreaterThanOrEqual(3);
    expect(turn!.answer!.content).toMatch(/\[1\]/);
    expect(turn!.usage!.max).toBeGreaterThan(0);
    expect(session.remoteSessionId).not.toBeNull();

    const follow = value(await api.invoke('assistant.ask', { sessionId, question: 'And in children?' }));
    await until(() => changes.find((c) => c.turnId === follow.turnId && c.kind === 'answered'));
    const again = value(await api.invoke('assistant.sessions.get', { id: sessionId }));
    expect(again.records.map((r) => r.position)).toEqual([0, 1]);
    expect(value(await api.invoke('assistant.sessions.list', {}))).toMatchObject([
      { id: sessionId, turns: 2, lastStatus: 'answered' },
    ]);
  });

  it('builds a vancouver draft with numbered citations and a bibliography, and Markdown with Pandoc keys and their .bib', async () => {
    const draft = value(await api.invoke('assistant.draft', { turnId, style: 'vancouver', format: 'markdown' }));
    expect(draft.text).toMatch(/\(1\)|\[1\]|\b1\b/);
    expect(draft.text).toMatch(/\nReferences\n\n1\. /);
    expect(draft.html).toContain('<p><b>References</b></p>');
    const keys = [...draft.markdown!.matchAll(/(?<!\\)@([^\];\s]+)/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of new Set(keys)) expect(draft.bib).toContain(`{${key},`);
    expect(draft.markdown).not.toMatch(/\[\d+\]/);
    expect(draft.notInLibrary.length).toBeGreaterThan(0);
    // Only some references: the others' markers go.
    // BibTeX: \cite{key} in the text, the entries below.
    const latex = value(await api.invoke('assistant.draft', { turnId, style: 'bibtex' }));
    expect(latex.text).toMatch(/ \\cite\{[^}]+\}/);
    expect(latex.text).toMatch(/\nBibTeX\n\n@article\{/);
    const one = value(await api.invoke('assistant.draft', { turnId, style: 'apa', numbers: [1] }));
    expect(one.text.split('\n\nReferences\n\n')[1]!.trim().split('\n')).toHaveLength(1);
  });

  it('adds chosen references to the library in one step, into a collection, and later drafts use their keys', async () => {
    const collection = value(await api.invoke('library.collections.create', { name: 'Sleep review' }));
    const report = value(
      await api.invoke('assistant.references.add', { turnId, numbers: [1, 2, 3], collectionId: collection.id }),
    );
    expect(report.added).toHaveLength(3);
    expect(value(await api.invoke('library.count', { collectionId: collection.id }))).toBe(3);
    const draft = value(await api.invoke('assistant.draft', { turnId, style: 'apa', format: 'markdown' }));
    for (const a of report.added)
      if (draft.markdown!.includes(a.citationKey))
        expect(draft.notInLibrary).not.toContain(report.added.indexOf(a) + 1);
    expect(report.added.some((a) => draft.markdown!.includes(`@${a.citationKey}`))).toBe(true);
    const bad = await api.invoke('assistant.references.add', { turnId, numbers: [99] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('exports the draft as .docx and .odt with live Zotero citations and a bibliography', async () => {
    const { FileDocument } = await import('../../../electron/api/integration/file-document');
    const { parseCitationCode } = await import('../../../electron/api/integration/codes');
    const copied = value(await api.invoke('assistant.draft', { turnId, style: 'apa' }));
    for (const kind of ['docx', 'odt'] as const) {
      const draft = value(await api.invoke('assistant.draft', { turnId, style: 'apa', format: kind }));
      expect(draft.file).toMatchObject({ name: `draft.${kind}` });
      const doc = FileDocument.read(Buffer.from(draft.file!.base64, 'base64'), kind);
      const fields = doc.fields();
      const citations = fields.filter((f) => f.code.startsWith('ITEM'));
      expect(citations.length).toBeGreaterThan(0);
      expect(fields.at(-1)!.code).toMatch(/^BIBL /);
      // The same citation text as the copied draft; the library's items linked by their Zotero keys.
      for (const c of citations) expect(copied.text).toContain(c.text);
      const uris = citations.flatMap((c) => parseCitationCode(c.code, 'c').citationItems.flatMap((i) => i.uris ?? []));
      expect(uris.some((u) => /\/items\/[23456789A-Z]{8}$/.test(u))).toBe(true);
      expect(doc.text()).toContain('References');
    }
    const bad = await api.invoke('assistant.draft', { turnId, style: 'bibtex', format: 'docx' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/needs a citation style/);
  });

  it('keeps feedback, renames and deletes conversations, and validates its inputs', async () => {
    expect(
      value(await api.invoke('assistant.feedback', { turnId, value: 'negative', reason: 'Missed a key study' }))
        .feedback,
    ).toEqual({ value: 'negative', reason: 'Missed a key study' });
    expect(
      value(await api.invoke('assistant.sessions.rename', { id: sessionId, title: '  Sleep and memory ' })).title,
    ).toBe('Sleep and memory');
    const empty = await api.invoke('assistant.ask', { sessionId: null, question: '   ' });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error.code).toBe('INVALID_INPUT');
    const both = await api.invoke('assistant.ask', {
      sessionId: null,
      question: 'x',
      options: { abstractsOnly: true, fullTextsOnly: true },
    });
    expect(both.ok).toBe(false);
    const years = await api.invoke('assistant.ask', {
      sessionId: null,
      question: 'x',
      options: { yearFrom: '2020', yearTo: '2010' },
    });
    expect(years.ok).toBe(false);
    const extra = await api.invoke('assistant.ask', { sessionId: null, question: 'x', options: { bogus: 1 } as never });
    expect(extra.ok).toBe(false);
    value(await api.invoke('assistant.sessions.delete', { id: sessionId }));
    const gone = await api.invoke('assistant.sessions.get', { id: sessionId });
    expect(gone.ok).toBe(false);
    if (!gone.ok) expect(gone.error.code).toBe('NOT_FOUND');
  });

  it('restricts an answer to a collection and says so when the collection has no DOIs', async () => {
    const emptyCollection = value(await api.invoke('library.collections.create', { name: 'Empty' }));
    const none = await api.invoke('assistant.ask', {
      sessionId: null,
      question: 'anything',
      scope: { kind: 'collection', collectionId: emptyCollection.id },
    });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.message).toMatch(/no items with a DOI/);
    const collections = value(await api.invoke('library.collections.list', {}));
    const sleep = collections.find((c) => c.name === 'Sleep review')!;
    const asked = value(
      await api.invoke('assistant.ask', {
        sessionId: null,
        question: 'What do these papers find?',
        scope: { kind: 'collection', collectionId: sleep.id },
      }),
    );
    await until(() => changes.find((c) => c.turnId === asked.turnId && c.kind === 'answered'));
    const s = value(await api.invoke('assistant.sessions.get', { id: asked.sessionId }));
    expect(s.records[0]!.scopeLabel).toBe('collection “Sleep review”');
    const inCollection = new Set(s.records[0]!.options.dois);
    expect(inCollection.size).toBe(3);
    for (const r of s.records[0]!.references) expect(inCollection.has(r.doi!.toLowerCase())).toBe(true);
  });

  it('checks the references of a .bib file and flags the retracted paper', async () => {
    const [retracted] = svc.corpus.db.prepare('SELECT * FROM papers WHERE retracted = 1 LIMIT 1').all() as PaperRow[];
    const bib = `@article{one,\n  title = {${retracted!.title}},\n  doi = {${retracted!.doi}},\n  year = {${retracted!.year}}\n}\n`;
    const started = value(
      await api.invoke('assistant.referenceCheck.start', {
        source: { kind: 'file', name: 'refs.bib', base64: Buffer.from(bib).toString('base64') },
      }),
    );
    const done = await until(() => finished.find((f) => f.taskId === started.taskId));
    expect(done.status).toBe('SUCCESS');
    expect(done.referenceCheck!.papers![retracted!.doi]!.editorialNotices.some((n) => n.status === 'Retracted')).toBe(
      true,
    );
    const notPdf = await api.invoke('assistant.referenceCheck.start', {
      source: { kind: 'file', name: 'paper.pdf', base64: Buffer.from('hello').toString('base64') },
    });
    expect(notPdf.ok).toBe(false);
    if (!notPdf.ok) expect(notPdf.error.message).toMatch(/not a PDF/);
    const exe = await api.invoke('assistant.referenceCheck.start', {
      source: { kind: 'file', name: 'virus.exe', base64: 'AAAA' },
    });
    expect(exe.ok).toBe(false);
  });
  it('keeps a question whose task failed, with the reason, and asks it again', async () => {
    const stopped = await svc.close().then(() => true);
    expect(stopped).toBe(true);
    const r = await api.invoke('assistant.ask', {
      sessionId: null,
      question: 'Offline question about coral bleaching',
    });
    expect(r.ok).toBe(false);
    const list = value(await api.invoke('assistant.sessions.list', {}));
    const s = value(await api.invoke('assistant.sessions.get', { id: list[0]!.id }));
    expect(s.records[0]).toMatchObject({ status: 'failed', question: 'Offline question about coral bleaching' });
    expect(s.records[0]!.error!.code).toMatch(/OFFLINE|SERVICE_ERROR|TIMEOUT/);
    svc = await service();
    value(await api.invoke('service.config.set', { serviceUrl: svc.url }));
    value(await api.invoke('service.key.set', { key: svc.fullKey }));
    const retried = await api.invoke('assistant.retry', { turnId: s.records[0]!.id });
    // The client may still hold the offline state for a moment; the question is kept either way.
    if (retried.ok) await until(() => changes.find((c) => c.turnId === s.records[0]!.id && c.kind === 'answered'));
    const after = value(await api.invoke('assistant.sessions.get', { id: s.id }));
    expect(after.records).toHaveLength(1);
    expect(after.records[0]!.question).toBe('Offline question about coral bleaching');
  });

  it('says when the assistant’s usage limit is reached, with the usage, and keeps the question', async () => {
    const small = await service({ usageMax: 1 });
    const dir2 = tempDir();
    const core2 = await createCore({
      dataDir: dir2.path,
      mode: 'test',
      logger: silentLogger,
      serviceUrl: small.url,
      apiKey: small.fullKey,
      secrets: createMemorySecretStore(),
    });
    const api2 = createInProcessApi(core2);
    try {
      value(await api2.invoke('assistant.ask', { sessionId: null, question: 'first question about coral reefs' }));
      const over = await api2.invoke('assistant.ask', {
        sessionId: null,
        question: 'second question about coral reefs',
      });
      expect(over.ok).toBe(false);
      if (!over.ok)
        expect(over.error).toMatchObject({
          code: 'FORBIDDEN',
          message: expect.stringMatching(/usage limit is reached \(1 of 1 requests used\)/),
        });
      const sessions = value(await api2.invoke('assistant.sessions.list', {}));
      const failed = value(
        await api2.invoke('assistant.sessions.get', { id: sessions.find((x) => x.title.startsWith('second'))!.id }),
      );
      expect(failed.records[0]).toMatchObject({ status: 'failed', usage: { used: 1, max: 1 } });
    } finally {
      await core2.close();
      await small.close();
      dir2.remove();
    }
  });

  it('keeps the question when the assistant fails or the deadline passes, with a clear reason', async () => {
    const failing = await service({ faults: { rates: { 'task-failure': 1 } } });
    const slow = await service({ assistantSteps: 'realistic', assistantStepMs: 3000 });
    const dirs = [tempDir(), tempDir()];
    const cores = await Promise.all(
      [failing, slow].map((svc2, i) =>
        createCore({
          dataDir: dirs[i]!.path,
          mode: 'test',
          logger: silentLogger,
          serviceUrl: svc2.url,
          apiKey: svc2.fullKey,
          secrets: createMemorySecretStore(),
        }),
      ),
    );
    try {
      const outcome = async (api2: CitewiseApi, question: string, deadlineMs?: number) => {
        const heard: AssistantChange[] = [];
        const off = api2.on('assistant.changed', (c) => heard.push(c));
        const asked = value(
          await api2.invoke('assistant.ask', { sessionId: null, question, ...(deadlineMs ? { deadlineMs } : {}) }),
        );
        await until(() => heard.find((c) => c.turnId === asked.turnId && c.kind === 'failed'), 30_000);
        off();
        return value(await api2.invoke('assistant.sessions.get', { id: asked.sessionId })).records[0]!;
      };
      const failed = await outcome(createInProcessApi(cores[0]!), 'Why do corals bleach?');
      expect(failed).toMatchObject({
        status: 'failed',
        question: 'Why do corals bleach?',
        error: {
          code: 'SERVICE_ERROR',
          message: expect.stringMatching(/^The assistant could not answer: .*injected fault/),
        },
      });
      const late = await outcome(createInProcessApi(cores[1]!), 'Why do glaciers retreat?', 5000);
      expect(late).toMatchObject({
        status: 'failed',
        error: { code: 'TIMEOUT', message: expect.stringMatching(/did not finish within 5 s/) },
      });
    } finally {
      await Promise.all(cores.map((c) => c.close()));
      await failing.close();
      await slow.close();
      for (const d of dirs) d.remove();
    }
  }, 60_000);
});
