// An import the way importSource runs it for the app and the CLI: parsed in the formats worker, posted
// on the import port, stored by the library worker in one transaction. Tests that check the store's
// answer entry by entry (index, line, source key) use it; importSource turns that answer into the report.
import { importInWorker, type ImportFormat, type WorkerSource } from '../../../../electron/core/formats';
import type { LibraryClient } from '../../../../electron/core/library/client';
import type { ImportResult } from '../../../../electron/core/library/types';

export async function importThroughPort(
  client: LibraryClient,
  source: WorkerSource,
  options: { format?: ImportFormat; source?: string } = {},
): Promise<ImportResult> {
  const feed = await client.importFromPort(options.source === undefined ? {} : { source: options.source });
  try {
    await importInWorker(source, { port: feed.port, ...(options.format ? { format: options.format } : {}) });
  } catch (err) {
    await feed.abort();
    throw err;
  }
  return feed.commit();
}
