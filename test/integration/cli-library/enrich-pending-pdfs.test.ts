// `citewise enrich` runs the title searches of PDFs captured offline (issue 23), as the app does when
// the service is back: against the local service behind a proxy that can go offline or refuse one
// search, it says how many were completed, still wait or failed, in its text and its --json output,
// and enriches what they identified in the same run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceClient } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import type { CommandContext } from '../../../electron/cli/command';
import { makePdf } from '../../helpers/pdfs';
import { serviceProxy, type ServiceProxy } from '../enrich/helpers';
import { service } from '../service-client/helpers';
import { run, runWith, tempDir } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let proxy: ServiceProxy;
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  svc = await service();
  proxy = await serviceProxy(() => svc.url);
  data = tempDir();
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
  data?.remove();
});

const openService: CommandContext['openService'] = () =>
  openServiceClient({
    dataDir: data.path,
    mode: 'cli',
    logger: silentLogger,
    serviceUrl: proxy.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
    service: { maxAttempts: 1, breakerFailures: 100 },
  });

interface TitleSearches {
  completed: number;
  identified: number;
  waiting: number;
  failed: number;
}

async function enrichJson(): Promise<{
  code: number;
  report: { titleSearches: TitleSearches | null; paused: unknown };
  stderr: string;
}> {
  const r = await runWith({ openService }, data.path, 'enrich', '--json');
  return {
    code: r.code,
    report: JSON.parse(r.stdout) as { titleSearches: TitleSearches | null; paused: unknown },
    stderr: r.stderr,
  };
}

/** The item a captured PDF became, as `citewise search` lists it. */
async function itemTitled(words: string): Promise<{ doi: string | null; evidence: unknown }> {
  const found = JSON.parse((await run(data.path, 'search', `title:"${words}"`, '--json')).stdout) as {
    items: { doi: string | null; evidence: unknown }[];
  };
  expect(found.items).toHaveLength(1);
  return found.items[0]!;
}

describe('citewise enrich and the PDFs captured offline', () => {
  it('runs their title searches: still waiting while offline (exit 4), then completed or failed, and enriches what they identified', async () => {
    const [one, two] = (
      svc.corpus.db.prepare('SELECT * FROM papers WHERE retracted = 0 ORDER BY id LIMIT 2').all() as Parameters<
        typeof svc.corpus.paper
      >[0][]
    ).map((r) => svc.corpus.paper(r));
    const pdfs = {
      known: await makePdf({
        title: one!.title,
        byline: `A. ${one!.authors[0]?.family ?? 'Nobody'}`,
        pages: [['No identifier is printed on this paper.']],
      }),
      refused: await makePdf({
        title: two!.title,
        byline: `B. ${two!.authors[0]?.family ?? 'Nobody'}`,
        pages: [['Nor on this one.']],
      }),
      unknown: await makePdf({
        title: 'Quixotic zephyr vellum marmalade',
        byline: 'Q. Nobody',
        pages: [['No identifier here either.']],
      }),
    };
    const files = Object.entries(pdfs).map(([name, bytes]) => {
      const file = join(data.path, `${name}.pdf`);
      writeFileSync(file, bytes);
      return file;
    });

    // Captured while the service cannot be reached: each waits for its title search.
    proxy.offline = true;
    expect((await runWith({ openService }, data.path, 'import', ...files)).code).toBe(0);
    const offline = await enrichJson();
    expect(offline.report.titleSearches).toEqual({ completed: 0, identified: 0, waiting: 3, failed: 0 });
    expect(offline.code).toBe(4);

    // Back, but the service refuses the search of one title (a 422): that one failed, the others completed.
    proxy.offline = false;
    const refusedWord = two!.title.split(/\s+/).find((w) => w.length > 5)!;
    proxy.refuse = (url) =>
      url.startsWith('/search') && decodeURIComponent(url.replace(/\+/g, ' ')).includes(refusedWord) ? 422 : null;
    const online = await runWith({ openService }, data.path, 'enrich');
    expect(online.stdout).toContain(
      'Title searches of 3 PDFs captured offline: 2 completed (1 identified), 0 still waiting, 1 failed\n',
    );
    expect(online.stderr).toContain(
      'citewise: the title search of a PDF captured offline failed: The service rejected the request',
    );
    expect(online.code).toBe(1);
    // Identified and enriched in the same run: the service's DOI and its tallies.
    const known = await itemTitled(one!.title);
    expect(known.doi).toBe(one!.doi.toLowerCase());
    expect(known.evidence).toMatchObject({ supporting: expect.any(Number) });
    expect((await itemTitled('Quixotic zephyr vellum marmalade')).doi).toBeNull();

    // The failed one is tried again by the next run, and completes.
    proxy.refuse = null;
    const again = await enrichJson();
    expect(again.report.titleSearches).toEqual({ completed: 1, identified: 1, waiting: 0, failed: 0 });
    expect(again.code).toBe(0);
    expect((await itemTitled(two!.title)).doi).toBe(two!.doi.toLowerCase());

    // Nothing waits any more: nothing searched, and the text says nothing of it.
    expect((await enrichJson()).report.titleSearches).toEqual({ completed: 0, identified: 0, waiting: 0, failed: 0 });
    expect((await runWith({ openService }, data.path, 'enrich')).stdout).not.toContain('captured offline');
  }, 120_000);

  it('leaves them to library-wide runs: a DOI scope searches no title', async () => {
    const [doi] = svc.corpus.db
      .prepare('SELECT doi FROM papers WHERE retracted = 0 ORDER BY id LIMIT 1 OFFSET 5')
      .pluck()
      .all() as string[];
    const r = await runWith({ openService }, data.path, 'enrich', doi!, '--json');
    expect((JSON.parse(r.stdout) as { titleSearches: unknown }).titleSearches).toBeNull();
  });
});
