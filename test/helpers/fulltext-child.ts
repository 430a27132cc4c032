// A separate process that indexes a library's PDFs and says each file it finished on stdout, so the
// full-text test can kill it (SIGKILL, as a crash would) in the middle of a run.
import { LibraryClient } from '../../electron/core/library/client';
import { indexFulltext } from '../../electron/core/pdf/fulltext';

const file = process.argv[2]!;
const lib = await LibraryClient.start({ file });
await indexFulltext(lib.fulltext, {
  onFile: (r, done, total) => {
    process.stdout.write(`indexed ${done}/${total} ${r.status}\n`);
  },
});
await lib.close();
process.stdout.write('finished\n');
