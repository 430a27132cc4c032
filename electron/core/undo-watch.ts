// Tells the UI when the step undo or redo would revert changes (library.undoChanged), so an Undo offered
// for one change (a toast, the details column) disappears as soon as undo would revert something else,
// or the change was undone. Every undoable change is followed by a library.changed, which triggers a
// look at the two tops; an event goes out only when they differ from the last ones sent.
import type { UndoTops } from '../../shared/model/library';
import type { EventBus } from './events';

export function watchUndo(events: EventBus, tops: () => Promise<UndoTops>, report: (err: unknown) => void): () => void {
  let last = '';
  let running = false;
  let again = false;
  let disposed = false;

  const look = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const now = await tops();
        const key = `${now.undo?.id ?? 0}:${now.redo?.id ?? 0}`;
        if (!disposed && key !== last) {
          last = key;
          events.emit('library.undoChanged', now);
        }
      } while (again && !disposed);
    } catch (err) {
      report(err);
    } finally {
      running = false;
    }
  };

  const off = events.on('library.changed', (change) => {
    // Service data (enrichment, refreshes) is never an undo step.
    if (change.kind !== 'cache') void look();
  });
  return () => {
    disposed = true;
    off();
  };
}
