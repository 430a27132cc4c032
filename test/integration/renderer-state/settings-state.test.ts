// The Settings pane's states (renderer/src/panes/settings/{library-settings,citation-styles,
// auto-export-settings}.svelte.ts and renderer/src/lib/state/service-settings.svelte.ts) in Node
// against a real in-process core: refusals kept as errors with busy flags cleared, backups and a
// restore, the sample citation asked last, added styles, files kept in sync, and the API key.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STYLE_LABELS } from '../../../shared/model/csl';
import { LibrarySettingsState } from '../../../renderer/src/panes/settings/library-settings.svelte';
import { CitationStylesState } from '../../../renderer/src/panes/settings/citation-styles.svelte';
import { AutoExportSettingsState } from '../../../renderer/src/panes/settings/auto-export-settings.svelte';
import { ServiceSettingsState } from '../../../renderer/src/lib/state/service-settings.svelte';
import { tempDir } from '../../helpers/tmp';
import { coreForTests, offlineCore, onlineCore, seed, until } from './helpers';

const BIB = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, journal = {Journal of Tests}, year = 2020}
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, publisher = {Press}, year = 2019}
`;

const env = coreForTests(() => offlineCore('settings'));

describe('LibrarySettingsState', () => {
  it('has no sample for an empty library, then follows an import in its counts', async () => {
    const state = new LibrarySettingsState(env.net.api);
    const stop = state.start();
    try {
      await until(() => state.status !== null && state.backups !== null, 'the status');
      expect(state.status?.items).toBe(0);
      await state.loadSample('apa', 'en-US');
      expect(state.sample).toBeNull();
      await seed(env.t.api, BIB);
      await until(() => state.status?.items === 2, 'the new count');
    } finally {
      stop();
    }
  });

  it('cites the sample in the style asked for last when an earlier answer comes after it', async () => {
    const state = new LibrarySettingsState(env.net.api);
    const release = env.net.hold('library.list');
    const slow = state.loadSample('bibtex', 'en-US');
    await state.loadSample('apa', 'en-US');
    release();
    await slow;
    expect(state.sample?.text).toMatch(/^Doe, J\. \(2020\)\. Alpha paper\./);
  });

  it('backs up, refuses to restore what is no backup, and restores one', async () => {
    const state = new LibrarySettingsState(env.t.api);
    const stop = state.start();
    await until(() => state.backups !== null && state.status !== null, 'the status');
    const before = state.backups!.length;
    await state.backUp();
    expect(state.busy).toBe(false);
    expect(state.error).toBeNull();
    expect(state.backups).toHaveLength(before + 1);
    expect(state.backups![0]).toEqual(state.lastBackup);

    await state.restore(join(env.t.dataDir, 'no-such-backup.sqlite'));
    expect(state.restoring).toBe(false);
    expect(state.error).not.toBeNull();
    expect(state.lastRestore).toBeNull();

    // A change after the backup, which the restore takes back.
    const list = await env.t.api.invoke('library.list', { limit: 10 });
    const trashed = await env.t.api.invoke('library.trash', { ids: list.ok ? [list.value.rows[0]!.id] : [] });
    expect(trashed.ok).toBe(true);
    await until(() => state.status?.items === 1, 'the trash to count');
    await state.restore(state.lastBackup!.file);
    expect(state.error).toBeNull();
    expect(state.restoring).toBe(false);
    expect(state.lastRestore?.items).toBe(2);
    expect(state.backups!.some((b) => b.reason === 'pre-restore')).toBe(true);
    stop();
  });
});

describe('CitationStylesState', () => {
  it('lists the eight built in with their labels, adds and removes a style, and refuses removing a built-in one', async () => {
    const state = new CitationStylesState(env.t.api);
    expect(state.styles).toHaveLength(8);
    await state.load();
    expect(state.error).toBeNull();
    expect(state.added).toEqual([]);
    expect(state.styles.find((s) => s.id === 'apa')?.title).toBe(STYLE_LABELS.apa);
    const xml = readFileSync(new URL('../../fixtures/cite/tiny-lab.csl', import.meta.url), 'utf8');
    const added = await env.t.api.invoke('library.styles.add', { xml });
    if (!added.ok) throw new Error(added.error.message);
    await state.load();
    expect(state.added.map((s) => s.id)).toEqual([added.value.id]);

    await state.remove('apa');
    expect(state.error).not.toBeNull();
    expect(state.styles).toHaveLength(9);
    await state.remove(added.value.id);
    expect(state.error).toBeNull();
    expect(state.added).toEqual([]);
  });
});

describe('AutoExportSettingsState', () => {
  it('keeps a file in sync, refuses a relative path keeping the form, runs now and removes', async () => {
    const state = new AutoExportSettingsState(env.t.api);
    const stop = state.start();
    const own = tempDir('citewise-sync-');
    try {
      await until(() => state.list !== null, 'the list');
      await state.choose();
      expect(state.dialogAvailable).toBe(false); // no native dialog here: the path is typed

      state.path = 'relative/refs.bib';
      expect(await state.add()).toBe(false);
      expect(state.formError).not.toBeNull();
      expect(state.busy).toBe(false);
      expect(state.path).toBe('relative/refs.bib');

      state.path = join(env.t.dataDir, 'refs.bib');
      expect(await state.add()).toBe(false);
      expect(state.formError?.message).toMatch(/in Citewise's data folder/);

      const path = join(own.path, 'refs.bib');
      state.path = path;
      state.format = 'bibtex';
      const ok = await state.add();
      expect(state.formError).toBeNull();
      expect(ok).toBe(true);
      expect(state.formError).toBeNull();
      expect(state.path).toBe('');
      expect(state.list!.map((d) => d.path)).toEqual([path]);
      const id = state.list![0]!.id;
      await until(() => state.list![0]!.itemCount === 2, 'the first run');
      expect(readFileSync(path, 'utf8')).toContain('@article{doe2020,');

      const running = state.run(id);
      expect(state.isRunning(id)).toBe(true);
      await running;
      expect(state.isRunning(id)).toBe(false);
      expect(state.error).toBeNull();

      await state.remove(id);
      expect(state.list).toEqual([]);
      await state.remove(id);
      expect(state.error?.code).toBe('NOT_FOUND');
      expect(existsSync(path)).toBe(true); // removing the sync leaves the file
    } finally {
      stop();
      own.remove();
    }
  });
});

describe('ServiceSettingsState', () => {
  it('refuses a blank key without asking, stores, checks and clears one, and follows another window', async () => {
    const online = await onlineCore('service-settings', { key: () => undefined });
    try {
      const state = new ServiceSettingsState(online.api);
      const other = new ServiceSettingsState(online.api);
      const stops = [state.start(), other.start()];
      await until(() => state.key !== null && state.config !== null && other.key !== null, 'the status');
      expect(state.key?.stored).toBe(false);

      expect(await state.saveKey('   ')).toBe(false);
      expect(state.error).toEqual({ code: 'INVALID_INPUT', message: 'Paste an API key first.' });
      expect(state.busy).toBe('');

      expect(await state.saveKey(`  ${online.svc.fullKey}  `)).toBe(true);
      expect(state.error).toBeNull();
      expect(state.key?.stored).toBe(true);
      await until(() => other.key?.stored === true, 'the other window to hear of it');

      await state.checkKey();
      expect(state.busy).toBe('');
      expect(state.check?.valid).toBe(true);

      expect(await state.setAddress('ftp://example.org')).toBe(false);
      expect(state.error?.code).toBe('INVALID_INPUT');
      expect(state.busy).toBe('');
      expect(state.check?.valid).toBe(true); // a refused address changes nothing

      await state.clearKey();
      expect(state.key?.stored).toBe(false);
      expect(state.check).toBeNull();
      for (const stop of stops) stop();
    } finally {
      await online.close();
    }
  });
});
