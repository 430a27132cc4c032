// The import port: what the formats worker (the parser) posts to the library worker (the store) on a
// MessagePort, so a large import never passes through the thread that answers the UI. Both sides
// import this one module: the messages, the item they carry, and the flow-control slots.
import type { PreparedItem } from '../library/derive';

/** An entry as the parser hands it to the store: prepared (derived columns, CSL-JSON text), with the line its entry starts on and the file's key for it. */
export interface PortItem {
  prepared: PreparedItem;
  line: number;
  sourceKey?: string;
}

/**
 * What the parser posts on the port: first the flow counters, then the items in order, then `end`
 * once the parse succeeded; nothing more after a failure, which the caller learns from the parser's
 * own 'failed' message (the store then sees the port close without `end`).
 */
export type PortMessage = { type: 'flow'; counters: SharedArrayBuffer } | { type: 'items'; items: PortItem[] } | { type: 'end'; count: number };

/**
 * Flow control on a port: the parser is faster than the store, and chunks waiting in the port hold
 * memory. The first message hands the reader a SharedArrayBuffer of these Int32 slots; the reader
 * counts the chunks it has written (and notifies), and the parser waits while too many are unread.
 * `closed` is non-zero once the reader stopped reading.
 */
export const FLOW = { written: 0, closed: 1 } as const;
