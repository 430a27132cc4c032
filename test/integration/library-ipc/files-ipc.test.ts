// Auto-export set-up, restore from a backup and attachments through the IPC contract, as the Settings
// pane and the details pane use them: a real core (library worker, auto-exporter) and the local
// service. Browser mode has no desktop shell; the desktop app's (save dialog, open with the OS) is
// replaced by a recording one, the platform edge tests stand in for.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AutoExportStatusEvent,
  CitewiseApi,
  IpcError,
  LibraryChange,
  Result,
  Settings,
} from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import type { DesktopShell, SaveDialogOptions } from '../../../electron/core/desktop';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { tempDir } from '../../helpers/tmp';
import { service } from '../service-client/helpers';

const BIB = `@article{alpha2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020}
@article{beta2021, title = {Beta paper}, author = {Roe, Rick}, year = 2021}
@book{gamma2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019}
`;

let svc: Awaited<ReturnType<typeof service>>;
let dir: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
let core: Core;
let api: CitewiseApi;
const statuses: AutoExportStatusEvent[] = [];
const changes: LibraryChange[] = [];
const settingsEvents: Settings[] = [];
const isRoot = process.getuid?.() === 0;

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function failure<T>(r: Result<T>): IpcError {
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.value)}`);
  return r.error;
}

async function startCore(dataDir: string, desktop?: DesktopShell): Promise<Core> {
  return createCore({
    dataDir,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: svc.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
    desktop,
  });
}

async function until<T>(get: () => T | undefined | Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  svc = await service();
  dir = tempDir();
  outside = tempDir('citewise-files-');
  core = await startCore(dir.path);
  api = createInProcessApi(core);
  api.on('autoExport.status', (s) => statuses.push(s));
  api.on('library.changed', (c) => changes.push(c));
  api.on('settings.changed', (s) => settingsEvents.push(s));
  value(await api.invoke('library.import', { text: BIB, fileName: 'seed.bib' }));
}, 60_000);
afterAll(async () => {
  await core?.close();
  await svc?.close();
  dir?.remove();
  outside?.remove();
});

describe('auto-export over IPC', () => {
  it('refuses target paths that cannot be kept in sync, saying what and where', async () => {
    const add = (path: string, format: 'bibtex' | 'csljson' = 'bibtex') =>
      api.invoke('autoExport.add', { path, format });
    let e = failure(await add('refs.bib'));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('full path');
    e = failure(await add(join(outside.path, 'refs.txt')));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(/BibTeX file ends in \.bib.*refs\.txt/);
    e = failure(await add(join(outside.path, 'refs.bib'), 'csljson'));
    expect(e.message).toContain('.json');
    e = failure(await add(join(outside.path, 'no-such-folder', 'refs.bib')));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain(join(outside.path, 'no-such-folder'));
    e = failure(await add(join(dir.path, 'refs.bib')));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('data folder');
    mkdirSync(join(dir.path, 'backups'), { recursive: true });
    e = failure(await add(join(dir.path, 'backups', 'refs.bib')));
    expect(e.message).toContain('data folder');
    mkdirSync(join(outside.path, 'folder.bib'));
    e = failure(await add(join(outside.path, 'folder.bib')));
    expect(e.code).toBe('CONFLICT');
    e = failure(await api.invoke('autoExport.add', { path: join(outside.path, 'x.bib'), format: 'docx' as never }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('format');
    e = failure(await api.invoke('autoExport.add', { path: '   ', format: 'bibtex' }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(value(await api.invoke('autoExport.list', {}))).toEqual([]);
  });

  it.skipIf(isRoot)('refuses a folder Citewise may not write in', async () => {
    const locked = join(outside.path, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    try {
      const e = failure(await api.invoke('autoExport.add', { path: join(locked, 'refs.bib'), format: 'bibtex' }));
      expect(e.code).toBe('FORBIDDEN');
      expect(e.message).toContain(locked);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  it('keeps a file in sync: written at once, rewritten after an edit, run on demand, status and events', async () => {
    const target = join(outside.path, 'refs.bib');
    const info = value(await api.invoke('autoExport.add', { path: target, format: 'bibtex' }));
    expect(info).toMatchObject({ path: target, format: 'bibtex', scope: { kind: 'library' }, collectionName: null });
    const first = await until(
      () => statuses.find((s) => s.definition.id === info.id && s.run?.status === 'written'),
      'the first write',
    );
    expect(first.run!.itemCount).toBe(3);
    expect(readFileSync(target, 'utf8')).toContain('Alpha paper');
    const listed = value(await api.invoke('autoExport.list', {}));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: info.id, status: 'written', itemCount: 3, error: null });
    expect(listed[0]!.lastRunAt).toBeGreaterThan(0);

    // An edit reaches the file after the debounce, without asking.
    const row = value(await api.invoke('library.list', { query: 'Alpha' })).rows[0]!;
    const item = value(await api.invoke('library.item.get', { id: row.id }));
    const seen = statuses.length;
    value(await api.invoke('library.item.update', { id: row.id, csl: { ...item.csl, title: 'Alpha paper, revised' } }));
    await until(() => statuses.slice(seen).find((s) => s.run?.status === 'written'), 'the rewrite after an edit');
    expect(readFileSync(target, 'utf8')).toContain('Alpha paper, revised');

    const forced = value(await api.invoke('autoExport.run', { id: info.id }));
    expect(forced.status).toBe('written');
    const unforced = value(await api.invoke('autoExport.run', { id: info.id, force: false }));
    expect(unforced.status).toBe('unchanged');
    expect(failure(await api.invoke('autoExport.run', { id: 999_999 })).code).toBe('NOT_FOUND');
    expect(failure(await api.invoke('autoExport.add', { path: target, format: 'bibtex' })).code).toBe('CONFLICT');
  });

  it('follows a collection, named in the list', async () => {
    const { id: collectionId } = value(await api.invoke('library.collections.create', { name: 'Thesis' }));
    const ids = value(await api.invoke('library.list', { query: 'Beta' })).rows.map((r) => r.id);
    value(await api.invoke('library.collections.addItems', { collectionId, ids }));
    const target = join(outside.path, 'thesis.json');
    const info = value(
      await api.invoke('autoExport.add', {
        path: target,
        format: 'csljson',
        scope: { kind: 'collection', collectionId },
      }),
    );
    expect(info.collectionName).toBe('Thesis');
    expect(info.scope).toEqual({ kind: 'collection', collectionId, subcollections: true });
    await until(
      () => statuses.find((s) => s.definition.id === info.id && s.run?.status === 'written'),
      'the collection file',
    );
    const written = JSON.parse(readFileSync(target, 'utf8')) as { title: string }[];
    expect(written.map((w) => w.title)).toEqual(['Beta paper']);
    expect(
      failure(
        await api.invoke('autoExport.add', {
          path: join(outside.path, 'none.bib'),
          format: 'bibtex',
          scope: { kind: 'collection', collectionId: 424_242 },
        }),
      ).code,
    ).toBe('NOT_FOUND');
    value(await api.invoke('autoExport.remove', { id: info.id }));
    expect(existsSync(target)).toBe(true);
    expect(value(await api.invoke('autoExport.list', {})).some((d) => d.id === info.id)).toBe(false);
    expect(failure(await api.invoke('autoExport.remove', { id: info.id })).code).toBe('NOT_FOUND');
  });

  it('records and announces a failed run; the next good run clears it', async () => {
    const folder = join(outside.path, 'gone');
    mkdirSync(folder);
    const target = join(folder, 'refs.ris');
    const info = value(await api.invoke('autoExport.add', { path: target, format: 'ris' }));
    await until(
      () => statuses.find((s) => s.definition.id === info.id && s.run?.status === 'written'),
      'the first write',
    );
    rmSync(folder, { recursive: true });
    const run = value(await api.invoke('autoExport.run', { id: info.id }));
    expect(run.status).toBe('error');
    expect(run.error).toContain(folder);
    const heard = await until(
      () => statuses.find((s) => s.definition.id === info.id && s.run?.status === 'error'),
      'the failure event',
    );
    expect(heard.definition.error).toContain('does not exist');
    expect(value(await api.invoke('autoExport.list', {})).find((d) => d.id === info.id)).toMatchObject({
      status: 'error',
    });
    mkdirSync(folder);
    expect(value(await api.invoke('autoExport.run', { id: info.id })).status).toBe('written');
    expect(value(await api.invoke('autoExport.list', {})).find((d) => d.id === info.id)).toMatchObject({
      status: 'written',
      error: null,
    });
    value(await api.invoke('autoExport.remove', { id: info.id }));
  });

  it('has no native save dialog in browser mode', async () => {
    expect(value(await api.invoke('autoExport.chooseFile', { format: 'bibtex' }))).toEqual({
      path: null,
      available: false,
    });
  });
});

describe('attachments over IPC', () => {
  let itemId: number;
  beforeAll(async () => {
    itemId = value(await api.invoke('library.list', { query: 'Gamma' })).rows[0]!.id;
  });

  it('refuses files that are not there or not files, with the path', async () => {
    let e = failure(await api.invoke('library.attachments.add', { itemId, path: join(outside.path, 'missing.pdf') }));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain(join(outside.path, 'missing.pdf'));
    e = failure(await api.invoke('library.attachments.add', { itemId, path: outside.path }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('folder');
    e = failure(await api.invoke('library.attachments.add', { itemId, path: 'paper.pdf' }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('full path');
    e = failure(
      await api.invoke('library.attachments.add', { itemId: 987_654, path: join(outside.path, 'missing.pdf') }),
    );
    expect(e.code).toBe('NOT_FOUND');
  });

  it.skipIf(isRoot)('refuses a file Citewise may not read', async () => {
    const secret = join(outside.path, 'secret.pdf');
    writeFileSync(secret, 'x');
    chmodSync(secret, 0o000);
    const e = failure(await api.invoke('library.attachments.add', { itemId, path: secret }));
    expect(e.code).toBe('FORBIDDEN');
    chmodSync(secret, 0o644);
  });

  it('stores the path and a hash, and tells a missing or changed file from a good one', async () => {
    const pdf = join(outside.path, 'gamma.pdf');
    const bytes = Buffer.from('%PDF-1.4\nGamma book full text\n');
    writeFileSync(pdf, bytes);
    const seen = changes.length;
    const a = value(await api.invoke('library.attachments.add', { itemId, path: pdf }));
    expect(a).toMatchObject({
      path: pdf,
      size: bytes.length,
      mime: 'application/pdf',
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(changes.slice(seen)).toContainEqual({ kind: 'items', ids: [itemId] });
    expect(value(await api.invoke('library.item.get', { id: itemId })).attachments.map((x) => x.id)).toContain(a.id);
    expect(failure(await api.invoke('library.attachments.add', { itemId, path: pdf })).code).toBe('CONFLICT');

    expect(value(await api.invoke('library.attachments.check', { itemId }))).toEqual([
      { id: a.id, state: 'ok', message: expect.stringContaining('unchanged') },
    ]);
    // Same size, other content: only the hash can tell.
    writeFileSync(pdf, Buffer.from('%PDF-1.4\nGamma book FULL text\n'));
    expect(value(await api.invoke('library.attachments.check', { itemId }))[0]).toMatchObject({
      state: 'changed',
      message: expect.stringContaining('content differs'),
    });
    writeFileSync(pdf, 'shorter');
    expect(value(await api.invoke('library.attachments.check', { itemId }))[0]).toMatchObject({
      state: 'changed',
      message: expect.stringContaining('size'),
    });
    rmSync(pdf);
    expect(value(await api.invoke('library.attachments.check', { itemId }))[0]).toMatchObject({
      state: 'missing',
      message: expect.stringContaining(pdf),
    });

    const open = failure(await api.invoke('library.attachments.open', { itemId, id: a.id }));
    expect(open.code).toBe('NOT_FOUND');
    writeFileSync(pdf, bytes);
    // Browser mode cannot open files: it answers the path for the user to copy.
    expect(value(await api.invoke('library.attachments.open', { itemId, id: a.id }))).toEqual({
      path: pdf,
      opened: false,
    });
    expect(failure(await api.invoke('library.attachments.open', { itemId, id: a.id + 1000 })).code).toBe('NOT_FOUND');
  });

  it('never opens a program', async () => {
    const script = join(outside.path, 'run-me.sh');
    writeFileSync(script, '#!/bin/sh\necho pwned\n');
    chmodSync(script, 0o755);
    const a = value(await api.invoke('library.attachments.add', { itemId, path: script }));
    const e = failure(await api.invoke('library.attachments.open', { itemId, id: a.id }));
    expect(e.code).toBe('FORBIDDEN');
    expect(e.message).toContain('does not run programs');
    value(await api.invoke('library.attachments.remove', { id: a.id }));
  });
});

describe('the desktop shell (save dialog, open with the OS)', () => {
  it('offers the native save dialog with the format filter and opens attachments through the OS', async () => {
    const dialogs: SaveDialogOptions[] = [];
    const opened: string[] = [];
    const desktopDir = tempDir();
    const desktop: DesktopShell = {
      chooseSaveFile: async (options) => {
        dialogs.push(options);
        return dialogs.length === 1 ? join(outside.path, 'chosen.bib') : null;
      },
      chooseOpenFiles: async () => null,
      openPath: async (path) => {
        opened.push(path);
        return opened.length === 1 ? '' : 'No application knows this file type';
      },
    };
    const other = await startCore(desktopDir.path, desktop);
    try {
      const oapi = createInProcessApi(other);
      expect(
        value(await oapi.invoke('autoExport.chooseFile', { format: 'biblatex', suggestedName: 'thesis' })),
      ).toEqual({ path: join(outside.path, 'chosen.bib'), available: true });
      expect(dialogs[0]).toMatchObject({
        defaultPath: 'thesis.bib',
        filters: [{ name: 'BibLaTeX', extensions: ['bib'] }],
      });
      expect(value(await oapi.invoke('autoExport.chooseFile', { format: 'csljson' }))).toEqual({
        path: null,
        available: true,
      });
      expect(dialogs[1]!.defaultPath).toBe('references.json');

      value(await oapi.invoke('library.import', { text: BIB, fileName: 'seed.bib' }));
      const id = value(await oapi.invoke('library.list', {})).rows[0]!.id;
      const file = join(outside.path, 'open-me.pdf');
      writeFileSync(file, '%PDF-1.4\n');
      const a = value(await oapi.invoke('library.attachments.add', { itemId: id, path: file }));
      expect(value(await oapi.invoke('library.attachments.open', { itemId: id, id: a.id }))).toEqual({
        path: file,
        opened: true,
      });
      expect(opened).toEqual([file]);
      const e = failure(await oapi.invoke('library.attachments.open', { itemId: id, id: a.id }));
      expect(e.message).toContain('No application knows this file type');
    } finally {
      await other.close();
      desktopDir.remove();
    }
  }, 60_000);
});

describe('restore from a backup over IPC', () => {
  it('refuses a file that is not one of the backups, and a damaged backup, changing nothing', async () => {
    const stray = join(outside.path, 'citewise-20260101T000000000Z-manual.sqlite');
    writeFileSync(stray, 'not a database');
    let e = failure(await api.invoke('library.backups.restore', { file: stray }));
    expect(e.code).toBe('NOT_FOUND');
    const before = value(await api.invoke('library.backups', {})).length;
    mkdirSync(join(dir.path, 'backups'), { recursive: true });
    const damaged = join(dir.path, 'backups', 'citewise-20200101T000000000Z-manual.sqlite');
    writeFileSync(damaged, 'SQLite format 3\0 but not really');
    e = failure(await api.invoke('library.backups.restore', { file: damaged }));
    expect(e.code).toBe('VALIDATION');
    expect(e.message).toContain('not a good backup');
    expect(e.message).toContain('nothing was changed');
    rmSync(damaged);
    expect(value(await api.invoke('library.backups', {}))).toHaveLength(before);
    expect(value(await api.invoke('library.count', {}))).toBe(3);
    expect(failure(await api.invoke('library.backups.restore', { file: '' })).code).toBe('INVALID_INPUT');
  });

  it('restores a backup: pre-restore copy kept, library swapped and reopened, the renderer told, and undoable', async () => {
    value(await api.invoke('settings.update', { citationStyle: 'apa' }));
    const backup = value(await api.invoke('library.backup', {}));
    value(
      await api.invoke('library.import', {
        text: '@article{delta2022, title = {Delta paper}, year = 2022}',
        fileName: 'more.bib',
      }),
    );
    value(await api.invoke('settings.update', { citationStyle: 'ieee' }));
    expect(value(await api.invoke('library.count', {}))).toBe(4);
    const seenChanges = changes.length;
    const seenSettings = settingsEvents.length;

    const report = value(await api.invoke('library.backups.restore', { file: backup.file }));
    expect(report).toMatchObject({ restoredFrom: backup.file, items: 3, previous: { reason: 'pre-restore' } });
    expect(existsSync(report.previous.file)).toBe(true);
    expect(value(await api.invoke('library.count', {}))).toBe(3);
    expect(value(await api.invoke('library.list', { query: 'Delta' })).rows).toEqual([]);
    expect(changes.slice(seenChanges)).toContainEqual({ kind: 'all' });
    // Settings live in the library file: they come back with it, and the renderer hears it.
    expect(settingsEvents.slice(seenSettings).at(-1)?.citationStyle).toBe('apa');
    expect(value(await api.invoke('settings.get', {})).citationStyle).toBe('apa');
    // Still a working library: writes go to the restored file, and backups continue.
    value(
      await api.invoke('library.tags.add', {
        ids: [value(await api.invoke('library.list', {})).rows[0]!.id],
        tags: ['after-restore'],
      }),
    );
    expect(value(await api.invoke('library.tags.list', {})).map((t) => t.name)).toContain('after-restore');
    expect(value(await api.invoke('library.backups', {})).some((b) => b.file === report.previous.file)).toBe(true);

    // Restoring the pre-restore copy undoes it.
    const undo = value(await api.invoke('library.backups.restore', { file: report.previous.file }));
    expect(undo.items).toBe(4);
    expect(value(await api.invoke('library.list', { query: 'Delta' })).rows).toHaveLength(1);
    expect(value(await api.invoke('settings.get', {})).citationStyle).toBe('ieee');
  }, 60_000);

  it('refuses to restore while an import is writing', async () => {
    const backup = value(await api.invoke('library.backups', {}))[0]!;
    const big = Array.from(
      { length: 20_000 },
      (_, i) => `@article{r${i}, title = {Restore race ${i}}, year = 2001}`,
    ).join('\n');
    const importing = api.invoke('library.import', { text: big, fileName: 'big.bib' });
    await until(
      async () =>
        value(await api.invoke('jobs.list', {})).find((j) => j.kind === 'library.import' && j.state === 'running'),
      'the import to start',
    );
    const e = failure(await api.invoke('library.backups.restore', { file: backup.file }));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toContain('Importing big.bib');
    value(await importing);
  }, 60_000);
});

describe('a restore that cannot open the backup', () => {
  it('puts the previous library back and keeps working', async () => {
    const { default: Database } = await import('better-sqlite3');
    value(await api.invoke('settings.update', { citationStyle: 'ieee' }));
    const backup = value(await api.invoke('library.backup', {}));
    // A backup written by a newer Citewise passes integrity_check but is refused when opened.
    const db = new Database(backup.file);
    db.pragma('user_version = 999');
    db.close();
    const count = value(await api.invoke('library.count', {}));
    const e = failure(await api.invoke('library.backups.restore', { file: backup.file }));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toContain('newer version of Citewise');
    expect(e.message).toContain('put back as it was');
    expect(value(await api.invoke('library.count', {}))).toBe(count);
    value(
      await api.invoke('library.tags.add', {
        ids: [value(await api.invoke('library.list', {})).rows[0]!.id],
        tags: ['still-works'],
      }),
    );
    expect(value(await api.invoke('settings.get', {})).citationStyle).toBe('ieee');
    expect(value(await api.invoke('settings.update', { citationStyle: 'mla' })).citationStyle).toBe('mla');
  }, 60_000);
});
