// Standalone notes (shared/model/standalone-note.ts) through the IPC contract, as the app uses them:
// a row of the Library table, filed, tagged, searched, trashed and restored, undone, retitled by its
// first line, and never a reference (exports, bibliographies and duplicate checks leave it out).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import type { ExportOutput } from '../../../shared/ipc';
import type { ItemDetail, Page } from '../../../shared/model/library';
import { tempDir } from '../../helpers/tmp';

describe('standalone notes', () => {
  const dir = tempDir('citewise-standalone-notes-');
  let core: Core;
  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const r = await core.invoke(channel as never, input as never);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value as T;
  };
  const fails = async (channel: string, input: unknown): Promise<{ code: string; message: string }> => {
    const r = await core.invoke(channel as never, input as never);
    if (r.ok) throw new Error(`${channel} succeeded`);
    return r.error;
  };
  const rows = async (where: object) =>
    (await call<Page>('library.list', { ...where, limit: 100 })).rows.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
    }));
  let paper: number;
  let noteItem: number;
  let noteId: number;
  let collection: number;

  beforeAll(async () => {
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    paper = (
      await call<ItemDetail>('library.item.create', {
        csl: {
          type: 'article-journal',
          title: 'Chapter two ideas and the ribosome',
          issued: { 'date-parts': [[2001]] },
        },
      })
    ).id;
    collection = (await call<{ id: number }>('library.collections.create', { name: 'Thesis' })).id;
  }, 60_000);
  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  it('adds a note that belongs to no item, filed into the collection shown, as a row titled by its first line', async () => {
    const made = await call<{ itemId: number; noteId: number }>('library.notes.addStandalone', {
      body: '<h1>Chapter two ideas</h1><p>Compare the <strong>ribosome</strong> papers.</p><script>x()</script>',
      collectionId: collection,
    });
    noteItem = made.itemId;
    noteId = made.noteId;
    const item = await call<ItemDetail>('library.item.get', { id: noteItem });
    expect(item).toMatchObject({ type: 'note', title: 'Chapter two ideas', collections: [collection] });
    expect(item.notes.map((n) => n.body)).toEqual([
      '<h1>Chapter two ideas</h1><p>Compare the <strong>ribosome</strong> papers.</p>',
    ]);
    expect(await rows({ collectionId: collection })).toEqual([
      { id: noteItem, type: 'note', title: 'Chapter two ideas' },
    ]);
    expect((await rows({})).map((r) => r.id).sort()).toEqual([paper, noteItem].sort());
  });

  it('refuses an empty note and a collection that does not exist, saying which', async () => {
    expect((await fails('library.notes.addStandalone', { body: '<p> </p>' })).message).toMatch(/note is empty/);
    expect((await fails('library.notes.addStandalone', { body: 'x', collectionId: 999 })).message).toMatch(
      /Collection 999/,
    );
  });

  it('is found by a search of its text, by the note: field and by its tag', async () => {
    await call('library.tags.add', { ids: [noteItem], tags: ['thesis-ideas'] });
    expect((await rows({ query: 'note:ribosome' })).map((r) => r.id)).toEqual([noteItem]);
    expect((await rows({ query: 'compare' })).map((r) => r.id)).toEqual([noteItem]);
    expect((await rows({ query: 'tag:thesis-ideas' })).map((r) => r.id)).toEqual([noteItem]);
  });

  it('takes its title from its first line when edited, one undo step', async () => {
    await call('library.notes.update', { id: noteId, body: '<p>Revised plan</p><p>ribosome</p>' });
    expect((await call<ItemDetail>('library.item.get', { id: noteItem })).title).toBe('Revised plan');
    const undone = await call<{ label: string }>('library.undo', {});
    expect(undone.label).toBe('Edit note of “Chapter two ideas”');
    expect((await call<ItemDetail>('library.item.get', { id: noteItem })).title).toBe('Chapter two ideas');
  });

  it('cannot lose its text to Delete note: it goes to the Trash and back as any row', async () => {
    expect((await fails('library.notes.delete', { id: noteId })).message).toMatch(
      /standalone note: move it to the Trash/,
    );
    await call('library.trash', { ids: [noteItem] });
    expect((await rows({})).map((r) => r.id)).toEqual([paper]);
    expect((await rows({ trash: true })).map((r) => r.id)).toEqual([noteItem]);
    await call('library.restore', { ids: [noteItem] });
    expect(await call<ItemDetail>('library.item.get', { id: noteItem })).toMatchObject({
      trashedAt: null,
      collections: [collection],
      tags: ['thesis-ideas'],
    });
  });

  it('is left out of every export and bibliography, counted; citing only notes is refused', async () => {
    for (const format of ['ris', 'bibtex', 'biblatex', 'csl-json', 'text'] as const) {
      const out = await call<ExportOutput>('library.export', { scope: { kind: 'library' }, format, notes: true });
      expect(out, format).toMatchObject({ items: 1, total: 1, notesSkipped: 1 });
      expect(out.content, format).not.toMatch(/Chapter two ideas\b(?! and)/);
    }
    const one = await call<ExportOutput>('library.export', { scope: { kind: 'items', ids: [paper] }, format: 'ris' });
    expect(one.notesSkipped).toBeUndefined();
    // The library's own export, what the CLI and the editors' APIs call, leaves it out too.
    const direct = await core.library.lib.exportText([paper, noteItem], 'bibtex', { notes: true });
    expect(direct.items).toBe(1);
    expect(direct.content).not.toContain('Compare');
    expect((await fails('library.cite', { ids: [noteItem] })).message).toMatch(/Notes are not references/);
    const cited = await call<{ text: string }>('library.cite', { ids: [paper, noteItem] });
    expect(cited.text).toContain('Chapter two ideas and the ribosome');
    expect(cited.text).not.toContain('Compare');
  });

  it('is never a duplicate of a note with the same first line', async () => {
    await call('library.notes.addStandalone', { body: '<p>Chapter two ideas</p>' });
    expect(await call<unknown[]>('library.duplicates', {})).toEqual([]);
  });

  it('undoing its creation puts it in the Trash; redo brings it back', async () => {
    const made = await call<{ itemId: number }>('library.notes.addStandalone', { body: 'Undo me' });
    expect((await call<{ label: string }>('library.undo', {})).label).toBe('Add note “Undo me”');
    expect((await call<ItemDetail>('library.item.get', { id: made.itemId })).trashedAt).not.toBeNull();
    await call('library.redo', {});
    expect((await call<ItemDetail>('library.item.get', { id: made.itemId })).trashedAt).toBeNull();
  });
});
