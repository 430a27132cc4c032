// `citewise import paper.pdf …`: PDFs beside the other formats, through the real service client and
// the local service, with one report line per file and the exit code saying whether any file failed.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceClient } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { makePdf } from '../../helpers/pdfs';
import { service } from '../service-client/helpers';
import { runWith, tempDir } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let data: ReturnType<typeof tempDir>;
let files: ReturnType<typeof tempDir>;

beforeAll(async () => {
  svc = await service();
  data = tempDir();
  files = tempDir('citewise-cli-pdfs-');
});
afterAll(async () => {
  await svc?.close();
  data?.remove();
  files?.remove();
});

describe('citewise import with PDFs', () => {
  it('reports each PDF (identified, needs review, duplicate, failed) beside a BibTeX file, and exits 1 for the failed one', async () => {
    const [a, b] = (svc.corpus.db.prepare('SELECT doi FROM papers ORDER BY id LIMIT 2').all() as { doi: string }[]).map(
      (r) => r.doi,
    );
    const one = join(files.path, 'one.pdf');
    writeFileSync(one, await makePdf({ title: 'Anything', xmpDoi: a! }));
    const two = join(files.path, 'two.pdf');
    writeFileSync(two, await makePdf({ title: 'Two of them', pages: [[`${a!} and ${b!}`]] }));
    const bad = join(files.path, 'bad.pdf');
    writeFileSync(bad, 'not a pdf at all');
    const bib = join(files.path, 'refs.bib');
    writeFileSync(bib, '@article{k1, title={A BibTeX entry}, year={2020}}\n');
    const openService = () =>
      openServiceClient({
        dataDir: data.path,
        mode: 'cli',
        logger: silentLogger,
        serviceUrl: svc.url,
        apiKey: svc.fullKey,
        secrets: createMemorySecretStore(),
      });

    const first = await runWith({ openService }, data.path, 'import', one, two, bad, bib, one);
    expect(first.code).toBe(1);
    const lines = first.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `${one} (pdf): added as item 1, identified as ${a!.toLowerCase()} by its XMP metadata (confidence 0.98)`,
    );
    expect(lines[1]).toBe(
      `${two} (pdf): added as item 2, needs review: 2 candidates (${a!.toLowerCase()}, ${b!.toLowerCase()}) (confidence 0.50)`,
    );
    expect(lines[2]).toBe(`${bib} (bibtex): 1 item added`);
    expect(lines[3]).toBe(`${one} (pdf): already in the library (item 1, the same file), skipped`);
    expect(first.stderr).toBe(
      'citewise: bad.pdf was not added: it is not a PDF (it does not start with a PDF header).\n',
    );

    const json = await runWith({ openService }, data.path, 'import', '--json', '--link', two);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      added: 0,
      duplicates: 1,
      failedFiles: 0,
      files: [{ format: 'pdf', pdf: { status: 'duplicate', itemId: 2, reason: 'checksum' } }],
    });
    expect(existsSync(join(data.path, 'attachments'))).toBe(true);
  }, 120_000);
});
