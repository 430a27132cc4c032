// Issue 42, point 1, end to end: a library imported from a file whose keys differ only in case
// (kim_2019, Kim_2019) beside a real Kim_2019a. `citewise manuscript` must resolve each cited key to the
// paper the file gave it to, and `--write-bib` must write those papers, not their namesakes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManuscriptReport } from '../../../shared/model/manuscript';
import { runManuscriptCommand } from '../../../electron/cli/commands/manuscript';
import { importText } from '../../../electron/core/formats';
import { run, tempDir } from './helpers';

const BIB = String.raw`@article{kim_2019,
  author = {Kim, Ji-woo},
  title = {Graphene oxide membranes for water desalination},
  journal = {Nature Communications},
  year = {2019}
}
@article{Kim_2019,
  author = {Kim, Seo-yeon},
  title = {Sleep deprivation and working memory in adolescents},
  journal = {Sleep},
  year = {2019}
}
@inproceedings{Kim_2019a,
  author = {Kim, Hyun},
  title = {Federated learning on edge devices},
  booktitle = {Proceedings of MLSys},
  year = {2019}
}
`;

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return {
    stream: new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
    text: () => chunks.join(''),
  };
}

describe('citewise manuscript with keys that differ only in case', () => {
  let data: ReturnType<typeof tempDir>;
  let work: ReturnType<typeof tempDir>;
  beforeEach(async () => {
    data = tempDir();
    work = tempDir('citewise-ms-keys-');
    writeFileSync(join(work.path, 'library.bib'), BIB);
    expect((await run(data.path, 'import', join(work.path, 'library.bib'))).code).toBe(0);
  });
  afterEach(() => {
    data.remove();
    work.remove();
  });

  it('resolves [@Kim_2019a], [@Kim_2019] and [@kim_2019] to the papers the file gave them to, and writes those', async () => {
    const md = join(work.path, 'draft.md');
    writeFileSync(md, 'Edge learning [@Kim_2019a]. Sleep [@Kim_2019]. Membranes [@kim_2019].\n');
    const bib = join(work.path, 'cited.bib');
    const out = sink();
    const code = await runManuscriptCommand(['manuscript', md, '--json', '--write-bib', bib], {
      dataDir: data.path,
      stdout: out.stream,
      stderr: sink().stream,
    });
    expect(code).toBe(0);
    const report = JSON.parse(out.text()) as ManuscriptReport;
    expect(report.cited.map((c) => [c.ref, c.item?.title])).toEqual([
      ['Kim_2019a', 'Federated learning on edge devices'],
      ['Kim_2019', 'Sleep deprivation and working memory in adolescents'],
      ['kim_2019', 'Graphene oxide membranes for water desalination'],
    ]);
    const written = importText(readFileSync(bib, 'utf8'), { format: 'bibtex' }).items.map((i) => [
      i.sourceKey,
      i.item.title,
    ]);
    expect(written).toEqual(
      expect.arrayContaining([
        ['Kim_2019a', 'Federated learning on edge devices'],
        ['kim_2019', 'Graphene oxide membranes for water desalination'],
        // The library holds keys without regard to case, so this paper's key had to change; the .bib
        // carries the key the library gave it, and the import said so.
        ['Kim_2019b', 'Sleep deprivation and working memory in adolescents'],
      ]),
    );
    expect(written).toHaveLength(3);
  });
});
