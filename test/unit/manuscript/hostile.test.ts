// Issue 40, the manuscript check under hostile files: its readers were quadratic on a group that never
// closes (`\cite{a,` repeated: 160 KB took 10.9 s, 1.6 MB did not finish in a minute), the .aux beside
// a .tex was read whole before its size was checked (a sparse 1.9 GB file: 12.8 s and 2 GB), a .tex
// that is a link to /dev/zero grew without end and a FIFO hung; control characters from cite keys and
// Word's DOIs reached the terminal raw. Sizes here are ~10× what took seconds before: a return of the
// quadratic cost fails by the test's time limit, with a wide margin for a busy machine.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportText } from '../../../shared/model/manuscript';
import { checkManuscript, parseManuscript, readManuscript } from '../../../electron/core/manuscript/check';
import { auxKeys, parseLatex } from '../../../electron/core/manuscript/latex';
import { parseMarkdown } from '../../../electron/core/manuscript/markdown';
import { parseTypst } from '../../../electron/core/manuscript/typst';
import { tempDir } from '../../helpers/tmp';
import { docx, paragraph, zoteroField } from './docx-fixture';

const MB = 1024 * 1024;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('the manuscript readers on pathological text', { timeout: 60_000 }, () => {
  it('\\cite{a, repeated 200,000 times (1.6 MB), never closed: no citation, in linear time', () => {
    expect(parseLatex('\\cite{a,'.repeat(200_000)).citations).toEqual([]);
    // The same with optional arguments and biblatex's (pre)(post) that never close.
    expect(parseLatex('\\cite['.repeat(200_000)).citations).toEqual([]);
    expect(parseLatex('\\autocites('.repeat(200_000)).citations).toEqual([]);
    // One that closes at the very end is still read.
    expect(parseLatex(`${'x '.repeat(400_000)}\\cite{last}`).citations.map((c) => c.key)).toEqual(['last']);
  });

  it('verbatim environments that never end, and .aux commands that never close', () => {
    const tex = `${'\\begin{verbatim}'.repeat(100_000)}\n\\cite{seen}`;
    // An environment that never ends hides nothing (LaTeX would stop with an error there).
    expect(parseLatex(tex).citations.map((c) => c.key)).toEqual(['seen']);
    expect(auxKeys('\\citation{a,'.repeat(200_000))).toEqual([]);
    expect(auxKeys('\\abx@aux@cite{0'.repeat(200_000))).toEqual([]);
    expect(auxKeys(`${'\\citation{a}\n'.repeat(200_000)}\\abx@aux@cite{0}{b}`)).toEqual(['a', 'b']);
  });

  it('Markdown comments and Typst block comments that never close', () => {
    expect(parseMarkdown(`${'<!-- @hidden '.repeat(200_000)}`).citations).toEqual([]);
    expect(parseMarkdown('<!-- @hidden --> @shown <!-- @hidden').citations.map((c) => c.key)).toEqual(['shown']);
    expect(parseTypst(`${'/* @hidden '.repeat(200_000)}`).citations.map((c) => c.key)).toHaveLength(200_000);
    expect(parseTypst('/* @hidden */ @shown // @hidden\n@next').citations.map((c) => c.key)).toEqual(['shown', 'next']);
  });
});

describe('control characters from a manuscript', () => {
  const lookup = async () => [];
  const expectClean = async (name: string, bytes: Uint8Array, aux?: { name: string; bytes: Uint8Array }) => {
    const parsed = parseManuscript(name, bytes, aux);
    const report = await checkManuscript(parsed, lookup);
    expect(reportText(report)).not.toMatch(CONTROL);
    expect(JSON.stringify(report)).not.toMatch(CONTROL);
    // JSON.stringify escapes C0 as \u001b: the report must not carry them escaped either.
    expect(JSON.stringify(report)).not.toMatch(/\\u00[01][0-9a-f]/i);
    return report;
  };

  it('are removed from LaTeX, .aux, Markdown and Typst keys, and the report says so', async () => {
    const tex = await expectClean(
      'paper.tex',
      Buffer.from('\\cite{adams\u001b]0;pwned\u0007,b\u001b[2Jrigge, \u202eevil}\n'),
      { name: 'paper.aux', bytes: Buffer.from('\\citation{aux\u009b31m}\n') },
    );
    expect(tex.cited.map((c) => c.ref)).toEqual(['adams]0;pwned', 'b[2Jrigge', 'evil', 'aux31m']);
    expect(tex.notes.join(' ')).toContain('Control characters');
    const md = await expectClean('paper.md', Buffer.from('See @{key\u001b[31mred} and @plain.\n'));
    expect(md.cited.map((c) => c.ref)).toEqual(['key[31mred', 'plain']);
    await expectClean('paper.typ', Buffer.from('#cite(label("k\u001b[2J\u2066x"))\n'));
    // A key of nothing but control characters is left out, and counted.
    const only = await expectClean('only.tex', Buffer.from('\\cite{\u001b\u0007,fine}\n'));
    expect(only.cited.map((c) => c.ref)).toEqual(['fine']);
    expect(only.notes.join(' ')).toContain('1 citation was left out');
  });

  it('are removed from the DOIs and titles of a Word document, as Zotero writes them', async () => {
    const file = docx([
      paragraph(
        'As shown ',
        zoteroField(
          [
            { itemData: { type: 'article-journal', DOI: '10.1234/abc\u001b[2J\u001b]0;owned\u0007', title: 'T' } },
            { itemData: { type: 'book', title: 'Right\u202eto left\u2069 title' } },
          ],
          '(A; B)',
        ),
      ),
    ]);
    const report = await expectClean('paper.docx', file);
    expect(report.cited.map((c) => c.ref)).toEqual(['10.1234/abc[2J]0;owned', 'Rightto left title']);
  });
});

describe('reading a manuscript file', { timeout: 60_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('citewise-ms-hostile-');
  });
  afterAll(() => dir.remove());
  const at = (name: string) => join(dir.path, name);

  it('refuses an .aux over 20 MB beside a .tex before reading it (a sparse 1.9 GB file)', () => {
    mkdirSync(at('sparse'));
    writeFileSync(at('sparse/paper.tex'), '\\cite{a}\n');
    writeFileSync(at('sparse/paper.aux'), '');
    truncateSync(at('sparse/paper.aux'), 1900 * MB);
    expect(() => readManuscript(at('sparse/paper.tex'))).toThrow(
      /paper\.aux is 1,992,294,400 bytes, more than the 20 MB/,
    );
    // At the limit it is read; one byte over, it is not.
    writeFileSync(at('sparse/paper.aux'), `\\citation{b}\n${' '.repeat(20 * MB - 13)}`);
    expect(readManuscript(at('sparse/paper.tex')).citations.map((c) => c.key)).toEqual(['a', 'b']);
    writeFileSync(at('sparse/paper.aux'), `\\citation{b}\n${' '.repeat(20 * MB - 12)}`);
    expect(() => readManuscript(at('sparse/paper.tex'))).toThrow(/more than the 20 MB/);
  });

  it('refuses a .tex that is a link to /dev/zero, and a FIFO, at once', () => {
    symlinkSync('/dev/zero', at('zero.tex'));
    expect(() => readManuscript(at('zero.tex'))).toThrow(/zero\.tex is a device, not a regular file/);
    execFileSync('mkfifo', [at('pipe.md')]);
    expect(() => readManuscript(at('pipe.md'))).toThrow(/pipe\.md is a pipe \(FIFO\), not a regular file/);
    mkdirSync(at('fifo-aux'));
    writeFileSync(at('fifo-aux/paper.tex'), '\\cite{a}\n');
    execFileSync('mkfifo', [at('fifo-aux/paper.aux')]);
    expect(() => readManuscript(at('fifo-aux/paper.tex'))).toThrow(/paper\.aux is a pipe \(FIFO\)/);
  });
});
