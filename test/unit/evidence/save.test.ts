// Saving an evidence record through the IPC contract: validated at the boundary, mapped in the core,
// added through the library's undoable "Add item" with a citation key, and found by search.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { MAX_EVIDENCE_RECORD_CHARS, type Channel, type InputOf, type Result, type ResultOf } from '../../../shared/ipc';
import { quoteTitle } from '../../../electron/core/library/undo-labels';
import { tempDir } from '../../helpers/tmp';
import { PATENT_FAMILY, TRIAL } from './fixtures';

let dir: ReturnType<typeof tempDir>;
let core: Core;

beforeEach(async () => {
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    fetch: async () => new Response('{}', { status: 500 }),
  });
});

afterEach(async () => {
  await core.close();
  dir.remove();
});

async function ok<C extends Channel>(channel: C, input: InputOf<C>): Promise<ResultOf<C>> {
  const r = (await core.invoke(channel, input)) as Result<ResultOf<C>>;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe('evidence.save', () => {
  it('adds a trial and a patent as citable items with keys, searchable, and undoable one at a time', async () => {
    const trial = await ok('evidence.save', { dataset: 'clinical-trials', record: TRIAL });
    expect(trial).toMatchObject({
      type: 'report',
      title: 'Effect of Daily Aspirin on Stroke in Older Adults',
      citationKey: expect.stringMatching(/^riverside\w*2015$/),
    });
    const patent = await ok('evidence.save', { dataset: 'patents', record: PATENT_FAMILY });
    expect(patent).toMatchObject({ type: 'patent', citationKey: expect.stringMatching(/^okafor\w*2019$/) });

    const detail = await ok('library.item.get', { id: patent.id });
    expect(detail.csl).toMatchObject({
      type: 'patent',
      number: '10,234,567',
      authority: 'U.S.',
      custom: { evidence: { id: 'US10234567B2' } },
    });
    expect(detail.tags).toEqual(expect.arrayContaining(['G01N33/24']));

    const found = await ok('library.list', { query: 'aspirin stroke' });
    expect(found.rows.map((r) => r.id)).toEqual([trial.id]);
    const byWord = await ok('library.list', { query: 'okafor moisture' });
    expect(byWord.rows.map((r) => r.id)).toEqual([patent.id]);

    // The patent was saved last: undo names it and puts it in the Trash (issue 17), not away.
    expect(await ok('library.undo', {})).toEqual({
      label: `Add item ${quoteTitle(detail.title!)}`,
      itemIds: [patent.id],
      trashed: [patent.id],
    });
    expect((await ok('library.list', {})).rows.map((r) => r.id)).toEqual([trial.id]);
    expect((await ok('library.list', { trash: true })).rows.map((r) => r.id)).toEqual([patent.id]);
  });

  it('answers a record saved before with its item instead of adding it twice; after the trash, adds it again', async () => {
    const first = await ok('evidence.save', { dataset: 'clinical-trials', record: TRIAL });
    expect(first.alreadySaved).toBe(false);
    expect(await ok('evidence.saved', { dataset: 'clinical-trials', record: TRIAL })).toEqual({
      ...first,
      alreadySaved: true,
    });
    expect(await ok('evidence.saved', { dataset: 'patents', record: PATENT_FAMILY })).toBeNull();
    const again = await ok('evidence.save', { dataset: 'clinical-trials', record: TRIAL });
    expect(again).toEqual({ ...first, alreadySaved: true });
    // Another record with the same title is another item.
    const other = await ok('evidence.save', {
      dataset: 'clinical-trials',
      record: { ...TRIAL, uid: 'NCT09999999', id: 'NCT09999999' },
    });
    expect(other).toMatchObject({ alreadySaved: false });
    expect(other.id).not.toBe(first.id);
    expect(await ok('library.count', {})).toBe(2);
    await ok('library.trash', { ids: [first.id] });
    expect(await ok('evidence.saved', { dataset: 'clinical-trials', record: TRIAL })).toBeNull();
    expect(await ok('evidence.save', { dataset: 'clinical-trials', record: TRIAL })).toMatchObject({
      alreadySaved: false,
    });
  });

  it('refuses a record it cannot cite, saying what is missing, and adds nothing', async () => {
    const r = await core.invoke('evidence.save', {
      dataset: 'clinical-trials',
      record: { title: 'No registry number' },
    });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: expect.stringContaining('clinical trial record has no registry number (uid)'),
      },
    });
    expect(await ok('library.count', {})).toBe(0);
  });

  it.each([
    ['an unknown dataset', { dataset: 'horoscopes', record: TRIAL }, 'dataset'],
    ['a record that is a list', { dataset: 'patents', record: [1, 2] }, 'record'],
    ['an unknown key', { dataset: 'patents', record: PATENT_FAMILY, extra: 1 }, 'extra'],
    [
      'an oversized record',
      { dataset: 'patents', record: { blob: 'x'.repeat(MAX_EVIDENCE_RECORD_CHARS) } },
      'larger than',
    ],
  ])('refuses %s at the boundary (naming %s)', async (_what, input, what) => {
    const r = await core.invoke('evidence.save', input as never);
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining(what) } });
    expect(await ok('library.count', {})).toBe(0);
  });
});
