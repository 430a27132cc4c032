// Where an importer puts its items: into the result, or, when streaming, out in chunks as they are
// made, so a 100,000-entry import never holds every item twice (in the parser and in the store).
// A streaming consumer must treat the chunks as provisional: if the import then fails as a whole
// (time budget, entry limit), it throws, and the consumer rolls back what it received.
import type { ImportedItem } from './result';

export type ItemSink = (chunk: ImportedItem[]) => void;

/**
 * Work done on each item as the importer hands it over (the formats worker prepares it for the
 * library here): a throw is that entry's own problem, reported on its line, and leaves it out.
 */
export type ItemCheck = (item: ImportedItem) => void;

/**
 * The sink failed to take a chunk. That is no entry's problem (the chunk holds up to a thousand of
 * them, and the one being read when it filled up is no more to blame than the others): importers let
 * it end the import, which the store then rolls back, instead of reporting it as the current entry's
 * error and going on without the chunk.
 */
export class SinkFailure extends Error {
  constructor(cause: unknown) {
    super(
      `The entries read so far could not be passed on to the library: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'SinkFailure';
  }
}

export class ItemCollector {
  readonly items: ImportedItem[] = [];
  count = 0;
  private buffer: ImportedItem[] = [];

  constructor(
    private readonly sink?: ItemSink,
    private readonly chunkSize = 1000,
    private readonly check?: ItemCheck,
  ) {}

  /** Takes one item; a throw from the check is the item's (see ItemCheck), one from the sink a SinkFailure. */
  push(item: ImportedItem): void {
    this.check?.(item);
    this.count++;
    if (!this.sink) {
      this.items.push(item);
      return;
    }
    this.buffer.push(item);
    if (this.buffer.length >= this.chunkSize) this.flush();
  }

  flush(): void {
    if (this.sink && this.buffer.length > 0) {
      const chunk = this.buffer;
      this.buffer = [];
      try {
        this.sink(chunk);
      } catch (err) {
        throw err instanceof SinkFailure ? err : new SinkFailure(err);
      }
    }
  }
}
