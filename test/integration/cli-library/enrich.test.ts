// `citewise enrich`, `citewise check` and the cache `citewise add` fills, against the local citation
// service, with the exit codes scripts rely on.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openServiceClient } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import type { CommandContext } from '../../../electron/cli/command';
import { service } from '../service-client/helpers';
import { run, runWith, tempDir } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let data: ReturnType<typeof tempDir>;
let deadUrl: string;

beforeAll(async () => {
  svc = await service();
  // A port nobody listens on: the service is unreachable.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  deadUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await svc?.close();
});
beforeEach(() => {
  data = tempDir();
});
afterEach(() => data.remove());

function openServiceAt(url: string): CommandContext['openService'] {
  return () => {
    return openServiceClient({
      dataDir: data.path,
      mode: 'cli',
      logger: silentLogger,
      serviceUrl: url,
      apiKey: svc.fullKey,
      secrets: createMemorySecretStore(),
      service: { maxAttempts: 1, breakerFailures: 100 },
    });
  };
}

const flaggedDoi = (): string =>
  svc.corpus.db.prepare('SELECT doi FROM papers WHERE retracted = 1 ORDER BY id LIMIT 1').pluck().get() as string;
const cleanDois = (n: number): string[] =>
  svc.corpus.db
    .prepare('SELECT doi FROM papers WHERE notice_flags = 0 AND retracted = 0 ORDER BY id LIMIT ?')
    .pluck()
    .all(n) as string[];

async function importBare(dois: readonly string[], extra = '', prefix = 'bare'): Promise<void> {
  const file = `${data.path}/${prefix}.bib`;
  writeFileSync(
    file,
    dois.map((d, i) => `@article{${prefix}${i}, title = {Bare ${prefix} ${i}}, doi = {${d}}}\n`).join('') + extra,
  );
  expect((await run(data.path, 'import', file)).code).toBe(0);
}

describe('citewise add', () => {
  it('caches the metadata, tallies and notices of what it added', async () => {
    const [a] = cleanDois(1) as [string];
    const r = flaggedDoi();
    const added = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'add', a, r, '--json');
    expect(added.code).toBe(0);
    const found = JSON.parse((await run(data.path, 'search', `doi:${r}`, '--json')).stdout) as {
      items: { evidence: unknown; retracted: boolean | null }[];
    };
    expect(found.items[0]!.retracted).toBe(true);
    expect(found.items[0]!.evidence).toMatchObject({ supporting: expect.any(Number) });
    // Nothing left to fetch: enrich (missing or stale only) asks for nothing.
    const enrich = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', '--json');
    expect(enrich.code).toBe(0);
    expect(JSON.parse(enrich.stdout)).toMatchObject({ runs: [], paused: null });
    // The retraction seen at add time is news for check, once.
    const check = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'check', '--json');
    expect(check.code).toBe(3);
    expect(JSON.parse(check.stdout)).toMatchObject({
      flagged: [{ doi: r, status: 'retracted' }],
      changes: [{ doi: r, previous: null, current: 'retracted' }],
    });
  });
});

describe('citewise add while the service cannot be reached', () => {
  it('keeps the DOIs as placeholders, exits 4, and enrich completes them later', async () => {
    const [a, b] = cleanDois(2) as [string, string];
    const offline = await runWith({ openService: openServiceAt(deadUrl) }, data.path, 'add', a, b, '--json');
    expect(offline.code).toBe(4);
    const report = JSON.parse(offline.stdout) as {
      added: unknown[];
      queued: { doi: string; id: number }[];
      notAdded: unknown[];
      paused: { code: string } | null;
    };
    expect(report.added).toEqual([]);
    expect(report.notAdded).toEqual([]);
    expect(report.queued.map((q) => q.doi)).toEqual([a, b]);
    const before = JSON.parse((await run(data.path, 'search', `doi:${a}`, '--json')).stdout) as {
      total: number;
      items: { title: string | null }[];
    };
    expect(before.total).toBe(1);
    const title = svc.corpus.db.prepare('SELECT title FROM papers WHERE doi = ?').pluck().get(a) as string;
    expect(before.items[0]!.title).not.toBe(title);

    const online = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', '--json');
    expect(online.code).toBe(0);
    const after = JSON.parse((await run(data.path, 'search', `doi:${a}`, '--json')).stdout) as {
      items: { title: string | null; evidence: unknown }[];
    };
    expect(after.items[0]!.title).toBe(title);
    expect(after.items[0]!.evidence).toMatchObject({ supporting: expect.any(Number) });
    // Adding them again now finds them in the library.
    const again = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'add', a);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${a}: already in the library`);
  });
});

describe('placeholders become real entries', () => {
  it('says a placeholder was kept, then enrich gives it its type, a real key, its keywords as tags and clears the pending mark', async () => {
    const withKeywords = svc.corpus.db
      .prepare(
        "SELECT doi, type, keywords FROM papers WHERE keywords IS NOT NULL AND keywords <> '[]' AND retracted = 0 ORDER BY id LIMIT 1",
      )
      .get() as { doi: string; type: string; keywords: string };
    const [plain] = cleanDois(1) as [string];
    const offline = await runWith({ openService: openServiceAt(deadUrl) }, data.path, 'add', withKeywords.doi, plain);
    expect(offline.code).toBe(4);
    expect(offline.stdout.split('\n')[0]).toBe('2 placeholders kept, completed when the service is reachable.');
    expect(offline.stdout).not.toContain('Added 0');
    const keysBefore = (
      JSON.parse((await run(data.path, 'search', 'doi:10.*', '--json')).stdout) as { items: { citationKey: string }[] }
    ).items.map((i) => i.citationKey);
    expect(keysBefore.sort()).toEqual(['anon', 'anona']);

    expect((await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich')).code).toBe(0);
    const out = JSON.parse((await run(data.path, 'export', '--format', 'csl-json')).stdout) as {
      id: string;
      type: string;
      DOI: string;
      custom?: unknown;
      keyword?: string;
    }[];
    expect(out).toHaveLength(2);
    for (const item of out) {
      expect(item.id).not.toMatch(/^anon[a-z]*$/);
      expect(item.custom).toBeUndefined();
    }
    const completed = out.find((i) => i.DOI === withKeywords.doi)!;
    const keywords = JSON.parse(withKeywords.keywords) as string[];
    expect(completed.keyword).toBe(keywords.join(', '));
    const tagged = JSON.parse((await run(data.path, 'search', `tag:"${keywords[0]}"`, '--json')).stdout) as {
      items: { citationKey: string; type: string }[];
    };
    expect(tagged.items.map((i) => i.citationKey)).toContain(completed.id);
    expect(completed.type).toBe(withKeywords.type === 'journal-article' ? 'article-journal' : completed.type);
  });
});

describe('citewise enrich', () => {
  it('enriches the library with progress on stderr, continues after going offline, and exits 4 while paused', async () => {
    const dois = cleanDois(30);
    await importBare(dois, '@book{nodoi, title = {No DOI here}}\n');
    const offline = await runWith({ openService: openServiceAt(deadUrl) }, data.path, 'enrich');
    expect(offline.code).toBe(4);
    expect(offline.stderr).toMatch(/enrichment paused: .*run "citewise enrich" again/);

    const online = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', '--json');
    expect(online.code).toBe(0);
    expect(online.stderr).toMatch(/30 of 30 DOIs/);
    const report = JSON.parse(online.stdout) as {
      runs: { state: string; done: number; total: number; filled: number }[];
      paused: unknown;
    };
    // The interrupted run is continued; nothing else was missing.
    expect(report.runs).toEqual([expect.objectContaining({ state: 'done', done: 30, total: 30, filled: 30 })]);
    expect(report.paused).toBeNull();
    const stats = JSON.parse((await run(data.path, 'stats', '--json')).stdout) as { withTallies: number };
    expect(stats.withTallies).toBe(30);
    const again = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to enrich');
  });

  it('takes DOIs, --query or --all as its scope, and refuses two scopes or a bad DOI', async () => {
    const dois = cleanDois(4);
    await importBare(dois);
    const one = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', dois[0]!, '--json');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ runs: [{ total: 1, done: 1, state: 'done' }] });
    const query = await runWith(
      { openService: openServiceAt(svc.url) },
      data.path,
      'enrich',
      '--query',
      'Bare',
      '--json',
    );
    expect(JSON.parse(query.stdout)).toMatchObject({ runs: [{ total: 4, done: 4 }] });
    const all = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', '--all');
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/Enrich the library: 4 of 4 DOIs/);
    expect(
      (await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', '--all', '--query', 'x')).code,
    ).toBe(2);
    expect((await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', 'not-a-doi')).code).toBe(2);
    const missing = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'enrich', '--collection', 'Nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no collection is called "Nope"');
  });
});

describe('citewise check', () => {
  it('exits 0 when nothing is flagged and 3 when something is, reporting each change once', async () => {
    const clean = cleanDois(3);
    await importBare(clean);
    const none = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'check');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No item in the library is retracted');

    const r = flaggedDoi();
    await importBare([r], '', 'flagged');
    const first = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'check');
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/Flagged items \(1\):\n {2}retracted +flagged0\t/);
    expect(first.stdout).toMatch(
      new RegExp(
        `Changed since the last check \\(1\\):\\n  flagged0: first check → retracted \\(${r.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`,
      ),
    );
    const second = await runWith({ openService: openServiceAt(svc.url) }, data.path, 'check', '--json');
    expect(second.code).toBe(3);
    expect(JSON.parse(second.stdout)).toMatchObject({ flagged: [{ doi: r }], changes: [], refreshed: null });

    // Offline, check answers from the library; with nothing flagged it says the answer may be old.
    const offline = await runWith({ openService: openServiceAt(deadUrl) }, data.path, 'check', '--offline');
    expect(offline.code).toBe(3);
    expect(
      (await runWith({ openService: openServiceAt(deadUrl) }, data.path, 'check', '--offline', 'extra')).code,
    ).toBe(2);
  });

  it('exits 4 when the notices could not be refreshed and nothing known is flagged', async () => {
    await importBare(cleanDois(2));
    const r = await runWith({ openService: openServiceAt(deadUrl) }, data.path, 'check');
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the notices could not be refreshed');
  });
});
