// Test support: the styles and locales come from scripts/build-csl.mjs, run into a temporary folder
// (the same script `npm run build` runs), so a fresh checkout's `npm test` needs no prior build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CslItem } from '../../../../shared/model/csl';

export const ROOT = resolve(import.meta.dirname, '../../../..');

/** Runs build-csl into a fresh temporary folder and returns it. */
export function buildCslDir(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'citewise-csl-')), 'csl');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-csl.mjs'), '--out', out, '--quiet'], { stdio: 'pipe' });
  return out;
}

/** A corpus with one item of every CSL item type plus edge cases (disambiguation, particles, 23 authors, no date…). */
export function corpus(): CslItem[] {
  return JSON.parse(readFileSync(join(ROOT, 'test/fixtures/cite/corpus.json'), 'utf8')) as CslItem[];
}
