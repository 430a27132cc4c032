// The citation preferences in the settings store: their defaults, persistence across opens, a bad
// stored value falling back on its own, and the IPC boundary refusing what export would refuse.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/core/library/database';
import { EventBus } from '../../../electron/core/events';
import { settingsHandlers } from '../../../electron/core/handlers/settings';
import { SettingsStore } from '../../../electron/core/settings/store';
import { CITATION_LOCALES as EXPORT_LOCALES, DEFAULT_SETTINGS, settingsPatch } from '../../../shared/ipc';
import { CITATION_STYLE_IDS } from '../../../shared/model/csl';
import { CITATION_LOCALES } from '../../../shared/model/settings';
import { tempDir } from '../../helpers/tmp';

describe('settings store: citation style and locale', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  it('defaults to APA in US English', () => {
    const db = openDatabase(join(dir.path, 'a.sqlite'));
    expect(new SettingsStore(db).get()).toMatchObject({ citationStyle: 'apa', locale: 'en-US' });
    expect(DEFAULT_SETTINGS).toMatchObject({ citationStyle: 'apa', locale: 'en-US' });
    db.close();
  });

  it('keeps a chosen style and locale across opens, beside the theme', () => {
    const file = join(dir.path, 'b.sqlite');
    const db = openDatabase(file);
    const store = new SettingsStore(db);
    expect(store.update({ citationStyle: 'vancouver' })).toEqual({ ...DEFAULT_SETTINGS, citationStyle: 'vancouver' });
    store.update({ locale: 'en-GB', theme: 'dark' });
    db.close();
    const again = openDatabase(file);
    expect(new SettingsStore(again).get()).toEqual({
      ...DEFAULT_SETTINGS,
      theme: 'dark',
      citationStyle: 'vancouver',
      locale: 'en-GB',
    });
    again.close();
  });

  it('falls back to the default of one bad stored value without resetting the others', () => {
    const db = openDatabase(join(dir.path, 'c.sqlite'));
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?), (?, ?), (?, ?)').run(
      'citationStyle',
      '"Not a style!"',
      'locale',
      '"en-GB"',
      'theme',
      '"dark"',
    );
    expect(new SettingsStore(db).get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', locale: 'en-GB' });
    db.close();
  });

  it('accepts every style id export accepts (built in or added from a .csl file) and locale, and nothing else', () => {
    for (const citationStyle of CITATION_STYLE_IDS)
      expect(settingsPatch.safeParse({ citationStyle }).success).toBe(true);
    for (const locale of CITATION_LOCALES) expect(settingsPatch.safeParse({ locale }).success).toBe(true);
    expect([...CITATION_LOCALES]).toEqual([...EXPORT_LOCALES]);
    // An added style's id is a style id too; whether it exists is the formatter's to say.
    expect(settingsPatch.safeParse({ citationStyle: 'chicago-fullnote' }).success).toBe(true);
    for (const citationStyle of ['../x', 'APA', '', 'a b'])
      expect(settingsPatch.safeParse({ citationStyle }).success).toBe(false);
    // Every CSL locale the app ships is a locale (de-DE among them since the 56 locales); nothing else.
    expect(settingsPatch.safeParse({ locale: 'de-DE' }).success).toBe(true);
    for (const locale of ['xx-XX', 'de', '', '../en-US'])
      expect(settingsPatch.safeParse({ locale }).success).toBe(false);
  });

  it('tells every window when a preference changes', () => {
    const db = openDatabase(join(dir.path, 'd.sqlite'));
    const events = new EventBus();
    const seen: unknown[] = [];
    const off = events.on('settings.changed', (s) => seen.push(s));
    const handlers = settingsHandlers({ store: new SettingsStore(db), events });
    const next = handlers['settings.update']({ citationStyle: 'ieee' }) as ReturnType<SettingsStore['get']>;
    expect(next.citationStyle).toBe('ieee');
    expect(seen).toEqual([next]);
    off();
    db.close();
  });
});

describe('settings store: the Library layout', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  it('keeps the columns, their widths and the panes across opens (browser mode forgets them with its port)', () => {
    const file = join(dir.path, 'layout.sqlite');
    const db = openDatabase(file);
    const layout = {
      columns: ['title', 'container', 'year'],
      columnWidths: { creators: 200, year: 44 },
      panes: { sidebar: 260, details: 600 },
    };
    new SettingsStore(db).update({ libraryLayout: layout });
    db.close();
    const again = openDatabase(file);
    expect(new SettingsStore(again).get()).toEqual({ ...DEFAULT_SETTINGS, libraryLayout: layout });
    again.close();
  });

  it('refuses a layout of the wrong shape or size at the boundary, and accepts 40 names but not 41', () => {
    const widths = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, 10]));
    expect(settingsPatch.safeParse({ libraryLayout: { columnWidths: widths(40) } }).success).toBe(true);
    expect(settingsPatch.safeParse({ libraryLayout: { columnWidths: widths(41) } }).success).toBe(false);
    expect(
      settingsPatch.safeParse({ libraryLayout: { columns: Array.from({ length: 41 }, () => 'title') } }).success,
    ).toBe(false);
    expect(settingsPatch.safeParse({ libraryLayout: { columnWidths: { title: 'wide' } } }).success).toBe(false);
    expect(settingsPatch.safeParse({ libraryLayout: { rows: [] } }).success).toBe(false);
    expect(settingsPatch.safeParse({ libraryLayout: { panes: { sidebar: Number.POSITIVE_INFINITY } } }).success).toBe(
      false,
    );
  });
});

describe('settings store: what adding PDFs does with the file', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  it('copies by default, keeps "link" across opens, and a bad stored value falls back to copying', () => {
    const file = join(dir.path, 'pdfs.sqlite');
    const db = openDatabase(file);
    expect(new SettingsStore(db).get().pdfStorage).toBe('copy');
    expect(new SettingsStore(db).update({ pdfStorage: 'link' })).toEqual({ ...DEFAULT_SETTINGS, pdfStorage: 'link' });
    db.close();
    const again = openDatabase(file);
    expect(new SettingsStore(again).get().pdfStorage).toBe('link');
    again.prepare("UPDATE settings SET value = '\"move\"' WHERE key = 'pdfStorage'").run();
    expect(new SettingsStore(again).get()).toEqual(DEFAULT_SETTINGS);
    again.close();
  });

  it('accepts copy and link at the boundary and refuses anything else, saying what the choices are', () => {
    for (const pdfStorage of ['copy', 'link']) expect(settingsPatch.safeParse({ pdfStorage }).success).toBe(true);
    for (const pdfStorage of ['move', 'Copy', '', null, true]) {
      const parsed = settingsPatch.safeParse({ pdfStorage });
      expect(parsed.success, String(pdfStorage)).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({
        path: ['pdfStorage'],
        message: 'must be "copy" (into the library folder) or "link" (to the file where it is)',
      });
    }
  });
});
