// The window's undo stack (renderer/src/lib/state/undo-stack.svelte.ts) in Node against a real
// in-process core: the offer made for a change, withdrawn once another change comes after it, and a
// slower read of the stack never replacing what a newer event said.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LibraryRow } from '../../../shared/model/library';
import { UndoStack, undoStackFor } from '../../../renderer/src/lib/state/undo-stack.svelte';
import { coreForTests, offlineCore, seed, until } from './helpers';

let rows: Record<string, LibraryRow>;

const env = coreForTests(() => offlineCore('undo'));

beforeAll(async () => {
  rows = await seed(
    env.t.api,
    '@article{a2020, title = {A}, year = 2020}\n@article{b2021, title = {B}, year = 2021}\n',
  );
});

const tag = async (id: number, name: string): Promise<void> => {
  const r = await env.t.api.invoke('library.tags.add', { ids: [id], tags: [name] });
  if (!r.ok) throw new Error(r.error.message);
};

describe('UndoStack against the core', () => {
  it('offers the last step for the items it touched, and nothing for others', async () => {
    const stack = new UndoStack(env.t.api);
    const stop = stack.start();
    try {
      await tag(rows.a2020!.id, 'x');
      const offer = await stack.offerFor([rows.a2020!.id]);
      expect(offer).toMatchObject({ kind: 'undo', label: expect.stringMatching(/tag/i) });
      expect(stack.current(offer)).toBe(true);
      expect(await stack.offerFor([rows.b2021!.id])).toBeNull();
      expect(stack.current(null)).toBe(false);

      // Another change comes after it: the offer is withdrawn when the event arrives.
      await tag(rows.b2021!.id, 'y');
      await until(() => !stack.current(offer), 'the offer to go stale');
      expect(stack.undo?.itemIds).toEqual([rows.b2021!.id]);

      const undone = await env.t.api.invoke('library.undo', {});
      expect(undone.ok).toBe(true);
      await until(() => stack.redo !== null, 'the redo step');
      expect((await stack.offerFor([rows.b2021!.id], 'redo'))?.kind).toBe('redo');
    } finally {
      stop();
    }
  });

  it('drops a read of the stack answered after a newer event', async () => {
    const stack = new UndoStack(env.net.api);
    const stop = stack.start();
    try {
      await until(() => stack.undo !== null, 'the first read');
      const before = stack.undo!.id;
      // Read now, answered late: it says the top is still `before`.
      const release = env.net.hold('library.undo.tops');
      const slow = stack.refresh();
      await tag(rows.a2020!.id, 'z'); // its event says what the top is now
      await until(() => stack.undo?.id !== before, 'the event');
      const latest = stack.undo;
      release();
      await slow;
      expect(stack.undo).toEqual(latest);
    } finally {
      stop();
    }
  });

  it('is one per window', () => {
    expect(undoStackFor(env.t.api)).toBe(undoStackFor(env.t.api));
    expect(undoStackFor(env.net.api)).not.toBe(undoStackFor(env.t.api));
  });
});
