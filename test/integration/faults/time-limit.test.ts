// Issue 18, point 4: a time limit really ends the work. An import that runs over its limit is stopped
// by ending its worker thread (not only by giving up on the promise), the user reads which file and
// which limit, and the library is exactly as it was. The limit is made small for the test; the same
// file under the default limit is imported whole, which is the other side of the threshold.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { LibraryClient } from '../../../electron/core/library/client';
import { importSource } from '../../../electron/core/library/import-source';
import { tempDir } from '../cli-library/helpers';
import { bibtex, libraryState } from './disk';

const LIMIT_MS = 300;
const ITEMS = 20_000;
// The CSL-JSON file is bigger: its stop comes at the limit plus the backstop's grace (about 0.6 s on a
// quiet machine), and the whole import must take several times that for the side-by-side to say anything
// (20,000 items took 1.6 s on a quiet CI machine, too close).
const JSON_ITEMS = 60_000;

/** This process's threads: a formats worker that has really ended is no longer among them. */
const threads = () => readdirSync('/proc/self/task').length;

let dir: { path: string; remove: () => void };
let file: string;
let client: LibraryClient;
beforeEach(async () => {
  dir = tempDir('citewise-time-limit-');
  file = join(dir.path, 'library.sqlite');
  client = await LibraryClient.start({ file });
  writeFileSync(join(dir.path, 'small.bib'), bibtex(5, 'base'));
  await importSource(client, { kind: 'path', path: join(dir.path, 'small.bib') }, { fileName: 'small.bib' });
});
afterEach(async () => {
  await client.close();
  dir.remove();
});

async function timed<T>(p: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await p;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe.skipIf(!existsSync('/proc/self/task'))('a time limit really ends the work', { timeout: 180_000 }, () => {
  it('stops a CSL-JSON parse that cannot check its own clock soon after the limit, ends its worker and writes nothing', async () => {
    // JSON.parse of a whole file cannot look at the clock: only the backstop outside the worker can end it.
    const items = Array.from({ length: JSON_ITEMS }, (_, i) => ({
      id: `slow${i}`,
      type: 'article-journal',
      title: `Paper number ${i} on parsing that takes its time`,
      author: [{ family: 'Writer', given: 'Ann' }],
      issued: { 'date-parts': [[2020]] },
      'container-title': 'Journal of Faults',
    }));
    const big = join(dir.path, 'slow.json');
    writeFileSync(big, JSON.stringify(items));
    const before = libraryState(file);
    const baseline = threads();

    const stopped = await timed(
      importSource(client, { kind: 'path', path: big }, { fileName: 'slow.json', limits: { timeBudgetMs: LIMIT_MS } }),
    );
    // The worker has ended by the time the caller hears of it: no thread left behind.
    expect(threads()).toBe(baseline);
    expect(stopped.error).toBeInstanceOf(CoreError);
    const err = stopped.error as CoreError;
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(
      'Reading slow.json took longer than the import time limit of 300 ms and was stopped; nothing was imported. Split it into smaller files and import them one by one.',
    );
    expect(libraryState(file)).toEqual(before);

    // Under the limit (the default one) the same file goes in whole: the stop above was the limit's doing.
    const whole = await timed(importSource(client, { kind: 'path', path: big }, { fileName: 'slow.json' }));
    expect(whole.error).toBeUndefined();
    expect(whole.value!.added).toBe(JSON_ITEMS);
    expect(libraryState(file).items).toBe(before.items + JSON_ITEMS);
    expect(threads()).toBe(baseline);
    // Measured side by side: the stopped import ended long before the whole parse would have.
    expect(
      stopped.ms,
      `stopped after ${Math.round(stopped.ms)} ms, whole import ${Math.round(whole.ms)} ms`,
    ).toBeLessThan(whole.ms / 2);
  });

  it('stops a BibTeX import the same way, whichever of its own check or the backstop ends it', async () => {
    const big = join(dir.path, 'many.bib');
    writeFileSync(big, bibtex(ITEMS, 'many'));
    const before = libraryState(file);
    const baseline = threads();
    const stopped = await timed(
      importSource(client, { kind: 'path', path: big }, { fileName: 'many.bib', limits: { timeBudgetMs: LIMIT_MS } }),
    );
    expect(threads()).toBe(baseline);
    const err = stopped.error as CoreError;
    expect(err).toBeInstanceOf(CoreError);
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(
      /^Reading many\.bib took longer than the import time limit of 300 ms and was stopped; nothing was imported\./,
    );
    expect(libraryState(file)).toEqual(before);
    // A limit the parse fits in: imported whole.
    const whole = await importSource(
      client,
      { kind: 'path', path: big },
      { fileName: 'many.bib', limits: { timeBudgetMs: 600_000 } },
    );
    expect(whole.added).toBe(ITEMS);
  });
});
