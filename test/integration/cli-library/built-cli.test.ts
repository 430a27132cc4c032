// The bundled CLI (out/cli, from `npm run build`) finds its library and formats workers beside itself.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleDois, service } from '../service-client/helpers';
import { FIXTURES, tempDir } from './helpers';

const ROOT = join(__dirname, '..', '..', '..');
const BUNDLE = join(ROOT, 'out', 'cli', 'index.js');
// Its help names the library commands (the text is in a chunk the entry loads, not in the entry itself).
const built =
  existsSync(BUNDLE) &&
  execFileSync(process.execPath, [join(ROOT, 'bin', 'citewise.mjs'), '--help'], { encoding: 'utf8' }).includes(
    'restore [FILE]',
  );
const why = existsSync(BUNDLE)
  ? 'out/cli/index.js predates the library commands; run `npm run build`'
  : 'out/cli is missing; run `npm run build` (npm test builds first)';

const exec = promisify(execFile);
const citewise = (...args: string[]) =>
  exec(process.execPath, [join(ROOT, 'bin', 'citewise.mjs'), ...args], {
    timeout: 60_000,
    env: { ...process.env, CITEWISE_DATA_DIR: '' },
  });

describe.skipIf(!built)(`the built citewise command${built ? '' : ` (skipped: ${why})`}`, () => {
  let data: ReturnType<typeof tempDir>;
  beforeEach(() => {
    data = tempDir();
  });
  afterEach(() => data.remove());

  it('imports, searches and exports through the bundled workers', async () => {
    const imported = await citewise('--data-dir', data.path, 'import', join(FIXTURES, 'library.bib'), '--json');
    expect((JSON.parse(imported.stdout) as { added: number }).added).toBe(13);
    const found = await citewise('--data-dir', data.path, 'search', 'author:watson');
    expect(found.stdout).toContain('watson1953');
    const apa = await citewise(
      '--data-dir',
      data.path,
      'export',
      '--format',
      'text',
      '--style',
      'apa',
      '--query',
      'author:watson',
    );
    expect(apa.stdout).toContain('(1953)');
    const bad = await citewise('--data-dir', data.path, 'search', 'year:').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({ code: 2 });
  });

  it('adds a paper by DOI from the service given with --service-url', async () => {
    const svc = await service();
    try {
      const [doi] = sampleDois(svc, 1) as [string];
      const added = await exec(
        process.execPath,
        [join(ROOT, 'bin', 'citewise.mjs'), '--data-dir', data.path, '--service-url', svc.url, 'add', doi, '--json'],
        {
          timeout: 60_000,
          env: { ...process.env, CITEWISE_DATA_DIR: '', CITEWISE_API_KEY: svc.fullKey },
        },
      );
      expect((JSON.parse(added.stdout) as { added: { doi: string }[] }).added.map((a) => a.doi)).toEqual([doi]);
    } finally {
      await svc.close();
    }
  });
});
