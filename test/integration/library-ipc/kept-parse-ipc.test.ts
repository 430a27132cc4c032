// The app parses an import's file once: the Import dialog's preview keeps its parse, and the import
// that follows (same file, same options) writes those entries. What was previewed is what is imported,
// even if the file changes in between; another file, format or title-case setting parses again.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import type { ImportPreview, ImportReport, PdfSelection, Result } from '../../../shared/ipc';
import { tempDir } from '../../helpers/tmp';

const entry = (key: string, title: string): string =>
  `@article{${key}, title = {${title}}, author = {Doe, Jane}, journal = {Journal of Tests}, year = 2020}\n`;

function value<T>(r: Result<T> | unknown): T {
  const res = r as Result<T>;
  if (!res.ok) throw new Error(`${res.error.code}: ${res.error.message}`);
  return res.value;
}

describe('an import parsed once (the preview’s parse kept)', { timeout: 60_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  beforeAll(async () => {
    dir = tempDir('citewise-kept-ipc-');
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
  });
  afterAll(async () => {
    await core?.close();
    dir?.remove();
  });

  /** A .bib of `n` entries chosen in the desktop app, and its selection. */
  function choose(name: string, n: number): { path: string; file: { selection: string; index: number } } {
    const path = join(dir.path, name);
    writeFileSync(path, Array.from({ length: n }, (_, i) => entry(`${name}${i}`, `${name} paper ${i}`)).join(''));
    const selection = value<PdfSelection>(core.selectDroppedPdfs([path])).selection;
    return { path, file: { selection, index: 0 } };
  }

  it('imports what the preview read, not the file as it is now', async () => {
    const { path, file } = choose('first.bib', 3);
    const preview = value<ImportPreview>(await core.invoke('library.import.preview', { file, sample: 2 }));
    expect(preview.entries).toBe(3);
    // Changed after the preview: the import does not read it again.
    appendFileSync(path, entry('late', 'Added after the preview'));
    const report = value<ImportReport>(await core.invoke('library.import', { file }));
    expect(report).toMatchObject({ entries: 3, added: 3, errors: [] });
    // The same file imported again without a preview is parsed: the late entry comes now.
    const again = value<ImportReport>(await core.invoke('library.import', { file }));
    expect(again).toMatchObject({ entries: 4, added: 1 });
    expect(again.duplicates).toHaveLength(3);
  });

  it('parses again for another format, another file, or pasted text that differs', async () => {
    const { path, file } = choose('second.bib', 2);
    value(await core.invoke('library.import.preview', { file, sample: 1 }));
    appendFileSync(path, entry('late2', 'Also added after the preview'));
    // The format named now was not the preview's: parsed again, so the late entry is in.
    const named = value<ImportReport>(await core.invoke('library.import', { file, format: 'bibtex' }));
    expect(named).toMatchObject({ entries: 3, added: 3 });

    const text = entry('pasted', 'A pasted paper');
    value(await core.invoke('library.import.preview', { text, sample: 1 }));
    const other = value<ImportReport>(
      await core.invoke('library.import', { text: entry('pasted2', 'Another pasted paper') }),
    );
    expect(other).toMatchObject({ entries: 1, added: 1 });
    expect(value<number>(await core.invoke('library.count', {}))).toBe(4 + 3 + 1);
  });
});
