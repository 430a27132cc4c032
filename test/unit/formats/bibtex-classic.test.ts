// Issue 32: "BibTeX" export is classic BibTeX for items that came from biblatex (types, journal,
// year/month, address, school/institution, howpublished/url), as Better BibTeX writes it; BibLaTeX
// export keeps biblatex. Pinned by running the real `bibtex` with plain.bst on the exported file: its
// warnings ("entry type … isn't style-file defined", "empty journal", "empty year") are the papers a
// classic document would print without their journal or year.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText, toBibtex } from '../../../electron/core/formats';

const REAL_WORLD = join(import.meta.dirname, '../../fixtures/real-world');

// A biblatex user's entries of the types the issue names, as JabRef (biblatex mode) writes them.
const BIBLATEX = String.raw`@Online{web,
  author       = {Doe, Jane},
  title        = {A Web Page},
  url          = {https://example.org/page},
  urldate      = {2020-01-02},
  date         = {2019-05-03},
}
@Report{rep,
  author      = {Doe, Jane},
  title       = {A Report},
  type        = {techreport},
  institution = {MIT},
  location    = {Cambridge, MA},
  date        = {2018},
  number      = {TR-1},
}
@Thesis{phd,
  author      = {Doe, Jane},
  title       = {A Thesis},
  type        = {phdthesis},
  institution = {Oxford University},
  date        = {2017-09},
}
@Thesis{ma,
  author      = {Doe, Jane},
  title       = {A Master's Thesis},
  type        = {mathesis},
  institution = {ETH Zürich},
  date        = {2016},
}
@Article{art,
  author       = {Doe, Jane},
  title        = {An Article},
  journaltitle = {Nature},
  date         = {2015-03-12},
  volume       = {5},
  pages        = {1--10},
}
@Online{preprint,
  author     = {Doe, Jane},
  title      = {A Preprint},
  eprint     = {2101.00001},
  eprinttype = {arXiv},
  date       = {2021},
}
`;

function items(text: string): CslItem[] {
  const r = importText(text, { format: 'bibtex' });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}

/** Runs bibtex with plain.bst on the file; the warnings and the .bbl it wrote. */
function runBibtex(bib: string): { warnings: string[]; bbl: string } {
  const dir = mkdtempSync(join(tmpdir(), 'citewise-bibtex-'));
  try {
    writeFileSync(join(dir, 'refs.bib'), bib);
    writeFileSync(join(dir, 't.aux'), '\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n');
    let log = '';
    try {
      log = execFileSync('bibtex', ['-terse', 't'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    } catch (e) {
      // bibtex exits 1 when it warned and 2 on errors: the output says which.
      const err = e as { status?: number; stdout?: string };
      if (err.status !== 1) throw e;
      log = err.stdout ?? '';
    }
    return {
      warnings: log.split('\n').filter((l) => /^Warning--|error/i.test(l)),
      bbl: readFileSync(join(dir, 't.bbl'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('BibTeX export is classic BibTeX', () => {
  it('converts biblatex types and fields, so bibtex prints every journal and year', () => {
    const list = items(BIBLATEX);
    const out = toBibtex(list);
    expect(out).toMatch(
      /@misc\{web,[^@]*howpublished = \{\\url\{https:\/\/example\.org\/page\}\}[^@]*year = \{2019\},\s+month = may/,
    );
    expect(out).toMatch(/@techreport\{rep,[^@]*institution = \{MIT\},\s+address = \{Cambridge, MA\}/);
    expect(out).toMatch(/@phdthesis\{phd,[^@]*school = \{Oxford University\}/);
    expect(out).toMatch(/@mastersthesis\{ma,[^@]*school = \{ETH Zürich\}/);
    expect(out).toMatch(/@article\{art,[^@]*journal = \{Nature\}[^@]*year = \{2015\},\s+month = mar/);
    expect(out).toContain('url = {https://arxiv.org/abs/2101.00001}');
    for (const gone of [
      '@online',
      '@report',
      '@thesis',
      'journaltitle',
      '\n  date =',
      'location =',
      'type = {phdthesis}',
      'type = {mathesis}',
    ])
      expect(out, gone).not.toContain(gone);

    const { warnings, bbl } = runBibtex(out);
    expect(warnings).toEqual([]);
    expect(bbl).toContain('{\\em Nature}, 5:1--10, March 2015');
    expect(bbl).toContain("Master's thesis, ETH Zürich, 2016");
    expect(bbl).toContain('PhD thesis, Oxford University, September 2017');
  });

  it('reads back what it wrote as the same items', () => {
    const list = items(BIBLATEX);
    const again = items(toBibtex(list));
    // A web page comes back as a @misc document: classic BibTeX has no type for it.
    const view = (i: CslItem) => [
      i.type === 'webpage' ? 'document' : i.type,
      i.title,
      i['container-title'],
      i.publisher,
      i['publisher-place'],
      i.issued,
      i.URL,
    ];
    expect(again.map(view)).toEqual(list.map(view));
  });

  it('makes the biblatex fixtures bibtex-clean (JabRef biblatex mode, multi-volume works)', () => {
    const list = ['jabref-biblatex.bib', 'biblatex-multivolume.bib'].flatMap((f) =>
      items(readFileSync(join(REAL_WORLD, f), 'utf8')),
    );
    const { warnings } = runBibtex(toBibtex(list));
    expect(
      warnings.filter((w) =>
        /isn't style-file defined|empty journal|empty year|empty school|empty institution/.test(w),
      ),
    ).toEqual([]);
  });

  it('BibLaTeX export keeps biblatex', () => {
    const out = toBibtex(items(BIBLATEX), { biblatex: true });
    for (const kept of [
      '@online{web',
      '@report{rep',
      '@thesis{phd',
      'journaltitle = {Nature}',
      'date = {2015-03-12}',
      'location = {Cambridge, MA}',
      'institution = {Oxford University}',
      'eprinttype = {arXiv}',
    ])
      expect(out, kept).toContain(kept);
    expect(out).not.toContain('howpublished');
    expect(out).not.toContain('arxiv.org');
  });
});
