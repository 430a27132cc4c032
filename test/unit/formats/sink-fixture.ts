// A sink for the worker tests, standing in for the library store: it writes items to a side file and
// makes it visible only on commit, as a transaction would.
import { appendFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { CreateImportSink } from '../../../electron/core/formats';

export const createImportSink: CreateImportSink = (options) => {
  const { path } = options as { path: string };
  const partial = `${path}.partial`;
  writeFileSync(partial, '');
  let written = 0;
  return {
    write(items) {
      appendFileSync(partial, items.map((i) => `${JSON.stringify(i.item)}\n`).join(''));
      written += items.length;
    },
    commit(summary) {
      renameSync(partial, path);
      return { written, errors: summary.errors.length };
    },
    rollback() {
      rmSync(partial, { force: true });
    },
  };
};
