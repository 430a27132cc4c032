// One Zotero Connector save (its saveItems with the item Embedded Metadata reads from an article page,
// then saveAttachment with the page's PDF, over HTTP to the editor API, as the extension sends them),
// beside the same PDF dropped into the Library (pdfs.add, its bytes in base64, as the renderer sends
// them), into a library each, in the same run, alternating. No service (each DOI is a placeholder).
// Measured: the wall time of each, median over the rounds, and their ratio.
// CONNECTOR_SAVE_N sets the rounds (default 30; 5 with --quick).
import { join } from 'node:path';
import type { BenchCase, BenchMetric } from '../harness';
import { percentile } from '../harness';

const CONNECTOR = {
  'Content-Type': 'application/json',
  'X-Zotero-Version': '5.0.213',
  'X-Zotero-Connector-API-Version': '3',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  Origin: 'chrome-extension://ekhagklcjbdpajgpjgmbionohlpdbjgc',
};

const bench: BenchCase = {
  name: 'connector-save',
  description: 'one Zotero Connector save (item and its PDF over HTTP) beside the same PDF dropped into the Library',
  async run({ tmpDir, quick, log }) {
    const { createCore } = await import('../../../electron/core');
    const { silentLogger } = await import('../../../electron/core/log');
    const { startApiServer } = await import('../../../electron/api/server');
    const { makePdf, bodyLines } = await import('../../helpers/pdfs');
    const { send } = await import('../../integration/api/helpers');
    const n = Number(process.env.CONNECTOR_SAVE_N) || (quick ? 5 : 30);

    const connector: number[] = [];
    const dropped: number[] = [];
    let pdfBytes = 0;
    // Two libraries, started once (as the app is); round 0 warms each (workers, pdf.js) and is not counted.
    const a = await createCore({ dataDir: join(tmpDir, 'connector'), mode: 'test', logger: silentLogger });
    const b = await createCore({ dataDir: join(tmpDir, 'dropped'), mode: 'test', logger: silentLogger });
    const api = await startApiServer({
      core: a,
      port: 0,
      openPicker: () => undefined,
      selection: () => Promise.resolve([]),
      copy: () => Promise.resolve(),
    });
    try {
      for (let i = 0; i <= n; i++) {
        const doi = `10.5555/bench.connector.${i}`;
        const title = `Benchmark paper number ${i}`;
        const pages = Array.from({ length: 10 }, (_, p) =>
          p === 0 ? [`https://doi.org/${doi}`, ...bodyLines(i, 30)] : bodyLines(i * 10 + p, 40),
        );
        const pdf = Buffer.from(await makePdf({ title, byline: 'A. Author, B. Author', pages }));
        pdfBytes = pdf.length;
        const sessionID = `bench-${i}`;
        const item = {
          itemType: 'journalArticle',
          title,
          creators: [
            { firstName: 'A.', lastName: 'Author', creatorType: 'author' },
            { firstName: 'B.', lastName: 'Author', creatorType: 'author' },
          ],
          date: '2024-03-01',
          publicationTitle: 'Journal of Benchmarks',
          DOI: doi,
          url: `https://journal.example/articles/${i}`,
          accessDate: 'CURRENT_TIMESTAMP',
          tags: [],
          notes: [],
          attachments: [],
          id: `item${i}`,
        };
        let t = performance.now();
        const saved = await send(
          api.port,
          'POST',
          '/connector/saveItems',
          CONNECTOR,
          JSON.stringify({ sessionID, uri: item.url, items: [item] }),
        );
        const attached = await send(
          api.port,
          'POST',
          `/connector/saveAttachment?sessionID=${sessionID}`,
          {
            ...CONNECTOR,
            'Content-Type': 'application/pdf',
            'X-Metadata': JSON.stringify({
              id: `pdf${i}`,
              url: `${item.url}.pdf`,
              contentType: 'application/pdf',
              parentItemID: item.id,
              title: 'Full Text PDF',
            }),
          },
          pdf,
        );
        const c = performance.now() - t;
        if (saved.status !== 201 || attached.status !== 201)
          throw new Error(`the Connector's save answered ${saved.status}, ${attached.status}: ${attached.body}`);
        // The same PDF dropped into the Library: pdfs.add as the renderer sends it.
        t = performance.now();
        const r = await b.invoke('pdfs.add', { name: `paper-${i}.pdf`, base64: pdf.toString('base64') });
        const d = performance.now() - t;
        if (!r.ok) throw new Error(`pdfs.add failed: ${r.error.message}`);
        if (i === 0) continue;
        connector.push(c);
        dropped.push(d);
        log(`round ${i}/${n}: Connector ${c.toFixed(0)} ms, dropped ${d.toFixed(0)} ms`);
      }
    } finally {
      await api.close();
      await a.close();
      await b.close();
    }
    const median = (xs: number[]) =>
      percentile(
        [...xs].sort((x, y) => x - y),
        50,
      );
    const c = median(connector);
    const d = median(dropped);
    const note = `median of ${n} rounds, a ten-page PDF of ${Math.round(pdfBytes / 1024)} kB; a library each, warmed by one save first; no service`;
    const metrics: BenchMetric[] = [
      {
        metric: 'one Connector save: saveItems then saveAttachment with its PDF, over HTTP',
        value: c,
        unit: 'ms',
        note,
      },
      { metric: 'the same PDF dropped into the Library (pdfs.add, base64)', value: d, unit: 'ms', note },
      { metric: 'Connector save / PDF dropped', value: c / d, unit: 'ratio' },
    ];
    return metrics;
  },
};

export default bench;
