// Where an importer puts its items: into the result, or, when streaming, out in chunks as they are
// made, so a 100,000-entry import never holds every item twice (in the parser and in the store).
// A streaming consumer must treat the chunks as provisional: if the import then fails as a whole
// (time budget, entry limit), it throws, and the consumer rolls back what it received.
import type { ImportedItem } from './result';

export type ItemSink = (chunk: ImportedItem[]) => void;

export class ItemCollector {
  readonly items: ImportedItem[] = [];
  count = 0;
  private buffer: ImportedItem[] = [];

  constructor(
    private readonly sink?: ItemSink,
    private readonly chunkSize = 1000,
  ) {}

  push(item: ImportedItem): void {
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
      this.sink(chunk);
    }
  }
}
