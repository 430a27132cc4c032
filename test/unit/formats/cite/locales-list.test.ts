// Every CSL locale the build ships (scripts/build-csl.mjs, from resources/csl: the files go with the app
// in out/csl, so macOS and Windows have them) is one the app offers, and the other way round; each
// formats a bibliography in its own language.
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import { CITATION_LOCALES } from '../../../../shared/model/settings';
import { directoryAssets } from '../../../../electron/core/formats/cite/assets';
import { createCiteFormatter } from '../../../../electron/core/formats/cite/formatter';
import { buildCslDir } from './helpers';

describe('the citation locales', () => {
  it('are exactly the locales the build ships', () => {
    const shipped = directoryAssets(buildCslDir()).manifest.locales;
    expect([...CITATION_LOCALES].sort()).toEqual([...shipped].sort());
    expect(CITATION_LOCALES.length).toBeGreaterThanOrEqual(50);
  });

  it('format in their own language, chosen per call', async () => {
    const formatter = createCiteFormatter({ workers: 0, assets: directoryAssets(buildCslDir()) });
    try {
      const item: CslItem = {
        id: 'k',
        type: 'article-newspaper',
        title: 'A title',
        author: [
          { family: 'Ames', given: 'A.' },
          { family: 'Baker', given: 'B.' },
          { family: 'Cole', given: 'C.' },
        ],
        issued: { 'date-parts': [[2020, 3, 1]] },
        'container-title': 'Journal',
        accessed: { 'date-parts': [[2021, 5, 2]] },
        URL: 'https://example.org/x',
      };
      const text = async (locale: string) =>
        (await formatter.formatBibliography([item], { style: 'apa', format: 'text', locale })).document;
      expect(await text('en-US')).toContain('(2020, March 1)');
      expect(await text('de-DE')).toContain('März');
      expect(await text('fr-FR')).toContain('mars');
      expect(await text('es-ES')).toContain('marzo');
      expect(await text('pt-BR')).toContain('março');
    } finally {
      await formatter.close();
    }
  });
});
