// New item, Duplicate item, Regenerate citation keys and the key formula setting through the IPC
// contract, as the Library and Settings panes call them: a real core, every call through invoke, so
// the checks at the boundary (what a message from anywhere may carry) are what is tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi, Result } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { tempDir } from '../../helpers/tmp';

let dir: ReturnType<typeof tempDir>;
let core: Core;
let api: CitewiseApi;

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

beforeAll(async () => {
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: 'http://127.0.0.1:9',
    secrets: createMemorySecretStore(),
  });
  api = createInProcessApi(core);
}, 60_000);
afterAll(async () => {
  await core?.close();
  dir?.remove();
});

describe('new items over IPC', () => {
  it('creates an item of any type, filed into a collection, and refuses one it cannot store, naming each field', async () => {
    const coll = value(await api.invoke('library.collections.create', { name: 'Archive work' }));
    const letter = value(
      await api.invoke('library.item.create', {
        csl: {
          type: 'personal_communication',
          title: 'Letter to Joseph Hooker',
          author: [{ family: 'Darwin', given: 'Charles' }],
          recipient: [{ family: 'Hooker', given: 'Joseph Dalton' }],
          issued: { 'date-parts': [[1844, 1, 11]] },
          archive: 'Cambridge University Library',
          archive_location: 'DAR 114: 3',
        },
        collectionId: coll.id,
      }),
    );
    expect(letter).toMatchObject({ citationKey: 'darwinLetterJosephHooker1844', collections: [coll.id] });
    expect(letter.csl).toMatchObject({ recipient: [{ family: 'Hooker' }], archive_location: 'DAR 114: 3' });

    const refused = await api.invoke('library.item.create', {
      csl: { type: 'book', title: 'X', ISBN: '0-306-40615-3', URL: 'javascript:alert(1)', director: [{ family: 'D' }] },
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('INVALID_INPUT');
    expect((refused.error.details as { problems: { field: string }[] }).problems.map((p) => p.field)).toEqual([
      'ISBN',
      'URL',
      'creators',
    ]);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'novel', title: 'X' }, '"novel" is not an item type.'],
      [{ type: 'book' }, 'A new item needs a title or a creator'],
      [{ type: 'book', title: 'X', author: 'Smith' }, 'author must be a list of names.'],
      [{ type: 'book', title: 'X', issued: '2020' }, 'issued must be a date.'],
      [{ type: 'book', title: 'X', publisher: { evil: true } }, 'publisher must be text.'],
      [{ type: 'book', title: 'X', colour: 'red' }, '"colour" is not a field Citewise knows.'],
      [{ type: 'book', title: 'X', 'citation-key': 'a b' }, 'Citation key: A citation key cannot contain spaces.'],
    ];
    for (const [csl, message] of cases) {
      const r = await api.invoke('library.item.create', { csl });
      expect(r.ok, JSON.stringify(csl)).toBe(false);
      if (!r.ok) expect(r.error.message).toContain(message);
    }
    const missing = await api.invoke('library.item.create', { csl: { type: 'book', title: 'X' }, collectionId: 9999 });
    expect(!missing.ok && missing.error.code).toBe('NOT_FOUND');
  });

  it('duplicates an item into a collection and regenerates keys with the formula set, both undoable', async () => {
    const book = value(
      await api.invoke('library.item.create', {
        csl: { type: 'book', title: 'Opticks', author: [{ family: 'Newton' }], issued: { 'date-parts': [[1704]] } },
      }),
    );
    const coll = value(await api.invoke('library.collections.create', { name: 'Optics' }));
    const copy = value(await api.invoke('library.item.duplicate', { id: book.id, collectionId: coll.id }));
    expect(copy).toMatchObject({ citationKey: 'newtonOpticks1704a', collections: [coll.id] });

    const bad = await api.invoke('settings.update', { citekeyFormula: 'auth + yeer' });
    expect(!bad.ok && bad.error.message).toContain('There is no function "yeer"; did you mean year? (at character 8)');
    value(await api.invoke('settings.update', { citekeyFormula: "auth.lower + ':' + year" }));
    const regen = value(await api.invoke('library.items.regenerateKeys', { ids: [book.id, copy.id] }));
    expect(regen).toEqual({ changed: 2, unchanged: 0 });
    expect(value(await api.invoke('library.item.get', { id: book.id })).citationKey).toBe('newton:1704');
    expect(value(await api.invoke('library.item.get', { id: copy.id })).citationKey).toBe('newton:1704a');
    const undone = value(await api.invoke('library.undo', {}));
    expect(undone.label).toBe('Regenerate citation keys of 2 items');
    expect(value(await api.invoke('library.item.get', { id: book.id })).citationKey).toBe('newtonOpticks1704');
    const one = value(await api.invoke('library.items.regenerateKeys', { ids: [book.id] }));
    expect(one).toEqual({ changed: 1, unchanged: 0 });
    expect(value(await api.invoke('library.undo.tops', {})).undo?.label).toBe('Regenerate citation key of “Opticks”');
    const none = await api.invoke('library.items.regenerateKeys', { ids: [] });
    expect(!none.ok && none.error.code).toBe('INVALID_INPUT');
  });
});
