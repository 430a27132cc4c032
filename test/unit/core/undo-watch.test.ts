import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../electron/core/events';
import { watchUndo } from '../../../electron/core/undo-watch';
import type { UndoEntry, UndoTops } from '../../../shared/model/library';

const entry = (id: number): UndoEntry => ({ id, label: `step ${id}`, createdAt: id, itemIds: [1], itemCount: 1 });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('watchUndo', () => {
  it('tells library.undoChanged only when the tops changed, ignores service-cache changes, and stops when disposed', async () => {
    const events = new EventBus();
    let tops: UndoTops = { undo: entry(1), redo: null };
    let reads = 0;
    const heard: UndoTops[] = [];
    events.on('library.undoChanged', (t) => heard.push(t));
    const dispose = watchUndo(
      events,
      async () => (reads++, tops),
      (err) => {
        throw err;
      },
    );

    events.emit('library.changed', { kind: 'items', ids: [1] });
    await settle();
    expect(heard).toEqual([{ undo: entry(1), redo: null }]);

    events.emit('library.changed', { kind: 'tags' }); // same tops: nothing told
    await settle();
    expect(heard).toHaveLength(1);

    tops = { undo: entry(2), redo: null };
    events.emit('library.changed', { kind: 'cache' }); // enrichment: never an undo step, not even read
    await settle();
    expect(heard).toHaveLength(1);
    expect(reads).toBe(2);

    tops = { undo: null, redo: entry(3) };
    events.emit('library.changed', { kind: 'all' });
    await settle();
    expect(heard.at(-1)).toEqual({ undo: null, redo: entry(3) });

    dispose();
    tops = { undo: entry(4), redo: null };
    events.emit('library.changed', { kind: 'all' });
    await settle();
    expect(heard).toHaveLength(2);
    expect(events.listenerCount()).toBe(1); // the test's own listener
  });

  it('reads again after a burst, so the last event tells the last state', async () => {
    const events = new EventBus();
    let current = 1;
    let release: (() => void) | null = null;
    const heard: number[] = [];
    events.on('library.undoChanged', (t) => heard.push(t.undo!.id));
    watchUndo(
      events,
      async () => {
        const seen = current;
        if (seen === 1) await new Promise<void>((r) => (release = r));
        return { undo: entry(seen), redo: null };
      },
      (err) => {
        throw err;
      },
    );
    events.emit('library.changed', { kind: 'items' });
    current = 2;
    events.emit('library.changed', { kind: 'items' });
    current = 3;
    events.emit('library.changed', { kind: 'items' });
    release!();
    for (let i = 0; i < 5; i++) await settle();
    expect(heard).toEqual([1, 3]);
  });
});
