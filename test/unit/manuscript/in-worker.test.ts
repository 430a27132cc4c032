// The manuscript check parses in the formats worker, never on the thread that answers the UI, with the
// same answer and the same errors (code, file, line) as the parse in this thread.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manuscriptHandlers } from '../../../electron/core/handlers/manuscript';
import { parseManuscript, readManuscript } from '../../../electron/core/manuscript/check';
import { parseManuscriptInWorker } from '../../../electron/core/manuscript/in-worker';
import { tempDir } from '../../helpers/tmp';
import { observeWorkerMessages } from '../../helpers/worker-messages';

const TEX = [
  '\\documentclass{article}',
  '\\begin{document}',
  'As shown \\cite{smith2020,jones2019}.',
  '',
  'Again \\citep{smith2020}.',
  '\\end{document}',
  '',
].join('\n');

describe('manuscript parse in the formats worker', () => {
  it('answers what the parse in this thread answers, for bytes and for a path with its .aux', async () => {
    const bytes = Buffer.from(TEX, 'utf8');
    expect(await parseManuscriptInWorker({ kind: 'bytes', name: 'paper.tex', bytes })).toEqual(
      parseManuscript('paper.tex', bytes),
    );
    const dir = tempDir('citewise-manuscript-');
    try {
      const path = join(dir.path, 'paper.tex');
      writeFileSync(path, TEX);
      writeFileSync(join(dir.path, 'paper.aux'), '\\citation{extra2001}\n');
      const parsed = await parseManuscriptInWorker({ kind: 'path', path });
      expect(parsed).toEqual(readManuscript(path));
      expect(parsed.citations.map((c) => c.key)).toEqual(['smith2020', 'jones2019', 'smith2020', 'extra2001']);
    } finally {
      dir.remove();
    }
  });

  it('refuses what the parse here refuses, with the same code, message and place', async () => {
    const dir = tempDir('citewise-manuscript-');
    try {
      const notUtf8 = Buffer.concat([Buffer.from('line one\nline two \\cite{a}\n'), Buffer.from([0xc3, 0x28, 0x0a])]);
      const here = (() => {
        try {
          parseManuscript('bad.tex', notUtf8);
        } catch (err) {
          return err;
        }
      })();
      expect(here).toMatchObject({ code: 'INVALID_INPUT', details: { file: 'bad.tex', line: 3 } });
      await expect(parseManuscriptInWorker({ kind: 'bytes', name: 'bad.tex', bytes: notUtf8 })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: (here as Error).message,
        details: { file: 'bad.tex', line: 3 },
      });
      await expect(
        parseManuscriptInWorker({ kind: 'path', path: join(dir.path, 'missing.tex') }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      mkdirSync(join(dir.path, 'folder.tex'));
      await expect(parseManuscriptInWorker({ kind: 'path', path: join(dir.path, 'folder.tex') })).rejects.toMatchObject(
        { code: 'INVALID_INPUT', message: /is a folder/ },
      );
    } finally {
      dir.remove();
    }
  });

  it('manuscript.check parses in the worker, then looks the citations up', async () => {
    const looked: string[][] = [];
    const handlers = manuscriptHandlers({
      library: {
        lib: {
          citedItems: (refs) => {
            looked.push(refs.map((r) => r.key ?? ''));
            return Promise.resolve(refs.map(() => null));
          },
        },
      },
    });
    const { value: report, messages } = await observeWorkerMessages(() =>
      handlers['manuscript.check']({ source: { kind: 'text', name: 'paper.tex', text: TEX }, contrasting: 10 }),
    );
    expect(messages.map((m) => (m as { type?: unknown }).type)).toContain('parsed');
    expect(report.citations).toBe(3);
    expect(looked).toEqual([['smith2020', 'jones2019']]);
  });
});
