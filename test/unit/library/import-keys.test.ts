// Issue 42, point 1: a citation key must never name a different paper. A key the file gives is never
// handed to another entry, and collision suffixes skip every key present in the file or the library,
// case-insensitively. The files are shaped as the real ones were: a JabRef/Better BibTeX library where
// one author's keys differ only in case (kim_2019, Kim_2019) beside a real Kim_2019a, and RIS files
// where some records carry an ID and others none.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportFormat } from '../../../electron/core/formats';
import { LibraryClient } from '../../../electron/core/library/client';
import { testLibrary, type TestLibrary } from './helpers/lib';
import { importThroughPort } from './helpers/port-import';

vi.setConfig({ testTimeout: 60_000 });

function libraryAndClient(): { t: () => TestLibrary; client: () => LibraryClient } {
  let t: TestLibrary;
  let client: LibraryClient;
  beforeEach(async () => {
    t = testLibrary();
    client = await LibraryClient.start({ file: t.file, durability: 'off' });
  });
  afterEach(async () => {
    await client.close();
    t.dispose();
  });
  return { t: () => t, client: () => client };
}

function store(client: LibraryClient, text: string, format: ImportFormat, source = 'library.bib') {
  return importThroughPort(client, { kind: 'text', text }, { format, source });
}

// Three papers by three Kims of 2019, as a 7,166-entry JabRef library had them.
const KIMS = String.raw`@article{kim_2019,
  author = {Kim, Ji-woo and Park, Min},
  title = {Graphene oxide membranes for water desalination},
  journal = {Nature Communications},
  year = {2019},
  doi = {10.1038/s41467-019-00001-1}
}

@article{Kim_2019,
  author = {Kim, Seo-yeon},
  title = {Sleep deprivation and working memory in adolescents},
  journal = {Sleep},
  year = {2019},
  doi = {10.1093/sleep/zsz002}
}

@inproceedings{Kim_2019a,
  author = {Kim, Hyun and Lee, Dae},
  title = {Federated learning on edge devices},
  booktitle = {Proceedings of MLSys},
  year = {2019}
}
`;

/** key → title, from the library itself. */
function keysAndTitles(t: TestLibrary, ids: readonly number[]): Record<string, string> {
  return Object.fromEntries(t.library.cslOf(ids).map((i) => [i['citation-key'] as string, i.title as string]));
}

describe('a key the file gives is never handed to another entry', () => {
  const lib = libraryAndClient();

  it('keeps kim_2019 and Kim_2019a on their own papers; Kim_2019 skips every key of the file', async () => {
    const r = await store(lib.client(), KIMS, 'bibtex');
    expect(r.added).toBe(3);
    expect(keysAndTitles(lib.t(), r.ids)).toEqual({
      kim_2019: 'Graphene oxide membranes for water desalination',
      Kim_2019b: 'Sleep deprivation and working memory in adolescents',
      Kim_2019a: 'Federated learning on edge devices',
    });
    expect(r.warnings.map((w) => [w.line, w.reason])).toEqual([
      [9, 'The citation key "Kim_2019" is already used; this entry got "Kim_2019b" ("Kim_2019" → "Kim_2019b").'],
    ]);
    // The stored record, the key column and the search index agree on every key.
    const t = lib.t();
    for (const [key, title] of Object.entries(keysAndTitles(t, r.ids))) {
      expect(t.library.cslOf([t.library.findByCitationKey(key)!])[0]!.title).toBe(title);
      expect(t.library.searchCsl(key, 5).map((i) => i.title)).toContain(title);
    }
    // The renamed entry keeps the key as written, as an alias: [@Kim_2019] finds its paper, not kim_2019's.
    expect(t.library.cslOf([t.library.findByCitationKey('Kim_2019')!])[0]!.title).toBe(
      'Sleep deprivation and working memory in adolescents',
    );
    expect(t.library.cslOf([t.library.findByCitationKey('kim_2019')!])[0]!.title).toBe(
      'Graphene oxide membranes for water desalination',
    );
  });

  it('gives the same keys whatever the order of the entries', async () => {
    const [a, b, c] = KIMS.split(/\n(?=@)/);
    const r = await store(lib.client(), [c, b, a].join('\n'), 'bibtex');
    expect(keysAndTitles(lib.t(), r.ids)).toEqual({
      Kim_2019a: 'Federated learning on edge devices',
      Kim_2019: 'Sleep deprivation and working memory in adolescents',
      kim_2019b: 'Graphene oxide membranes for water desalination',
    });
  });

  it('skips the keys already in the library, whatever their case', async () => {
    const first = await store(lib.client(), KIMS, 'bibtex', 'first.bib');
    expect(first.added).toBe(3);
    const more = String.raw`@article{KIM_2019, author = {Kim, Do}, title = {Another Kim paper}, year = {2019}, journal = {J}}
@article{kim_2019c, author = {Kim, Eun}, title = {A fourth Kim paper}, year = {2019}, journal = {J}}`;
    const r = await store(lib.client(), more, 'bibtex', 'second.bib');
    expect(keysAndTitles(lib.t(), r.ids)).toEqual({
      KIM_2019d: 'Another Kim paper',
      kim_2019c: 'A fourth Kim paper',
    });
  });

  it('takes back a key the formula gave to an entry without one (RIS: a record without ID before one with it)', async () => {
    const ris = [
      'TY  - JOUR',
      'AU  - Smith, Anna',
      'TI  - Quick brown foxes',
      'PY  - 2020',
      'ER  - ',
      '',
      'TY  - JOUR',
      'AU  - Jones, Bob',
      'TI  - Lazy dogs',
      'PY  - 2021',
      'ID  - smithQuickBrownFoxes2020',
      'ER  - ',
      '',
    ].join('\n');
    const r = await store(lib.client(), ris, 'ris', 'mixed.ris');
    expect(r.added).toBe(2);
    expect(keysAndTitles(lib.t(), r.ids)).toEqual({
      smithQuickBrownFoxes2020a: 'Quick brown foxes',
      smithQuickBrownFoxes2020: 'Lazy dogs',
    });
    expect(r.warnings).toEqual([]);
    expect(
      lib
        .t()
        .library.searchCsl('key:smithQuickBrownFoxes2020a', 5)
        .map((i) => i.title),
    ).toEqual(['Quick brown foxes']);
  });

  it('updates the warning of an entry whose suffixed key a later entry takes back', async () => {
    // Smith2020 twice (two papers), then the real Smith2020a: the second Smith2020 ends as Smith2020b.
    const bib = String.raw`@article{Smith2020, title = {First paper}, author = {Smith, A}, year = 2020, journal = {J}}
@article{Smith2020, title = {Second paper}, author = {Smith, A}, year = 2020, journal = {J}}
@article{Smith2020a, title = {Third paper}, author = {Smith, A}, year = 2020, journal = {J}}`;
    const r = await store(lib.client(), bib, 'bibtex');
    expect(keysAndTitles(lib.t(), r.ids)).toEqual({
      Smith2020: 'First paper',
      Smith2020b: 'Second paper',
      Smith2020a: 'Third paper',
    });
    expect(r.warnings.map((w) => w.reason)).toEqual([
      'The citation key "Smith2020" is already used; this entry got "Smith2020b" ("Smith2020" → "Smith2020b").',
    ]);
    // An exact repeat of the key is not a case variant: no alias, [@Smith2020] stays the first paper.
    expect(lib.t().library.cslOf([lib.t().library.findByCitationKey('Smith2020')!])[0]!.title).toBe('First paper');
  });

  it('still skips an exact repeat of an entry, and the same file imported again adds nothing', async () => {
    const first = await store(lib.client(), KIMS, 'bibtex');
    expect(first.added).toBe(3);
    const again = await store(lib.client(), KIMS, 'bibtex');
    expect(again.added).toBe(0);
    expect(again.duplicates).toHaveLength(3);
  });
});
