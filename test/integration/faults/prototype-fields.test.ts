// Issue 41, point 5: an item with a field called `constructor` or `prototype` (a CSL-JSON key, a
// BibTeX field, a key inside `custom`) was imported, then every edit of it was refused with
// INVALID_INPUT ("the input has a key "constructor", which is not allowed"): the request bounds took
// those names for prototype pollution. They are data now; `__proto__` alone stays refused at the
// boundary, and no prototype changes whatever the item holds.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import type { CslItem } from '../../../shared/model/csl';
import { tempDir } from '../../helpers/tmp';

/** The value of an answer that must be ok. */
function valueOf(r: { ok: true; value: unknown } | { ok: false; error: { message: string } }): Detail {
  if (!r.ok) throw new Error(r.error.message);
  return r.value as Detail;
}

interface Detail {
  id: number;
  csl: CslItem & Record<string, unknown>;
}

describe('items with fields named constructor or prototype', { timeout: 120_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
  });
  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  async function imported(text: string, fileName: string): Promise<Detail> {
    const r = await core.invoke('library.import', { text, fileName });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const [id] = (r.ok ? (r.value as { ids: number[] }).ids : []) as number[];
    const got = await core.invoke('library.item.get', { id: id! });
    expect(got.ok).toBe(true);
    return valueOf(got);
  }

  async function editTitle(item: Detail, title: string): Promise<Detail> {
    const update = await core.invoke('library.item.update', { id: item.id, csl: { ...item.csl, title } });
    expect(update, JSON.stringify(update)).toMatchObject({ ok: true });
    const got = await core.invoke('library.item.get', { id: item.id });
    return valueOf(got);
  }

  it('a CSL-JSON item with constructor, prototype and custom.constructor imports and is edited, its fields kept', async () => {
    const json = JSON.stringify([
      {
        id: 'c1',
        type: 'book',
        title: 'Machines',
        constructor: 'A builder',
        prototype: 'First model',
        custom: { constructor: { prototype: 'nested' } },
      },
    ]);
    const item = await imported(json, 'items.json');
    expect(item.csl).toMatchObject({ constructor: 'A builder', prototype: 'First model' });
    const edited = await editTitle(item, 'Machines, revised');
    expect(edited.csl).toMatchObject({
      title: 'Machines, revised',
      constructor: 'A builder',
      prototype: 'First model',
      custom: { constructor: { prototype: 'nested' } },
    });
    // The field itself is editable too.
    const again = await core.invoke('library.item.update', {
      id: item.id,
      csl: { ...edited.csl, constructor: 'Another builder' },
    });
    expect(again.ok).toBe(true);
    const got = valueOf(await core.invoke('library.item.get', { id: item.id }));
    expect(got.csl.constructor).toBe('Another builder');
  });

  it('a BibTeX entry with constructor and prototype fields imports and is edited', async () => {
    const item = await imported(
      '@book{b1, title = {Bridges}, constructor = {Eiffel}, prototype = {P1}, year = 1889}',
      'b.bib',
    );
    const edited = await editTitle(item, 'Bridges, revised');
    expect(edited.csl.title).toBe('Bridges, revised');
    expect(JSON.stringify(edited.csl.custom)).toContain('"constructor":"Eiffel"');
    expect(JSON.stringify(edited.csl.custom)).toContain('"prototype":"P1"');
  });

  it('__proto__ stays refused at the boundary, with a clear message, and nothing is polluted', async () => {
    const item = await imported('@book{b2, title = {Kept}, year = 2000}', 'b2.bib');
    const raw = JSON.parse(`{"id":${item.id},"csl":{"type":"book","title":"x","__proto__":{"polluted":true}}}`) as {
      id: number;
      csl: CslItem;
    };
    const r = await core.invoke('library.item.update', raw);
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!r.ok && r.error.message).toContain('the input has a key "__proto__", which is not allowed');
    expect(valueOf(await core.invoke('library.item.get', { id: item.id })).csl.title).toBe('Kept');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(typeof Object.prototype.constructor).toBe('function');
  });
});
